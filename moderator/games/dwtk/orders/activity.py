"""Activity orders (DWTK 13.4): ``DO <kind> ...`` — the value, canonical line and parser.

The other lines and `TurnOrders` are turn.py.  Characters are
written as ``PC``, an id or a card name; see docs/dwtk-orders.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from moderator.games.dwtk.frozen import fast_init, remembered_dict
from moderator.games.dwtk.orders.conditions import Condition, format_conditions
from moderator.games.dwtk.orders.errors import IllegalOrderError, OrderSyntaxError, UnknownNameError
from moderator.games.dwtk.orders.names import FANDONIA, Names

JSON = dict[str, Any]

class ActivityKind(StrEnum):
    """The activities of DWTK 13.4 implemented so far, by the word after DO."""

    TITLE = "title"  # 13.4.1
    OFFICE = "office"  # 13.4.2
    COUNSELOR = "counselor"  # 13.4.3
    FAVOR = "favor"  # 13.4.4
    PARDON = "pardon"  # 13.4.5
    AMNESTY = "amnesty"  # 13.4.6
    HENCHMAN = "henchman"  # 13.4.7
    RECRUIT = "recruit"  # 13.4.13
    EXTRADITE = "extradite"  # 13.4.11, 25
    SCANDAL = "scandal"  # 13.4.9, 22
    ASSASSINATE = "assassinate"  # 13.4.8, 21
    TRAVEL = "travel"  # 13.4.18
    DRAW = "draw"  # 13.4.19
    ESCAPE = "escape"  # 13.4.10, 25.9 (escape.py)
    INTRIGUE = "intrigue"  # 13.4.12 (intrigue.py): who = (the opponent's player key,)
    TREACHERY = "treachery"  # 13.4.14 (treachery.py): who = (the EAC/EARC,)
    SEDUCE = "seduce"  # 13.4.15 (seduction.py): who = (the male,), by = the female
    WEDDING = "wedding"  # 13.4.16, 18 (romance.py): who = (the two to marry)
    PRESTIGE = "prestige"  # 13.4.17 (prestige.py): table, buy; by = captain (13.4.17.1)


# Written forms of DO PRESTIGE <table>: key, name, and the old DO PRIVATEER.
PRIVATEER = "privateer"


class Draw(StrEnum):
    LOYALTY = "loyalty"
    OPPORTUNITY = "opportunity"
    EVENT = "event"


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class Activity:
    """``DO <kind> ...``: one activity, in the player's priority order (13.1)."""

    kind: ActivityKind
    who: tuple[str, ...] = ()  # character keys, "pc" or royal keys
    office: str | None = None
    place: str | None = None  # a country key or "fandonia" (13.4.18)
    draw: Draw | None = None
    intrigue: bool = False  # DO EXTRADITE x WITH INTRIGUE (25.3, 25.6)
    by: str | None = None  # DO SCANDAL / ASSASSINATE x BY <henchman> (17.2.1)
    cards: int = 1  # DO ASSASSINATE x WITH n CARDS: Assassination cards played (13.4.8)
    card: str | None = None  # DO ESCAPE x TO c WITH PRISON GUARDS / PORT GUARDS (13.4.10)
    table: str | None = None  # DO PRESTIGE <table>: a key of prestige.toml (13.4.17)
    buy: bool = False  # DO PRESTIGE <table> BUY +1: the bought +1 modifier (13.4.17)
    conditions: tuple[Condition, ...] = ()  # ... IF MONARCH IS x (orders/conditions.py)

    def to_dict(self) -> JSON:
        # a sheet's lines are read once per distinct line (Names.read_line): the same
        # values sheet after sheet, their forms worked out once (frozen.remembered_dict)
        return remembered_dict(self, Activity._plain)

    def _plain(self) -> JSON:  # (_value_: the enum's .value property is slow)
        out: JSON = {"kind": self.kind._value_, "who": list(self.who), "office": self.office,
               "place": self.place, "draw": self.draw._value_ if self.draw else None,
               "intrigue": self.intrigue, "by": self.by, "cards": self.cards,
               "card": self.card, "table": self.table, "buy": self.buy}
        if self.conditions:  # only when written: older stored orders keep their JSON
            out["conditions"] = [c.to_dict() for c in self.conditions]
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Activity:
        get, draw = d.get, d.get("draw")  # (every sheet's every DO line, every turn)
        return cls(_KINDS.get(d["kind"]) or ActivityKind(d["kind"]), tuple(get("who", ())),
                   get("office"), get("place"), (_DRAWS.get(draw) or Draw(draw)) if draw else None,
                   bool(get("intrigue", False)), get("by"), int(get("cards", 1)),
                   get("card"), get("table"), bool(get("buy", False)),
                   tuple(Condition.from_dict(c) for c in get("conditions", ())))


