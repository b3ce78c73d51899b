"""Hold A Wedding (DWTK 13.4.16, 18.3).

``DO WEDDING <a> AND <b>``: the betrothed pair (romance.py), both in Fandonia and
neither imprisoned nor hiding, if his PP allow the marriage (18.8, 35.4).  Each player
whose orders say ``ATTEND WEDDINGS`` (the host too, and always the host whose PC marries)
rolls on the Socializing Table for his PC, free and not an activity; twice if his PC
marries (the second roll for the spouse).  Above `prestige`, whose tables can give a
free proposal (18.4.5, `romance.free_proposal`).
"""

from __future__ import annotations

from moderator.games.dwtk import faction, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.activity import Activity
from moderator.games.dwtk.prestige import roll_on
from moderator.games.dwtk.romance import LOCKED, engaged_to, person, set_person, sweep
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.state.court import Court


def _marry(court: Court, a: str, b: str) -> None:
    set_person(court, a, spouse=b, betrothed=None)
    set_person(court, b, spouse=a, betrothed=None)


def _fits(court: Court, player: str, a: str, b: str) -> bool:
    """18.8, 35.4: his PP must allow the Status the marriage gives (`faction.fits` does not
    restore the royals, so they are put back here)."""
    royals = dict(court.royals)
    ok = faction.fits(court, player, lambda: _marry(court, a, b))
    court.royals = royals
    return ok


def wedding(court: Court, player: str, a: Activity) -> None:
    """13.4.16, 18.3: the activity; then the guests' Socializing rolls."""
    sweep(court)
    x, y = (resolve_who(court, player, w) for w in a.who)
    if x is None or y is None or engaged_to(court, x) != y or person(court, x).owner != player:
        raise Refused("no_accepted_proposal")
    for k in (x, y):
        if court.monarch() == k:
            raise Refused("farc_monarch")  # 36.10.5
        if k.isdigit() and court.char(k).abroad:
            raise Refused("not_in_fandonia")
        if k.isdigit() and court.char(k).situation in LOCKED:
            raise Refused("imprisoned_or_hiding")
        if k.isdigit() and status.at_sea(court, k):
            raise Refused("at_sea")  # 13.4.17.1
    if not _fits(court, player, x, y):
        raise Refused("pp")
    _marry(court, x, y)
    rolls = _guests(court, player, (x, y))
    court.emit(EventId.WEDDING, {"player": player, "a": x, "b": y,
                                 "guests": sorted({p for p, _ in rolls})}, actor=player)
    for guest, cid in rolls:
        roll_on(court, guest, "socializing", 0, wedding=True, character=cid)


def _guests(court: Court, host: str, pair: tuple[str, str]) -> list[tuple[str, int]]:
    """13.4.16: in player order, each player whose PC attends (ATTEND WEDDINGS; the host
    whose PC marries always does) and is free in Fandonia: one roll for his PC, and one
    more for the spouse if his PC marries."""
    out: list[tuple[str, int]] = []
    for player in court.in_order():
        pc = court.pc_of(player)
        if pc is None or not pc.alive or pc.face_down_until is not None or not pc.free \
                or pc.abroad:
            continue
        marrying = player == host and pc.key in pair
        if not (marrying or getattr(court.orders.get(player), "attend", False)):
            continue
        out.append((player, pc.id))
        if marrying:
            out.append((player, int(pair[1] if pair[0] == pc.key else pair[0])))
    return out
