"""Registry of game engines.  A new game is one folder here plus data/ and templates/."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from moderator.games.base import GameEngine

# kind -> module that defines ENGINE; aliases let a GM type "en-garde" or "eg".
_ENGINE_MODULES: dict[str, str] = {
    "engarde": "moderator.games.engarde",
    "dwtk": "moderator.games.dwtk",
    "fief": "moderator.games.fief",
}
_ALIASES: dict[str, str] = {"en-garde": "engarde", "eg": "engarde", "en_garde": "engarde"}


def game_kinds() -> tuple[str, ...]:
    return tuple(_ENGINE_MODULES)


def find_engine(kind: str) -> GameEngine[Any]:
    """The engine registered under ``kind`` (or one of its aliases)."""
    key = _ALIASES.get(kind.lower(), kind.lower())
    if key not in _ENGINE_MODULES:
        known = ", ".join(sorted(_ENGINE_MODULES))
        raise KeyError(f"unknown game kind {kind!r} (known: {known})")
    # Each engine has its own tables type; the service only passes them through.
    engine: GameEngine[Any] = import_module(_ENGINE_MODULES[key]).ENGINE
    return engine
