"""Income and support (EG §F): the allowance comes in, then support goes out."""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Month
from moderator.games.engarde.orders import Support, SupportLevel


def income(m: Month) -> None:
    """The monthly allowance from the family (EG §B; orphans have none)."""
    for a in m:
        if a.c.allowance > 0:
            m.emit(a.key, EventId.INCOME_ALLOWANCE, {"amount": a.c.allowance},
                   crowns=a.c.allowance)


def support_level(orders: tuple[object, ...]) -> SupportLevel:
    levels = [o.level for o in orders if isinstance(o, Support)]
    return levels[-1] if levels else SupportLevel.NORMAL


def pay_support(m: Month) -> None:
    """Pay 2 x SL, or 3 x SL for ConCon (+1 SP); unpaid support costs one SL (EG §F)."""
    normal = m.tables.rule("support", "normal_per_sl")
    for a in m:
        level = support_level(a.orders.premonth)
        if level is SupportLevel.CONSPICUOUS:
            cost = m.tables.rule("support", "conspicuous_per_sl") * a.sl
            if a.crowns >= cost:
                m.emit(a.key, EventId.SUPPORT_PAID, {"level": level.value, "cost": cost},
                       crowns=-cost, sp=m.tables.rule("support", "conspicuous_sp"))
                continue
            m.emit(a.key, EventId.SUPPORT_DOWNGRADED, {"cost": cost, "crowns": a.crowns})
        cost = normal * a.sl
        if a.crowns >= cost:
            m.emit(a.key, EventId.SUPPORT_PAID, {"level": "normal", "cost": cost}, crowns=-cost)
            continue
        before = a.sl
        a.sl = max(m.tables.rule("status", "min_sl"), a.sl - 1)
        m.emit(a.key, EventId.SUPPORT_UNPAID, {"cost": cost, "sl_before": before,
                                               "sl_after": a.sl}, public=True)
