"""The state of a Fief: England game: plain JSON at the boundary, dataclasses inside."""

from moderator.games.fief.state.model import (
    NO_MARRIAGE_AT_THREE,
    TALLAGE_RULE,
    City,
    Family,
    GameState,
    InvaderArmy,
    Noble,
    Phase,
    Player,
)

__all__ = ["NO_MARRIAGE_AT_THREE", "TALLAGE_RULE", "City", "Family", "GameState",
           "InvaderArmy", "Noble", "Phase", "Player"]
