"""Order values, their canonical syntax (`format`) and the parser (`parse_orders`).

One order per line; anything after ``#`` is a comment.  Characters
are written as ``PC``, an id (``23``) or a card name (``Sir Jeffrey``); royals by name
(``Alan`` or ``Prince Alan``); offices by key or name (``navy``, ``Minister Of The
Navy``).  Every problem is collected with its line number and a hint (style rule 5).
See docs/dwtk-orders.md for the language and docs/dwtk-by-email.md for the turn cycle.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from moderator.games.base import OrderError, ParsedOrders
from moderator.games.dwtk.counsel_orders import CounselOrder, format_counsel, parse_counsel
from moderator.games.dwtk.names import FANDONIA, PC, Names
from moderator.games.dwtk.standing import BadOrder as _Bad
from moderator.games.dwtk.standing import Reaction, format_reaction, parse_reaction
from moderator.games.dwtk.tables import Tables

JSON = dict[str, Any]
_IGNORED = re.compile(r"^(GAME|PASSWORD|CHARACTER|PLAYER|TURN)\s*:", re.IGNORECASE)


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


# Activities of 13.4 the parser knows by name but the engine does not do yet.
NOT_YET = {"escape": "13.4.10",
           "intrigue": "13.4.12", "treachery": "13.4.14",
           "seduce": "13.4.15", "wedding": "13.4.16", "prestige": "13.4.17",
           "privateer": "13.4.17.1"}
NOT_YET_LINES = {"PROPOSE": "18.4", "USURP": "36", "BRIBE": "13.4.20"}


class Draw(StrEnum):
    LOYALTY = "loyalty"
    OPPORTUNITY = "opportunity"
    EVENT = "event"


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

    def to_dict(self) -> JSON:
        return {"kind": self.kind.value, "who": list(self.who), "office": self.office,
                "place": self.place, "draw": self.draw.value if self.draw else None,
                "intrigue": self.intrigue, "by": self.by, "cards": self.cards}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Activity:
        return cls(ActivityKind(d["kind"]), tuple(d.get("who", ())), d.get("office"),
                   d.get("place"), Draw(d["draw"]) if d.get("draw") else None,
                   bool(d.get("intrigue", False)), d.get("by"), int(d.get("cards", 1)))


class Stance(StrEnum):
    """What a PC/FAC Minister or modifier does about a political problem (7.4, 7.6)."""

    FAIL = "fail"  # the responsible Minister deliberately lets it stand
    PLUS = "+"
    MINUS = "-"


@dataclass(frozen=True)
class TurnOrders:
    """One player's orders for one turn (JSON via to_dict/from_dict)."""

    activities: tuple[Activity, ...] = ()
    buy_pp: int = 0  # 35.8
    align: tuple[str, ...] = ()  # royals to align by card (14.5.19)
    discard: tuple[str, ...] = ()  # card kinds, voluntary discards in order (14.2.1)
    keep_last: tuple[str, ...] = ()  # hand-limit and forced discards: these kinds last
    bids: tuple[tuple[str, str], ...] = ()  # (office, who) for the next Office Phase (6.1)
    stances: tuple[tuple[str, Stance], ...] = ()  # (problem, stance) (7.4, 7.6)
    draw_only: Draw | None = None  # 24.3, 29.2, 30.2: the one draw allowed
    reactions: tuple[Reaction, ...] = ()  # new standing reactions (14.1, standing.py)
    withdraw: tuple[int, ...] = ()  # WITHDRAW REACTION n
    counsels: tuple[CounselOrder, ...] = ()  # COUNSEL lines in priority order (15)

    def to_dict(self) -> JSON:
        return {
            "activities": [a.to_dict() for a in self.activities],
            "buy_pp": self.buy_pp,
            "align": list(self.align),
            "discard": list(self.discard),
            "keep_last": list(self.keep_last),
            "bids": [list(b) for b in self.bids],
            "stances": [[p, s.value] for p, s in self.stances],
            "draw_only": self.draw_only.value if self.draw_only else None,
            "reactions": [r.to_dict() for r in self.reactions],
            "withdraw": list(self.withdraw),
            "counsels": [c.to_dict() for c in self.counsels],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> TurnOrders:
        if not d:
            return cls()
        return cls(
            tuple(Activity.from_dict(a) for a in d.get("activities", ())),
            int(d.get("buy_pp", 0)),
            tuple(d.get("align", ())),
            tuple(d.get("discard", ())),
            tuple(d.get("keep_last", ())),
            tuple((b[0], b[1]) for b in d.get("bids", ())),
            tuple((p, Stance(s)) for p, s in d.get("stances", ())),
            Draw(d["draw_only"]) if d.get("draw_only") else None,
            tuple(Reaction.from_dict(r) for r in d.get("reactions", ())),
            tuple(int(n) for n in d.get("withdraw", ())),
            tuple(CounselOrder.from_dict(c) for c in d.get("counsels", ())),
        )


def format_activity(a: Activity, n: Names) -> str:
    who = ", ".join(n.who(w) for w in a.who)
    if a.kind is ActivityKind.OFFICE:
        return f"DO OFFICE {n.office(a.office or '')} : {who}"
    if a.kind is ActivityKind.TRAVEL:
        return f"DO TRAVEL {who} TO {n.place(a.place or FANDONIA)}"
    if a.kind is ActivityKind.DRAW:
        return f"DO DRAW {(a.draw or Draw.EVENT).value.upper()}"
    if a.kind is ActivityKind.AMNESTY:
        return "DO AMNESTY"
    if a.kind is ActivityKind.EXTRADITE and a.intrigue:
        return f"DO EXTRADITE {who} WITH INTRIGUE"
    line = f"DO {a.kind.value.upper()} {who}"
    if a.by is not None:
        line += f" BY {n.who(a.by)}"
    if a.kind is ActivityKind.ASSASSINATE and a.cards != 1:
        line += f" WITH {a.cards} CARDS"
    if a.by is not None or a.kind is ActivityKind.ASSASSINATE:
        return line
    return f"DO {a.kind.value.upper()} {who}"


def format_orders(o: TurnOrders, n: Names) -> tuple[str, ...]:
    """Canonical lines; `parse_orders` reads them back to the same `TurnOrders`."""
    lines = [format_activity(a, n) for a in o.activities]
    if o.buy_pp:
        lines.append(f"BUY {o.buy_pp} PP")
    lines += [f"ALIGN {n.who(r)}" for r in o.align]
    lines += [f"DISCARD {n.card(c)}" for c in o.discard]
    lines += [f"KEEP {n.card(c)}" for c in o.keep_last]
    lines += [f"BID {n.office(office)} : {n.who(who)}" for office, who in o.bids]
    for problem, stance in o.stances:
        word = "FAIL" if stance is Stance.FAIL else stance.value
        lines.append(f"PROBLEM {n.problem(problem)} {word}")
    if o.draw_only:
        lines.append(f"DRAW ONLY {o.draw_only.value.upper()}")
    lines += [format_reaction(r, n) for r in o.reactions]
    lines += [f"WITHDRAW REACTION {k}" for k in o.withdraw]
    lines += [format_counsel(c, n) for c in o.counsels]
    return tuple(lines)


def _who_list(text: str, n: Names) -> tuple[str, ...]:
    out = []
    for part in re.split(r"\s*(?:,|\bAND\b)\s*", text.strip(), flags=re.IGNORECASE):
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


def _activity(rest: str, n: Names) -> Activity:
    word, _, tail = rest.strip().partition(" ")
    kind = word.lower()
    if kind in NOT_YET:
        raise _Bad(f"DO {word.upper()} (DWTK {NOT_YET[kind]}) is not available yet",
                   "see docs/rules-coverage-dwtk.md")
    try:
        k = ActivityKind(kind)
    except ValueError:
        known = ", ".join(a.value.upper() for a in ActivityKind)
        raise _Bad(f"unknown activity {word!r}", f"one of: {known}") from None
    if k is ActivityKind.AMNESTY:
        return Activity(k)
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
        return Activity(k, _who_list(who, n), office=office)
    if k is ActivityKind.TRAVEL:
        m = re.match(r"^(.*)\s+TO\s+(.+)$", tail.strip(), re.IGNORECASE)
        if not m:
            raise _Bad("DO TRAVEL needs characters and TO a country",
                       "e.g. DO TRAVEL PC, 23 TO Epalin")
        place = n.read_place(m.group(2))
        if place is None:
            raise _Bad(f"no country called {m.group(2)!r}",
                       "Sandarkan, Epalin, Cronos, The City States, Besyzan or Fandonia")
        return Activity(k, _who_list(m.group(1), n), place=place)
    if k is ActivityKind.EXTRADITE:
        m = re.match(r"^(.*?)(\s+WITH\s+INTRIGUE)?$", tail.strip(), re.IGNORECASE)
        who = _who_list(m.group(1) if m else tail, n)
        if len(who) != 1:
            raise _Bad("DO EXTRADITE takes one character", "e.g. DO EXTRADITE 23 WITH INTRIGUE")
        return Activity(k, who, intrigue=bool(m and m.group(2)))
    if k in (ActivityKind.SCANDAL, ActivityKind.ASSASSINATE):
        m = re.match(r"^(.*?)(?:\s+BY\s+(.+?))?(?:\s+WITH\s+(\d+)\s+CARDS?)?$",
                     tail.strip(), re.IGNORECASE)
        who = _who_list(m.group(1) if m else tail, n)
        by = _who_list(m.group(2), n) if m and m.group(2) else (None,)
        cards = int(m.group(3)) if m and m.group(3) else 1
        if len(who) != 1 or len(by) != 1 or (m and m.group(3) and k is ActivityKind.SCANDAL):
            raise _Bad(f"DO {k.value.upper()} takes one character, and one henchman BY",
                       "e.g. DO ASSASSINATE Sir Guy BY Duke Roland WITH 2 CARDS")
        return Activity(k, who, by=by[0], cards=cards)
    who = _who_list(tail, n)
    if k in (ActivityKind.COUNSELOR, ActivityKind.HENCHMAN, ActivityKind.PARDON,
             ActivityKind.FAVOR) and len(who) != 1:
        raise _Bad(f"DO {k.value.upper()} takes one character")
    return Activity(k, who)


@dataclass
class _Builder:
    activities: list[Activity] = field(default_factory=list)
    buy_pp: int = 0
    align: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    keep_last: list[str] = field(default_factory=list)
    bids: list[tuple[str, str]] = field(default_factory=list)
    stances: list[tuple[str, Stance]] = field(default_factory=list)
    draw_only: Draw | None = None
    reactions: list[Reaction] = field(default_factory=list)
    withdraw: list[int] = field(default_factory=list)
    counsels: list[CounselOrder] = field(default_factory=list)

    def build(self) -> TurnOrders:
        return TurnOrders(tuple(self.activities), self.buy_pp, tuple(self.align),
                          tuple(self.discard), tuple(self.keep_last), tuple(self.bids),
                          tuple(self.stances), self.draw_only, tuple(self.reactions),
                          tuple(self.withdraw), tuple(self.counsels))


def _line(text: str, b: _Builder, n: Names) -> None:
    head, _, rest = text.partition(" ")
    word = head.upper()
    if word == "DO":
        b.activities.append(_activity(rest, n))
    elif word == "BUY":
        m = re.match(r"^(\d+)\s*PP$", rest.strip(), re.IGNORECASE)
        if not m or int(m.group(1)) < 1:
            raise _Bad("BUY needs a number of PP", "e.g. BUY 2 PP (two IP each, DWTK 35.8)")
        b.buy_pp += int(m.group(1))
    elif word == "ALIGN":
        key = n.read_who(rest)
        if key is None or key.isdigit() or key == PC:
            raise _Bad(f"no royal called {rest.strip()!r}", "e.g. ALIGN Prince Alan")
        b.align.append(key)
    elif word in ("DISCARD", "KEEP"):
        card = n.read_card(rest)
        if card is None:
            raise _Bad(f"no Event card called {rest.strip()!r}", "e.g. DISCARD Informer")
        (b.discard if word == "DISCARD" else b.keep_last).append(card)
    elif word == "BID":
        office_text, sep, who_text = rest.partition(":")
        office = n.read_office(office_text)
        who = n.read_who(who_text) if sep else None
        if office is None or who is None or not (who == PC or who.isdigit()):
            raise _Bad("BID needs an office and your PC or a FAC",
                       "e.g. BID High Minister : PC")
        b.bids.append((office, who))
    elif word == "PROBLEM":
        m = re.match(r"^(.*)\s+(FAIL|\+|-)$", rest.strip(), re.IGNORECASE)
        problem = n.read_problem(m.group(1)) if m else None
        if m is None or problem is None:
            raise _Bad("PROBLEM needs a problem and FAIL, + or -", "e.g. PROBLEM Pirates FAIL")
        stance = m.group(2).lower()
        b.stances.append((problem, Stance.FAIL if stance == "fail" else Stance(stance)))
    elif word == "DRAW" and rest.upper().startswith("ONLY"):
        try:
            b.draw_only = Draw(rest.strip()[4:].strip().lower())
        except ValueError:
            raise _Bad("DRAW ONLY needs LOYALTY, OPPORTUNITY or EVENT") from None
    elif word == "IF":
        b.reactions.append(parse_reaction(text, n))
    elif word == "WITHDRAW":
        m = re.match(r"^REACTION\s+(\d+)$", rest.strip(), re.IGNORECASE)
        if not m:
            raise _Bad("WITHDRAW needs a reaction's number", "e.g. WITHDRAW REACTION 2")
        b.withdraw.append(int(m.group(1)))
    elif word == "COUNSEL":
        b.counsels.append(parse_counsel(rest, n))
    elif word in NOT_YET_LINES:
        raise _Bad(f"{word} (DWTK {NOT_YET_LINES[word]}) is not available yet",
                   "see docs/rules-coverage-dwtk.md")
    else:
        raise _Bad(f"unknown order {head!r}",
                   "orders start with DO, BUY, ALIGN, DISCARD, KEEP, BID, PROBLEM, DRAW ONLY, "
                   "IF, WITHDRAW or COUNSEL")


def parse_orders(text: str, tables: Tables,
                 players: Mapping[str, str] | None = None) -> ParsedOrders:
    """Every line read; every problem collected with its line number (style rule 5).

    ``players`` (key -> name) lets reaction orders name a player (standing.py).
    """
    n = Names.of(tables, players)
    b = _Builder()
    errors: list[OrderError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()  # anything after '#' is a comment
        if not line or _IGNORED.match(line):
            continue
        try:
            _line(line, b, n)
        except _Bad as bad:
            errors.append(OrderError(number, raw, str(bad), bad.hint))
    orders = b.build()
    kinds = [a.kind for a in orders.activities]
    for kind in {k for k in kinds if kinds.count(k) > 1}:
        line = next(i for i, r in enumerate(text.splitlines(), 1)
                    if r.strip().upper().startswith(f"DO {kind.value.upper()}"))
        errors.append(OrderError(line, text.splitlines()[line - 1],
                                 f"DO {kind.value.upper()} appears twice",
                                 "the same activity only once a turn (DWTK 13.1)"))
    return ParsedOrders(orders.to_dict(), format_orders(orders, n), tuple(errors))