def format_activity(a: Activity, n: Names) -> str:
    """The canonical ``DO`` line (`parse_activity` reads it back to the same value)."""
    return _FORMATS.get(a.kind, _format_plain)(a, n) + format_conditions(a.conditions, n)


def _who(a: Activity, n: Names) -> str:
    return ", ".join([n.who(w) for w in a.who])


def _format_plain(a: Activity, n: Names) -> str:
    """DO <kind> <who> [BY <henchman>] [WITH n CARDS] (the assassination's cards only)."""
    line = f"DO {a.kind._value_.upper()} {_who(a, n)}"
    if a.by is not None:
        line += f" BY {n.who(a.by)}"
    if a.cards != 1 and a.kind is ActivityKind.ASSASSINATE:
        line += f" WITH {a.cards} CARDS"
    return line


def _format_travel(a: Activity, n: Names) -> str:  # TRAVEL and ESCAPE
    line = f"DO {a.kind._value_.upper()} {_who(a, n)} TO {n.place(a.place or FANDONIA)}"
    return line + (f" WITH {n.card(a.card).upper()}" if a.card else "")


def _format_prestige(a: Activity, n: Names) -> str:
    line = f"DO PRESTIGE {n.tables.prestige[a.table or ''].name}"
    line += f" CAPTAIN {n.who(a.by)}" if a.by is not None else ""
    return line + (" BUY +1" if a.buy else "")


def _format_extradite(a: Activity, n: Names) -> str:
    if a.intrigue:
        return f"DO EXTRADITE {_who(a, n)} WITH INTRIGUE"
    return _format_plain(a, n)


# The kinds whose line is not `_format_plain`'s (a table: one lookup per activity instead
# of a chain of enum comparisons; this runs for every DO line of every sheet).
_FORMATS: dict[ActivityKind, Callable[[Activity, Names], str]] = {
    ActivityKind.OFFICE: lambda a, n: f"DO OFFICE {n.office(a.office or '')} : {_who(a, n)}",
    ActivityKind.TRAVEL: _format_travel, ActivityKind.ESCAPE: _format_travel,
    ActivityKind.DRAW: lambda a, n: f"DO DRAW {(a.draw or Draw.EVENT)._value_.upper()}",
    ActivityKind.AMNESTY: lambda a, n: "DO AMNESTY",
    ActivityKind.INTRIGUE: lambda a, n: f"DO INTRIGUE {n.player(a.who[0])}",
    ActivityKind.PRESTIGE: _format_prestige,
    ActivityKind.WEDDING: lambda a, n: f"DO WEDDING {' AND '.join(n.who(w) for w in a.who)}",
    ActivityKind.EXTRADITE: _format_extradite,
}


# -- parser speed: precompiled patterns, kinds by word (the line syntax is unchanged) --
_WHO_SPLIT = re.compile(r"\s*(?:,|\bAND\b)\s*", re.IGNORECASE)
_SEDUCE = re.compile(r"^(.+?)\s+BY\s+(.+)$", re.IGNORECASE)
_TRAVEL = re.compile(r"^(.*)\s+TO\s+(.+?)(?:\s+WITH\s+(PRISON GUARDS|PORT GUARDS))?$",
                     re.IGNORECASE)
_EXTRADITE = re.compile(r"^(.*?)(\s+WITH\s+INTRIGUE)?$", re.IGNORECASE)
_ATTACK = re.compile(r"^(.*?)(?:\s+BY\s+(.+?))?(?:\s+WITH\s+(\d+)\s+CARDS?)?$", re.IGNORECASE)
_PRESTIGE = re.compile(r"^(.+?)(?:\s+CAPTAIN\s+(.+?))?(\s+BUY\s*\+\s*1)?$", re.IGNORECASE)
_KINDS = {k.value: k for k in ActivityKind}
_DRAWS = {d.value: d for d in Draw}  # (faster than Draw(...))


