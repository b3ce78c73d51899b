"""The month's turn order as a declared table (EG §C–E; style rule 2).

The numbers leave gaps so that a phase can be placed between two others without
renumbering the table.  Each phase takes the `Month` and works on every character in
key order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moderator.games.base import Phase, PhaseTable
from moderator.games.engarde import (
    army,
    clubs,
    companionship,
    deals,
    duels,
    family,
    front,
    housing,
    influence,
    ladies,
    loans,
    mistresses,
    offices,
    pardon,
    press,
    romance,
    status,
    support,
    theatre,
    trials,
    week,
)
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import (
    Announce,
    AnswerChallenge,
    Apply,
    Borrow,
    Bribe,
    BuyBox,
    BuyCommission,
    BuyHorse,
    Challenge,
    Champion,
    ChargeOrder,
    CombineFavours,
    CommissionDeal,
    Demand,
    Disguise,
    DuelOrders,
    HouseDeal,
    JoinClub,
    JoinRegiment,
    Let,
    Order,
    Petition,
    PregnancyAnswer,
    Repay,
    RequestWarrant,
    ResignClub,
    ResignPosition,
    Sell,
    SellCommission,
    StayInParis,
    StopLetting,
    SueForDivorce,
    Testify,
    UseFavour,
    Volunteer,
)

# Orders his agents carry out while he is in prison (EG §R; EG §D "agents"): money,
# answers, testimony, announcements.  Everything else waits until he is free.
_FROM_PRISON = (Repay, PregnancyAnswer, Testify, Announce, AnswerChallenge, DuelOrders,
                UseFavour, CombineFavours, Demand, SellCommission, ResignPosition, Sell, Let,
                StopLetting, HouseDeal, CommissionDeal, Petition)
# Handled by other phases (duels, trials, deals): nothing to do here.
_LATER = (AnswerChallenge, DuelOrders, Testify, HouseDeal, CommissionDeal)


# EG §S: favours are reserved at the start of the month, before any decision is
# taken; bribes and combinations make favours that may be reserved in turn.
_RESERVING = (Bribe, CombineFavours, UseFavour)


def _orders_now(m: Month, a: Actor, wanted: bool) -> list[Order]:
    """His anytime orders of one pass (reserving or not) that he may give now; a
    prisoner's other orders are skipped with a notice (in the pass they belong to)."""
    jailed = a.c.imprisoned(m.turn)
    out = []
    for order in a.orders.anytime:
        if isinstance(order, _RESERVING) != wanted:
            continue
        if jailed and not isinstance(order, _FROM_PRISON):
            m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": order.kind.upper(),
                                                   "reason": "prison"})
            continue
        out.append(order)
    return out


def reservations(m: Month) -> None:
    """EG §S: every character's favours are made and reserved before any decision,
    so a push counts whatever the order of the names (in the order each wrote them)."""
    for a in m:
        if a.indisposed:
            continue
        for order in _orders_now(m, a, True):
            if isinstance(order, UseFavour):
                influence.use(m, a, order)
            elif isinstance(order, CombineFavours):
                influence.combine(m, a, order)
            elif isinstance(order, Bribe):
                influence.bribe(m, a, order)


def anytime(m: Month) -> None:
    """Pre-month and anytime orders, in the order written (EG §D)."""
    for a in m:
        if a.indisposed:
            continue
        jailed = a.c.imprisoned(m.turn)
        for order in a.orders.premonth:
            if isinstance(order, BuyBox) and not (jailed or a.c.at_front):
                theatre.buy_box(m, a)
        for order in _orders_now(m, a, False):
            if isinstance(order, _LATER) or _military(m, a, order):
                continue
            if isinstance(order, JoinClub):
                clubs.join(m, a, order)
            elif isinstance(order, ResignClub):
                clubs.resign(m, a, order)
            elif isinstance(order, Let | StopLetting | Sell):
                housing.anytime(m, a, order)
            elif isinstance(order, PregnancyAnswer):
                family.answer(m, a, order)
            elif isinstance(order, Borrow) and order.lender is None:
                loans.borrow_from_shylock(m, a, order)
            elif isinstance(order, Repay):
                loans.repay(m, a, order)
            elif isinstance(order, Demand):
                loans.demand(m, a, order)
            elif isinstance(order, StayInParis):
                a.update(stays_in_paris=True)


def _military(m: Month, a: Actor, order: Order) -> bool:
    """Regiments, the front, duels, trials, offices, the press (reference §4-8, §13)."""
    handlers: tuple[tuple[type, Callable[[Month, Actor, Any], None]], ...] = (
        (JoinRegiment, army.join), (BuyCommission, army.buy_commission),
        (SellCommission, army.sell_commission), (BuyHorse, army.horse_order),
        (Volunteer, front.volunteer), (Challenge, duels.challenge),
        (ChargeOrder, trials.charge), (RequestWarrant, trials.warrant),
        (Apply, offices.apply), (ResignPosition, offices.resign),
        (SueForDivorce, press.sue), (Champion, press.champion), (Announce, press.announce),
        (Disguise, front.disguise), (Petition, pardon.petition),
    )
    for cls, handler in handlers:
        if isinstance(order, cls):
            handler(m, a, order)
            return True
    return False


