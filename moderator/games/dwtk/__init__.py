"""Down with the King: a pure game engine (see moderator.games.base).

Imports only the standard library, `moderator.dice` and `moderator.games.base`.
"""

from __future__ import annotations

from moderator.games.dwtk.engine import DwtkEngine

ENGINE = DwtkEngine()

__all__ = ["ENGINE", "DwtkEngine"]
