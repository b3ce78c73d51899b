"""Conditions on the throne and on a character's fate, written after a DO or USURP
line: ``... IF MONARCH IS King George``, ``... IF High Minister IS 23``,
``... IF Duke Roland IS FREE`` (several joined by AND; ``IS NOT`` turns one round).

Orders are written days before they are carried out: after one player usurps, the
others' orders against King George would otherwise strike the new Monarch.  A line
whose conditions do not hold when its turn comes is skipped and costs nothing
(`holds`, checked in player.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from moderator.games.dwtk.orders.errors import OrderSyntaxError, UnknownNameError
from moderator.games.dwtk.orders.names import PC, Names

JSON = dict[str, Any]
MONARCH = "monarch"
VACANT = "vacant"
# The fates a condition may name (DWTK 24, 29, 30, 31): FREE is "a normal situation".
FATES = ("free", "alive", "dead", "hiding", "banished", "imprisoned", "abroad")
_SPLIT = re.compile(r"(?:^|\s+)IF\s+", re.IGNORECASE)
_ONE = re.compile(r"^(.+?)\s+IS\s+(NOT\s+)?(.+)$", re.IGNORECASE)
_HINT = ("e.g. IF MONARCH IS King George, IF High Minister IS 23, IF Duke Roland IS FREE "
         f"(fates: {', '.join(f.upper() for f in FATES)})")


@dataclass(frozen=True)
class Condition:
    """``subject`` is ``monarch``, an office key or a character/royal key; ``value`` a
    character/royal key or ``vacant`` (the throne, an office) or one of `FATES`."""

    subject: str
    value: str
    negate: bool = False

    def to_dict(self) -> JSON:
        return {"subject": self.subject, "value": self.value, "negate": self.negate}

    @classmethod
    def from_dict(cls, d: Any) -> Condition:
        return cls(str(d["subject"]), str(d["value"]), bool(d.get("negate", False)))


def split_conditions(text: str, n: Names) -> tuple[str, tuple[Condition, ...]]:
    """The line without its ``IF ...`` part, and the conditions read from it."""
    parts = _SPLIT.split(text, maxsplit=1)
    if len(parts) == 1:
        return text, ()
    return parts[0], tuple(_read(c, n) for c in re.split(r"\s+AND\s+", parts[1].strip(),
                                                         flags=re.IGNORECASE))


def _read(text: str, n: Names) -> Condition:
    m = _ONE.match(text.strip())
    if m is None:
        raise OrderSyntaxError(f"cannot read the condition {text.strip()!r}", _HINT)
    left, negate, right = m.group(1).strip(), bool(m.group(2)), m.group(3).strip()
    if left.upper() == "MONARCH" or n.read_office(left) is not None:
        subject = MONARCH if left.upper() == "MONARCH" else str(n.read_office(left))
        value = VACANT if right.upper() == "VACANT" else n.read_who(right)
        if value is None:
            raise UnknownNameError(f"no one called {right!r}", _HINT)
        return Condition(subject, value, negate)
    who = n.read_who(left)
    if who is None:
        raise UnknownNameError(f"no one, and no office, called {left!r}", _HINT)
    if right.lower() not in FATES:
        raise OrderSyntaxError(f"{right!r} is not a fate", _HINT)
    return Condition(who, right.lower(), negate)


def format_conditions(conditions: tuple[Condition, ...], n: Names) -> str:
    """`` IF MONARCH IS King George AND 23 IS FREE`` (empty for none)."""
    if not conditions:
        return ""
    out = []
    for c in conditions:
        subject = "MONARCH" if c.subject == MONARCH else \
            n.office(c.subject) if c.subject in _offices(n) else n.who(c.subject)
        value = c.value.upper() if c.value in FATES or c.value == VACANT else n.who(c.value)
        out.append(f"{subject} IS {'NOT ' if c.negate else ''}{value}")
    return " IF " + " AND ".join(out)


def _offices(n: Names) -> set[str]:
    return {o.key for o in n.tables.offices}


class _World(Protocol):
    """What `holds` reads of the court."""

    offices: dict[str, str | None]
    players: Any
    royals: Any

    def char(self, cid: int | str) -> Any: ...


def holds(court: _World, player: str, conditions: tuple[Condition, ...]) -> bool:
    """Every condition true now (``PC`` is the player's own noble)."""
    return all(_true(court, player, c) != c.negate for c in conditions)


def _true(court: _World, player: str, c: Condition) -> bool:
    def key(who: str) -> str:
        return str(court.players[player].pc) if who == PC else who

    if c.value not in FATES:  # the throne or an office: who holds it
        holder = court.offices.get(c.subject)
        return holder is None if c.value == VACANT else holder == key(c.value)
    who = key(c.subject)
    if not who.isdigit():  # a royal: alive or dead (royals never hide nor go abroad)
        alive = bool(court.royals[who].alive)
        return {"alive": alive, "free": alive, "dead": not alive}.get(c.value, False)
    ch = court.char(who)
    dead = not ch.alive or ch.face_down_until is not None
    fates: dict[str, bool] = {
        "alive": not dead, "dead": dead, "free": not dead and bool(ch.free),
        "hiding": ch.situation.value == "hiding",
        "banished": ch.situation.value == "banished",
        "imprisoned": ch.situation.value in ("imprisoned", "awaiting_execution"),
        "abroad": bool(ch.abroad)}
    return fates[c.value]
