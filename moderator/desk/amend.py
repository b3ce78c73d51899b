"""`state amend`: change the open turn's state by dotted path, with a diff first.

PATH is a dotted path into the state JSON (``characters.jacques-de-lyon.crowns``; list
items by index: ``loans.0.amount``); VALUE is JSON (``500``, ``"Paris"``, ``true``,
``{"a": 1}``); a VALUE that is not valid JSON is taken as a string.

* ``--set PATH=VALUE``: replace (or create) the value;
* ``--grant PATH=VALUE``: add VALUE to a number, append it to a list, or merge a table
  into a table;
* ``--remove PATH``: delete the key (or list item); ``--remove PATH=VALUE`` removes that
  value from a list.

The amended state must still load in the game's engine.  The change is audited and
announced in the next gazette's GM notes.
"""

from __future__ import annotations

import copy
import difflib
import json
from dataclasses import dataclass
from typing import Any

from moderator.desk.errors import DeskError

_MISSING = object()


@dataclass(frozen=True)
class Change:
    op: str  # set | grant | remove
    path: str
    value: Any = _MISSING

    def describe(self) -> str:
        if self.value is _MISSING:
            return f"{self.op} {self.path}"
        return f"{self.op} {self.path}={json.dumps(self.value, ensure_ascii=False)}"


def parse_change(op: str, text: str) -> Change:
    """``PATH=VALUE`` (or ``PATH`` for --remove) into a `Change`."""
    path, sep, raw = text.partition("=")
    path = path.strip()
    if not path:
        raise DeskError(f"--{op} {text!r}: give PATH=VALUE")
    if not sep:
        if op != "remove":
            raise DeskError(f"--{op} {text!r}: give PATH=VALUE")
        return Change(op, path)
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return Change(op, path, value)


def _step(node: Any, part: str, path: str) -> Any:
    if isinstance(node, dict):
        if part not in node:
            raise DeskError(f"{path}: no key {part!r} (known: {', '.join(sorted(node))[:200]})")
        return node[part]
    if isinstance(node, list):
        try:
            return node[int(part)]
        except (ValueError, IndexError):
            raise DeskError(f"{path}: {part!r} is not an index of a list of "
                            f"{len(node)}") from None
    raise DeskError(f"{path}: {part!r} is inside a {type(node).__name__}, not a table")


def _parent(state: Any, path: str) -> tuple[Any, str]:
    parts = path.split(".")
    node = state
    for part in parts[:-1]:
        node = _step(node, part, path)
    return node, parts[-1]


def get(state: Any, path: str) -> Any:
    parent, last = _parent(state, path)
    return _step(parent, last, path)


def apply(state: dict[str, Any], change: Change) -> None:
    """Apply one change in place; a problem raises `DeskError` naming the path."""
    parent, last = _parent(state, change.path)
    if change.op == "set":
        _put(parent, last, change.value, change.path, create=True)
    elif change.op == "grant":
        _put(parent, last, _granted(_step(parent, last, change.path), change), change.path)
    elif change.op == "remove":
        _remove(parent, last, change)
    else:
        raise DeskError(f"unknown change {change.op!r}")


def _put(parent: Any, last: str, value: Any, path: str, create: bool = False) -> None:
    if isinstance(parent, dict):
        if last not in parent and not create:
            raise DeskError(f"{path}: no such key")
        parent[last] = value
    elif isinstance(parent, list):
        _step(parent, last, path)
        parent[int(last)] = value
    else:
        raise DeskError(f"{path}: cannot set inside a {type(parent).__name__}")


def _granted(old: Any, change: Change) -> Any:
    value = change.value
    if isinstance(old, bool) or isinstance(value, bool):
        raise DeskError(f"{change.path}: --grant adds to numbers, lists and tables; "
                        "use --set for yes/no values")
    if isinstance(old, int | float) and isinstance(value, int | float):
        return old + value
    if isinstance(old, list):
        return [*old, value]
    if isinstance(old, dict) and isinstance(value, dict):
        return {**old, **value}
    raise DeskError(f"{change.path}: cannot grant {value!r} to {old!r}")


def _remove(parent: Any, last: str, change: Change) -> None:
    if change.value is not _MISSING:
        items = _step(parent, last, change.path)
        if not isinstance(items, list) or change.value not in items:
            raise DeskError(f"{change.path}: {change.value!r} is not in that list")
        items.remove(change.value)
    elif isinstance(parent, dict):
        _step(parent, last, change.path)
        del parent[last]
    elif isinstance(parent, list):
        _step(parent, last, change.path)
        del parent[int(last)]
    else:
        raise DeskError(f"{change.path}: cannot remove from a {type(parent).__name__}")


def amended(state: dict[str, Any], changes: list[Change]) -> dict[str, Any]:
    """A copy of ``state`` with every change applied (the original is untouched)."""
    new = copy.deepcopy(state)
    for change in changes:
        apply(new, change)
    return new


def diff(before: dict[str, Any], after: dict[str, Any]) -> str:
    """A unified diff of the two states as indented JSON (what the GM confirms)."""
    def lines(value: Any) -> list[str]:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False).splitlines()

    return "\n".join(difflib.unified_diff(lines(before), lines(after), "state before",
                                          "state after", n=2, lineterm=""))


def summary(before: dict[str, Any], changes: list[Change], after: dict[str, Any]) -> str:
    """One line per change: ``path: old -> new`` (for the audit log and the GM note)."""
    parts = []
    for change in changes:
        try:
            old = json.dumps(get(before, change.path), ensure_ascii=False)
        except DeskError:
            old = "(none)"
        try:
            new = json.dumps(get(after, change.path), ensure_ascii=False)
        except DeskError:
            new = "(removed)"
        parts.append(f"{change.path}: {old} -> {new}")
    return "; ".join(parts)