def who_list(text: str, n: Names) -> tuple[str, ...]:
    text = text.strip()
    if "," not in text and "and" not in text.lower():  # one name: nothing to split
        key = n.read_who(text) if text else None
        if key is not None:
            return (key,)
    out = []
    for part in _WHO_SPLIT.split(text):
        if not part:
            continue
        key = n.read_who(part)
        if key is None:
            raise UnknownNameError(f"no character called {part!r}",
                                   "write PC, an id such as 23, or a card name such as Sir Jeffrey")
        out.append(key)
    if not out:
        raise OrderSyntaxError("name at least one character", "e.g. DO TITLE PC")
    return tuple(out)


def parse_activity(rest: str, n: Names) -> Activity:
    word, _, tail = rest.strip().partition(" ")
    kind = word.lower()
    if kind == PRIVATEER:
        return _prestige(f"privateering {tail}", n)
    k = _KINDS.get(kind)
    if k is None:
        known = ", ".join(a.value.upper() for a in ActivityKind)
        raise OrderSyntaxError(f"unknown activity {word!r}", f"one of: {known}") from None
    return _PARSERS.get(k, _parse_plain)(k, tail, n)


def _parse_plain(k: ActivityKind, tail: str, n: Names) -> Activity:
    who = who_list(tail, n)
    if len(who) != 1 and k in _ONE_CHARACTER:
        raise OrderSyntaxError(f"DO {k.value.upper()} takes one character")
    return Activity(k, who)


_ONE_CHARACTER = frozenset({ActivityKind.COUNSELOR, ActivityKind.HENCHMAN, ActivityKind.PARDON,
                            ActivityKind.FAVOR, ActivityKind.TREACHERY})


def _parse_intrigue(k: ActivityKind, tail: str, n: Names) -> Activity:
    victim = n.read_player(tail)
    if victim is None:
        raise UnknownNameError(f"no player called {tail.strip()!r}",
                               "name the opponent whose hand you intrigue, e.g. DO INTRIGUE Bob")
    return Activity(k, (victim,))


def _parse_seduce(k: ActivityKind, tail: str, n: Names) -> Activity:
    m = _SEDUCE.match(tail.strip())
    if not m:
        raise OrderSyntaxError("DO SEDUCE needs the man and BY the woman",
                               "e.g. DO SEDUCE Sir Guy BY Lady Anne (DWTK 13.4.15)")
    who, by = who_list(m.group(1), n), who_list(m.group(2), n)
    if len(who) != 1 or len(by) != 1:
        raise OrderSyntaxError("DO SEDUCE takes one man and one woman", "DWTK 13.4.15")
    return Activity(k, who, by=by[0])


def _parse_wedding(k: ActivityKind, tail: str, n: Names) -> Activity:
    who = who_list(tail, n)
    if len(who) != 2:
        raise OrderSyntaxError("DO WEDDING takes the two characters to marry",
                               "e.g. DO WEDDING 23 AND 58 (DWTK 13.4.16)")
    return Activity(k, who)


# 13.4.19 "Draw A Counter Or Card": EVENT, or as a player says it, AN EVENT CARD.
_DRAW_WORDS = re.compile(r"^(?:an?\s+)?(\w+)(?:\s+(?:card|counter))?$")


def _parse_draw(k: ActivityKind, tail: str, n: Names) -> Activity:
    words = _DRAW_WORDS.match(" ".join(tail.lower().split()))
    draw = _DRAWS.get(words.group(1)) if words else None
    if draw is None:
        raise OrderSyntaxError("DO DRAW needs LOYALTY, OPPORTUNITY or EVENT",
                               "e.g. DO DRAW EVENT (or AN EVENT CARD): 1 IP, DWTK 13.4.19")
    return Activity(k, draw=draw)


def _parse_office(k: ActivityKind, tail: str, n: Names) -> Activity:
    office_text, sep, who = tail.partition(":")
    office = n.read_office(office_text)
    if not sep or office is None:
        raise OrderSyntaxError("DO OFFICE needs an office and a character",
                               "e.g. DO OFFICE Minister Of The Navy : PC")
    return Activity(k, who_list(who, n), office=office)


