"""Typed reads from raw TOML dicts that collect every problem instead of stopping.

Each problem names the file and the row (``cards.card[3]: count must be ...``), so a GM
fixes a data file in one pass (style rule 9).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.dice import DiceSpec

PROVENANCES = ("rulebook", "inferred", "derived", "PROPOSED")


# Inside `Reader` the names int, str and bool are its methods; the annotations of the
# methods after them use these names of the builtins.
_Int = int
_Str = str


class Reader:
    """Reads typed fields from TOML rows and collects every problem."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def problem(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def int(self, row: Mapping[str, Any], name: str, where: str,
            default: int | None = None) -> int:
        value = row.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(where, f"{name} must be an integer, got {value!r}")
            return 0
        return value

    def opt_int(self, row: Mapping[_Str, Any], name: _Str, where: _Str) -> _Int | None:
        if name not in row:
            return None
        return self.int(row, name, where)

    def str(self, row: Mapping[str, Any], name: str, where: str,
            default: str | None = None) -> str:
        value = row.get(name, default)
        if not isinstance(value, str) or not value:
            self.problem(where, f"{name} must be a non-empty string, got {value!r}")
            return ""
        return value

    def bool(self, row: Mapping[_Str, Any], name: _Str, where: _Str, default: bool) -> bool:
        value = row.get(name, default)
        if not isinstance(value, bool):
            self.problem(where, f"{name} must be true or false, got {value!r}")
            return default
        return value

    def ints(self, row: Mapping[_Str, Any], name: _Str, where: _Str) -> tuple[_Int, ...]:
        value = row.get(name, [])
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            self.problem(where, f"{name} must be a list of integers, got {value!r}")
            return ()
        return tuple(value)

    def strs(self, row: Mapping[_Str, Any], name: _Str, where: _Str) -> tuple[_Str, ...]:
        value = row.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.problem(where, f"{name} must be a list of strings, got {value!r}")
            return ()
        return tuple(value)

    def dice(self, row: Mapping[_Str, Any], name: _Str, where: _Str) -> _Str:
        value = row.get(name)
        try:
            return str(DiceSpec.parse(str(value)))
        except ValueError:
            self.problem(where, f"{name} must be a dice expression, got {value!r}")
            return "1d6"

    def rows(self, data: Mapping[_Str, Any], name: _Str, where: _Str) -> list[Mapping[_Str, Any]]:
        value = data.get(name)
        if not isinstance(value, list) or not value:
            self.problem(where, f"missing [[{name}]] rows")
            return []
        bad = [i for i, v in enumerate(value) if not isinstance(v, Mapping)]
        for i in bad:
            self.problem(f"{where}[{i}]", "must be a table")
        return [v for v in value if isinstance(v, Mapping)]

    def table(self, data: Mapping[_Str, Any], name: _Str, where: _Str) -> Mapping[_Str, Any]:
        value = data.get(name)
        if not isinstance(value, Mapping):
            self.problem(where, f"missing [{name}] table")
            return {}
        return value

    def provenance(self, row: Mapping[_Str, Any], where: _Str, default: _Str) -> _Str:
        value = row.get("provenance", default)
        if value not in PROVENANCES:
            self.problem(where, f"provenance must be one of {', '.join(PROVENANCES)}, "
                                f"got {value!r}")
            return default
        return str(value)

    def unique(self, keys: list[Any], where: _Str) -> None:
        seen: set[Any] = set()
        for key in keys:
            if key in seen:
                self.problem(where, f"{key!r} appears twice")
            seen.add(key)
