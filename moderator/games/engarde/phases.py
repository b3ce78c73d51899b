"""The month's turn order as a declared table (EG §C–E; style rule 2).

Gaps leave room for the topics still to come (regiments, the front, duels,
trials, appointments): e.g. duels between "weeks" (60) and "letting" (70) can read
the ``duel_cause`` matters, and appointments can grant their seasonal favours
right after "favours" (45) with `influence.grant`.  Each phase takes the `Month`
and works on every character in key order.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.games.engarde import (
    clubs,
    companionship,
    family,
    housing,
    influence,
    ladies,
    loans,
    mistresses,
    romance,
    status,
    support,
    theatre,
    week,
)
from moderator.games.engarde.month import Month
from moderator.games.engarde.orders import (
    Borrow,
    Bribe,
    BuyBox,
    CombineFavours,
    Demand,
    JoinClub,
    Let,
    PregnancyAnswer,
    Repay,
    ResignClub,
    Sell,
    StayInParis,
    StopLetting,
    UseFavour,
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
            elif isinstance(order, PregnancyAnswer):
                family.answer(m, a, order)
            elif isinstance(order, UseFavour):
                influence.use(m, a, order)
            elif isinstance(order, CombineFavours):
                influence.combine(m, a, order)
            elif isinstance(order, Bribe):
                influence.bribe(m, a, order)
            elif isinstance(order, Borrow) and order.lender is None:
                loans.borrow_from_shylock(m, a, order)
            elif isinstance(order, Repay):
                loans.repay(m, a, order)
            elif isinstance(order, Demand):
                loans.demand(m, a, order)
            elif isinstance(order, StayInParis):
                a.update(stays_in_paris=True)


Phase = tuple[int, str, Callable[[Month], None]]

PHASES: tuple[Phase, ...] = (
    # The allowance arrives first: it is what pays this month's upkeep.
    (10, "income", support.income),
    # EG §L: children conceived nine months ago are born (SP in the month of the birth).
    (15, "births", family.births),
    # EG §F: support comes before any other spending; unpaid support costs an SL now.
    (20, "support", support.pay_support),
    # EG §L: 3 x her SL for the lady he keeps (a Wealthy one pays him); the wife's house.
    (25, "mistress_support", mistresses.pay_support),
    # Members pay dues to stay members this month (EG §G); resigning later forfeits them.
    (30, "dues", clubs.pay_dues),
    # Rent for the home held at the start of the month (EG §P).
    (40, "rent", housing.pay_rent),
    # EG §S: old favours lapse; SL favours at a season's start; ladies' yearly favours.
    (45, "favours", influence.seasonal),
    # Joins, resignations, boxes, letting and sales happen before week 1, so a new
    # member can visit his club in week 1 and a box owner can sit in it at the first night.
    (50, "anytime", anytime),
    # EG §Q: loans between characters need both orders to match.
    (55, "loans", loans.match),
    # Weeks 1-4, each followed by its weekend: venues, mutual actions, theatre, moves.
    (60, "weeks", week.run_weeks),
    # Tenants answer the adverts once the month's moves are done (EG §P).
    (70, "letting", housing.letting),
    # Membership SP for whoever belongs at the month's end (EG §G).
    (80, "club_sp", clubs.membership_sp),
    # Residence SP for where he lives at the month's end (EG §P).
    (90, "residence_sp", housing.residence_sp),
    # EG §L: SP for the lady he keeps at the month's end, then is she bored?
    (93, "mistress_sp", mistresses.month_end),
    # EG §L: unanswered pregnancies are ignored ones; then this month's conceptions.
    (95, "unanswered", family.unanswered),
    (96, "conceptions", family.conceptions),
    # EG §L: an announced wedding that did not take place by its month.
    (97, "missed_weddings", romance.missed_weddings),
    # Unused boxes, and whether the play runs on next month (EG §O).
    (100, "theatre", theatre.close),
    # EG §Q: demanded and due debts are collected, or the debtor defaults.
    (105, "debts", loans.reckon),
    # EG §S: favours reserved for decisions never taken are kept.
    (107, "unused_favours", influence.unused),
    # After every week's visits: did he have female company this month? (EG §L)
    (110, "companionship", companionship.reckon),
    # Last: status needs every SP of the month (EG §E).
    (120, "status", status.reckon),
    # EG §L: a wife's SL follows her husband's rise.
    (125, "wives", romance.wives_follow),
    # EG §L: next month's "Ladies of Paris" (reference §10.1).
    (130, "ladies", ladies.draw_list),
)


def run(m: Month) -> None:
    for _, _, phase in PHASES:
        phase(m)
