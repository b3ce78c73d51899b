"""The state of a Fief: England game: plain JSON at the boundary, dataclasses inside."""

from moderator.games.fief.state.model import (
    TALLAGE_RULE,
    City,
    Family,
    GameState,
    InvaderArmy,
    Noble,
    Phase,
    Player,
)

__all__ = ["TALLAGE_RULE", "City", "Family", "GameState", "InvaderArmy", "Noble", "Phase",
           "Player"]