def _parse_travel(k: ActivityKind, tail: str, n: Names) -> Activity:  # TRAVEL and ESCAPE
    m = _TRAVEL.match(tail.strip())
    if not m or (m.group(3) and k is ActivityKind.TRAVEL):
        raise OrderSyntaxError(f"DO {k.value.upper()} needs characters and TO a country",
                               "e.g. DO TRAVEL PC, 23 TO Epalin; "
                               "DO ESCAPE 23 TO Epalin WITH PORT GUARDS")
    place = n.read_place(m.group(2))
    if place is None:
        raise UnknownNameError(f"no country called {m.group(2)!r}",
                               "Sandarkan, Epalin, Cronos, The City States, Besyzan or Fandonia")
    who = who_list(m.group(1), n)
    if k is ActivityKind.ESCAPE and (len(who) != 1 or place == FANDONIA):
        raise OrderSyntaxError("DO ESCAPE takes one character and a country abroad",
                               "e.g. DO ESCAPE PC TO Cronos (DWTK 13.4.10)")
    card = n.read_card(m.group(3)) if m.group(3) else None
    return Activity(k, who, place=place, card=card)


def _parse_extradite(k: ActivityKind, tail: str, n: Names) -> Activity:
    m = _EXTRADITE.match(tail.strip())
    who = who_list(m.group(1) if m else tail, n)
    if len(who) != 1:
        raise OrderSyntaxError("DO EXTRADITE takes one character",
                               "e.g. DO EXTRADITE 23 WITH INTRIGUE")
    return Activity(k, who, intrigue=bool(m and m.group(2)))


def _parse_attack(k: ActivityKind, tail: str, n: Names) -> Activity:
    """SCANDAL, ASSASSINATE, FAVOR: one character [BY <henchman>] (17.2.4) [WITH n CARDS]."""
    m = _ATTACK.match(tail.strip())
    who = who_list(m.group(1) if m else tail, n)
    by = who_list(m.group(2), n) if m and m.group(2) else (None,)
    cards = int(m.group(3)) if m and m.group(3) else 1
    if len(who) != 1 or len(by) != 1 or (
            m and m.group(3) and k is not ActivityKind.ASSASSINATE):
        raise OrderSyntaxError(f"DO {k.value.upper()} takes one character, and one henchman BY",
                               "e.g. DO ASSASSINATE Sir Guy BY Duke Roland WITH 2 CARDS")
    return Activity(k, who, by=by[0], cards=cards)


def _prestige(tail: str, n: Names) -> Activity:
    """``DO PRESTIGE <table> [CAPTAIN <henchman>] [BUY +1]`` (13.4.17, 13.4.17.1)."""
    m = _PRESTIGE.match(tail.strip())
    word = " ".join(m.group(1).lower().split()) if m else ""
    table = next((t.key for t in n.tables.prestige.values()
                  if word in (t.key, t.name.lower())), None)
    if m is None or table is None:
        names = ", ".join(t.name for t in n.tables.prestige.values())
        raise UnknownNameError(f"no Prestige Table called {word!r}", f"one of: {names}")
    if m.group(2) and table != "privateering":
        raise IllegalOrderError("only a privateer has a CAPTAIN", "DWTK 13.4.17.1")
    by = who_list(m.group(2), n) if m.group(2) else (None,)
    if len(by) != 1:
        raise OrderSyntaxError("one captain", "e.g. DO PRESTIGE Privateering CAPTAIN Duke Roland")
    return Activity(ActivityKind.PRESTIGE, table=table, by=by[0], buy=bool(m.group(3)))


# The kinds read otherwise than `_parse_plain` (a table, as `_FORMATS`).
_PARSERS: dict[ActivityKind, Callable[[ActivityKind, str, Names], Activity]] = {
    ActivityKind.AMNESTY: lambda k, tail, n: Activity(k),
    ActivityKind.INTRIGUE: _parse_intrigue,
    ActivityKind.PRESTIGE: lambda k, tail, n: _prestige(tail, n),
    ActivityKind.SEDUCE: _parse_seduce, ActivityKind.WEDDING: _parse_wedding,
    ActivityKind.DRAW: _parse_draw, ActivityKind.OFFICE: _parse_office,
    ActivityKind.TRAVEL: _parse_travel, ActivityKind.ESCAPE: _parse_travel,
    ActivityKind.EXTRADITE: _parse_extradite,
    ActivityKind.SCANDAL: _parse_attack, ActivityKind.ASSASSINATE: _parse_attack,
    ActivityKind.FAVOR: _parse_attack,
}
