"""En Garde! (Elan PBEM variant): a pure game engine (see moderator.games.base).

Imports only the standard library, `moderator.dice` and the shared `moderator.games`
modules (`base`, `table_reader`).
"""

from __future__ import annotations

from moderator.games.engarde.engine import EnGardeEngine

ENGINE = EnGardeEngine()

__all__ = ["ENGINE", "EnGardeEngine"]
