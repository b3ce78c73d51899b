"""The windows of a Fief round, as an order line names them (fief-email.md §3.1-3.2).

`AT <window> ...` plays a card order in another window than Phase 2D: `read_window` reads
the window's name or id, `ANY_TIME` says which card orders may be played there (at the
Discard only `DISCARD_WINDOW`), and `read_condition` reads the IF of a standing reaction,
whose card order is kept in its stored form (`jsonish`).
"""

from __future__ import annotations

import re
from typing import Any

from moderator.games.fief.orders.errors import BadSyntax
from moderator.games.fief.orders.readers.context import Context
from moderator.games.fief.orders.values import (
    Ambush,
    Assassinate,
    Chasuble,
    Escape,
    Give,
    Justice,
    Mata,
    PlayFortune,
    PlaySlot,
    Rebellion,
    Shinbone,
)

# FAQ P2 F10: the Opportunity cards a player may play instead of discarding them.
DISCARD_WINDOW = (Assassinate, Justice, Ambush, Escape, Rebellion, PlaySlot)


# fief-email.md §3.2: the windows by name and id (cards.windows.WINDOWS has the same list).
WINDOWS = {"HEAR-YE": "hear-ye", "ELECTION": "election", "PARLIAMENT": "parliament",
           "DISCARD": "discard", "DISASTERS": "disasters", "CARDS": "cards",
           "INCOME": "income", "PURCHASE": "purchase", "MOVE": "move",
           "INVADERS": "invaders", "BATTLES": "battles", "PILLAGE": "pillage", "END": "end"}


WINDOW_IDS = {"W1": "hear-ye", "W2": "election", "W3": "parliament", "W4": "discard",
              "W5": "disasters", "W6": "cards", "W7": "income", "W8": "purchase",
              "W9": "move", "W10": "invaders", "W11": "battles", "W13": "pillage",
              "W14": "end"}


# FE 2.6, 10.0, 11.0, 2.15, 12.2-12.4, 2.12: what may be played outside Phase 2D.
ANY_TIME = (*DISCARD_WINDOW, PlayFortune, Chasuble, Shinbone, Mata, Give)


def read_window(text: str) -> str:
    key = text.strip().upper()
    if key in WINDOWS:
        return WINDOWS[key]
    if key in WINDOW_IDS:
        return WINDOW_IDS[key]
    raise BadSyntax(f"no window called {text.strip()!r}",
                    "one of: " + ", ".join(WINDOWS) + " (docs/fief-by-email.md)")


def read_condition(ctx: Context, text: str) -> tuple[str, ...]:
    t = text.strip()
    m = re.match(r"^INVADERS\s+AT\s+(.+)$", t, re.I)
    if m:
        return ("invaders", ctx.city(m.group(1)))
    m = re.match(r"^(STORMS|FAMINE)\s+ON\s+(.+)$", t, re.I)
    if m:
        return (m.group(1).lower(), ctx.region(m.group(2)))
    m = re.match(r"^(.+?)\s+IS\s+(HERETIC|CAPTIVE)$", t, re.I)
    if m:
        return (m.group(2).lower(), ctx.noble(m.group(1)))
    m = re.match(r"^(.+?)\s+IS\s+LORD\s+OF\s+(.+)$", t, re.I)
    if m:
        return ("lord", ctx.noble(m.group(1)), ctx.region(m.group(2)))
    m = re.match(r"^(.+?)\s+AT\s+(.+)$", t, re.I)
    if m:
        return ("at", ctx.noble(m.group(1)), ctx.city(m.group(2)))
    raise BadSyntax(f"cannot read the condition {t!r}",
                    "<noble> IS HERETIC | <noble> IS CAPTIVE | <noble> AT <city> | "
                    "<noble> IS LORD OF <region> | INVADERS AT <city> | STORMS ON <region> | "
                    "FAMINE ON <region>")


def jsonish(value: Any) -> Any:
    """The stored (JSON) form: tuples as lists, so a stored reaction equals a re-read one."""
    if isinstance(value, dict):
        return {k: jsonish(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonish(v) for v in value]
    return value
