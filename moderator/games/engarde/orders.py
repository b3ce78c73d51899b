"""Order values: frozen dataclasses, their JSON form and their canonical syntax.

`format_order` is the inverse of `parser.parse_order`; `MonthOrders` is the JSON
the turn runner stores and hands back to `adjudicate` (EG §D; reference §1, §12).
Names are stored as keys (characters, clubs, areas, housing types) and written
back with the names a player reads.
"""

from __future__ import annotations

from collections.abc import Mapping
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


class Names(Protocol):
    """Turns keys back into the names a player types."""

    def character(self, key: str) -> str: ...
    def club(self, key: str) -> str: ...
    def area(self, key: str) -> str: ...
    def housing(self, key: str) -> str: ...


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
    kind: str = field(init=False, default="theatre")

    def format(self, names: Names) -> str:
        return "THEATRE FIRST NIGHT" if self.first_night else "THEATRE"


@dataclass(frozen=True)
class ClubVisit(Order):
    """A week at a club with its combination actions (EG §G–K)."""

    club: str = ""
    guest_of: str | None = None
    bring: tuple[str, ...] = ()
    toady: str | None = None
    carouse: bool = False
    gamble: Gamble | None = None
    kind: str = field(init=False, default="club")

    def format(self, names: Names) -> str:
        parts = [f"CLUB {names.club(self.club)}"]
        if self.guest_of:
            parts.append(f"GUEST OF {names.character(self.guest_of)}")
        if self.bring:
            parts.append("BRING " + ", ".join(names.character(k) for k in self.bring))
        parts += _combos(self.toady, self.carouse, self.gamble, names)
        return "; ".join(parts)


@dataclass(frozen=True)
class Bawdyhouse(Order):
    """A week at a bawdyhouse: company and drink are included (EG §M)."""

    toady: str | None = None
    gamble: Gamble | None = None
    kind: str = field(init=False, default="bawdyhouse")

    def format(self, names: Names) -> str:
        return "; ".join(["BAWDYHOUSE", *_combos(self.toady, False, self.gamble, names)])


@dataclass(frozen=True)
class HostParty(Order):
    """HOST PARTY AT CLUB|HOME (EG §J); naming exclusions means hiring bouncers."""

    at_home: bool = False
    bouncers: bool = False
    exclude: tuple[str, ...] = ()
    kind: str = field(init=False, default="host_party")

    def format(self, names: Names) -> str:
        parts = ["HOST PARTY AT " + ("HOME" if self.at_home else "CLUB")]
        if self.exclude:
            parts.append("EXCLUDE " + ", ".join(names.character(k) for k in self.exclude))
        elif self.bouncers:
            parts.append("BOUNCERS")
        return "; ".join(parts)


@dataclass(frozen=True)
class AttendParty(Order):
    host: str = ""
    toady: str | None = None
    carouse: bool = False
    kind: str = field(init=False, default="party")

    def format(self, names: Names) -> str:
        parts = [f"PARTY {names.character(self.host)}"]
        return "; ".join(parts + _combos(self.toady, self.carouse, None, names))


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


def _combos(toady: str | None, carouse: bool, gamble: Gamble | None, names: Names) -> list[str]:
    parts = []
    if toady:
        parts.append(f"TOADY {names.character(toady)}")
    if carouse:
        parts.append("CAROUSE")
    if gamble:
        parts.append(gamble.format())
    return parts


_KINDS: dict[str, type[Order]] = {
    cls().kind: cls
    for cls in (Support, BuyBox, JoinClub, ResignClub, Rent, Buy, Sell, Let, StopLetting,
                Theatre, ClubVisit, Bawdyhouse, HostParty, AttendParty, Practice, Move, Rest,
                Conditional)
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
        elif isinstance(value, list):
            value = tuple(value)
        args[name] = value
    return cls(**args)
