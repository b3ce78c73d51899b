"""Order values: frozen dataclasses, their JSON form and their canonical syntax.

`Order.format` is the inverse of `parser.parse_order`; `MonthOrders` is the JSON
the turn runner stores and hands back to `adjudicate` (EG §D; reference §1, §12).
Names are stored as keys (characters, clubs, areas, housing types) and written
back with the names a player reads.  The orders live in one module per family
(`base`, `society`, `romance`, `money`, `army`, `courts`); this package gathers
them and reads them back from JSON (`order_from_dict`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.games.engarde.orders.army import (
    AnswerChallenge,
    BuyCommission,
    BuyHorse,
    Challenge,
    Disguise,
    DuelOrders,
    Duty,
    JoinRegiment,
    SellCommission,
    Volunteer,
)
from moderator.games.engarde.orders.base import (
    COURT,
    DECISION_SUBJECT,
    DECISIONS,
    JSON,
    WEEKS,
    Answer,
    Gamble,
    Names,
    Order,
    Outcome,
    SupportLevel,
)
from moderator.games.engarde.orders.courts import (
    Announce,
    Apply,
    ChargeOrder,
    Petition,
    RequestWarrant,
    ResignPosition,
    Testify,
)
from moderator.games.engarde.orders.money import (
    Borrow,
    Bribe,
    CombineFavours,
    CommissionDeal,
    Demand,
    HouseDeal,
    Lend,
    Repay,
    StayInParis,
    UseFavour,
    lender_name,
)
from moderator.games.engarde.orders.romance import (
    Champion,
    Court,
    Liaise,
    Marry,
    PregnancyAnswer,
    Propose,
    SueForDivorce,
    VisitMistress,
)
from moderator.games.engarde.orders.society import (
    AttendParty,
    Bawdyhouse,
    Buy,
    BuyBox,
    ClubVisit,
    Conditional,
    HostParty,
    HouseOrder,
    JoinClub,
    Let,
    Move,
    Practice,
    Rent,
    ResignClub,
    Rest,
    Sell,
    StopLetting,
    Support,
    Theatre,
)

__all__ = [
    "COURT",
    "DECISIONS",
    "DECISION_SUBJECT",
    "JSON",
    "WEEKS",
    "Announce",
    "Answer",
    "AnswerChallenge",
    "Apply",
    "AttendParty",
    "Bawdyhouse",
    "Borrow",
    "Bribe",
    "Buy",
    "BuyBox",
    "BuyCommission",
    "BuyHorse",
    "Challenge",
    "Champion",
    "ChargeOrder",
    "ClubVisit",
    "CombineFavours",
    "CommissionDeal",
    "Conditional",
    "Court",
    "Demand",
    "Disguise",
    "DuelOrders",
    "Duty",
    "Gamble",
    "HostParty",
    "HouseDeal",
    "HouseOrder",
    "JoinClub",
    "JoinRegiment",
    "Lend",
    "Let",
    "Liaise",
    "Marry",
    "Move",
    "Names",
    "Order",
    "Outcome",
    "Petition",
    "Practice",
    "PregnancyAnswer",
    "Propose",
    "Rent",
    "Repay",
    "RequestWarrant",
    "ResignClub",
    "ResignPosition",
    "Rest",
    "Sell",
    "SellCommission",
    "StayInParis",
    "StopLetting",
    "SueForDivorce",
    "Support",
    "SupportLevel",
    "Testify",
    "Theatre",
    "UseFavour",
    "VisitMistress",
    "Volunteer",
    "lender_name",
    "order_from_dict",
]


_KINDS: dict[str, type[Order]] = {
    cls().kind: cls
    for cls in (Support, BuyBox, JoinClub, ResignClub, Rent, Buy, Sell, Let, StopLetting,
                Theatre, ClubVisit, Bawdyhouse, HostParty, AttendParty, Practice, Move, Rest,
                Conditional, Court, VisitMistress, Liaise, Propose, Marry, PregnancyAnswer,
                CombineFavours, Bribe, UseFavour, Lend, Borrow, Repay, Demand, StayInParis,
                JoinRegiment, BuyCommission, SellCommission, BuyHorse, Duty, Volunteer,
                Challenge, DuelOrders, AnswerChallenge, Disguise, ChargeOrder, RequestWarrant,
                Testify, Apply, ResignPosition, Petition, SueForDivorce, Champion, Announce,
                HouseDeal, CommissionDeal)
}


def order_from_dict(data: Mapping[str, Any]) -> Order:
    """The inverse of `Order.to_dict`."""
    cls = _KINDS[data["kind"]]
    args: JSON = {}
    for name, value in data.items():
        if name == "kind":
            continue
        if name == "gamble" and value is not None:
            value = Gamble(value["stake"], value["wagers"], value.get("cut"))
        elif name in ("then", "otherwise") and value is not None:
            value = order_from_dict(value)
        elif name == "level":
            value = SupportLevel(value)
        elif name == "outcome":
            value = Outcome(value)
        elif name == "answer":
            value = Answer(value)
        elif isinstance(value, list):
            value = tuple(value)
        args[name] = value
    return cls(**args)
