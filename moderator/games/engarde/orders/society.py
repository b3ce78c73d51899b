"""Society orders (EG §D, §F–§K, §M–§P): support, clubs, houses, the theatre, the
week's venues and conditional weeks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.engarde.orders.base import Gamble, Names, Order, Outcome, SupportLevel, combos


@dataclass(frozen=True)
class Support(Order):
    level: SupportLevel = SupportLevel.NORMAL
    kind: str = field(init=False, default="support")

    def format(self, names: Names) -> str:
        return f"SUPPORT {self.level.value.upper()}"


@dataclass(frozen=True)
class BuyBox(Order):
    kind: str = field(init=False, default="box")

    def format(self, names: Names) -> str:
        return "BOX"


@dataclass(frozen=True)
class JoinClub(Order):
    club: str = ""
    kind: str = field(init=False, default="join_club")

    def format(self, names: Names) -> str:
        return f"JOIN CLUB {names.club(self.club)}"


@dataclass(frozen=True)
class ResignClub(Order):
    kind: str = field(init=False, default="resign_club")

    def format(self, names: Names) -> str:
        return "RESIGN CLUB"


@dataclass(frozen=True)
class HouseOrder(Order):
    """An order about one dwelling: ``<verb> <type> IN <area>`` (EG §P)."""

    house: str = ""
    area: str = ""
    verb: str = field(init=False, default="")

    def format(self, names: Names) -> str:
        return f"{self.verb} {names.housing(self.house)} IN {names.area(self.area)}"


@dataclass(frozen=True)
class Rent(HouseOrder):
    kind: str = field(init=False, default="rent")
    verb: str = field(init=False, default="RENT")


@dataclass(frozen=True)
class Buy(HouseOrder):
    kind: str = field(init=False, default="buy")
    verb: str = field(init=False, default="BUY")


@dataclass(frozen=True)
class Sell(HouseOrder):
    kind: str = field(init=False, default="sell")
    verb: str = field(init=False, default="SELL")


@dataclass(frozen=True)
class Let(HouseOrder):
    kind: str = field(init=False, default="let")
    verb: str = field(init=False, default="LET")


@dataclass(frozen=True)
class StopLetting(HouseOrder):
    kind: str = field(init=False, default="stop_letting")
    verb: str = field(init=False, default="STOP LETTING")


@dataclass(frozen=True)
class Theatre(Order):
    first_night: bool = False
    with_mistress: bool = False  # EG §L: seen with her; guards her that weekend
    kind: str = field(init=False, default="theatre")

    def format(self, names: Names) -> str:
        text = "THEATRE FIRST NIGHT" if self.first_night else "THEATRE"
        return text + (" WITH MISTRESS" if self.with_mistress else "")


@dataclass(frozen=True)
class ClubVisit(Order):
    """A week at a club with its combination actions (EG §G–K)."""

    club: str = ""
    guest_of: str | None = None
    bring: tuple[str, ...] = ()
    toady: str | None = None
    carouse: bool = False
    gamble: Gamble | None = None
    with_mistress: bool = False  # EG §L: escorting her counts as the month's visit
    kind: str = field(init=False, default="club")

    def format(self, names: Names) -> str:
        parts = [f"CLUB {names.club(self.club)}"]
        if self.guest_of:
            parts.append(f"GUEST OF {names.character(self.guest_of)}")
        if self.bring:
            parts.append("BRING " + ", ".join(names.character(k) for k in self.bring))
        parts += combos(self.toady, self.carouse, self.gamble, names)
        if self.with_mistress:
            parts.append("WITH MISTRESS")
        return "; ".join(parts)


@dataclass(frozen=True)
class Bawdyhouse(Order):
    """A week at a bawdyhouse: company and drink are included (EG §M)."""

    toady: str | None = None
    gamble: Gamble | None = None
    kind: str = field(init=False, default="bawdyhouse")

    def format(self, names: Names) -> str:
        return "; ".join(["BAWDYHOUSE", *combos(self.toady, False, self.gamble, names)])


@dataclass(frozen=True)
class HostParty(Order):
    """HOST PARTY AT CLUB|HOME (EG §J); naming exclusions means hiring bouncers.

    ``cohosts``: the other hosts of a joint party (``COHOST <names>``); it is joint only
    when every one of them names all the others (parties.py).
    """

    at_home: bool = False
    bouncers: bool = False
    exclude: tuple[str, ...] = ()
    cohosts: tuple[str, ...] = ()
    kind: str = field(init=False, default="host_party")

    def format(self, names: Names) -> str:
        parts = ["HOST PARTY AT " + ("HOME" if self.at_home else "CLUB")]
        if self.exclude:
            parts.append("EXCLUDE " + ", ".join(names.character(k) for k in self.exclude))
        elif self.bouncers:
            parts.append("BOUNCERS")
        if self.cohosts:
            parts.append("COHOST " + ", ".join(names.character(k) for k in self.cohosts))
        return "; ".join(parts)


@dataclass(frozen=True)
class AttendParty(Order):
    host: str = ""
    toady: str | None = None
    carouse: bool = False
    kind: str = field(init=False, default="party")

    def format(self, names: Names) -> str:
        parts = [f"PARTY {names.character(self.host)}"]
        return "; ".join(parts + combos(self.toady, self.carouse, None, names))


@dataclass(frozen=True)
class Practice(Order):
    weapon: str = "rapier"
    kind: str = field(init=False, default="practice")

    def format(self, names: Names) -> str:
        return f"PRACTICE {self.weapon}"


@dataclass(frozen=True)
class Move(Order):
    kind: str = field(init=False, default="move")

    def format(self, names: Names) -> str:
        return "MOVE"


@dataclass(frozen=True)
class Rest(Order):
    kind: str = field(init=False, default="rest")

    def format(self, names: Names) -> str:
        return "REST"


@dataclass(frozen=True)
class Conditional(Order):
    """IF WEEK n FAILED|SUCCEEDED THEN a [ELSE b] ENDIF (EG §D)."""

    week: int = 1
    outcome: Outcome = Outcome.FAILED
    then: Order = field(default_factory=Rest)
    otherwise: Order | None = None
    kind: str = field(init=False, default="if")

    def format(self, names: Names) -> str:
        text = f"IF WEEK {self.week} {self.outcome.value.upper()} THEN {self.then.format(names)}"
        if self.otherwise is not None:
            text += f" ELSE {self.otherwise.format(names)}"
        return text + " ENDIF"
