"""Read a family's order text (fief-email.md §2.4, docs/fief-orders.md).

One order a line, ``#`` starts a comment, keywords in any case; ``GAME:`` and
``PASSWORD:`` lines belong to the service.  Every line is read; every problem is kept with
its line number and a hint (never just the first), and every accepted line is read back
in normal form (`orders.format`).

The orders are read one family a module (`orders.readers`: cards, church, economy,
movement, court, war); this module holds the keyword table (`PARSERS`), reads a line and
a whole text, and the `AT <window>` lines (`orders.readers.windows`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from moderator.games.base import OrderError
from moderator.games.fief.orders.errors import BadSyntax, OrderParseError, UnknownOrder
from moderator.games.fief.orders.readers import cards, church, court, economy, movement, war
from moderator.games.fief.orders.readers.context import RELICS, Context
from moderator.games.fief.orders.readers.windows import (
    ANY_TIME,
    DISCARD_WINDOW,
    WINDOW_IDS,
    WINDOWS,
    jsonish,
    read_condition,
    read_window,
)
from moderator.games.fief.orders.values import Order, PlayFortune, Reaction

SERVICE_LINES = re.compile(r"^\s*(GAME|PASSWORD|PLAYER|CHARACTER)\s*:", re.I)

PARSERS: dict[str, Callable[[Context, str], Order]] = {
    **movement.KEYWORDS, **cards.KEYWORDS, **economy.KEYWORDS, **court.KEYWORDS,
    **church.KEYWORDS, **war.KEYWORDS,
}


def parse_line(ctx: Context, text: str) -> Order:
    line = text.strip()
    family = None
    m = re.match(r"^(\w+)\s*:\s*(.+)$", line)
    if m and m.group(1).title() in ctx.all_families:
        if m.group(1).title() not in ctx.families:
            raise OrderParseError(f"{m.group(1).title()} is not your family")
        family, line = m.group(1).title(), m.group(2)
    at = re.match(r"^AT\s+(\S+)\s+(.+)$", line, re.I)
    if at:
        return _window_line(ctx, at.group(1), at.group(2), family)
    word, _, rest = line.partition(" ")
    parser = PARSERS.get(word.upper())
    if parser is None:
        raise UnknownOrder(f"unknown order {word!r}")
    order = parser(ctx, rest.strip())
    if family is not None:
        order = replace(order, family=family)
    return order


def parse_text(ctx: Context, text: str) -> tuple[list[tuple[int, Order]], list[OrderError]]:
    orders: list[tuple[int, Order]] = []
    errors: list[OrderError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or SERVICE_LINES.match(line):
            continue
        try:
            orders.append((number, parse_line(ctx, line)))
        except OrderParseError as e:
            errors.append(OrderError(number, raw.strip(), e.message, e.hint))
    return orders, errors


def _card_order(ctx: Context, text: str, window: str) -> Order:
    """The card order of a window line; `PLAY` before it is optional."""
    word = text.split(" ", 1)[0].upper()
    line = text if word in PARSERS else f"PLAY {text}"
    order = parse_line(ctx, line)
    if not isinstance(order, ANY_TIME) or (
            isinstance(order, PlayFortune) and (order.card != "Good Weather"
                                                 or order.window != "cards")):
        if window == "discard":
            raise BadSyntax("only an Opportunity card is played at the Discard (FAQ P2 F10)",
                            "AT DISCARD ASSASSINATE William BY Lucia")
        raise BadSyntax("outside Phase 2D only Opportunity cards (Good Weather, Rebellion, "
                        "Passage, Assassination, Justice, Ambush, Mercenaries, Burghers), "
                        "relic and retainer powers and gifts are played (FE 2.6, 10.0, 11.0)",
                        "AT END JUSTICE Godfrey")
    return order


def _window_line(ctx: Context, window_text: str, rest: str, family: str | None) -> Order:
    """`AT <window> [PLAY] <card order>` (one-shot, this turn) or
    `AT <window> IF <condition> PLAY|THEN <card order>` (a standing reaction)."""
    window = read_window(window_text)
    m = re.match(r"^IF\s+(.+?)\s+(?:THEN|PLAY)\s+(.+)$", rest.strip(), re.I)
    order = _card_order(ctx, m.group(2) if m else rest, window)
    if family is not None:
        order = replace(order, family=family)
    if m:
        return Reaction(window=window, condition=read_condition(ctx, m.group(1)),
                        play=jsonish(order.to_dict()), family=family)
    return order if window == "cards" else replace(order, at=window)


__all__ = [
    "ANY_TIME",
    "DISCARD_WINDOW",
    "PARSERS",
    "RELICS",
    "SERVICE_LINES",
    "WINDOWS",
    "WINDOW_IDS",
    "Context",
    "parse_line",
    "parse_text",
]
