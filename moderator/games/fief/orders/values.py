"""The orders of Fief: England as frozen values, one class per order (fief-email.md §2.4).

Each order knows its JSON form (`to_dict` / `order_from_dict`); `orders.format` writes
its normal form and `orders.parse` reads it back, so parse(format(o)) == o.

The classes live one topic a module in `orders.kinds` (cards, church, economy, movement,
court, war); this module gathers them: every kind by its name (`ORDER_CLASSES`), the
stored form read back (`order_from_dict`), and one player's orders for the round
(`TurnOrders`).  Import the orders from here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from moderator.games.fief.orders.kinds.cards import (
    AidInvaders,
    Ambush,
    Assassinate,
    Discard,
    Draw,
    DrawExcalibur,
    Escape,
    Justice,
    Mata,
    PlayClergy,
    PlayFortune,
    PlayNoble,
    PlaySlot,
    PlayTax,
    PlayTithe,
    Reaction,
    Rebellion,
    RebelsReaction,
    RetainerDeal,
    StrikeLeader,
)
from moderator.games.fief.orders.kinds.church import (
    Appoint,
    Chasuble,
    Intervene,
    LeaveRelic,
    PermitRelinquish,
    Present,
    Quell,
    RebuildAbbey,
    Relinquish,
    Shinbone,
    Skull,
    TakeRelic,
)
from moderator.games.fief.orders.kinds.court import (
    Candidate,
    Convene,
    Decoy,
    GarterPolicy,
    Interdict,
    Marry,
    ParliamentVote,
    Vote,
)
from moderator.games.fief.orders.kinds.economy import (
    Build,
    BuildRoyal,
    BuildTrebuchet,
    Buy,
    BuyTitle,
    Give,
    Grant,
    Hire,
    Scorch,
    Transfer,
)
from moderator.games.fief.orders.kinds.movement import (
    Allow,
    AllowEnter,
    Cavalcade,
    Danegeld,
    DanegeldReaction,
    Move,
    RoyalAbbeyMove,
    RoyalMove,
    Start,
)
from moderator.games.fief.orders.kinds.order import Order, Withdraw
from moderator.games.fief.orders.kinds.war import (
    AcceptRansom,
    Attack,
    Betray,
    DestroyEngines,
    EndBattle,
    HelpInvaders,
    HireFrom,
    HireInBattle,
    Join,
    Lend,
    LiftSiege,
    Losses,
    Pillage,
    RansomOffer,
    Sally,
    Siege,
    Spoils,
    Surrender,
    Target,
    Truce,
    WithdrawPassage,
)

WAR_ORDERS: tuple[type[Order], ...] = (Join, Truce, Target, DestroyEngines, Spoils,
                                       WithdrawPassage, Sally, HireInBattle, RansomOffer,
                                       AcceptRansom, Betray, EndBattle, Lend, HireFrom,
                                       HelpInvaders)


ORDER_CLASSES: dict[str, type[Order]] = {
    cls.kind: cls for cls in (Start, Discard, Draw, PlayNoble, PlayFortune, PlayTax, PlayClergy,
                              Assassinate, Scorch, Buy, Build, BuyTitle, Move, Allow, Attack,
                              Marry, Candidate, Vote, Decoy, Danegeld, Withdraw, PlayTithe,
                              Justice, Ambush, Escape, Rebellion, Pillage, Grant, Transfer, Present,
                              Convene, ParliamentVote, Losses, DrawExcalibur, Give, PlaySlot,
                              Hire, GarterPolicy, Siege, BuildTrebuchet, LiftSiege, Intervene,
                              StrikeLeader, Quell, Surrender, Chasuble, Shinbone, Skull,
                              DanegeldReaction, Mata, BuildRoyal, RoyalMove,
                              RebelsReaction, Interdict)
}
ORDER_CLASSES.update({cls.kind: cls for cls in WAR_ORDERS})

CARDS_SHARE: tuple[type[Order], ...] = (Reaction, RetainerDeal, Relinquish, PermitRelinquish,
                                        Appoint, RebuildAbbey, AidInvaders, RoyalAbbeyMove)
ORDER_CLASSES.update({cls.kind: cls for cls in CARDS_SHARE})

# the land share (FE 5.0, 5.2, 12.0)
ORDER_CLASSES.update({cls.kind: cls for cls in (AllowEnter, Cavalcade, LeaveRelic,
                                                TakeRelic)})


# The standing orders: kept from round to round until withdrawn (docs/fief-orders.md).
STANDING: tuple[type[Order], ...] = (Allow, Candidate, Losses, GarterPolicy, Quell, Surrender,
                                     Skull, DanegeldReaction, RebelsReaction, Reaction,
                                     DestroyEngines, Spoils)


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def order_from_dict(data: dict[str, Any]) -> Order:
    cls = ORDER_CLASSES[data["kind"]]
    names = {f.name for f in fields(cls)}
    return cls(**{k: _tupled(v) for k, v in data.items() if k in names})


@dataclass(frozen=True)
class TurnOrders:
    """One family-player's orders for the round, in the order written (FE 2.2)."""
    orders: tuple[Order, ...] = ()

    def of(self, cls: type[Order]) -> list[Any]:
        # A line for another window (`AT <window> ...`) is not its phase's: the windows
        # read it (cards.windows).
        return [o for o in self.orders if isinstance(o, cls) and not o.at]

    def to_dict(self) -> dict[str, Any]:
        return {"orders": [o.to_dict() for o in self.orders]}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TurnOrders:
        if not data:
            return cls()
        return cls(tuple(order_from_dict(o) for o in data.get("orders", [])))


__all__ = [
    "ORDER_CLASSES",
    "STANDING",
    "AcceptRansom",
    "AidInvaders",
    "Allow",
    "AllowEnter",
    "Ambush",
    "Appoint",
    "Assassinate",
    "Attack",
    "Betray",
    "Build",
    "BuildRoyal",
    "BuildTrebuchet",
    "Buy",
    "BuyTitle",
    "Candidate",
    "Cavalcade",
    "Chasuble",
    "Convene",
    "Danegeld",
    "DanegeldReaction",
    "Decoy",
    "DestroyEngines",
    "Discard",
    "Draw",
    "DrawExcalibur",
    "EndBattle",
    "Escape",
    "GarterPolicy",
    "Give",
    "Grant",
    "HelpInvaders",
    "Hire",
    "HireFrom",
    "HireInBattle",
    "Interdict",
    "Intervene",
    "Join",
    "Justice",
    "LeaveRelic",
    "Lend",
    "LiftSiege",
    "Losses",
    "Marry",
    "Mata",
    "Move",
    "Order",
    "ParliamentVote",
    "PermitRelinquish",
    "Pillage",
    "PlayClergy",
    "PlayFortune",
    "PlayNoble",
    "PlaySlot",
    "PlayTax",
    "PlayTithe",
    "Present",
    "Quell",
    "RansomOffer",
    "Reaction",
    "Rebellion",
    "RebelsReaction",
    "RebuildAbbey",
    "Relinquish",
    "RetainerDeal",
    "RoyalAbbeyMove",
    "RoyalMove",
    "Sally",
    "Scorch",
    "Shinbone",
    "Siege",
    "Skull",
    "Spoils",
    "Start",
    "StrikeLeader",
    "Surrender",
    "TakeRelic",
    "Target",
    "Transfer",
    "Truce",
    "TurnOrders",
    "Vote",
    "Withdraw",
    "WithdrawPassage",
    "order_from_dict",
]
