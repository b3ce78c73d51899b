"""The state of a Fief: England game: plain JSON at the boundary, dataclasses inside."""

from moderator.games.fief.state.model import (
    City,
    Family,
    GameState,
    InvaderArmy,
    Noble,
    Phase,
    Player,
)

__all__ = ["City", "Family", "GameState", "InvaderArmy", "Noble", "Phase", "Player"]
