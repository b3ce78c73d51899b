"""A player's whole message -> `ParsedOrders` (reference §12; EG §D).

Lines are read one by one; section headers (``PREMONTH:``, ``ANYTIME:``,
``WEEK n:``, ``WEEKEND n:``) may stand alone or carry an order, and ``STANDING``
or ``NMR`` in front of a line files it with the standing or no-orders set.
Every problem is collected with its 1-based line number; nothing stops early.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.games.base import OrderError, ParsedOrders
from moderator.games.engarde.checks import check_set
from moderator.games.engarde.lookup import Lookup
from moderator.games.engarde.orders import (
    BuyBox,
    Order,
    Support,
)
from moderator.games.engarde.orderset import MonthOrders, OrderSet, format_month_orders
from moderator.games.engarde.parser import (
    WEEK_KEYWORDS,
    WEEKEND_KEYWORDS,
    Clause,
    OrderSyntaxError,
    ParseProblem,
    ParseProblems,
    parse_general,
    parse_week,
    parse_weekend,
    starts,
)
from moderator.games.engarde.state import GameState
from moderator.games.engarde.tables import Tables

_WHOLE = re.compile(r"^(DUEL|ANNOUNCE|ANNOUNCEMENT)\b", re.IGNORECASE)
_IGNORED = re.compile(r"^(GAME|PASSWORD|CHARACTER|PLAYER|MONTH)\s*:", re.IGNORECASE)
_MODE = re.compile(r"^(STANDING|NMR)\b\s*:?\s*(.*)$", re.IGNORECASE)
_HEADER = re.compile(
    r"^(PREMONTH|PRE-MONTH|ANYTIME|WEEKENDS?|WEEKS?)\s*(\d)?(?:\s*-\s*(\d))?\s*:\s*(.*)$",
    re.IGNORECASE)


@dataclass
class _Set:
    """The orders of one mode (this month, standing or NMR) as they are read."""

    premonth: list[tuple[int, Order]] = field(default_factory=list)
    anytime: list[tuple[int, Order]] = field(default_factory=list)
    weekends: dict[int, tuple[int, Order]] = field(default_factory=dict)
    weeks: dict[int, list[Clause]] = field(default_factory=dict)
    mentioned: bool = False


@dataclass
class _Reader:
    look: Lookup
    errors: list[OrderError] = field(default_factory=list)
    sets: dict[str, _Set] = field(default_factory=lambda: {m: _Set() for m in
                                                           ("month", "standing", "nmr")})
    texts: dict[int, str] = field(default_factory=dict)
    section: tuple[str, tuple[int, ...]] | None = None

    def error(self, line: int, problem: ParseProblem) -> None:
        line = problem.line or line
        self.errors.append(OrderError(line, self.texts.get(line, ""), problem.message,
                                      problem.hint, problem.severity))

    def read(self, line: int, text: str) -> None:
        mode = "month"
        if match := _MODE.match(text):
            mode, text = match.group(1).lower(), match.group(2).strip()
            self.sets[mode].mentioned = True
            if text.upper() == "NONE" or not text:
                return
        section: tuple[str, tuple[int, ...]] | None
        if match := _HEADER.match(text):
            section = self._section(match)
            text = match.group(4).strip()
            if mode == "month":
                self.section = section
            if not text:
                return
        else:
            section = self.section if mode == "month" else ("PREMONTH", ())
        if _WHOLE.match(text):  # duelling orders and announcements: never split on ';'
            self._general(self.sets[mode], line, text, True)
            return
        self._file(mode, section, line, text)

    def _section(self, match: re.Match[str]) -> tuple[str, tuple[int, ...]]:
        name = match.group(1).upper().rstrip("S").replace("-", "")
        if name in ("PREMONTH", "ANYTIME"):
            return name, ()
        first = int(match.group(2) or 0)
        last = int(match.group(3) or first)
        if not 1 <= first <= last <= 4:
            raise OrderSyntaxError(f"{name} numbers run 1-4", f"e.g. {name} 1:")
        return name, tuple(range(first, last + 1))

    def _file(self, mode: str, section: tuple[str, tuple[int, ...]] | None, line: int,
              text: str) -> None:
        target = self.sets[mode]
        name, numbers = section or ("", ())
        if name == "WEEK":
            clauses = [(line, c.strip()) for c in text.split(";") if c.strip()]
            for n in numbers:
                target.weeks.setdefault(n, []).extend(clauses)
        elif name == "WEEKEND":
            order = parse_weekend(text, self.look)
            for n in numbers:
                if n in target.weekends:
                    raise ParseProblem(f"weekend {n} already has an activity",
                                       "one activity per weekend (EG §D)")
                target.weekends[n] = (line, order)
        else:
            for part in (p.strip() for p in text.split(";") if p.strip()):
                self._general(target, line, part, bool(name))

    def _general(self, target: _Set, line: int, text: str, has_section: bool) -> None:
        try:
            order = parse_general(text, self.look)
        except OrderSyntaxError as problem:
            if not has_section and any(starts(text, k) is not None for k in
                                       (*WEEK_KEYWORDS, *WEEKEND_KEYWORDS)):
                problem.hint = "put it under a WEEK n: or WEEKEND n: heading"
            raise
        bucket = target.premonth if isinstance(order, Support | BuyBox) else target.anytime
        bucket.append((line, order))

    def finish(self, mode: str) -> tuple[OrderSet, dict[str, int]]:
        """The parsed set and, for the checks, the line of every slot."""
        s = self.sets[mode]
        weeks: dict[int, Order] = {}
        lines: dict[str, int] = {}
        for n, clauses in sorted(s.weeks.items()):
            try:
                weeks[n] = parse_week(clauses, self.look)
                lines[f"WEEK {n}"] = clauses[0][0]
            except ParseProblem as problem:
                self.error(clauses[0][0], problem)
            except ParseProblems as group:
                for each in group.problems:
                    self.error(clauses[0][0], each)
        for i, (line, _) in enumerate(s.premonth):
            lines[f"PREMONTH {i}"] = line
        for i, (line, _) in enumerate(s.anytime):
            lines[f"ANYTIME {i}"] = line
        for n, (line, _) in s.weekends.items():
            lines[f"WEEKEND {n}"] = line
        orders = OrderSet(tuple(o for _, o in s.premonth), tuple(o for _, o in s.anytime),
                          {n: o for n, (_, o) in sorted(s.weekends.items())}, weeks)
        return orders, lines


def parse_orders(text: str, state: GameState, character: str, tables: Tables,
                 names: Mapping[str, str],
                 ladies: Mapping[str, Mapping[str, Any]] | None = None,
                 look: Lookup | None = None) -> ParsedOrders:
    """Parse one message of orders for ``character`` against the current state.

    ``state`` needs only this character (and his ladies and loans); ``names`` maps
    every character key to a name; ``ladies`` is the state's raw lady dicts (names
    for the lookup, SLs for the receipt's warnings).  ``look``, when given, is the
    `Lookup` of those names, built once for a whole turn's messages.
    """
    ladies = ladies or {}
    reader = _Reader(look or Lookup(names, tables,
                                    {k: str(v["name"]) for k, v in ladies.items()}))
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        reader.texts[number] = raw.rstrip()
        if not line or _IGNORED.match(line):
            continue
        try:
            reader.read(number, line)
        except ParseProblem as problem:
            reader.error(number, problem)
    sets: dict[str, OrderSet | None] = {}
    for mode in ("month", "standing", "nmr"):
        orders, lines = reader.finish(mode)
        if mode != "month" and not reader.sets[mode].mentioned:
            sets[mode] = None
            continue
        orders, problems = check_set(orders, lines, state, character, tables, mode, ladies)
        for at, issue in problems:
            reader.error(at, issue)
        sets[mode] = orders
    month = sets["month"] or OrderSet()
    result = MonthOrders(month, sets["standing"], sets["nmr"])
    # A range ("WEEKS 1-3") checks each week on the same line: one warning is enough.
    errors = sorted(dict.fromkeys(reader.errors), key=lambda e: (e.line, e.severity.value))
    return ParsedOrders(result.to_dict(), tuple(format_month_orders(result, reader.look)),
                        tuple(errors))
