"""Orders of Fief that move nobles and troops, and meet the invaders (FE 5.0-5.4, 6.9).

The muster, moves and Cavalcades, Royal Moves, leave to pass or enter a city, and the
Danegeld paid to invaders (now, or as a standing reaction).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from moderator.games.fief.orders.kinds.order import Order


@dataclass(frozen=True)
class Start(Order):
    """Muster: ranked starting cities (Setup, 13.6; fief-email.md §1.8)."""
    kind: ClassVar[str] = "start"
    cities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Move(Order):
    """FE 5.0-5.4: nobles and the troops they take along a path of roads and seas.

    ``path`` lists the places after the start: city names, or ``"sea:N"``;
    ``leave`` drops units at a city of the path: (city, unit, n).
    """
    kind: ClassVar[str] = "move"
    nobles: tuple[str, ...] = ()
    units: tuple[tuple[str, int], ...] = ()
    start: str = ""
    path: tuple[str, ...] = ()
    leave: tuple[tuple[str, str, int], ...] = ()
    if_denied: str = "wait"            # wait | return | cavalcade | passage | burgher


@dataclass(frozen=True)
class Cavalcade(Move):
    """FE 5.2 (surprise attack): nobles and Knights ride along the path and fight at once
    every opposing army in a city they pass, asked or not (never at the last city, FAQ
    P5 F18)."""
    kind: ClassVar[str] = "cavalcade"
    if_denied: str = "cavalcade"


@dataclass(frozen=True)
class Allow(Order):
    """FE 5.0: standing permission to pass through (or enter) a city of this family."""
    kind: ClassVar[str] = "allow"
    standing: ClassVar[bool] = True
    who: str = "ANYONE"                # a player key or ANYONE
    city: str | None = None            # None: everywhere


@dataclass(frozen=True)
class AllowEnter(Allow):
    """FE 5.0: standing leave to enter this family's Stronghold, Fortified City or Abbey
    (not only to pass the city): those let in are inside, with the holder."""
    kind: ClassVar[str] = "allow_enter"


@dataclass(frozen=True)
class RoyalMove(Order):
    """FE 5.0 Royal Movement: royal nobles, and their families' nobles without troops, go to
    the Royal Stronghold from any city for their two moves."""
    kind: ClassVar[str] = "royal_move"
    nobles: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoyalAbbeyMove(RoyalMove):
    """FE 2.13 Royal Moves: as the Royal Move (FE 5.0), to the Royal Abbey."""
    kind: ClassVar[str] = "royal_abbey_move"


@dataclass(frozen=True)
class Danegeld(Order):
    """FE 6.9: a noble pays 5 for the invaders at his city to leave England."""
    kind: ClassVar[str] = "danegeld"
    city: str = ""
    noble: str = ""


@dataclass(frozen=True)
class DanegeldReaction(Order):
    """A standing reaction (fief-email.md §3): when invaders enter <city> in Phase 6, the
    noble there pays them the Danegeld at once (FE 6.9: "at any time during Phase 6")."""
    kind: ClassVar[str] = "danegeld_reaction"
    standing: ClassVar[bool] = True
    city: str = ""
    noble: str = ""
