"""The game state: frozen dataclasses with a deterministic JSON form.

The service stores ``GameState.to_dict()``; every dict is emitted with sorted
keys and characters in key order, so the same game always serialises to the
same JSON (EG §A–B for the character fields, §P for housing, §O for the play).
Modules: `character` (the character and what he holds), `records` (loans,
matters, challenges, charges), `world` (the play, the ladies, `GameState`).
"""

from __future__ import annotations

from moderator.games.engarde.state.character import (
    JSON,
    Character,
    Child,
    Favour,
    Home,
    Property,
    Tenure,
)
from moderator.games.engarde.state.records import Challenge, Charge, Loan, Matter
from moderator.games.engarde.state.world import GameState, Lady, Theatre

__all__ = ["JSON", "Challenge", "Character", "Charge", "Child", "Favour", "GameState", "Home",
           "Lady", "Loan", "Matter", "Property", "Tenure", "Theatre"]
