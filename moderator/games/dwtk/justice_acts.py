"""Activities of the justice chain (DWTK 13.4.5 Pardon, 13.4.6 Amnesty, 13.4.11
Extradite; Escape 13.4.10 is escape.py).  Each plays its card, or without it uses the
Any Activity counter (12.3.1; spent, `counters`)."""

from __future__ import annotations

from moderator.games.dwtk import counters, fugitives
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders import Activity
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.state import FANDONIA, Fate, Situation
from moderator.games.dwtk.state.court import Court


def _restore(court: Court, cid: int) -> None:
    """'Returned to a normal situation' (13.4.5): free, not a wrongdoer, home if banished."""
    c = court.char(cid)
    banished = c.situation is Situation.BANISHED or c.fate is Fate.BANISHED
    back = FANDONIA if banished else c.location
    court.set_char(cid, situation=Situation.NORMAL, wrongdoer=False, location=back,
                   since=court.turn, fate=None, hunted=(), charge=0)  # 25.9: no Manhunt


def pardon(court: Court, player: str, a: Activity) -> None:
    """13.4.5, 14.5.4: one banished, imprisoned or wrongdoing character is pardoned."""
    cid = resolve_who(court, player, a.who[0])
    if cid is None or not cid.isdigit():
        raise Refused("not_a_noble")
    c = court.char(cid)
    if c.situation is Situation.NORMAL and not c.wrongdoer:
        raise Refused("nothing_to_pardon")
    counters.use(court, player, counters.card_or_any(court, player, "pardon"))
    _restore(court, int(cid))
    court.emit(EventId.PARDON, {"character": cid}, actor=player)


def amnesty(court: Court, player: str, a: Activity) -> None:
    """13.4.6, 14.5.5: every banished, imprisoned or wrongdoing character goes free."""
    counters.use(court, player, counters.card_or_any(court, player, "amnesty"))
    freed = [c.id for c in court.characters.values()
             if c.alive and (c.wrongdoer or c.situation in (
                 Situation.BANISHED, Situation.IMPRISONED, Situation.AWAITING_EXECUTION))]
    for cid in freed:
        _restore(court, cid)
    court.emit(EventId.AMNESTY, {"characters": [str(c) for c in freed]}, actor=player)


def extradite(court: Court, player: str, a: Activity) -> None:
    """13.4.11, 14.5.16, 25: play Extradition (or use the Any Activity counter, 12.3.1)
    against a wrongdoer abroad; WITH INTRIGUE (an Intrigue counter drawn, else an
    Intrigue card; never the Any Activity counter) no Ambassador may veto (25.3)."""
    cid = resolve_who(court, player, a.who[0])
    if cid is None or not cid.isdigit() or not fugitives.extraditable(court, int(cid)):
        raise Refused("not_extraditable")
    permit = counters.card_or_any(court, player, "extradition")
    if a.intrigue:
        permit = counters.combine(permit, counters.intrigue_only(court, player))
    counters.use(court, player, permit)
    fugitives.extradite(court, player, int(cid), forced=a.intrigue)
