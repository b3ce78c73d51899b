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
from moderator.games.dwtk.frozen import fast_init
from moderator.games.dwtk.orders.activity import (
    Activity,
    Draw,
    format_activity,
    parse_activity,
    who_list,
)
from moderator.games.dwtk.orders.counsel import CounselOrder, format_counsel, parse_counsel
from moderator.games.dwtk.orders.names import PC, Names
from moderator.games.dwtk.orders.reaction import BadOrder as _Bad
from moderator.games.dwtk.orders.reaction import Reaction, format_reaction, parse_reaction
from moderator.games.dwtk.orders.social import (
    BribeOffer,
    Proposal,
    format_bribe,
    format_proposal,
    parse_bribe,
    parse_proposal,
    parse_solicit,
)
from moderator.games.dwtk.orders.usurp import UsurpOrder, format_usurp, parse_usurp
from moderator.games.dwtk.tables import Tables

JSON = dict[str, Any]
_IGNORED = re.compile(r"^(GAME|PASSWORD|CHARACTER|PLAYER|TURN)\s*:", re.IGNORECASE)
_BUY = re.compile(r"^(\d+)\s*PP$", re.IGNORECASE)
_PROBLEM = re.compile(r"^(.*)\s+(FAIL|\+|-)$", re.IGNORECASE)
_WITHDRAW = re.compile(r"^REACTION\s+(\d+)$", re.IGNORECASE)
_LOSE_FIRST = re.compile(r"^FIRST\s+(.+)$", re.IGNORECASE)


class Stance(StrEnum):
    """What a PC/FAC Minister or modifier does about a political problem (7.4, 7.6)."""

    FAIL = "fail"  # the responsible Minister deliberately lets it stand
    PLUS = "+"
    MINUS = "-"


