"""`fast_init`: a cheaper ``__init__`` for the engine's frozen value classes (speed only).

The ``__init__`` that ``@dataclass(frozen=True)`` writes stores every field with
``object.__setattr__`` (a global lookup, an attribute lookup and a call per field): about
0.3 µs a field, so building one 11-field `Activity` costs more than parsing its order
line, and the state's characters, players, orders and reactions are built anew every
turn.  `fast_init` gives such a class an ``__init__`` with the same signature and
defaults that writes the fields straight into the instance ``__dict__`` in field order:
the same values, equal and hashed as before, still frozen to every later assignment.

`fast_new` builds the same way, without touching the class, for a frozen class that is not
the engine's to decorate (`moderator.games.base.Event`, emitted some hundred times a turn).

A default factory is called when its argument is left out, as in the generated one.
Classes whose ``__init__`` does more than that (``init=False`` or keyword-only fields,
``InitVar``, ``__post_init__``, slots) keep the generated one.

`remembered_dict` gives a frozen value's JSON form worked out once per value object, as
copies: for the values that are the same objects sheet after sheet and turn after turn
(standing reactions, read back through a memo; the activities of `Names.read_line`).
Not for the nobles and royals: the state is rebuilt from its JSON every turn, so they are
new objects each time and a memo would only cost (measured).  `remembered_forms` does the
same for a whole tuple of such values (a player's standing reactions, some twenty on the
full sheet, converted every turn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from operator import is_
from typing import Any, TypeVar

JSON = dict[str, Any]

T = TypeVar("T")


def _plain_fields(cls: type) -> bool:
    """Does the generated ``__init__`` only store its arguments, one per field?"""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__:
        return False
    if hasattr(cls, "__post_init__"):
        return False
    own = fields(cls)
    if len(own) != len(cls.__dataclass_fields__):  # type: ignore[attr-defined]  # InitVar
        return False
    return all(f.init and not f.kw_only for f in own)


class _Factory:
    """The default of a field with a default factory: 'argument left out'."""


_FACTORY = _Factory()


def _param(f: Any) -> str:
    if f.default is not MISSING:
        return f"{f.name}=_default_{f.name}"
    return f.name if f.default_factory is MISSING else f"{f.name}=_FACTORY"


def _store(f: Any) -> str:
    if f.default_factory is MISSING:
        return f"    d[{f.name!r}] = {f.name}\n"
    return (f"    d[{f.name!r}] = _factory_{f.name}() if {f.name} is _FACTORY "
            f"else {f.name}\n")


def _compile(cls: type, head: str, tail: str) -> Any:
    """The function ``head`` + one store per field + ``tail``, with the class's own
    parameters, defaults and default factories (as dataclasses itself builds __init__)."""
    own = fields(cls)
    scope: dict[str, Any] = {"_FACTORY": _FACTORY, "_cls": cls, "_new": object.__new__}
    scope.update({f"_default_{f.name}": f.default for f in own if f.default is not MISSING})
    scope.update({f"_factory_{f.name}": f.default_factory for f in own
                  if f.default_factory is not MISSING})
    params = ", ".join(_param(f) for f in own)
    source = head.format(params=params) + "".join(_store(f) for f in own) + tail
    code: dict[str, Any] = {}
    exec(source, scope, code)
    return next(iter(code.values()))


def _fits(cls: type) -> bool:
    return is_dataclass(cls) and _plain_fields(cls) and not any(
        f.name in ("self", "d", "_cls", "_new") for f in fields(cls))  # names the code uses


def fast_init(cls: type[T]) -> type[T]:
    """Class decorator, outermost (above ``@dataclass(frozen=True)``)."""
    if not _fits(cls):
        return cls
    init = _compile(cls, "def __init__(self, {params}):\n    d = self.__dict__\n", "")
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def fast_new(cls: type[T]) -> Callable[..., T]:
    """A function building ``cls`` values as `fast_init`'s ``__init__`` would, for a frozen
    class that is not ours to decorate (the framework's `Event`); the class itself is left
    alone.  A class that does not qualify gets its own constructor back."""
    if not _fits(cls):
        return cls
    new: Callable[..., T] = _compile(
        cls, "def new({params}):\n    self = _new(_cls)\n    d = self.__dict__\n",
        "    return self\n")
    return new


def remembered_dict(obj: Any, build: Callable[[Any], JSON]) -> JSON:
    """``build(obj)`` (the JSON form of a frozen value), worked out once per value object,
    then copied.  Speed only: a frozen value's plain form never changes.  Only flat forms
    are kept (scalars and lists of scalars, copied list by list), so a copy shares nothing
    mutable with the one kept, nor with any earlier copy; the value is kept with its form,
    so its id cannot pass to another object while remembered."""
    found = _REMEMBERED.get(id(obj))
    if found is not None and found[0] is obj:
        out = found[1].copy()
        for key in found[2]:
            out[key] = out[key].copy()
        return out
    out = build(obj)
    lists = tuple(k for k, v in out.items() if type(v) is list)
    if all(type(v) in _FLAT for k, v in out.items() if k not in lists) and all(
            _FLAT.issuperset(map(type, out[k])) for k in lists):
        if len(_REMEMBERED) >= _REMEMBERED_KEPT:  # bounded: a long batch of games
            _REMEMBERED.clear()
        kept = out.copy()
        for key in lists:
            kept[key] = kept[key].copy()
        _REMEMBERED[id(obj)] = (obj, kept, lists)
    return out


_FLAT: frozenset[type] = frozenset({str, int, bool, float, type(None)})
# `remembered_dict`'s values by id: (the value, its JSON form, the keys of its lists).
_REMEMBERED: dict[int, tuple[Any, JSON, tuple[str, ...]]] = {}
_REMEMBERED_KEPT = 4096  # a few games' worth: more would only keep the dead alive


def remembered_forms(values: tuple[Any, ...]) -> list[JSON]:
    """``[v.to_dict() for v in values]`` for a tuple of frozen values, worked out once per
    run of the same value objects in the same order, then copied.  Speed only: the standing
    reactions are read back through `Reaction.from_dict`'s memo, so a player's tuple is new
    each turn but holds the same objects, whose forms never change.  Only forms of scalars
    are kept (each copy a new dict, sharing nothing mutable); the values are kept with
    their forms, so their ids cannot pass to other objects while remembered."""
    key = tuple(map(id, values))
    found = _SEQUENCES.get(key)
    if found is not None and all(map(is_, found[0], values)):
        return [form.copy() for form in found[1]]
    forms = [v.to_dict() for v in values]
    if all(_FLAT.issuperset(map(type, form.values())) for form in forms):
        if len(_SEQUENCES) >= _REMEMBERED_KEPT:  # bounded, as `_REMEMBERED`
            _SEQUENCES.clear()
        _SEQUENCES[key] = (tuple(values), [form.copy() for form in forms])
    return forms


# `remembered_forms`'s tuples by their values' ids: (the values, their JSON forms).
_SEQUENCES: dict[tuple[int, ...], tuple[tuple[Any, ...], list[JSON]]] = {}
