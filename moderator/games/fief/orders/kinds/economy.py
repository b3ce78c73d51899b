"""Orders of Fief that spend or pass on wealth (FE 2.15, 3.4, 4.0-4.9, 11.1).

Buying troops, engines and buildings, titles bought, granted and transferred, Mills
scorched, Crossbowmen hired from one's own card, and gifts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from moderator.games.fief.orders.kinds.order import Order


@dataclass(frozen=True)
class Scorch(Order):
    """FE 3.4: destroy own Mills after income for +2 each."""
    kind: ClassVar[str] = "scorch"
    cities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Buy(Order):
    """FE 4.0: troops and engines."""
    kind: ClassVar[str] = "buy"
    count: int = 1
    unit: str = ""
    city: str = ""


@dataclass(frozen=True)
class Build(Order):
    """FE 4.2: a Mill or a Stronghold."""
    kind: ClassVar[str] = "build"
    building: str = ""
    city: str = ""


@dataclass(frozen=True)
class BuyTitle(Order):
    """FE 4.3-4.4: a Fiefdom Lord Title for a noble; a Stronghold becomes Fortified."""
    kind: ClassVar[str] = "buy_title"
    region: str = ""
    noble: str = ""


@dataclass(frozen=True)
class BuildTrebuchet(Order):
    """FE 7.9: in Phase 4, pay 5 a Trebuchet to go on with a siege (one or two)."""
    kind: ClassVar[str] = "build_trebuchet"
    city: str = ""
    count: int = 1


@dataclass(frozen=True)
class BuildRoyal(Order):
    """FE 4.9: the Royal Family builds the Royal Stronghold (5 Shillings)."""
    kind: ClassVar[str] = "build_royal"
    city: str = ""


@dataclass(frozen=True)
class Hire(Order):
    """FE 11.1: hire Crossbowmen from your Mercenary card, 2 Shillings each, any city."""
    kind: ClassVar[str] = "hire"
    count: int = 1
    city: str = ""


@dataclass(frozen=True)
class Grant(Order):
    """FE 4.5: the Sovereign gives an unclaimed title free (King's Will)."""
    kind: ClassVar[str] = "grant"
    region: str = ""
    noble: str = ""


@dataclass(frozen=True)
class Transfer(Order):
    """FE 4.6: a Lord of several fiefdoms passes one (never the largest) to his family."""
    kind: ClassVar[str] = "transfer"
    region: str = ""
    noble: str = ""


@dataclass(frozen=True)
class Give(Order):
    """FE 2.15, 9.0: Shillings (and a card) to another player, at the start of Phase 4."""
    kind: ClassVar[str] = "give"
    amount: int = 0
    card: str | None = None
    to: str = ""
