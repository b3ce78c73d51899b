"""Recruit A Character By Treachery (DWTK 13.4.14; 11.3, 12.3.3, 14.5.11, 17.4, 17.6,
18.7, 20.6.4, 36.10.5, 7.10.1).

``DO TREACHERY <who>``: an opponent's FAC (an EAC) or FARC (an EARC) becomes the
player's FAC or FARC at once, no roll.  It takes an Intrigue counter (or an Intrigue
card, 14.5.7) and a Treachery card, or the Any Activity counter alone (12.3.1), and
the PP for his Status (35.4).  Never: a PC, King George, Thomas, a FARC Monarch
(36.10.5), anyone married (18.7), imprisoned, in hiding or stuck at war (7.10.1); one
abroad only if the player's PC or a henchman is in the same country (17.6, 20.6.4).
His Loyalty counter stays on his card (11.3); an office he holds stays his (16.6); a
Henchman or Monarch's Counselor card under him is discarded (14.2.4: he became an EAC of
that player); a FARC keeps his Royal Alignment card.  A Prince or Queen Consort (18.10:
"may not be recruited in any manner") is neutral and keeps his counter on his card, so
no activity can reach him.
"""

from __future__ import annotations

from moderator.games.dwtk import counters, faction, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.duels import henchmen
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.activity import Activity
from moderator.games.dwtk.shared import release_cards, resolve_who
from moderator.games.dwtk.state import Character, Situation
from moderator.games.dwtk.state.court import Court

NEVER = ("george", "thomas")  # 13.4.14
HELD = (Situation.IMPRISONED, Situation.AWAITING_EXECUTION, Situation.HIDING)


def recruit(court: Court, player: str, a: Activity) -> None:
    key = resolve_who(court, player, a.who[0])
    if key is None:
        raise Refused("no_target")
    permit = counters.intrigue(court, player, "treachery")  # 12.3.3, 14.5.11, 12.3.1
    owner = _royal_target(court, player, key) if not key.isdigit() \
        else _noble_target(court, player, key)
    counters.use(court, player, permit)
    if key.isdigit():
        release_cards(court, key, "changed_sides")  # 14.2.4: he is now an EAC to them
        court.set_char(key, owner=player)  # 11.3: the counter stays
    else:
        court.set_royal(key, owner=player)  # on his Royal Alignment card still (14.5.19)
    court.emit(EventId.TREACHERY, {"character": key, "former": owner,
                                   "any_activity": permit.any_activity}, actor=player)


def _noble_target(court: Court, player: str, key: str) -> str:
    """An EAC who may be recruited now; returns his player."""
    c = court.char(key)
    owner = c.owner
    if owner is None or owner == player or c.pc or not c.alive or \
            c.face_down_until is not None:
        raise Refused("not_an_eac")
    if c.spouse is not None:
        raise Refused("married")  # 18.7
    if c.situation in HELD or court.at_war_stuck(c):
        raise Refused("situation")  # 13.4.14, 7.10.1
    if c.abroad and not _agent_in(court, player, c.location):
        raise Refused("not_in_the_same_country")  # 17.6, 20.6.4
    if not faction.fits(court, player, lambda: court.set_char(key, owner=player)):
        raise Refused("pp")  # 35.4
    return owner


def _royal_target(court: Court, player: str, key: str) -> str:
    """An EARC who may be recruited now (RCs are always in Fandonia, 20.7)."""
    r = court.royals.get(key)
    if r is None or r.owner is None or r.owner == player or not r.alive:
        raise Refused("not_an_earc")
    if key in NEVER:
        raise Refused("never")  # 13.4.14
    if court.monarch() == key:
        raise Refused("farc_monarch")  # 36.10.5
    if r.spouse is not None:
        raise Refused("married")  # 18.7
    # `fits` does not undo royal changes: the same sum as `player.align` (35.4)
    load = status.faction_load(court, player) + status.royal_status(court, key)
    if load > court.players[player].pp:
        raise Refused("pp")
    return r.owner


def _agent_in(court: Court, player: str, place: str) -> bool:
    """17.6, 20.6.4: his PC or a henchman abroad in that country (not in prison or
    hiding; a banished one lives there, PROPOSED)."""
    pc = court.pc_of(player)
    agents: list[Character] = [*([pc] if pc is not None else []), *henchmen(court, player)]
    return any(c.alive and c.face_down_until is None and c.location == place
               and c.situation not in HELD for c in agents)
