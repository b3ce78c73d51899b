"""Bawdyhouses (EG §M): company and drink each cost SL crowns; drink is mandatory.

The drink is carousing (EG §H: +1 SP); the company meets the monthly
companionship requirement (EG §L).  Gambling there has no house limit and no
divisor bonus (EG §K).
"""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month

VENUE = "the bawdyhouse"


def visit(m: Month, a: Actor) -> bool:
    """Pay for company and drink; False (turned away) if he cannot afford both."""
    company = m.tables.rule("bawdyhouse", "company_cost_per_sl") * a.sl
    drink = m.tables.rule("bawdyhouse", "drink_cost_per_sl") * a.sl
    if a.crowns < company + drink:
        m.emit(a.key, EventId.BAWDYHOUSE_REFUSED, {"cost": company + drink})
        return False
    m.emit(a.key, EventId.BAWDYHOUSE_VISIT, {"cost": company}, crowns=-company)
    m.emit(a.key, EventId.CAROUSE_DRINK, {"venue": VENUE, "cost": drink, "paid_by": None},
           crowns=-drink, sp=m.tables.rule("carousing", "sp"))
    a.company = True
    return True
