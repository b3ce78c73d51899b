"""Scandals (DWTK 22): the Scandal Table for the Crown Event, the Court Ball and a
counsel, and the Expose A Scandal activity (13.4.9, 12.3.4, 17.2.1).

By email the activity reads ``DO SCANDAL <object> [BY <henchman>]``: the player's PC
exposes it, or a henchman in Fandonia (17.2.1, 17.6).  Informers are the EXPOSES
reactions (the object's player +1 each, the exposer's -1 each).
"""

from __future__ import annotations

from moderator.games.dwtk import counters, faction
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.duels import henchmen
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.justice import accuse, send_to_hearing
from moderator.games.dwtk.orders import Activity
from moderator.games.dwtk.orders.reaction import Trigger
from moderator.games.dwtk.reactions import play_cards
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.state.court import Court


def expose(court: Court, player: str, a: Activity) -> None:
    """13.4.9: with a Scandal counter drawn (or the Any Activity counter, 12.3.1; either
    serves one activity), any noble in any situation (never a RC)."""
    permit = counters.counter_or_any(court, player, "scandal")
    cid = resolve_who(court, player, a.who[0])
    if cid is None or not cid.isdigit():
        raise Refused("not_a_noble")  # 22: RCs are never objects
    c = court.char(cid)
    if not c.alive or c.face_down_until is not None:
        raise Refused("dead")
    accuser = court.pc_of(player)
    if a.by is not None:
        hid = resolve_who(court, player, a.by)
        accuser = next((h for h in henchmen(court, player) if h.key == hid), None)
        if accuser is None or not accuser.free or accuser.abroad:
            raise Refused("not_a_henchman")  # 17.2.1, 17.6
    if accuser is None:
        raise Refused("no_pc")
    counters.use(court, player, permit)
    court.emit(EventId.SCANDAL_EXPOSED, {"player": player, "character": c.key,
                                         "accuser": accuser.key}, actor=player)
    apply_scandal(court, c.id, exposed=True, exposer=player, accuser=accuser.id)


def apply_scandal(court: Court, cid: int, exposed: bool, exposer: str | None = None,
                  accuser: int | None = None) -> None:
    """The Scandal Table (22; PROPOSED rows): an NC ignores PP and IP losses.

    Informer (EXPOSES reactions): +1 each from the object's player, -1 each from the
    player exposing the scandal (22); nobody else may play it.  Only an exposed scandal
    (13.4.9) accuses its ``accuser`` (the exposing PC or henchman) on 11-12.
    """
    owner = court.char(cid).owner
    mod, _ = play_cards(court, Trigger.EXPOSES, str(cid), exposer,
                        sign_of=lambda p: 1 if p == owner else -1 if p == exposer else None)
    roll = court.roll("scandal", "2d6", "Scandal Table (DWTK 22)", owner, modifier=mod)
    row = court.t.justice["scandal"].lookup(roll)
    ip = pp = 0
    with faction.cause_first(court):  # the scandal is told before whom its PP loss costs
        if owner is not None:
            ip, pp = faction.gain(court, owner, ip=row.total("ip"), pp=row.total("pp"))
        court.emit(EventId.SCANDAL_RESULT, {"character": str(cid), "total": roll,
                                            "effects": [str(e) for e in row.effects],
                                            "ip": ip, "pp": pp}, actor=owner)
    if row.has("hearing"):
        send_to_hearing(court, cid)  # 26 (24.2: he may hide instead)
    if row.has("accused"):
        accuse(court, cid, "scandal")  # 23.1
    if row.has("accuser_accused") and exposed and accuser is not None:
        accuse(court, accuser, "scandal_exposed")  # 22 (reference §8.1 rows 11-12)