MONTH: PhaseTable[Month] = PhaseTable("month", (
    # The allowance arrives first: it is what pays this month's upkeep.
    Phase(10, "income", support.income),
    # EG §L: children conceived nine months ago are born (SP in the month of the birth).
    Phase(15, "births", family.births),
    # EG §F: support comes before any other spending; unpaid support costs an SL now.
    Phase(20, "support", support.pay_support),
    # EG §L: 3 x her SL for the lady he keeps (a Wealthy one pays him); the wife's house.
    Phase(25, "mistress_support", mistresses.pay_support),
    # Members pay dues to stay members this month (EG §G); resigning later forfeits them.
    Phase(30, "dues", clubs.pay_dues),
    # Rent for the home held at the start of the month (EG §P).
    Phase(40, "rent", housing.pay_rent),
    # EG §S: old favours lapse; SL favours at a season's start; ladies' yearly favours.
    Phase(45, "favours", influence.seasonal),
    # Reference §7 (PROPOSED): each appointment's favour at a season's start.
    Phase(46, "appointment_favours", offices.seasonal_favours),
    # EG §S: every favour of the month is reserved before the first decision.
    Phase(48, "reservations", reservations),
    # Joins, resignations, boxes, letting and sales happen before week 1, so a new
    # member can visit his club in week 1 and a box owner can sit in it at the first night.
    Phase(50, "anytime", anytime),
    # Reference §7: the month's applications for posts, decided together.
    Phase(51, "applications", offices.applications),
    # EG §Q: loans between characters need both orders to match.
    Phase(55, "loans", loans.match),
    # EG §P: house and commission sales between players need both orders to match.
    Phase(56, "deals", deals.run),
    # Reference §5.1: who comes home, June's deployment, who goes to the front.
    Phase(57, "front", front.deploy),
    # EG §R: charges published last month are tried now, before the weeks; last
    # month's reports to the authorities become charges (published now, tried next).
    Phase(58, "trials", trials.trials),
    Phase(59, "reports", trials.reports),
    # Weeks 1-4, each followed by its weekend: venues, mutual actions, theatre, moves.
    Phase(60, "weeks", week.run_weeks),
    # Reference §5.2-5.5: the month's fighting at the front.
    Phase(65, "battles", front.battles),
    # Reference §4: pay, rank SP, missed duty, horses; appointments and pensions (§7-8).
    Phase(66, "army", army.month_end),
    Phase(67, "offices", offices.month_end),
    # Tenants answer the adverts once the month's moves are done (EG §P).
    Phase(70, "letting", housing.letting),
    # Membership SP for whoever belongs at the month's end (EG §G).
    Phase(80, "club_sp", clubs.membership_sp),
    # Residence SP for where he lives at the month's end (EG §P).
    Phase(90, "residence_sp", housing.residence_sp),
    # EG §L: SP for the lady he keeps at the month's end, then is she bored?
    Phase(93, "mistress_sp", mistresses.month_end),
    # EG §L: unanswered pregnancies are ignored ones; then this month's conceptions.
    Phase(95, "unanswered", family.unanswered),
    Phase(96, "conceptions", family.conceptions),
    # EG §L: an announced wedding that did not take place by its month.
    Phase(97, "missed_weddings", romance.missed_weddings),
    # Unused boxes, and whether the play runs on next month (EG §O).
    Phase(100, "theatre", theatre.close),
    # EG §Q: demanded and due debts are collected, or the debtor defaults.
    Phase(105, "debts", loans.reckon),
    # EG §S: favours reserved for decisions never taken are kept.
    Phase(107, "unused_favours", influence.unused),
    # Reference §8: the King considers this month's qualifications for titles.
    Phase(108, "titles", offices.titles),
    # EG §R: sentences served.
    Phase(109, "prison", trials.release),
    # PROPOSED: duelling wounds heal; EG §L: old adulteries are forgotten.
    Phase(111, "wounds", duels.heal),
    Phase(112, "adultery", press.prune),
    # After every week's visits: did he have female company this month? (EG §L)
    Phase(115, "companionship", companionship.reckon),
    # Last: status needs every SP of the month (EG §E).
    Phase(120, "status", status.reckon),
    # EG §L: a wife's SL follows her husband's rise.
    Phase(125, "wives", romance.wives_follow),
    # EG §L: next month's "Ladies of Paris" (reference §10.1).
    Phase(130, "ladies", ladies.draw_list),
))


def run(m: Month) -> None:
    """The month's phases by ascending priority (EG §C–E)."""
    MONTH.run(m)
