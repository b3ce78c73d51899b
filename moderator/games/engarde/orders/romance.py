"""Orders of the heart (EG §L): courting, visits, liaisons, proposals, weddings,
pregnancies and divorce.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.engarde.orders.base import Answer, Names, Order


@dataclass(frozen=True)
class Court(Order):
    """COURT <lady> [EXTRA n] [WITHDRAW] (EG §L): a week's courting."""

    lady: str = ""
    extra: int = 0  # further multiples of 3 x her SL, +1 each (not for a Wealthy lady)
    withdraw: bool = False  # give way if another suitor is at her door that week
    kind: str = field(init=False, default="court")

    def format(self, names: Names) -> str:
        return (f"COURT {names.lady(self.lady)}" + (f" EXTRA {self.extra}" if self.extra else "")
                + (" WITHDRAW" if self.withdraw else ""))


@dataclass(frozen=True)
class VisitMistress(Order):
    kind: str = field(init=False, default="visit_mistress")

    def format(self, names: Names) -> str:
        return "VISIT MISTRESS"


@dataclass(frozen=True)
class Liaise(Order):
    """LIAISE <lady> [GIFT DOUBLE] [REVEAL] (EG §L): a weekend liaison."""

    lady: str = ""
    double: bool = False
    reveal: bool = False
    kind: str = field(init=False, default="liaise")

    def format(self, names: Names) -> str:
        return (f"LIAISE {names.lady(self.lady)}" + (" GIFT DOUBLE" if self.double else "")
                + (" REVEAL" if self.reveal else ""))


@dataclass(frozen=True)
class Propose(Order):
    kind: str = field(init=False, default="propose")

    def format(self, names: Names) -> str:
        return "PROPOSE"


@dataclass(frozen=True)
class Marry(Order):
    """MARRY [x<n>] (EG §L): the wedding, spending n x the couple's combined SL."""

    multiples: int = 1
    kind: str = field(init=False, default="marry")

    def format(self, names: Names) -> str:
        return "MARRY" + (f" x{self.multiples}" if self.multiples > 1 else "")


@dataclass(frozen=True)
class PregnancyAnswer(Order):
    """PREGNANCY <lady> MARRY|PAY OFF|ASSASSINS|ACKNOWLEDGE|IGNORE (EG §L)."""

    lady: str = ""
    answer: Answer = Answer.ACKNOWLEDGE
    kind: str = field(init=False, default="pregnancy")

    def format(self, names: Names) -> str:
        return f"PREGNANCY {names.lady(self.lady)} {self.answer.value.upper()}"


@dataclass(frozen=True)
class SueForDivorce(Order):
    """SUE FOR DIVORCE (EG §L): a husband whose wife's adultery is public."""

    kind: str = field(init=False, default="divorce")

    def format(self, names: Names) -> str:
        return "SUE FOR DIVORCE"


@dataclass(frozen=True)
class Champion(Order):
    """CHAMPION <lady> (EG §L): sue for a wife's divorce from her adulterous husband."""

    lady: str = ""
    kind: str = field(init=False, default="champion")

    def format(self, names: Names) -> str:
        return f"CHAMPION {names.lady(self.lady)}"
