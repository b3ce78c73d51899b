"""Typed reads from raw TOML dicts that collect every problem instead of stopping."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class HasFaces(Protocol):
    @property
    def faces(self) -> tuple[int, ...]: ...


class Reader:
    """Reads typed fields and collects every problem instead of stopping."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def problem(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def int(self, row: Mapping[str, Any], name: str, where: str, default: int | None = None) -> int:
        value = row.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(where, f"{name} must be an integer, got {value!r}")
            return 0
        return value

    def str(self, row: Mapping[str, Any], name: str, where: str) -> str:
        value = row.get(name)
        if not isinstance(value, str) or not value:
            self.problem(where, f"{name} must be a non-empty string, got {value!r}")
            return ""
        return value

    def faces(self, row: Mapping[str, Any], where: str, name: str = "faces") -> tuple[int, ...]:
        value = row.get(name)
        if not isinstance(value, list) or not all(
            isinstance(v, int) and 1 <= v <= 6 for v in value
        ):
            self.problem(where, f"{name} must be a list of faces 1-6, got {value!r}")
            return ()
        return tuple(value)

    def rows(self, data: Mapping[str, Any], name: str, where: str) -> list[Mapping[str, Any]]:
        value = data.get(name)
        if not isinstance(value, list) or not value:
            self.problem(where, f"missing [[{name}]] rows")
            return []
        return [v for v in value if isinstance(v, Mapping)]

    def cover_d6(self, rows: Sequence[HasFaces], where: str) -> None:
        """Each face 1-6 must select exactly one row."""
        seen = [f for r in rows for f in r.faces]
        for face in range(1, 7):
            if seen.count(face) != 1:
                self.problem(where, f"face {face} is covered {seen.count(face)} times, not once")
