"""Reading a game's tables from ``data/<kind>/*.toml`` for its engine to validate."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from moderator.games import find_engine


def read_raw_tables(data_dir: Path, kind: str) -> dict[str, dict[str, Any]]:
    """``{file stem: parsed TOML}`` for every table file of a game kind."""
    folder = data_dir / kind
    if not folder.is_dir():
        raise FileNotFoundError(f"no tables folder {folder}")
    return {
        path.stem: tomllib.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("*.toml"))
    }


@lru_cache(maxsize=32)
def _load(data_dir: Path, kind: str) -> Any:
    return find_engine(kind).load_tables(read_raw_tables(data_dir, kind))


def load_tables(data_dir: Path, kind: str) -> Any:
    """The validated tables of a game kind (cached: tables don't change while running)."""
    return _load(data_dir.resolve(), kind)
