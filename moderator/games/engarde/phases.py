"""The month's turn order as a declared table (EG §C–E; style rule 2).

Gaps of 10 leave room for the topics still to come (mistresses, regiments,
duels, loans).  Each phase takes the `Month` and works on every character in
key order.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.games.engarde import (
    clubs,
    companionship,
    housing,
    status,
    support,
    theatre,
    week,
)
from moderator.games.engarde.month import Month
from moderator.games.engarde.orders import (
    BuyBox,
    JoinClub,
    Let,
    ResignClub,
    Sell,
    StopLetting,
)


def anytime(m: Month) -> None:
    """Pre-month and anytime orders, in the order written (EG §D)."""
    for a in m:
        if a.indisposed:
            continue
        for order in a.orders.premonth:
            if isinstance(order, BuyBox):
                theatre.buy_box(m, a)
        for order in a.orders.anytime:
            if isinstance(order, JoinClub):
                clubs.join(m, a, order)
            elif isinstance(order, ResignClub):
                clubs.resign(m, a, order)
            elif isinstance(order, Let | StopLetting | Sell):
                housing.anytime(m, a, order)


Phase = tuple[int, str, Callable[[Month], None]]

PHASES: tuple[Phase, ...] = (
    # The allowance arrives first: it is what pays this month's upkeep.
    (10, "income", support.income),
    # EG §F: support comes before any other spending; unpaid support costs an SL now.
    (20, "support", support.pay_support),
    # Members pay dues to stay members this month (EG §G); resigning later forfeits them.
    (30, "dues", clubs.pay_dues),
    # Rent for the home held at the start of the month (EG §P).
    (40, "rent", housing.pay_rent),
    # Joins, resignations, boxes, letting and sales happen before week 1, so a new
    # member can visit his club in week 1 and a box owner can sit in it at the first night.
    (50, "anytime", anytime),
    # Weeks 1-4, each followed by its weekend: venues, mutual actions, theatre, moves.
    (60, "weeks", week.run_weeks),
    # Tenants answer the adverts once the month's moves are done (EG §P).
    (70, "letting", housing.letting),
    # Membership SP for whoever belongs at the month's end (EG §G).
    (80, "club_sp", clubs.membership_sp),
    # Residence SP for where he lives at the month's end (EG §P).
    (90, "residence_sp", housing.residence_sp),
    # Unused boxes, and whether the play runs on next month (EG §O).
    (100, "theatre", theatre.close),
    # After every week's visits: did he have female company this month? (EG §L)
    (110, "companionship", companionship.reckon),
    # Last: status needs every SP of the month (EG §E).
    (120, "status", status.reckon),
)


def run(m: Month) -> None:
    for _, _, phase in PHASES:
        phase(m)
