"""Activities of the justice chain (DWTK 13.4.5 Pardon, 13.4.6 Amnesty, 13.4.11
Extradite; Escape 13.4.10 is still to come)."""

from __future__ import annotations

from moderator.games.dwtk import fugitives
from moderator.games.dwtk.acts import Refused, play_card
from moderator.games.dwtk.court import Court
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders import Activity
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.state import FANDONIA, Situation
from moderator.games.dwtk.tables import kind_of


def _restore(court: Court, cid: int) -> None:
    """'Returned to a normal situation' (13.4.5): free, not a wrongdoer, home if banished."""
    c = court.char(cid)
    back = FANDONIA if c.situation is Situation.BANISHED else c.location
    court.set_char(cid, situation=Situation.NORMAL, wrongdoer=False, location=back,
                   since=court.turn)


def pardon(court: Court, player: str, a: Activity) -> None:
    """13.4.5, 14.5.4: one banished, imprisoned or wrongdoing character is pardoned."""
    cid = resolve_who(court, player, a.who[0])
    if cid is None or not cid.isdigit():
        raise Refused("not_a_noble")
    c = court.char(cid)
    if c.situation is Situation.NORMAL and not c.wrongdoer:
        raise Refused("nothing_to_pardon")
    court.discard(play_card(court, player, "pardon"))
    _restore(court, int(cid))
    court.emit(EventId.PARDON, {"character": cid}, actor=player)


def amnesty(court: Court, player: str, a: Activity) -> None:
    """13.4.6, 14.5.5: every banished, imprisoned or wrongdoing character goes free."""
    court.discard(play_card(court, player, "amnesty"))
    freed = [c.id for c in court.characters.values()
             if c.alive and (c.wrongdoer or c.situation in (
                 Situation.BANISHED, Situation.IMPRISONED, Situation.AWAITING_EXECUTION))]
    for cid in freed:
        _restore(court, cid)
    court.emit(EventId.AMNESTY, {"characters": [str(c) for c in freed]}, actor=player)


def extradite(court: Court, player: str, a: Activity) -> None:
    """13.4.11, 14.5.16, 25: play Extradition against a wrongdoer abroad; WITH INTRIGUE
    (an Intrigue counter drawn, else an Intrigue card) no Ambassador may veto (25.3)."""
    cid = resolve_who(court, player, a.who[0])
    if cid is None or not cid.isdigit() or not fugitives.extraditable(court, int(cid)):
        raise Refused("not_extraditable")
    if not court.cards_of(player, "extradition"):
        raise Refused("no_card:extradition")
    counters = [o for o in court.players[player].opportunity if kind_of(o) == "intrigue"]
    if a.intrigue and not counters:
        court.discard(play_card(court, player, "intrigue"))
    court.discard(play_card(court, player, "extradition"))
    fugitives.extradite(court, player, int(cid), forced=a.intrigue)
