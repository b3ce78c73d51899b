"""`validate_state` for Down with the King: does a (hand-amended) state load?

A thin hook for the engine contract (`moderator.games.base.GameEngine.validate_state`):
it reports what the state loader rejects, nothing more yet.  Field types and the
game's invariants (``invariants.check``) are the dwtk engine's to add.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.games.base import load_problems
from moderator.games.dwtk.state import GameState


def validate_state(state: Mapping[str, Any], tables: object) -> list[str]:
    """Every problem found loading ``state`` (empty: it loads)."""
    return load_problems(GameState.from_dict, dict(state))
