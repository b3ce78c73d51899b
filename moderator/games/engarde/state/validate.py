"""`validate_state`: every problem with a stored or hand-amended state (GM's desk).

Three passes, each collecting every problem with its path (``characters.athos.crowns``):
the JSON loads into `GameState`; every field of every value holds its declared type
(read from the dataclasses' own annotations, so a new field is checked without a line
here) and no key is one the state does not know (it would be dropped silently on the next
turn); and the invariants the rules rely on hold (keys match, kept ladies exist, clubs,
homes, regiments and ranks are the tables' own).
"""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any, Union

from moderator.games.engarde.state.character import Character
from moderator.games.engarde.state.world import GameState
from moderator.games.engarde.tables import Tables


def validate_state(state: Mapping[str, Any], tables: Tables) -> list[str]:
    """Every problem found (empty: the engine can run a turn on ``state``)."""
    try:
        game = GameState.from_dict(state)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return [f"the state does not load: {exc.__class__.__name__} {exc}"]
    problems = _typed(game, "")
    problems += _unknown_keys(state, game.to_dict(), "")
    if not problems:  # invariants read typed values
        problems += _invariants(game, tables)
    return problems


# -- types ---------------------------------------------------------------------------


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of a state class (resolved once: they never change)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _typed(value: Any, path: str) -> list[str]:
    """Each field of dataclass ``value`` against its annotation, recursively."""
    problems: list[str] = []
    hints = _hints(type(value))
    for f in fields(value):
        problems += _check(getattr(value, f.name), hints[f.name], _join(path, f.name))
    return problems


def _check(value: Any, hint: Any, path: str) -> list[str]:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return []
    if origin in (Union, types.UnionType):
        # Try each member; report the first member's problems only if none fits.
        results = [_check(value, a, path) for a in args]
        return [] if any(not r for r in results) else [_wrong(value, hint, path)]
    if origin is tuple:
        if not isinstance(value, tuple):
            return [_wrong(value, hint, path)]
        element = args[0]
        return [p for i, v in enumerate(value) for p in _check(v, element, f"{path}[{i}]")]
    if origin in (Mapping, dict, typing.Mapping):
        if not isinstance(value, Mapping):
            return [_wrong(value, hint, path)]
        key, item = args
        # Key order never changes the report (the problems come in sorted key order).
        return [p for k in sorted(value, key=str)
                for p in _check(k, key, path) + _check(value[k], item, _join(path, str(k)))]
    return _plain(value, hint, path)


def _plain(value: Any, hint: Any, path: str) -> list[str]:
    if hint is type(None):
        return [] if value is None else [_wrong(value, hint, path)]
    if isinstance(hint, type) and is_dataclass(hint):
        return _typed(value, path) if isinstance(value, hint) else [_wrong(value, hint, path)]
    if isinstance(hint, type) and issubclass(hint, Enum):
        return [] if isinstance(value, hint) else [_wrong(value, hint, path)]
    if hint is int:  # bool is an int to Python, not to a ledger
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [_wrong(value, hint, path)]
    if isinstance(hint, type):
        return [] if isinstance(value, hint) else [_wrong(value, hint, path)]
    raise TypeError(f"{path}: validate_state cannot check annotation {hint!r}")


def _wrong(value: Any, hint: Any, path: str) -> str:
    name = getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
    return f"{path}: must be {name}, got {value!r}"


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _unknown_keys(given: Any, normal: Any, path: str) -> list[str]:
    """Keys of ``given`` that the normal form (what the engine writes back) lacks."""
    if isinstance(given, Mapping) and isinstance(normal, Mapping):
        keys = sorted(given, key=str)
        problems = [f"{_join(path, str(k))}: unknown field" for k in keys if k not in normal]
        return problems + [p for k in keys if k in normal
                           for p in _unknown_keys(given[k], normal[k], _join(path, str(k)))]
    if isinstance(given, list | tuple) and isinstance(normal, list | tuple):
        return [p for i, (g, n) in enumerate(zip(given, normal, strict=False))
                for p in _unknown_keys(g, n, f"{path}[{i}]")]
    return []


# -- invariants ----------------------------------------------------------------------


