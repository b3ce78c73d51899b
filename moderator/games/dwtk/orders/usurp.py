"""The USURP order (DWTK 36): its value, canonical line and parser.

    USURP [WITH <royal>] [SUPPORT ALL | SUPPORT <card>, <card> ...]

WITH names the FARC used (36.2; needed only when he has more than one FARC other than
Jane, default: the one with the highest Status, then the first in succession order);
without a FARC he uses Thomas (36.3) and WITH may name Thomas or nothing.  SUPPORT lists
the Support cards played (36.4.4), one card per mention (``SUPPORT Army Support, Army
Support`` plays two); ``SUPPORT ALL`` plays every Support card in his hand.  The attempt
is made after his activities (PROPOSED by email: 36.1 "at any time").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from moderator.games.dwtk.frozen import fast_init
from moderator.games.dwtk.orders.conditions import (
    Condition,
    format_conditions,
    split_conditions,
)
from moderator.games.dwtk.orders.errors import OrderSyntaxError, UnknownNameError
from moderator.games.dwtk.orders.names import Names

JSON = dict[str, Any]
_LINE = re.compile(r"^(?:WITH\s+(?P<royal>.+?))?\s*(?:SUPPORT\s+(?P<cards>.+))?$",
                   re.IGNORECASE)
_HINT = "e.g. USURP WITH Prince Alan SUPPORT Army Support, Peasant Support (DWTK 36)"


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class UsurpOrder:
    """``USURP``: attempt to usurp the Monarch this Player Turn (36.1)."""

    royal: str | None = None  # the FARC used, or "thomas"; None: the default (36.2-36.3)
    cards: tuple[str, ...] = ()  # Support card kinds, one per card played (36.4.4)
    all_support: bool = False  # SUPPORT ALL
    conditions: tuple[Condition, ...] = ()  # ... IF MONARCH IS x (orders/conditions.py)

    def to_dict(self) -> JSON:
        out: JSON = {"royal": self.royal, "cards": list(self.cards),
                     "all_support": self.all_support}
        if self.conditions:  # only when written: older stored orders keep their JSON
            out["conditions"] = [c.to_dict() for c in self.conditions]
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> UsurpOrder:
        return cls(d.get("royal"), tuple(d.get("cards", ())), bool(d.get("all_support", False)),
                   tuple(Condition.from_dict(c) for c in d.get("conditions", ())))


def format_usurp(o: UsurpOrder, n: Names) -> str:
    line = "USURP"
    if o.royal is not None:
        line += f" WITH {n.who(o.royal)}"
    if o.all_support:
        line += " SUPPORT ALL"
    elif o.cards:
        line += " SUPPORT " + ", ".join(n.card(c) for c in o.cards)
    return line + format_conditions(o.conditions, n)


def parse_usurp(rest: str, n: Names) -> UsurpOrder:
    rest, conditions = split_conditions(rest, n)
    if conditions:
        return replace(parse_usurp(rest, n), conditions=conditions)
    m = _LINE.match(rest.strip())
    if m is None:
        raise OrderSyntaxError("USURP takes WITH a royal and SUPPORT cards", _HINT)
    royal = None
    if m.group("royal"):
        royal = n.read_who(m.group("royal"))
        if royal is None or royal.isdigit() or royal == "pc" or royal == "jane":
            raise UnknownNameError(f"no royal to usurp with called {m.group('royal').strip()!r}",
                                   "name your FARC or Thomas; Jane never usurps (DWTK 36.3)")
    cards_text = (m.group("cards") or "").strip()
    if cards_text.upper() == "ALL":
        return UsurpOrder(royal, (), True)
    cards = []
    for part in (p for p in re.split(r"\s*,\s*", cards_text) if p):
        card = n.read_card(part)
        if card is None or n.tables.card_kind(card).support is None:
            raise UnknownNameError(f"no Support card called {part!r}", _HINT)
        cards.append(card)
    return UsurpOrder(royal, tuple(cards), False)