@fast_init  # a faster __init__, the same values (frozen.py)
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
    usurp: UsurpOrder | None = None  # USURP (36, usurp_orders.py)
    hide: tuple[str, ...] = ()  # HIDE x (24.2, 29.5; hiding.py)
    unhide: tuple[str, ...] = ()  # UNHIDE x (24.8)
    suicide: tuple[str, ...] = ()  # SUICIDE x (29.9, 30.10)
    restore: tuple[str, ...] = ()  # RESTORE x (36.10.4)
    dissolve: bool = False  # DISSOLVE (36.14)
    appoint: tuple[tuple[str, str], ...] = ()  # APPOINT office : who (36.14)
    proposals: tuple[Proposal, ...] = ()  # PROPOSE a TO b (18.4; social_orders.py)
    attend: bool = False  # ATTEND WEDDINGS (13.4.16)
    solicit: int = 0  # SOLICIT BRIBE n (13.4.20.1)
    bribe: BribeOffer | None = None  # BRIBE x WITH n IP (13.4.20.2)
    lose_first: tuple[str, ...] | None = None  # LOSE FIRST (35.5); () = NONE, clears it

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
            "usurp": self.usurp.to_dict() if self.usurp else None,
            "hide": list(self.hide), "unhide": list(self.unhide),
            "suicide": list(self.suicide), "restore": list(self.restore),
            "dissolve": self.dissolve, "appoint": [list(a) for a in self.appoint],
            "proposals": [p.to_dict() for p in self.proposals], "attend": self.attend,
            "solicit": self.solicit, "bribe": self.bribe.to_dict() if self.bribe else None,
            "lose_first": None if self.lose_first is None else list(self.lose_first),
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
            UsurpOrder.from_dict(d["usurp"]) if d.get("usurp") else None,
            tuple(d.get("hide", ())), tuple(d.get("unhide", ())),
            tuple(d.get("suicide", ())), tuple(d.get("restore", ())),
            bool(d.get("dissolve", False)),
            tuple((a[0], a[1]) for a in d.get("appoint", ())),
            tuple(Proposal.from_dict(p) for p in d.get("proposals", ())),
            bool(d.get("attend", False)), int(d.get("solicit", 0)),
            BribeOffer.from_dict(d["bribe"]) if d.get("bribe") else None,
            None if d.get("lose_first") is None else tuple(d["lose_first"]),
        )


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
    if o.usurp is not None:
        lines.append(format_usurp(o.usurp, n))
    for word, who in (("HIDE", o.hide), ("UNHIDE", o.unhide), ("SUICIDE", o.suicide),
                      ("RESTORE", o.restore)):
        lines += [f"{word} {n.who(w)}" for w in who]
    if o.dissolve:
        lines.append("DISSOLVE")
    lines += [f"APPOINT {n.office(office)} : {n.who(who)}" for office, who in o.appoint]
    lines += [format_proposal(p, n) for p in o.proposals]
    if o.attend:
        lines.append("ATTEND WEDDINGS")
    if o.solicit:
        lines.append(f"SOLICIT BRIBE {o.solicit}")
    if o.bribe is not None:
        lines.append(format_bribe(o.bribe, n))
    if o.lose_first is not None:  # 35.5: LOSE FIRST NONE clears the standing list
        lines.append("LOSE FIRST " + (", ".join(n.who(k) for k in o.lose_first) or "NONE"))
    return tuple(lines)


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
    usurp: UsurpOrder | None = None
    lists: dict[str, list[str]] = field(default_factory=lambda: {
        "HIDE": [], "UNHIDE": [], "SUICIDE": [], "RESTORE": []})
    dissolve: bool = False
    appoint: list[tuple[str, str]] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)
    attend: bool = False
    solicit: int = 0
    bribe: BribeOffer | None = None
    lose_first: tuple[str, ...] | None = None

    def build(self) -> TurnOrders:
        return TurnOrders(tuple(self.activities), self.buy_pp, tuple(self.align),
                          tuple(self.discard), tuple(self.keep_last), tuple(self.bids),
                          tuple(self.stances), self.draw_only, tuple(self.reactions),
                          tuple(self.withdraw), tuple(self.counsels), self.usurp,
                          *(tuple(self.lists[k]) for k in ("HIDE", "UNHIDE", "SUICIDE",
                                                           "RESTORE")),
                          self.dissolve, tuple(self.appoint), tuple(self.proposals),
                          self.attend, self.solicit, self.bribe, self.lose_first)


def _line(text: str, b: _Builder, n: Names) -> None:
    head, _, rest = text.partition(" ")
    word = head.upper()
    if word == "DO":  # (the most frequent words first: every test below is exclusive)
        b.activities.append(parse_activity(rest, n))
    elif word == "COUNSEL":
        b.counsels.append(parse_counsel(rest, n))
    elif word == "PROPOSE":
        _social_line(word, rest, b, n)
    elif word == "BUY":
        m = _BUY.match(rest.strip())
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
        m = _PROBLEM.match(rest.strip())
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
        m = _WITHDRAW.match(rest.strip())
        if not m:
            raise _Bad("WITHDRAW needs a reaction's number", "e.g. WITHDRAW REACTION 2")
        b.withdraw.append(int(m.group(1)))
    elif word in b.lists:
        for who in who_list(rest, n):
            if not (who == PC or who.isdigit()):
                raise _Bad(f"{word} takes your PC or a FAC", f"e.g. {word} PC")
            b.lists[word].append(who)
        if set(b.lists["HIDE"]) & set(b.lists["UNHIDE"]):
            raise _Bad("HIDE and UNHIDE of the same character",
                       "not in and out of hiding the same turn (DWTK 24.2)")
    elif word == "DISSOLVE" and not rest.strip():
        b.dissolve = True
    elif word == "APPOINT":
        office_text, sep, who_text = rest.partition(":")
        office, who = n.read_office(office_text), n.read_who(who_text) if sep else None
        if office is None or who is None or not (who == PC or who.isdigit()):
            raise _Bad("APPOINT needs an office and a noble", "e.g. APPOINT High Minister : 23")
        if len(b.appoint) == 3:
            raise _Bad("APPOINT at most three offices", "DWTK 36.14")
        b.appoint.append((office, who))
    elif word == "USURP":
        if b.usurp is not None:
            raise _Bad("USURP appears twice", "one usurpation attempt a turn")
        b.usurp = parse_usurp(rest, n)
    else:
        _social_line(word, rest, b, n)


