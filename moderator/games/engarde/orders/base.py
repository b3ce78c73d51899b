"""The base of every order: enums, the decisions favours can move, `Order`, `Gamble`.

Order values are frozen dataclasses with a JSON form (`Order.to_dict`) and a canonical
syntax (`Order.format`, the inverse of `parser.parse_order`; EG §D, reference §12).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any, Protocol

JSON = dict[str, Any]
WEEKS = (1, 2, 3, 4)


class SupportLevel(StrEnum):
    NORMAL = "normal"
    CONSPICUOUS = "conspicuous"


class Outcome(StrEnum):
    """What a conditional week tests about an earlier week (EG §D)."""

    FAILED = "failed"
    SUCCEEDED = "succeeded"


class Answer(StrEnum):
    """A father's answer to a pregnant mistress (EG §L; reference §10.3)."""

    MARRY = "marry"
    PAY_OFF = "pay off"
    ASSASSINS = "assassins"
    ACKNOWLEDGE = "acknowledge"
    IGNORE = "ignore"


# NPC decisions a favour can be used on (EG §S): key -> the words after ON.  Keys in
# DECISION_SUBJECT name a character (the party's host ...).  The rule that takes a
# decision (parties, theatre, army, offices, trials, pardon) resolves it with
# influence.resolve_npc_decision.
# FOR pushes a decision towards "yes" (the royals come, he is admitted, the charge is
# brought ...); on a TRIAL, FOR helps the defendant and AGAINST the prosecution.
DECISIONS = {"party": "PARTY", "first_night": "FIRST NIGHT", "regiment": "REGIMENT",
             "appointment": "APPOINTMENT", "charge": "CHARGE", "warrant": "WARRANT",
             "trial": "TRIAL", "title": "TITLE", "arrest": "ARREST", "divorce": "DIVORCE",
             "pardon": "PARDON"}
DECISION_SUBJECT = frozenset({"party", "regiment", "appointment", "charge", "warrant",
                              "trial", "title", "arrest", "divorce", "pardon"})
# The lender of a debt to the court: a fine the convict could not pay (EG §R).
COURT = "court"


class Names(Protocol):
    """Turns keys back into the names a player types."""

    def character(self, key: str) -> str: ...
    def club(self, key: str) -> str: ...
    def area(self, key: str) -> str: ...
    def housing(self, key: str) -> str: ...
    def lady(self, key: str) -> str: ...
    def position(self, key: str) -> str: ...
    def regiment(self, key: str) -> str: ...
    def rank(self, key: str) -> str: ...
    def appointment(self, key: str) -> str: ...
    def crime(self, key: str) -> str: ...


@dataclass(frozen=True)
class Gamble:
    """GAMBLE <stake> x<wagers> [CUT <n>] (EG §K)."""

    stake: int
    wagers: int
    cut: int | None = None  # cut without rolling when the house rolls this or more

    def format(self) -> str:
        return f"GAMBLE {self.stake} x{self.wagers}" + (f" CUT {self.cut}" if self.cut else "")


@dataclass(frozen=True)
class Order:
    """Base of every order; ``kind`` is the JSON tag."""

    kind: str = field(init=False, default="")

    def to_dict(self) -> JSON:
        data: JSON = {"kind": self.kind}
        for f in fields(self):
            if not f.init:
                continue
            name, value = f.name, getattr(self, f.name)
            if isinstance(value, Gamble):
                value = {"stake": value.stake, "wagers": value.wagers, "cut": value.cut}
            elif isinstance(value, Order):
                value = value.to_dict()
            elif isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            data[name] = value
        return data

    def format(self, names: Names) -> str:
        raise NotImplementedError


def combos(toady: str | None, carouse: bool, gamble: Gamble | None, names: Names) -> list[str]:
    parts = []
    if toady:
        parts.append(f"TOADY {names.character(toady)}")
    if carouse:
        parts.append("CAROUSE")
    if gamble:
        parts.append(gamble.format())
    return parts
