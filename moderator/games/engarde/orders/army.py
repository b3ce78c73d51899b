"""The army (reference §4-5) and duels (reference §6).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.engarde.orders.base import Names, Order

# --- The army (reference §4-5) -------------------------------------------------------


@dataclass(frozen=True)
class JoinRegiment(Order):
    """JOIN REGIMENT <regiment> [AS <rank>] (reference §4.1): up to Major on entry."""

    regiment: str = ""
    rank: str = "private"
    kind: str = field(init=False, default="join_regiment")

    def format(self, names: Names) -> str:
        text = f"JOIN REGIMENT {names.regiment(self.regiment)}"
        return text + (f" AS {names.rank(self.rank)}" if self.rank != "private" else "")


@dataclass(frozen=True)
class BuyCommission(Order):
    """BUY COMMISSION <rank>: the next rank(s) in his regiment, each step paid."""

    rank: str = "subaltern"
    kind: str = field(init=False, default="buy_commission")

    def format(self, names: Names) -> str:
        return f"BUY COMMISSION {names.rank(self.rank)}"


@dataclass(frozen=True)
class SellCommission(Order):
    kind: str = field(init=False, default="sell_commission")

    def format(self, names: Names) -> str:
        return "SELL COMMISSION"


@dataclass(frozen=True)
class BuyHorse(Order):
    count: int = 1
    kind: str = field(init=False, default="buy_horse")

    def format(self, names: Names) -> str:
        return "BUY HORSE" + (f" {self.count}" if self.count != 1 else "")


@dataclass(frozen=True)
class Duty(Order):
    """WEEK n: REGIMENTAL DUTY (reference §4.5)."""

    kind: str = field(init=False, default="duty")

    def format(self, names: Names) -> str:
        return "REGIMENTAL DUTY"


@dataclass(frozen=True)
class Volunteer(Order):
    """VOLUNTEER FOR THE FRONT (reference §5.1)."""

    kind: str = field(init=False, default="volunteer")

    def format(self, names: Names) -> str:
        return "VOLUNTEER FOR THE FRONT"


@dataclass(frozen=True)
class Disguise(Order):
    """DISGUISE AS PRIVATE (EG §R): at the front, forsake his command and hide as a private
    in a frontier regiment, out of reach of arrest."""

    kind: str = field(init=False, default="disguise")

    def format(self, names: Names) -> str:
        return "DISGUISE AS PRIVATE"


# --- Duels (reference §6) --------------------------------------------------------------


@dataclass(frozen=True)
class Challenge(Order):
    """CHALLENGE <name> [WEAPON w] [WEEK n] [TO THE DEATH]: published, fought next month."""

    target: str = ""
    weapon: str | None = None
    week: int | None = None
    to_death: bool = False
    kind: str = field(init=False, default="challenge")

    def format(self, names: Names) -> str:
        text = f"CHALLENGE {names.character(self.target)}"
        text += f" WEAPON {self.weapon}" if self.weapon else ""
        text += f" WEEK {self.week}" if self.week else ""
        return text + (" TO THE DEATH" if self.to_death else "")


@dataclass(frozen=True)
class DuelOrders(Order):
    """DUEL <name>: WEAPON w; SECONDS a, b; TO FIRST BLOOD|TO THE DEATH."""

    opponent: str = ""
    weapon: str | None = None
    seconds: tuple[str, ...] = ()
    to_death: bool | None = None
    kind: str = field(init=False, default="duel")

    def format(self, names: Names) -> str:
        parts = []
        if self.weapon:
            parts.append(f"WEAPON {self.weapon}")
        if self.seconds:
            parts.append("SECONDS " + ", ".join(names.character(k) for k in self.seconds))
        if self.to_death is not None:
            parts.append("TO THE DEATH" if self.to_death else "TO FIRST BLOOD")
        return f"DUEL {names.character(self.opponent)}: " + "; ".join(parts or ["AS CHALLENGED"])


@dataclass(frozen=True)
class AnswerChallenge(Order):
    """ACCEPT|REFUSE CHALLENGE FROM <name>; no answer = he turns up (accepts)."""

    challenger: str = ""
    accept: bool = True
    kind: str = field(init=False, default="answer_challenge")

    def format(self, names: Names) -> str:
        word = "ACCEPT" if self.accept else "REFUSE"
        return f"{word} CHALLENGE FROM {names.character(self.challenger)}"
