"""Money and influence (EG §P, §Q, §S): favours, bribes, loans and deals between
players.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.engarde.orders.base import COURT, DECISIONS, Names, Order


@dataclass(frozen=True)
class CombineFavours(Order):
    """COMBINE FAVOURS <class>: two of a class make one of the next (EG §S)."""

    cls: int = 1
    kind: str = field(init=False, default="combine_favours")

    def format(self, names: Names) -> str:
        return f"COMBINE FAVOURS {self.cls}"


@dataclass(frozen=True)
class Bribe(Order):
    """BRIBE <position> CLASS <n> (EG §S Bribery table)."""

    position: str = ""
    cls: int = 1
    kind: str = field(init=False, default="bribe")

    def format(self, names: Names) -> str:
        return f"BRIBE {names.position(self.position)} CLASS {self.cls}"


@dataclass(frozen=True)
class UseFavour(Order):
    """USE FAVOUR <class> ON <decision> FOR|AGAINST [<character>] (EG §S)."""

    cls: int = 1
    decision: str = "party"
    subject: str | None = None
    against: bool = False
    kind: str = field(init=False, default="use_favour")

    def format(self, names: Names) -> str:
        text = (f"USE FAVOUR {self.cls} ON {DECISIONS[self.decision]} "
                + ("AGAINST" if self.against else "FOR"))
        return text + (f" {names.character(self.subject)}" if self.subject else "")


@dataclass(frozen=True)
class Lend(Order):
    """LEND <crowns> TO <character> (EG §Q): only with his matching BORROW."""

    amount: int = 0
    to: str = ""
    kind: str = field(init=False, default="lend")

    def format(self, names: Names) -> str:
        return f"LEND {self.amount} TO {names.character(self.to)}"


@dataclass(frozen=True)
class Borrow(Order):
    """BORROW <crowns> FROM <character>|SHYLOCK (EG §Q)."""

    amount: int = 0
    lender: str | None = None  # None: a shylock
    kind: str = field(init=False, default="borrow")

    def format(self, names: Names) -> str:
        who = lender_name(self.lender, names)
        return f"BORROW {self.amount} FROM {who}"


@dataclass(frozen=True)
class Repay(Order):
    """REPAY <crowns>|ALL TO <character>|SHYLOCK|COURT (EG §Q, §R); 0 = all he owes him."""

    amount: int = 0
    lender: str | None = None  # None: a shylock; COURT: an unpaid fine (EG §R)
    kind: str = field(init=False, default="repay")

    def format(self, names: Names) -> str:
        who = lender_name(self.lender, names)
        return f"REPAY {self.amount or 'ALL'} TO {who}"


@dataclass(frozen=True)
class Demand(Order):
    """DEMAND REPAYMENT FROM <character> (EG §Q): published in the gazette."""

    borrower: str = ""
    kind: str = field(init=False, default="demand")

    def format(self, names: Names) -> str:
        return f"DEMAND REPAYMENT FROM {names.character(self.borrower)}"


@dataclass(frozen=True)
class StayInParis(Order):
    """STAY IN PARIS: a shylock's defaulter who will not flee to the front (EG §Q)."""

    kind: str = field(init=False, default="stay_in_paris")

    def format(self, names: Names) -> str:
        return "STAY IN PARIS"


@dataclass(frozen=True)
class HouseDeal(Order):
    """SELL|BUY <type> IN <area> TO|FROM <name> FOR <n> (EG §P): both orders must match."""

    house: str = ""
    area: str = ""
    other: str = ""
    price: int = 0
    selling: bool = True
    kind: str = field(init=False, default="house_deal")

    def format(self, names: Names) -> str:
        verb, word = ("SELL", "TO") if self.selling else ("BUY", "FROM")
        return (f"{verb} {names.housing(self.house)} IN {names.area(self.area)} {word} "
                f"{names.character(self.other)} FOR {self.price}")


@dataclass(frozen=True)
class CommissionDeal(Order):
    """SELL|BUY COMMISSION <rank> TO|FROM <name> FOR <n> (reference §4; EG §P's rule for
    deals): the seller's commission passes to the buyer only if both orders match."""

    rank: str = "captain"
    other: str = ""
    price: int = 0
    selling: bool = True
    kind: str = field(init=False, default="commission_deal")

    def format(self, names: Names) -> str:
        verb, word = ("SELL", "TO") if self.selling else ("BUY", "FROM")
        return (f"{verb} COMMISSION {names.rank(self.rank)} {word} "
                f"{names.character(self.other)} FOR {self.price}")


def lender_name(lender: str | None, names: Names) -> str:
    """How a player writes a lender: a character, SHYLOCK, or COURT (an unpaid fine)."""
    if lender is None:
        return "SHYLOCK"
    return "COURT" if lender == COURT else names.character(lender)
