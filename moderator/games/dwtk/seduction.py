"""Seduce A Character (DWTK 13.4.15; 11.3, 12.3.3, 14.5.11, 17.4, 18.7, 20.6.4, 7.10.1).

``DO SEDUCE <man> BY <woman>``: the player's female PC or FAC (cards 56-66, never a
royal, never married, not imprisoned, hiding or stuck at war) seduces a male NC or EAC
(never a PC, a royal, the Archbishop or a married man; not imprisoned, hiding or stuck
at war), in the same place (13.4.15, 20.6.4).  It takes an Intrigue counter, the Any
Activity counter (12.3.1) or an Intrigue card (14.5.7), and the PP for his Status.

Any player may negate it with a Treachery card before the die (14.5.11): their
``SEDUCES`` reactions.  Then 1d6: below her Seduction Rating he becomes the player's
FAC (an NC's Loyalty counter goes onto his card; an EAC's stays with him, 11.3); a 6
and she is won over by love: she goes over to his side — his player's FAC if that
player's PP allow her, else she stays; with an NC she becomes an NC (PROPOSED: no
opponent, so no PP to lack) and her counter goes back to the container (35.5.1).  A
PC is never won over (PROPOSED: a player never loses his PC this way).
"""

from __future__ import annotations

from moderator.games.dwtk import counters, faction
from moderator.games.dwtk.acts import Refused, mine
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.activity import Activity
from moderator.games.dwtk.orders.reaction import Trigger
from moderator.games.dwtk.reactions import play_cards
from moderator.games.dwtk.shared import release_cards, resolve_who
from moderator.games.dwtk.state import Character, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import NobleKind, Sex

HELD = (Situation.IMPRISONED, Situation.AWAITING_EXECUTION, Situation.HIDING)
LOVE = 6  # 13.4.15: a '6' wins her over


def seduce(court: Court, player: str, a: Activity) -> None:
    if a.by is None:
        raise Refused("no_seductress")
    permit = counters.intrigue(court, player)  # 12.3.3, 12.3.1, 14.5.7
    her = _seductress(court, player, a.by)
    him = _target(court, player, a.who[0], her)
    if not faction.fits(court, player, lambda: court.set_char(him.id, owner=player)):
        raise Refused("pp")  # 13.4.15, 35.4
    counters.use(court, player, permit)
    _, played = play_cards(court, Trigger.SEDUCES, him.key, player, only=("treachery",))
    if played["treachery"]:
        court.emit(EventId.SEDUCTION, {"woman": her.key, "man": him.key, "roll": None,
                                       "result": "negated"}, actor=player)
        return
    rating = court.t.noble(her.id).seduction or 0
    roll = court.dice.roll("seduction", "1d6", f"seduction, rating {rating} (DWTK 13.4.15)",
                           actor=player).total
    if roll == LOVE:
        result = _won_over(court, her, him)
    elif roll < rating:
        _take(court, player, him)
        result = "seduced"
    else:
        result = "no_effect"
    court.emit(EventId.SEDUCTION, {"woman": her.key, "man": him.key, "roll": roll,
                                   "result": result}, actor=player)


def _seductress(court: Court, player: str, who: str) -> Character:
    her = court.char(mine(court, player, who))
    if court.t.noble(her.id).sex is not Sex.FEMALE:
        raise Refused("not_female")
    if her.spouse is not None:
        raise Refused("married")  # 13.4.15
    if her.situation in HELD or court.at_war_stuck(her):
        raise Refused("situation")
    return her


def _target(court: Court, player: str, who: str, her: Character) -> Character:
    key = resolve_who(court, player, who)
    if key is None or not key.isdigit():
        raise Refused("not_a_noble")  # never a male RC
    him = court.char(key)
    card = court.t.noble(him.id)
    if card.sex is not Sex.MALE or card.kind is NobleKind.CLERGY:
        raise Refused("not_a_man_to_seduce")  # the Archbishop never
    if him.pc or him.owner == player or not him.alive or him.face_down_until is not None:
        raise Refused("not_an_eac_or_nc")
    if him.spouse is not None:
        raise Refused("married")  # 18.7
    if him.situation in HELD or court.at_war_stuck(him):
        raise Refused("situation")  # 7.10.1
    if him.location != her.location:
        raise Refused("not_in_the_same_country")  # 20.6.4
    return him


def _take(court: Court, player: str, him: Character) -> None:
    """He becomes the player's FAC: an NC's counter leaves the container or the hand of
    the player who drew it this turn; an EAC's henchman card is discarded (17.4)."""
    if him.owner is None:
        _lift_counter(court, him.id)
    release_cards(court, him.id, "changed_sides")  # 14.2.4
    court.set_char(him.id, owner=player)


def _lift_counter(court: Court, cid: int) -> None:
    if cid in court.loyalty_pool:
        court.loyalty_pool.remove(cid)
    for key, p in court.players.items():
        if cid in p.loyalty:
            court.set_player(key, loyalty=tuple(x for x in p.loyalty if x != cid))


def _won_over(court: Court, her: Character, him: Character) -> str:
    """13.4.15's '6': she follows him, if his player's PP allow it."""
    if her.pc:
        return "love_pc_stays"
    side = him.owner
    if side is not None and not faction.fits(court, side,
                                             lambda: court.set_char(her.id, owner=side)):
        return "love_no_pp"  # she remains a FAC
    release_cards(court, her.id, "changed_sides")  # 14.2.4, 17.4
    court.set_char(her.id, owner=side)
    if side is None and her.id not in court.loyalty_pool:
        court.loyalty_pool.append(her.id)  # 35.5.1: an NC's counter is in the container
    return "love"
