"""Orders of the Church and the Relics of Fief (FE 2.13, 6.10, 10.1, 12.0-12.4).

What clerics do (intervene with invaders, quell Rebellions), the Abbess's title and Abbey,
and the Relics: presented, used, left and taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from moderator.games.fief.orders.kinds.order import Order


@dataclass(frozen=True)
class Intervene(Order):
    """FE 6.10: a Bishop, Archbishop or Abbess with invaders tries to send them home."""
    kind: ClassVar[str] = "intervene"
    city: str = ""
    cleric: str = ""


@dataclass(frozen=True)
class Quell(Order):
    """FE 10.1: standing: your clerics quell a Rebellion in their city, paying 3 for each
    Rebellion (PAY) or trusting the d6 (PRAY)."""
    kind: ClassVar[str] = "quell"
    standing: ClassVar[bool] = True
    how: str = "pay"


@dataclass(frozen=True)
class Relinquish(Order):
    """FE 2.13: an Abbess asks to lay down her title (to marry or stand for election)."""
    kind: ClassVar[str] = "relinquish"
    abbess: str = ""


@dataclass(frozen=True)
class PermitRelinquish(Order):
    """FE 2.13: the Bishop or Archbishop of her Abbey's district lets her relinquish."""
    kind: ClassVar[str] = "permit_relinquish"
    abbess: str = ""


@dataclass(frozen=True)
class Appoint(Order):
    """FE 2.13: the Sovereign gives a relinquished Abbess title at once to an unmarried
    noblewoman of his choice."""
    kind: ClassVar[str] = "appoint"
    noble: str = ""


@dataclass(frozen=True)
class RebuildAbbey(Order):
    """FE 2.13: an Abbess rebuilds her destroyed Abbey, free, in any city (Phase 4)."""
    kind: ClassVar[str] = "rebuild_abbey"
    abbey: str = ""
    city: str = ""


@dataclass(frozen=True)
class Present(Order):
    """FE 12.0: a noble hands a Relic to the Sovereign in the same city."""
    kind: ClassVar[str] = "present"
    relic: str = ""
    noble: str = ""


@dataclass(frozen=True)
class Chasuble(Order):
    """FE 12.2: the Chasuble's holder moves a Storms card to an adjacent sea (Phase 2D)."""
    kind: ClassVar[str] = "chasuble"
    source: int = 0
    target: int = 0


@dataclass(frozen=True)
class Shinbone(Order):
    """FE 12.4: the Shinbone's noble discards the Famine cards of his district (Phase 2D)."""
    kind: ClassVar[str] = "shinbone"


@dataclass(frozen=True)
class Skull(Order):
    """FE 12.3 (standing): use the Skull of Saint Caradoc on the first of your nobles to die
    in the city where the Skull is."""
    kind: ClassVar[str] = "skull"
    standing: ClassVar[bool] = True
    whom: str = "mine"                 # mine | any | a noble's name (FE 12.3, A77)


@dataclass(frozen=True)
class LeaveRelic(Order):
    """FE 12.0: a Relic set down, face up, in its noble's city or Abbey (after his moves)."""
    kind: ClassVar[str] = "leave_relic"
    relic: str = ""
    noble: str = ""


@dataclass(frozen=True)
class TakeRelic(Order):
    """FE 12.0: a face-up Relic lying in the noble's city (or Abbey) taken up."""
    kind: ClassVar[str] = "take_relic"
    relic: str = ""
    noble: str = ""
