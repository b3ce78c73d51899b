"""Loose matching of names: case, apostrophes and plurals do not matter."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from moderator.games.fief.orders.errors import UnknownName

NUMERALS = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}
UNIT_WORDS = {
    "knight": "knight", "knights": "knight",
    "man-at-arms": "men_at_arms", "men-at-arms": "men_at_arms", "maa": "men_at_arms",
    "man at arms": "men_at_arms", "men at arms": "men_at_arms",
    "archer": "archer", "archers": "archer",
    "crossbowman": "crossbow", "crossbowmen": "crossbow", "crossbow": "crossbow",
    "bombard": "bombard", "bombards": "bombard",
    "trebuchet": "trebuchet", "trebuchets": "trebuchet",
}
UNIT_NAMES = {"knight": "KNIGHT", "men_at_arms": "MAN-AT-ARMS", "archer": "ARCHER",
              "crossbow": "CROSSBOWMAN", "bombard": "BOMBARD", "trebuchet": "TREBUCHET"}
UNIT_PLURALS = {"knight": "KNIGHTS", "men_at_arms": "MEN-AT-ARMS", "archer": "ARCHERS",
                "crossbow": "CROSSBOWMEN", "bombard": "BOMBARDS", "trebuchet": "TREBUCHETS"}


def counted_unit(count: int, unit: str) -> str:
    """A count of a unit as a player writes it back: "1 KNIGHT", "2 KNIGHTS" (receipts
    read "BUY 2 KNIGHT" before; the parser takes both)."""
    return f"{count} {UNIT_NAMES[unit] if count == 1 else UNIT_PLURALS[unit]}"


_DROP = str.maketrans("", "", "’'`.")


def fold(text: str) -> str:
    return text.translate(_DROP).strip().lower()


@functools.lru_cache(maxsize=64)
def _table(known: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, str]]:
    choices = tuple(sorted(known))
    return choices, {fold(k): k for k in choices}


def match(text: str, known: Iterable[str], what: str, hint_list: bool = True) -> str:
    """The one known name ``text`` means, else UnknownName with the choices as hint."""
    choices, table = _table(tuple(known))
    found = table.get(fold(text))
    if found is not None:
        return found
    starts = [k for f, k in table.items() if f.startswith(fold(text))] if fold(text) else []
    if len(starts) == 1:
        return starts[0]
    hint = f"one of: {', '.join(choices)}" if hint_list and len(choices) <= 24 else None
    raise UnknownName(f"no {what} called {text.strip()!r}", hint)


def unit(text: str) -> str:
    key = UNIT_WORDS.get(fold(text))
    if key is None:
        raise UnknownName(f"no troop called {text.strip()!r}",
                          "KNIGHT, MAN-AT-ARMS, ARCHER, BOMBARD or TREBUCHET")
    return key
