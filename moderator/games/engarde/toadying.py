"""Toadying (EG §I): a mutual action at a club, bawdyhouse or party.

Both characters write ``TOADY <the other>`` for the same week and are at the same
venue; otherwise both are told who did not turn up.  The lower gets half the SL
difference (rounded up); the higher gets the Toady table.  Each character names
one person a week, so nobody is toadied by two people in a week.  Reading for
equal SL (not covered by the rules): nobody is higher, both get the table's
0-3 row (+1) and no half-difference.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Month
from moderator.games.engarde.orders import Order

NoShow = Callable[[str, str, str, str], None]


def toady_target(order: Order | None) -> str | None:
    return getattr(order, "toady", None)


def resolve(m: Month, orders: Mapping[str, Order], venue_of: Mapping[str, str],
            labels: Mapping[str, str], no_show: NoShow) -> set[str]:
    """Pair matching toadies; return the keys whose toady did not happen."""
    failed = set()
    for key in sorted(venue_of):
        other = toady_target(orders.get(key))
        if not other:
            continue
        venue = venue_of[key]
        if venue_of.get(other) == venue and toady_target(orders.get(other)) == key:
            if key < other:
                award(m, key, other, labels[venue])
        else:
            failed.add(key)
            no_show("toady", key, other, labels[venue])
    return failed


def award(m: Month, one: str, two: str, venue: str) -> None:
    a, b = m.actors[one], m.actors[two]
    low, high = (a, b) if a.sl <= b.sl else (b, a)
    diff = high.sl - low.sl
    table = m.tables.toady_sp(diff)
    if diff == 0:
        for me, them in ((low, high), (high, low)):
            m.emit(me.key, EventId.TOADY_PATRON, {"toady": them.key, "venue": venue,
                                                   "difference": 0}, sp=table)
        return
    m.emit(low.key, EventId.TOADY_TOADIED,
           {"patron": high.key, "venue": venue, "difference": diff}, sp=(diff + 1) // 2,
           public=True)
    m.emit(high.key, EventId.TOADY_PATRON,
           {"toady": low.key, "venue": venue, "difference": diff}, sp=table)