def _invariants(game: GameState, tables: Tables) -> list[str]:
    problems = []
    if not 1 <= game.month <= 12:
        problems.append(f"month: must be 1-12, got {game.month}")
    if game.turn < 1:
        problems.append(f"turn: must be 1 or more, got {game.turn}")
    for key in sorted(game.ladies):
        lady = game.ladies[key]
        if lady.key != key:
            problems.append(f"ladies.{key}.key: is {lady.key!r}, not its own key")
    keepers: dict[str, str] = {}
    for key in sorted(game.characters):
        c = game.characters[key]
        problems += _character(c, key, game, tables)
        for role, kept in (("mistress", c.mistress), ("wife", c.wife)):
            if kept is not None and kept in keepers and keepers[kept] != key:
                problems.append(f"characters.{key}.{role}: {kept!r} is already "
                                f"{keepers[kept]!r}'s")
            if kept is not None:
                keepers[kept] = key
    for i, loan in enumerate(game.loans):
        for role, who in (("borrower", loan.borrower), ("lender", loan.lender)):
            if who is not None and who not in game.characters:
                problems.append(f"loans[{i}].{role}: no character {who!r}")
    for key in sorted(game.decisions):
        problems += _decision(key, game, tables)
    return problems


# The GM's decision keys (docs/engarde-orders.md, "The GM's decisions"): what each
# part names.  A key naming no character, regiment, post or case would wait forever.
_DECISION_PARTS: dict[str, tuple[str, ...]] = {
    "cause": ("character", "character"),
    "admit": ("regiment", "character"),
    "appoint": ("position", "character"),
    "plea": ("case", "character"),
    "plotting": ("case",),
    "verdict": ("case", "character"),
    "arrest": ("case", "character"),
    "sentence": ("case", "character"),
    "watch": ("character",),
}


def _decision(key: str, game: GameState, tables: Tables) -> list[str]:
    """One decision key: a known kind, and every part names something that exists."""
    where = f"decisions.{key}"
    kind, *parts = key.split(":")
    wanted = _DECISION_PARTS.get(kind)
    if wanted is None:
        return [f"{where}: no decision {kind!r}{_near(kind, _DECISION_PARTS)} "
                f"(known: {', '.join(sorted(_DECISION_PARTS))})"]
    if len(parts) != len(wanted):
        form = ":".join((kind, *(f"<{w}>" for w in wanted)))
        return [f"{where}: write {form}"]
    known = {
        "character": sorted(game.characters),
        "regiment": sorted(r.key for r in tables.army.regiments),
        "position": sorted(p.key for p in tables.army.appointments),
        "case": sorted(str(ch.id) for ch in game.charges),
    }
    problems = []
    for what, part in zip(wanted, parts, strict=True):
        if part not in known[what]:
            cases = f" (open cases: {', '.join(known['case']) or 'none'})" \
                if what == "case" else ""
            problems.append(f"{where}: no {what} {part!r}{_near(part, known[what])}{cases}")
    return problems


def _near(word: str, known: Mapping[str, Any] | list[str]) -> str:
    near = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""


def _character(c: Character, key: str, game: GameState, tables: Tables) -> list[str]:
    """One character's references into the state and the tables (EG §G, §L, §P; ref §4)."""
    where = f"characters.{key}"
    problems = []
    if c.key != key:
        problems.append(f"{where}.key: is {c.key!r}, not its own key")
    for role in ("mistress", "wife"):
        lady = getattr(c, role)
        if lady is not None and lady not in game.ladies:
            problems.append(f"{where}.{role}: no lady {lady!r}")
    if c.club is not None and c.club not in {club.key for club in tables.clubs}:
        problems.append(f"{where}.club: no club {c.club!r}")
    if c.home is not None:
        problems += _house(c.home.area, c.home.kind, f"{where}.home", tables)
    for i, p in enumerate(c.properties):
        problems += _house(p.area, p.kind, f"{where}.properties[{i}]", tables)
    army = tables.army
    if c.regiment is not None and c.regiment not in {r.key for r in army.regiments}:
        problems.append(f"{where}.regiment: no regiment {c.regiment!r}")
    if c.rank is not None and c.rank not in army.all_ranks:
        problems.append(f"{where}.rank: no rank {c.rank!r}")
    if c.location not in ("paris", "front"):
        problems.append(f"{where}.location: must be paris or front, got {c.location!r}")
    for name in ("horses", "wounds", "missed_months", "lonely_months", "favour_serial"):
        if getattr(c, name) < 0:
            problems.append(f"{where}.{name}: must not be negative, got {getattr(c, name)}")
    return problems


def _house(area: str, kind: str, where: str, tables: Tables) -> list[str]:
    problems = []
    if area not in {a.key for a in tables.areas}:
        problems.append(f"{where}.area: no area {area!r}")
    if kind not in {h.key for h in tables.housing_types}:
        problems.append(f"{where}.kind: no housing type {kind!r}")
    return problems