def _social_line(word: str, rest: str, b: _Builder, n: Names) -> None:
    """PROPOSE, ATTEND WEDDINGS, SOLICIT BRIBE, BRIBE (social_orders.py)."""
    if word == "PROPOSE":
        b.proposals.append(parse_proposal(rest, n))
    elif word == "ATTEND" and rest.strip().upper() == "WEDDINGS":
        b.attend = True
    elif word == "SOLICIT":
        if b.solicit:
            raise _Bad("SOLICIT BRIBE appears twice", "one bribe a turn (DWTK 13.4.20.1)")
        b.solicit = parse_solicit(rest)
    elif word == "BRIBE":
        if b.bribe is not None:
            raise _Bad("BRIBE appears twice", "one bribe attempt a turn (DWTK 13.4.20.2)")
        b.bribe = parse_bribe(rest, n)
    elif word == "LOSE":
        if b.lose_first is not None:
            raise _Bad("LOSE FIRST appears twice", "one list, in the order you would lose them")
        b.lose_first = _lose_first(rest, n)
    else:
        raise _Bad(f"unknown order {word!r}",
                   "orders start with DO, BUY, ALIGN, DISCARD, KEEP, BID, PROBLEM, DRAW ONLY, "
                   "IF, WITHDRAW, COUNSEL, USURP, HIDE, UNHIDE, SUICIDE, RESTORE, "
                   "DISSOLVE, APPOINT, PROPOSE, ATTEND WEDDINGS, SOLICIT BRIBE, BRIBE "
                   "or LOSE FIRST")


def _lose_first(rest: str, n: Names) -> tuple[str, ...]:
    """``LOSE FIRST <FAC/FARC>, ...`` or ``LOSE FIRST NONE`` (35.5: whom he loses first
    when over his PP limit; standing until replaced)."""
    m = _LOSE_FIRST.match(rest.strip())
    if m is None:
        raise _Bad("LOSE needs FIRST and a list", "e.g. LOSE FIRST 23, Prince Alan (DWTK 35.5)")
    if m.group(1).strip().upper() == "NONE":
        return ()
    keys = who_list(m.group(1), n)
    if PC in keys:
        raise _Bad("LOSE FIRST lists FACs and FARCs", "your PC is never lost (DWTK 35.5)")
    return tuple(dict.fromkeys(keys))  # a name twice counts once


def parse_orders(text: str, tables: Tables,
                 players: Mapping[str, str] | None = None) -> ParsedOrders:
    """Every line read; every problem collected with its line number (style rule 5).

    ``players`` (key -> name) lets reaction orders name a player (standing.py).
    """
    n = Names.of(tables, players)
    b = _Builder()
    errors: list[OrderError] = []
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = (raw.split("#", 1)[0] if "#" in raw else raw).strip()  # '#': a comment
        if not line or (":" in line and _IGNORED.match(line)):  # (the header needs a ':')
            continue
        try:
            _line(line, b, n)
        except _Bad as bad:
            errors.append(OrderError(number, raw, str(bad), bad.hint))
    orders = b.build()
    kinds = [a.kind for a in orders.activities]
    for kind in {k for k in kinds if kinds.count(k) > 1} if len(set(kinds)) < len(kinds) else ():
        order = f"DO {kind._value_.upper()}"
        line = next(i for i, r in enumerate(lines, 1) if r.strip().upper().startswith(order))
        errors.append(OrderError(line, lines[line - 1], f"{order} appears twice",
                                 "the same activity only once a turn (DWTK 13.1)"))
    return ParsedOrders(orders.to_dict(), format_orders(orders, n), tuple(errors))
