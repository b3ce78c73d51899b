"""Records kept between months: loans (EG §Q), matters left for other rules,
challenges (reference §6) and charges (EG §R)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.games.engarde.state.character import JSON


@dataclass(frozen=True)
class Loan:
    """A debt (EG §Q): from another character (``lender`` his key) or a shylock (None)."""

    id: int
    lender: str | None
    borrower: str
    amount: int  # still owed (principal)
    taken: int  # turn
    demanded: int | None = None  # turn the lender published his demand

    @property
    def shylock(self) -> bool:
        return self.lender is None

    def to_dict(self) -> JSON:
        return {"id": self.id, "lender": self.lender, "borrower": self.borrower,
                "amount": self.amount, "taken": self.taken, "demanded": self.demanded}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Loan:
        return cls(data["id"], data.get("lender"), data["borrower"], data["amount"],
                   data["taken"], data.get("demanded"))


@dataclass(frozen=True)
class Matter:
    """Business one rule leaves for a later one (see honour.py).

    ``kind`` is ``duel_cause`` (a cause for a duel: duels.py), ``crime`` (a report to
    the authorities: trials.py) or ``arrest`` (a debtor who did not flee: trials.py).
    Those rules read and remove them.
    """

    kind: str
    turn: int
    parties: tuple[str, ...]
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> JSON:
        return {"kind": self.kind, "turn": self.turn, "parties": list(self.parties),
                "args": dict(sorted(self.args.items()))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Matter:
        return cls(data["kind"], data["turn"], tuple(data["parties"]),
                   dict(data.get("args", {})))


@dataclass(frozen=True)
class Challenge:
    """A challenge to a duel (reference §6), published the month it is issued and
    fought the month after, in its week.  ``cause`` is the automatic cause (a reason
    code) or None: a press challenge whose cause the GM decides (``decision``)."""

    challenger: str
    challenged: str
    turn: int
    weapon: str | None = None
    week: int | None = None
    to_death: bool = False
    cause: str | None = None

    @property
    def decision(self) -> str:
        return f"cause:{self.challenger}:{self.challenged}"

    def to_dict(self) -> JSON:
        return {"challenger": self.challenger, "challenged": self.challenged,
                "turn": self.turn, "weapon": self.weapon, "week": self.week,
                "to_death": self.to_death, "cause": self.cause}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Challenge:
        return cls(data["challenger"], data["challenged"], data["turn"], data.get("weapon"),
                   data.get("week"), data.get("to_death", False), data.get("cause"))


@dataclass(frozen=True)
class Charge:
    """A criminal charge (EG §R), published the month it is brought and tried the month
    after.  ``by`` is the accuser (None: the authorities, from a report); ``warrant``
    when brought by royal warrant; ``guilty`` when the engine knows the truth (a bribe
    reported by an honest man ...), None when only the GM does."""

    id: int
    accused: str
    crime: str
    turn: int
    by: str | None = None
    warrant: bool = False
    guilty: bool | None = None
    retrial: bool = False

    def to_dict(self) -> JSON:
        return {"id": self.id, "accused": self.accused, "crime": self.crime,
                "turn": self.turn, "by": self.by, "warrant": self.warrant,
                "guilty": self.guilty, "retrial": self.retrial}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Charge:
        return cls(data["id"], data["accused"], data["crime"], data["turn"], data.get("by"),
                   data.get("warrant", False), data.get("guilty"), data.get("retrial", False))
