"""The courts (EG §R), appointments (reference §7) and the press (reference §13).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.engarde.orders.base import Names, Order

# --- Prosecutions (EG §R), appointments (reference §7), divorce (EG §L), press ---------


@dataclass(frozen=True)
class ChargeOrder(Order):
    """CHARGE <name> WITH <crime>: brought by (or asked of) the right office holder."""

    accused: str = ""
    crime: str = "treason"
    kind: str = field(init=False, default="charge")

    def format(self, names: Names) -> str:
        return f"CHARGE {names.character(self.accused)} WITH {names.crime(self.crime)}"


@dataclass(frozen=True)
class RequestWarrant(Order):
    """REQUEST WARRANT AGAINST <name> [FOR <crime>]: titled nobles only (EG §R)."""

    accused: str = ""
    crime: str = "treason"
    kind: str = field(init=False, default="warrant")

    def format(self, names: Names) -> str:
        return (f"REQUEST WARRANT AGAINST {names.character(self.accused)} "
                f"FOR {names.crime(self.crime)}")


@dataclass(frozen=True)
class Testify(Order):
    """TESTIFY FOR|AGAINST <name> (EG §R): a witness; an affidavit when he cannot attend."""

    accused: str = ""
    against: bool = True
    kind: str = field(init=False, default="testify")

    def format(self, names: Names) -> str:
        return f"TESTIFY {'AGAINST' if self.against else 'FOR'} {names.character(self.accused)}"


@dataclass(frozen=True)
class Apply(Order):
    """APPLY FOR <position> (reference §7)."""

    position: str = ""
    kind: str = field(init=False, default="apply")

    def format(self, names: Names) -> str:
        return f"APPLY FOR {names.appointment(self.position)}"


@dataclass(frozen=True)
class ResignPosition(Order):
    kind: str = field(init=False, default="resign_position")

    def format(self, names: Names) -> str:
        return "RESIGN POSITION"


@dataclass(frozen=True)
class Announce(Order):
    """ANNOUNCE: "text" [UNSIGNED|AS <alias>]: printed in the gazette (reference §13)."""

    text: str = ""
    unsigned: bool = False
    alias: str | None = None
    kind: str = field(init=False, default="announce")

    def format(self, names: Names) -> str:
        text = f'ANNOUNCE "{self.text}"'
        if self.unsigned:
            return text + " UNSIGNED"
        return text + (f" AS {self.alias}" if self.alias else "")


@dataclass(frozen=True)
class Petition(Order):
    """PETITION FOR PARDON (reference §9, PROPOSED): the King ends a disgrace on 7 on 1d6,
    so only with favours ``ON PARDON FOR <him>``."""

    kind: str = field(init=False, default="petition")

    def format(self, names: Names) -> str:
        return "PETITION FOR PARDON"
