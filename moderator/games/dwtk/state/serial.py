"""The JSON form of the state's values and `evolve` (speed matters: the whole state is
converted twice a turn, and the court replaces values tens of thousands of times a game)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from enum import StrEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

JSON = dict[str, Any]

# `_plain` decides how to convert a value by its type, once per type (`_how`): plain
# scalars as they are; tuples and lists as lists; StrEnums by value; mappings sorted by
# key as text; values with `to_dict` by it; anything else as it is.
_SCALARS: frozenset[type] = frozenset({str, int, bool, float, type(None)})
_SCALAR, _SEQUENCE, _ENUM, _MAPPING, _VALUE, _OTHER = range(6)
_HOW: dict[type, int] = {kind: _SCALAR for kind in _SCALARS}
_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def _how(kind: type) -> int:
    if issubclass(kind, StrEnum):
        return _ENUM
    if issubclass(kind, tuple | list):
        return _SEQUENCE
    if issubclass(kind, Mapping):
        return _MAPPING
    return _VALUE if hasattr(kind, "to_dict") else _OTHER


def _text_key(item: tuple[Any, Any]) -> str:
    return str(item[0])


def _plain(value: Any) -> Any:
    kind = type(value)
    how = _HOW.get(kind)
    if how is None:
        how = _HOW.setdefault(kind, _how(kind))
    if how == _SCALAR:
        return value
    if how == _VALUE:
        return value.to_dict()
    if how == _SEQUENCE:
        if _SCALARS.issuperset(map(type, value)):  # the usual case, checked in C: a copy
            return list(value)
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if how == _MAPPING:
        return {str(k): v if type(v) in _SCALARS else _plain(v)
                for k, v in sorted(value.items(), key=_text_key)}
    if how == _ENUM:
        return value._value_
    return value


def fields_dict(obj: Any, own: tuple[str, Callable[[Any], Any]] | None = None) -> JSON:
    """A dataclass's fields in declaration order, each made plain; ``own``: one field
    (name, conversion) made plain by its own conversion instead (`Player.to_dict`)."""
    found = _FIELDS.get(type(obj))
    if found is None:
        names = tuple(f.name for f in fields(obj))
        get = attrgetter(*names) if len(names) > 1 else (lambda o: (getattr(o, names[0]),))
        found = _FIELDS.setdefault(type(obj), (names, get))
    names, get = found
    values = obj.__dict__
    # just the fields, stored by __init__ in their order: read straight from the __dict__
    items = values.items() if len(values) == len(names) else zip(names, get(obj), strict=True)
    if own is None:
        return {k: v if type(v) in _SCALARS else _plain(v) for k, v in items}
    name, convert = own
    return {k: convert(v) if k == name else v if type(v) in _SCALARS else _plain(v)
            for k, v in items}


V = TypeVar("V", bound="DataclassInstance")


def evolve(obj: V, changes: Mapping[str, Any]) -> V:
    """`dataclasses.replace` for the frozen state values, without the cost of `__init__`
    (the court replaces players and characters tens of thousands of times a game).

    The new value's ``__dict__`` is the old one's with ``changes``; only when that dict
    holds exactly the fields and every change names a field (else `replace`, which
    also raises for a wrong name)."""
    kind = type(obj)
    found = _FIELD_SETS.get(kind)
    if found is None:
        found = _FIELD_SETS.setdefault(kind, frozenset(f.name for f in fields(obj)))
    old = obj.__dict__
    if len(old) != len(found) or not changes.keys() <= found:
        return replace(obj, **changes)
    new = object.__new__(kind)
    new.__dict__.update(old)
    new.__dict__.update(changes)
    return new


_FIELD_SETS: dict[type, frozenset[str]] = {}
