"""Activity orders (DWTK 13.4): ``DO <kind> ...`` — the value, canonical line and parser.

Moved out of orders.py (which keeps the other lines and `TurnOrders`).  Characters are
written as ``PC``, an id or a card name; see docs/dwtk-orders.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from moderator.games.dwtk.frozen import fast_init
from moderator.games.dwtk.names import FANDONIA, Names
from moderator.games.dwtk.standing import BadOrder as _Bad

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

    def to_dict(self) -> JSON:  # (_value_: the enum's .value property is slow)
        return {"kind": self.kind._value_, "who": list(self.who), "office": self.office,
                "place": self.place, "draw": self.draw._value_ if self.draw else None,
                "intrigue": self.intrigue, "by": self.by, "cards": self.cards,
                "card": self.card, "table": self.table, "buy": self.buy}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Activity:
        return cls(_KINDS.get(d["kind"]) or ActivityKind(d["kind"]), tuple(d.get("who", ())),
                   d.get("office"),
                   d.get("place"), Draw(d["draw"]) if d.get("draw") else None,
                   bool(d.get("intrigue", False)), d.get("by"), int(d.get("cards", 1)),
                   d.get("card"), d.get("table"), bool(d.get("buy", False)))


def format_activity(a: Activity, n: Names) -> str:
    who = ", ".join(n.who(w) for w in a.who)
    if a.kind is ActivityKind.OFFICE:
        return f"DO OFFICE {n.office(a.office or '')} : {who}"
    if a.kind in (ActivityKind.TRAVEL, ActivityKind.ESCAPE):
        line = f"DO {a.kind._value_.upper()} {who} TO {n.place(a.place or FANDONIA)}"
        return line + (f" WITH {n.card(a.card).upper()}" if a.card else "")
    if a.kind is ActivityKind.DRAW:
        return f"DO DRAW {(a.draw or Draw.EVENT).value.upper()}"
    if a.kind is ActivityKind.AMNESTY:
        return "DO AMNESTY"
    if a.kind is ActivityKind.INTRIGUE:
        return f"DO INTRIGUE {n.player(a.who[0])}"
    if a.kind is ActivityKind.PRESTIGE:
        line = f"DO PRESTIGE {n.tables.prestige[a.table or ''].name}"
        line += f" CAPTAIN {n.who(a.by)}" if a.by is not None else ""
        return line + (" BUY +1" if a.buy else "")
    if a.kind is ActivityKind.WEDDING:
        return f"DO WEDDING {' AND '.join(n.who(w) for w in a.who)}"
    if a.kind is ActivityKind.EXTRADITE and a.intrigue:
        return f"DO EXTRADITE {who} WITH INTRIGUE"
    line = f"DO {a.kind._value_.upper()} {who}"
    if a.by is not None:
        line += f" BY {n.who(a.by)}"
    if a.kind is ActivityKind.ASSASSINATE and a.cards != 1:
        line += f" WITH {a.cards} CARDS"
    if a.by is not None or a.kind is ActivityKind.ASSASSINATE:
        return line
    return f"DO {a.kind._value_.upper()} {who}"


# -- parser speed: precompiled patterns, kinds by word (the line syntax is unchanged) --
_WHO_SPLIT = re.compile(r"\s*(?:,|\bAND\b)\s*", re.IGNORECASE)
_SEDUCE = re.compile(r"^(.+?)\s+BY\s+(.+)$", re.IGNORECASE)
_TRAVEL = re.compile(r"^(.*)\s+TO\s+(.+?)(?:\s+WITH\s+(PRISON GUARDS|PORT GUARDS))?$",
                     re.IGNORECASE)
_EXTRADITE = re.compile(r"^(.*?)(\s+WITH\s+INTRIGUE)?$", re.IGNORECASE)
_ATTACK = re.compile(r"^(.*?)(?:\s+BY\s+(.+?))?(?:\s+WITH\s+(\d+)\s+CARDS?)?$", re.IGNORECASE)
_PRESTIGE = re.compile(r"^(.+?)(?:\s+CAPTAIN\s+(.+?))?(\s+BUY\s*\+\s*1)?$", re.IGNORECASE)
_KINDS = {k.value: k for k in ActivityKind}


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
            raise _Bad(f"no character called {part!r}",
                       "write PC, an id such as 23, or a card name such as Sir Jeffrey")
        out.append(key)
    if not out:
        raise _Bad("name at least one character", "e.g. DO TITLE PC")
    return tuple(out)


def parse_activity(rest: str, n: Names) -> Activity:
    word, _, tail = rest.strip().partition(" ")
    kind = word.lower()
    if kind == PRIVATEER:
        return _prestige(f"privateering {tail}", n)
    k = _KINDS.get(kind)
    if k is None:
        known = ", ".join(a.value.upper() for a in ActivityKind)
        raise _Bad(f"unknown activity {word!r}", f"one of: {known}") from None
    if k is ActivityKind.AMNESTY:
        return Activity(k)
    if k is ActivityKind.INTRIGUE:
        victim = n.read_player(tail)
        if victim is None:
            raise _Bad(f"no player called {tail.strip()!r}",
                       "name the opponent whose hand you intrigue, e.g. DO INTRIGUE Bob")
        return Activity(k, (victim,))
    if k is ActivityKind.PRESTIGE:
        return _prestige(tail, n)
    if k is ActivityKind.SEDUCE:
        m = _SEDUCE.match(tail.strip())
        if not m:
            raise _Bad("DO SEDUCE needs the man and BY the woman",
                       "e.g. DO SEDUCE Sir Guy BY Lady Anne (DWTK 13.4.15)")
        who, by = who_list(m.group(1), n), who_list(m.group(2), n)
        if len(who) != 1 or len(by) != 1:
            raise _Bad("DO SEDUCE takes one man and one woman", "DWTK 13.4.15")
        return Activity(k, who, by=by[0])
    if k is ActivityKind.WEDDING:
        who = who_list(tail, n)
        if len(who) != 2:
            raise _Bad("DO WEDDING takes the two characters to marry",
                       "e.g. DO WEDDING 23 AND 58 (DWTK 13.4.16)")
        return Activity(k, who)
    if k is ActivityKind.DRAW:
        try:
            return Activity(k, draw=Draw(tail.strip().lower()))
        except ValueError:
            raise _Bad("DO DRAW needs LOYALTY, OPPORTUNITY or EVENT") from None
    if k is ActivityKind.OFFICE:
        office_text, sep, who = tail.partition(":")
        office = n.read_office(office_text)
        if not sep or office is None:
            raise _Bad("DO OFFICE needs an office and a character",
                       "e.g. DO OFFICE Minister Of The Navy : PC")
        return Activity(k, who_list(who, n), office=office)
    if k in (ActivityKind.TRAVEL, ActivityKind.ESCAPE):
        m = _TRAVEL.match(tail.strip())
        if not m or (m.group(3) and k is ActivityKind.TRAVEL):
            raise _Bad(f"DO {k.value.upper()} needs characters and TO a country",
                       "e.g. DO TRAVEL PC, 23 TO Epalin; DO ESCAPE 23 TO Epalin WITH PORT GUARDS")
        place = n.read_place(m.group(2))
        if place is None:
            raise _Bad(f"no country called {m.group(2)!r}",
                       "Sandarkan, Epalin, Cronos, The City States, Besyzan or Fandonia")
        who = who_list(m.group(1), n)
        if k is ActivityKind.ESCAPE and (len(who) != 1 or place == FANDONIA):
            raise _Bad("DO ESCAPE takes one character and a country abroad",
                       "e.g. DO ESCAPE PC TO Cronos (DWTK 13.4.10)")
        card = n.read_card(m.group(3)) if m.group(3) else None
        return Activity(k, who, place=place, card=card)
    if k is ActivityKind.EXTRADITE:
        m = _EXTRADITE.match(tail.strip())
        who = who_list(m.group(1) if m else tail, n)
        if len(who) != 1:
            raise _Bad("DO EXTRADITE takes one character", "e.g. DO EXTRADITE 23 WITH INTRIGUE")
        return Activity(k, who, intrigue=bool(m and m.group(2)))
    if k in (ActivityKind.SCANDAL, ActivityKind.ASSASSINATE, ActivityKind.FAVOR):  # 17.2.4
        m = _ATTACK.match(tail.strip())
        who = who_list(m.group(1) if m else tail, n)
        by = who_list(m.group(2), n) if m and m.group(2) else (None,)
        cards = int(m.group(3)) if m and m.group(3) else 1
        if len(who) != 1 or len(by) != 1 or (
                m and m.group(3) and k is not ActivityKind.ASSASSINATE):
            raise _Bad(f"DO {k.value.upper()} takes one character, and one henchman BY",
                       "e.g. DO ASSASSINATE Sir Guy BY Duke Roland WITH 2 CARDS")
        return Activity(k, who, by=by[0], cards=cards)
    who = who_list(tail, n)
    if k in (ActivityKind.COUNSELOR, ActivityKind.HENCHMAN, ActivityKind.PARDON,
             ActivityKind.FAVOR, ActivityKind.TREACHERY) and len(who) != 1:
        raise _Bad(f"DO {k.value.upper()} takes one character")
    return Activity(k, who)


def _prestige(tail: str, n: Names) -> Activity:
    """``DO PRESTIGE <table> [CAPTAIN <henchman>] [BUY +1]`` (13.4.17, 13.4.17.1)."""
    m = _PRESTIGE.match(tail.strip())
    word = " ".join(m.group(1).lower().split()) if m else ""
    table = next((t.key for t in n.tables.prestige.values()
                  if word in (t.key, t.name.lower())), None)
    if m is None or table is None:
        names = ", ".join(t.name for t in n.tables.prestige.values())
        raise _Bad(f"no Prestige Table called {word!r}", f"one of: {names}")
    if m.group(2) and table != "privateering":
        raise _Bad("only a privateer has a CAPTAIN", "DWTK 13.4.17.1")
    by = who_list(m.group(2), n) if m.group(2) else (None,)
    if len(by) != 1:
        raise _Bad("one captain", "e.g. DO PRESTIGE Privateering CAPTAIN Duke Roland")
    return Activity(ActivityKind.PRESTIGE, table=table, by=by[0], buy=bool(m.group(3)))
