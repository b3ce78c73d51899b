"""How keys are written back in orders and how written names are read (DWTK orders).

Characters: ``PC``, an id (``23``) or a card name (``Sir Jeffrey``); royals by name
(``Alan`` or ``Prince Alan``); offices by key or name; countries, Event cards and
problems by name; players by their name (reaction orders, docs/dwtk-orders.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from moderator.games.dwtk.orders.errors import ParseProblem
from moderator.games.dwtk.tables import Tables

PC = "pc"
FANDONIA = "fandonia"


@dataclass(frozen=True)
class Names:
    """How keys are written back, and how written names are read (one game's tables)."""

    tables: Tables
    characters: Mapping[str, str] = field(default_factory=dict)
    players: Mapping[str, str] = field(default_factory=dict)  # player key -> name
    # What `read_line` and `written` remember (speed only; see there).
    _lines: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    _written: dict[int, tuple[Any, str]] = field(default_factory=dict, compare=False,
                                                 repr=False)

    @classmethod
    def of(cls, tables: Tables, players: Mapping[str, str] | None = None) -> Names:
        """The `Names` of these tables and players; one value per (tables, players), kept on
        the tables, so that its indexes (cached properties) are built once, not per order."""
        key = tuple((players or {}).items())
        cache: dict[tuple[tuple[str, str], ...], Names] = _tables_cache(tables, "names", dict)
        found = cache.get(key)
        if found is None:
            if len(cache) >= _NAMES_KEPT:  # many games with one tables: keep memory bounded
                cache.clear()
            found = cache[key] = cls(tables, dict(_character_names(tables)), dict(key))
        return found

    def read_line(self, line: str, read: Callable[[], T]) -> T:
        """``read()``, the value of one order line, once per distinct line of these names.

        Speed only: a line's value (or its `ParseProblem`) depends on nothing but its text
        and these names, and the values are frozen, so one value serves every sheet that
        has the line (the same sheet resent, the lines every player writes).  A problem is
        raised anew each time, of the same class with the same message and hint."""
        found = self._lines.get(line, _ABSENT)
        if found is _ABSENT:
            try:
                found = read()
            except ParseProblem as problem:
                found = _Problem(type(problem), problem.message, problem.hint)
            if len(self._lines) >= _LINES_KEPT:  # bounded: a long batch of games
                self._lines.clear()
            self._lines[line] = found
        if type(found) is _Problem:
            raise found.kind(found.message, found.hint)
        return found  # type: ignore[no-any-return]

    def recall(self, line: str) -> Any:
        """What `read_line` remembers of this line (its problem raised anew), or None."""
        found = self._lines.get(line)
        if type(found) is _Problem:
            raise found.kind(found.message, found.hint)
        return found

    def written(self, value: V, write: Callable[[V, Names], str]) -> str:
        """``write(value, self)``, the canonical line of a frozen order value, once per
        value object (speed only: `read_line` hands the same object to every sheet with
        that line, and a frozen value writes the same line each time).  The value is kept
        with its line, so its id cannot be reused by another while remembered."""
        found = self._written.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        line = write(value, self)
        if len(self._written) >= _LINES_KEPT:
            self._written.clear()
        self._written[id(value)] = (value, line)
        return line

    def player(self, key: str) -> str:
        return self.players.get(key, key)

    def read_player(self, text: str) -> str | None:
        """A player by his name or key (case-insensitive)."""
        return self._player_index.get(" ".join(text.lower().split()))

    @cached_property
    def _player_index(self) -> dict[str, str]:
        """Key and name (lower case) -> key; by sorted key, the first player wins."""
        index: dict[str, str] = {}
        for k, name in sorted(self.players.items()):
            index.setdefault(k.lower(), k)
            index.setdefault(name.lower(), k)
        return index

    def who(self, key: str) -> str:
        return "PC" if key == PC else key if key.isdigit() else self.characters.get(key, key)

    def read_who(self, text: str) -> str | None:
        """``PC``, ``23``, ``Sir Jeffrey``, ``Alan``, ``Prince Alan`` -> key."""
        word = text.strip().lower()
        if word == PC:
            return PC
        if word.isdigit():
            return word if word in self._noble_ids else None
        return self._who_index.get(word)

    @cached_property
    def _noble_ids(self) -> frozenset[str]:
        return frozenset(str(n.id) for n in self.tables.nobles)

    @cached_property
    def _who_index(self) -> dict[str, str]:
        """Every written form `read_who` accepts -> key (the first character wins)."""
        base = _character_names(self.tables)
        if dict(self.characters) == base and list(self.characters) == list(base):
            return _who_index_of_tables(self.tables)  # the usual case: built once
        return _who_index(self.characters)

    def read_office(self, text: str) -> str | None:
        return _read_index(self.tables, "offices").get(" ".join(text.lower().split()))

    def read_place(self, text: str) -> str | None:
        return _read_index(self.tables, "places").get(" ".join(text.lower().split()))

    def read_card(self, text: str) -> str | None:
        word = " ".join(text.lower().replace("_", " ").split())
        return _read_index(self.tables, "cards").get(word)

    def read_problem(self, text: str) -> str | None:
        word = " ".join(text.lower().replace("_", " ").split())
        return _read_index(self.tables, "problems").get(word)

    def office(self, key: str) -> str:
        return self.tables.office(key).name

    def place(self, key: str) -> str:
        return "Fandonia" if key == FANDONIA else self.tables.country(key).name

    def card(self, key: str) -> str:
        return self.tables.card_kind(key).name

    def problem(self, key: str) -> str:
        return self.tables.problem(key).name


def _character_names(tables: Tables) -> dict[str, str]:
    """Nobles by id, then royals by key -> card name (built once per tables)."""
    cached = tables.__dict__.get("_dwtk_character_names")
    if cached is None:
        cached = {str(n.id): n.name for n in tables.nobles}
        cached.update({r.key: r.name for r in tables.royals})
        object.__setattr__(tables, "_dwtk_character_names", cached)
    return cached


def _who_index_of_tables(tables: Tables) -> dict[str, str]:
    cached = tables.__dict__.get("_dwtk_who_index")
    if cached is None:
        cached = _who_index(_character_names(tables))
        object.__setattr__(tables, "_dwtk_who_index", cached)
    return cached


def _who_index(characters: Mapping[str, str]) -> dict[str, str]:
    index: dict[str, str] = {}
    for key, name in characters.items():
        short = name.split(" (")[0].split()[-1].lower()
        for word in (name.lower(), key, short, name.split(" (")[0].lower()):
            index.setdefault(word, key)
    return index


# -- written forms -> keys, built once per tables (the first of equal forms wins, as the
#    loops over the tables did) ------------------------------------------------------

_NAMES_KEPT = 64
_LINES_KEPT = 4096  # order lines (and canonical lines) remembered per `Names`
T = TypeVar("T")
V = TypeVar("V")
_ABSENT = object()


@dataclass(frozen=True)
class _Problem:
    """A line's `ParseProblem`, remembered by `Names.read_line` to be raised anew."""

    kind: type[ParseProblem]
    message: str
    hint: str | None


def _tables_cache(tables: Tables, name: str, build: Callable[[], T]) -> T:
    """A value derived from (immutable) tables, kept on them."""
    attr = f"_dwtk_{name}"
    found: T | None = tables.__dict__.get(attr)
    if found is None:
        found = build()
        object.__setattr__(tables, attr, found)
    return found


def _read_index(tables: Tables, kind: str) -> dict[str, str]:
    return _tables_cache(tables, f"read_{kind}", lambda: _READ_INDEXES[kind](tables))


def _index(pairs: Iterable[tuple[Iterable[str], str]]) -> dict[str, str]:
    index: dict[str, str] = {}
    for forms, key in pairs:
        for form in forms:
            index.setdefault(form, key)
    return index


def _office_forms(tables: Tables) -> dict[str, str]:
    return _index(((o.key, o.name.lower(), o.name.lower().replace("minister of the ", ""),
                    o.name.lower().replace("minister of ", "")), o.key)
                  for o in tables.offices)


def _place_forms(tables: Tables) -> dict[str, str]:
    return _index([((FANDONIA,), FANDONIA)] + [
        ((c.key, c.name.lower(), c.name.lower().removeprefix("the ")), c.key)
        for c in tables.countries])


def _card_forms(tables: Tables) -> dict[str, str]:
    return _index(((c.key.replace("_", " "), c.name.lower()), c.key) for c in tables.cards)


def _problem_forms(tables: Tables) -> dict[str, str]:
    return _index(((p.key.replace("_", " "), p.name.lower()), p.key)
                  for p in tables.problems)


_READ_INDEXES: dict[str, Callable[[Tables], dict[str, str]]] = {
    "offices": _office_forms, "places": _place_forms, "cards": _card_forms,
    "problems": _problem_forms}
