"""Typed reads from raw TOML dicts that collect every problem instead of stopping.

Shared by every engine's table loader.  Each problem names the file and the row
(``cards.card[3]: count must be ...``), so a GM fixes a data file in one pass.  A read
that fails records the problem and returns a harmless stand-in (0, ``""``, ``()``) so
the loader can go on and find the next problem; the loader raises `TableError` with
`Reader.problems` at the end if there are any.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from moderator.dice import DiceSpec

# The reader's methods are named after the types they read (``r.int``, ``r.str``): inside
# the class those names are the methods, so annotations there use these.
_Int = builtins.int
_Str = builtins.str
_Bool = builtins.bool

# Where a table's numbers come from: printed in the rulebook, inferred or derived from
# it, or PROPOSED by us where the rules are silent.  A game may declare its own words
# (En Garde! has "sourced" for its reference notes): see `Reader.__init__`.
PROVENANCES: tuple[str, ...] = ("rulebook", "inferred", "derived", "PROPOSED")


class HasFaces(Protocol):
    """A d6 table row: the faces that select it."""

    @property
    def faces(self) -> tuple[int, ...]: ...


class Reader:
    """Reads typed fields from TOML rows and collects every problem."""

    def __init__(self, provenances: Sequence[_Str] = PROVENANCES) -> None:
        self.problems: list[str] = []
        self.provenances = tuple(provenances)

    def problem(self, where: _Str, message: _Str) -> None:
        self.problems.append(f"{where}: {message}")

    # -- scalars -------------------------------------------------------------------

    def int(self, row: Mapping[_Str, Any], name: _Str, where: _Str,
            default: _Int | None = None) -> _Int:
        value = row.get(name, default)
        # bool is an int subclass: ``true`` is not a number in a table.
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(where, f"{name} must be an integer, got {value!r}")
            return 0
        return value

    def opt_int(self, row: Mapping[_Str, Any], name: _Str, where: _Str) -> _Int | None:
        if name not in row:
            return None
        return self.int(row, name, where)

    def str(self, row: Mapping[_Str, Any], name: _Str, where: _Str,
            default: _Str | None = None) -> _Str:
        value = row.get(name, default)
        if not isinstance(value, str) or not value:
            self.problem(where, f"{name} must be a non-empty string, got {value!r}")
            return ""
        return value

    def bool(self, row: Mapping[_Str, Any], name: _Str, where: _Str,
             default: _Bool) -> _Bool:
        value = row.get(name, default)
        if not isinstance(value, bool):
            self.problem(where, f"{name} must be true or false, got {value!r}")
            return default
        return value

    def dice(self, row: Mapping[_Str, Any], name: _Str, where: _Str) -> _Str:
        """A dice expression (``2d6+1``) in normal form."""
        value = row.get(name)
        try:
            return str(DiceSpec.parse(str(value)))
        except ValueError:
            self.problem(where, f"{name} must be a dice expression, got {value!r}")
            return "1d6"

    # -- lists ---------------------------------------------------------------------

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

    def faces(self, row: Mapping[_Str, Any], where: _Str,
              name: _Str = "faces") -> tuple[_Int, ...]:
        """The d6 faces that select a row."""
        value = row.get(name)
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in value):
            self.problem(where, f"{name} must be a list of faces 1-6, got {value!r}")
            return ()
        return tuple(value)

    # -- structure -----------------------------------------------------------------

    def rows(self, data: Mapping[_Str, Any], name: _Str,
             where: _Str) -> list[Mapping[_Str, Any]]:
        """The ``[[name]]`` rows; an entry that is not a table is reported and skipped."""
        value = data.get(name)
        if not isinstance(value, list) or not value:
            self.problem(where, f"missing [[{name}]] rows")
            return []
        for i, v in enumerate(value):
            if not isinstance(v, Mapping):
                self.problem(f"{where}[{i}]", "must be a table")
        return [v for v in value if isinstance(v, Mapping)]

    def table(self, data: Mapping[_Str, Any], name: _Str, where: _Str) -> Mapping[_Str, Any]:
        value = data.get(name)
        if not isinstance(value, Mapping):
            self.problem(where, f"missing [{name}] table")
            return {}
        return value

    # -- checks across rows --------------------------------------------------------

    def provenance(self, row: Mapping[_Str, Any], where: _Str, default: _Str) -> _Str:
        """The row's ``provenance`` (``default`` when absent); an unknown word is reported."""
        value = row.get("provenance", default)
        if value not in self.provenances:
            self.problem(where, f"provenance must be one of {', '.join(self.provenances)}, "
                                f"got {value!r}")
            return default
        return str(value)

    def required_provenance(self, row: Mapping[_Str, Any], where: _Str) -> _Str | None:
        """Like `provenance`, but a missing one is a problem too."""
        if "provenance" not in row:
            self.problem(where, f"provenance missing (one of {', '.join(self.provenances)})")
            return None
        return self.provenance(row, where, self.provenances[0])

    def unique(self, keys: Sequence[Any], where: _Str) -> None:
        seen: set[Any] = set()
        for key in keys:
            if key in seen:
                self.problem(where, f"{key!r} appears twice")
            seen.add(key)

    def cover_d6(self, rows: Sequence[HasFaces], where: _Str) -> None:
        """Each face 1-6 must select exactly one row."""
        seen = [f for r in rows for f in r.faces]
        for face in range(1, 7):
            if seen.count(face) != 1:
                self.problem(where, f"face {face} is covered {seen.count(face)} times, not once")
