"""Orders of Fief at court (FE 9.0-9.2, 13.3-13.4).

Marriages, candidates and votes in the election, Parliament and the Royal Tax, the
Sovereign's Garter policy and the King's Interdiction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from moderator.games.fief.orders.kinds.order import Order


@dataclass(frozen=True)
class Marry(Order):
    """FE 9.0: a marriage needs the matching order from the other family."""
    kind: ClassVar[str] = "marry"
    noble: str = ""
    to: str = ""


@dataclass(frozen=True)
class Candidate(Order):
    """FE 9.1: name a non-clergy Lord a candidate (standing until elected or withdrawn)."""
    kind: ClassVar[str] = "candidate"
    standing: ClassVar[bool] = True
    lord: str = ""


@dataclass(frozen=True)
class Vote(Order):
    """FE 9.1: the FOR marker on the first candidate of the list still standing."""
    kind: ClassVar[str] = "vote"
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decoy(Order):
    """FE 9.1: the DECOY marker on one candidate; it counts nothing, and the gazette shows
    it among the FOR markers without telling which is which (docs/fief-by-email.md)."""
    kind: ClassVar[str] = "decoy"
    candidate: str = ""


@dataclass(frozen=True)
class Convene(Order):
    """FE 9.2: the Sovereign convenes Parliament to vote a 12 Shilling Royal Tax."""
    kind: ClassVar[str] = "convene"
    shares: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class ParliamentVote(Order):
    """FE 9.2: FOR or AGAINST the Royal Tax (without it: AGAINST)."""
    kind: ClassVar[str] = "parliament_vote"
    vote: str = "against"
    burgher: bool = False              # FE 11.2: spend a Treasure for the Burgher's votes


@dataclass(frozen=True)
class GarterPolicy(Order):
    """FE 13.3: the Sovereign's standing choice: award the Garter to the first eligible
    Lord each round, or to none."""
    kind: ClassVar[str] = "garter"
    standing: ClassVar[bool] = True
    award: bool = True


@dataclass(frozen=True)
class Interdict(Order):
    """FE 13.4 King's Interdiction: the King or Queen spends a Carrier Pigeon and a captive
    of the Bandits goes free instead of being ransomed (at the start of Phase 4)."""
    kind: ClassVar[str] = "interdict"
    captive: str = ""
