"""`validate_state` for Down with the King: does a (hand-amended) state load?

A thin hook for the engine contract (`moderator.games.base.GameEngine.validate_state`):
it reports what the state loader rejects, nothing more yet.  Field types and the
game's invariants (``invariants.check``) are the dwtk engine's to add.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.games.dwtk.state import GameState


def validate_state(state: Mapping[str, Any], tables: object) -> list[str]:
    """Every problem found loading ``state`` (empty: it loads)."""
    try:
        GameState.from_dict(state)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return [f"the state does not load: {exc.__class__.__name__} {exc}"]
    return []
