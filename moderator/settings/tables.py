"""A game's tables: ``data/<kind>/*.toml``, with the GM's overrides from config.toml.

A GM may replace any value of any table for one game::

    [games.paris.tables.theatre.settings]
    box_cost = 200                      # a plain value
    [games.paris.tables.theatre.outcome.flop]
    first_night_sp = -5                 # one row of a list of rows, found by its `key`

Overrides are checked against the shipped tables when the config is loaded: an
unknown table, row or key, or a value of the wrong type, is refused with the file
and the key named.  The merged tables are then validated by the game's engine.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from moderator import jsonio
from moderator.games import find_engine, game_kinds

Raw = dict[str, dict[str, Any]]


def read_raw_tables(data_dir: Path, kind: str) -> Raw:
    """``{file stem: parsed TOML}`` for every table file of a game kind."""
    folder = data_dir / kind
    if not folder.is_dir():
        raise FileNotFoundError(f"no tables folder {folder}")
    return {
        path.stem: tomllib.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("*.toml"))
    }


def _same_type(base: Any, value: Any) -> bool:
    if isinstance(base, bool) or isinstance(value, bool):
        return type(base) is type(value)
    if isinstance(base, float):
        return isinstance(value, int | float)
    return type(base) is type(value)


def merge(base: Any, override: Any, where: str, problems: list[str]) -> Any:
    """``base`` with ``override`` applied; every mismatch is appended to ``problems``."""
    if isinstance(base, dict):
        if not isinstance(override, dict):
            problems.append(f"{where} must be a table")
            return base
        merged = dict(base)
        for key, value in override.items():
            if key not in base:
                problems.append(f"{where}.{key}: no such key (known: {', '.join(sorted(base))})")
            else:
                merged[key] = merge(base[key], value, f"{where}.{key}", problems)
        return merged
    keyed_rows = bool(base) and isinstance(base, list) and all(
        isinstance(r, dict) and "key" in r for r in base)
    if keyed_rows and isinstance(override, dict):  # rows addressed by their key
        rows = {row["key"]: row for row in base}
        for key in override:
            if key not in rows:
                problems.append(f"{where}.{key}: no such row (known: {', '.join(rows)})")
        return [merge(row, override.get(row["key"], {}), f"{where}.{row['key']}", problems)
                for row in base]
    if isinstance(base, list):
        if not isinstance(override, list) or (
            base and any(not _same_type(base[0], item) for item in override)
        ):
            problems.append(f"{where} must be a list like {base!r}")
            return base
        return override
    if not _same_type(base, override):
        problems.append(f"{where} must be {type(base).__name__}, not {override!r}")
        return base
    return override


def apply_overrides(raw: Raw, overrides: Mapping[str, Any], where: str) -> tuple[Raw, list[str]]:
    problems: list[str] = []
    merged = dict(raw)
    for stem, override in overrides.items():
        if stem not in raw:
            problems.append(f"{where}.{stem}: no such table (known: {', '.join(sorted(raw))})")
            continue
        merged[stem] = merge(raw[stem], override, f"{where}.{stem}", problems)
    return merged, problems


def check_overrides(data_dir: Path, kind: str | None, overrides: Mapping[str, Any],
                    where: str) -> list[str]:
    """Problems with one game's overrides (checked for its kind, or any kind if unknown)."""
    kinds = [kind] if kind else list(game_kinds())
    best: list[str] | None = None
    for candidate in kinds:
        try:
            raw = read_raw_tables(data_dir, candidate)
        except FileNotFoundError:
            continue
        merged, problems = apply_overrides(raw, overrides, where)
        if not problems:
            try:
                find_engine(candidate).load_tables(merged)
            except ValueError as exc:
                problems = [f"{where}: {exc}"]
        if not problems:
            return []
        best = problems if best is None or len(problems) < len(best) else best
    return best or [f"{where}: no tables for game kind {kind!r}"]


@lru_cache(maxsize=64)
def _load(data_dir: Path, kind: str, overrides: str) -> Any:
    raw = read_raw_tables(data_dir, kind)
    if overrides:
        raw, problems = apply_overrides(raw, json.loads(overrides), "tables")
        if problems:
            raise ValueError("; ".join(problems))
    return find_engine(kind).load_tables(raw)


def load_tables(data_dir: Path, kind: str, overrides: Mapping[str, Any] | None = None) -> Any:
    """The validated tables of a game kind, with a game's overrides applied.

    Cached (keyed by the overrides' canonical JSON): tables do not change while running.
    """
    return _load(data_dir.resolve(), kind, jsonio.dumps(overrides) if overrides else "")
