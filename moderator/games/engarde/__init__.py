"""En Garde! (Elan PBEM variant): a pure game engine (see moderator.games.base).

Imports only the standard library, `moderator.dice` and the shared `moderator.games`
modules (`base`, `table_reader`).
"""

from __future__ import annotations

from moderator.games.base import GameEngine
from moderator.games.engarde.engine import EnGardeEngine
from moderator.games.engarde.tables import Tables

ENGINE = EnGardeEngine()
_CONTRACT: GameEngine[Tables] = ENGINE  # mypy checks the engine keeps the contract

__all__ = ["ENGINE", "EnGardeEngine"]
