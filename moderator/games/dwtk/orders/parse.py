"""The parser: order text -> `TurnOrders` (`parse_orders`, the inverse of
`turn.format_orders`).

One order per line; anything after ``#`` is a comment.  Characters are written as
``PC``, an id (``23``) or a card name (``Sir Jeffrey``); royals by name (``Alan`` or
``Prince Alan``); offices by key or name (``navy``, ``Minister Of The Navy``).  The first
word picks the family parser; a line's problem is a typed `errors.ParseProblem`, and every
one is collected with its line number and a hint (style rule 5).  See docs/dwtk-orders.md
for the language and docs/dwtk-by-email.md for the turn cycle.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from moderator.games.aliases import HINT, alias_problem
from moderator.games.base import OrderError, ParsedOrders
from moderator.games.dwtk.orders.activity import Activity, Draw, parse_activity, who_list
from moderator.games.dwtk.orders.conditions import split_conditions
from moderator.games.dwtk.orders.counsel import CounselOrder, parse_counsel
from moderator.games.dwtk.orders.errors import (
    IllegalOrderError,
    OrderSyntaxError,
    ParseProblem,
    UnknownNameError,
)
from moderator.games.dwtk.orders.names import PC, Names
from moderator.games.dwtk.orders.press import Announcement, parse_announcement
from moderator.games.dwtk.orders.reaction import Reaction, parse_reaction
from moderator.games.dwtk.orders.social import (
    BribeOffer,
    Proposal,
    parse_bribe,
    parse_proposal,
    parse_solicit,
)
from moderator.games.dwtk.orders.turn import Stance, TurnOrders, format_orders
from moderator.games.dwtk.orders.usurp import UsurpOrder, parse_usurp
from moderator.games.dwtk.tables import Tables

_IGNORED = re.compile(r"^(GAME|PASSWORD|CHARACTER|PLAYER|TURN)\s*:", re.IGNORECASE)
_BUY = re.compile(r"^(\d+)\s*(?:PPs?|PP's|power points?)$", re.IGNORECASE)  # 35.8
_PROBLEM = re.compile(r"^(.*)\s+(FAIL|\+|-)$", re.IGNORECASE)
_WITHDRAW = re.compile(r"^REACTION\s+(\d+)$", re.IGNORECASE)
_KEYWORDS = ("orders start with DO, BUY, ALIGN, DISCARD, KEEP, BID, PROBLEM, DRAW ONLY, "
             "IF, WITHDRAW, COUNSEL, USURP, HIDE, UNHIDE, SUICIDE, RESTORE, "
             "DISSOLVE, APPOINT, PROPOSE, ATTEND WEDDINGS, SOLICIT BRIBE, BRIBE, "
             "LOSE FIRST or ANNOUNCE")
_LOSE_FIRST = re.compile(r"^FIRST\s+(.+)$", re.IGNORECASE)


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
    announcements: list[Announcement] = field(default_factory=list)

    def build(self) -> TurnOrders:
        return TurnOrders(tuple(self.activities), self.buy_pp, tuple(self.align),
                          tuple(self.discard), tuple(self.keep_last), tuple(self.bids),
                          tuple(self.stances), self.draw_only, tuple(self.reactions),
                          tuple(self.withdraw), tuple(self.counsels), self.usurp,
                          tuple(self.lists["HIDE"]), tuple(self.lists["UNHIDE"]),
                          tuple(self.lists["SUICIDE"]), tuple(self.lists["RESTORE"]),
                          self.dissolve, tuple(self.appoint), tuple(self.proposals),
                          self.attend, self.solicit, self.bribe, self.lose_first,
                          tuple(self.announcements))


# One reader per first word: ``(word, rest, text, builder, names)``, ``text`` the whole
# line (IF reads it all), ``rest`` what follows the word.
_Reader = Callable[[str, str, str, "_Builder", Names], None]

# The families whose line's value depends on its text alone, not on the lines before it:
# one value reader each, ``(word, rest, text, names) -> value``, and the builder's list
# the value joins.  Each distinct line of these is read once (`Names.read_line`, speed
# only: the same sheet resent, the lines every player writes).
_ValueReader = Callable[[str, str, str, Names], object]


def _activity(word: str, rest: str, text: str, n: Names) -> Activity:
    rest, conditions = split_conditions(rest, n)  # ... IF MONARCH IS x (conditions.py)
    activity = parse_activity(rest, n)
    return replace(activity, conditions=conditions) if conditions else activity


def _counsel(word: str, rest: str, text: str, n: Names) -> CounselOrder:
    return parse_counsel(rest, n)


def _propose(word: str, rest: str, text: str, n: Names) -> Proposal:
    return parse_proposal(rest, n)


def _buy(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    m = _BUY.match(rest.strip())
    if not m or int(m.group(1)) < 1:
        raise OrderSyntaxError("BUY needs a number of PP",
                               "e.g. BUY 2 PP (two IP each, DWTK 35.8)")
    b.buy_pp += int(m.group(1))


def _align(word: str, rest: str, text: str, n: Names) -> str:
    key = n.read_who(rest)
    if key is None or key.isdigit() or key == PC:
        raise UnknownNameError(f"no royal called {rest.strip()!r}", "e.g. ALIGN Prince Alan")
    return key


def _card(word: str, rest: str, text: str, n: Names) -> str:
    """DISCARD and KEEP."""
    card = n.read_card(rest)
    if card is None:
        raise UnknownNameError(f"no Event card called {rest.strip()!r}",
                               "e.g. DISCARD Informer")
    return card


def _bid(word: str, rest: str, text: str, n: Names) -> tuple[str, str]:
    office_text, sep, who_text = rest.partition(":")
    office = n.read_office(office_text)
    who = n.read_who(who_text) if sep else None
    if office is None or who is None or not (who == PC or who.isdigit()):
        raise OrderSyntaxError("BID needs an office and your PC or a FAC",
                               "e.g. BID High Minister : PC")
    return (office, who)


def _problem(word: str, rest: str, text: str, n: Names) -> tuple[str, Stance]:
    m = _PROBLEM.match(rest.strip())
    problem = n.read_problem(m.group(1)) if m else None
    if m is None or problem is None:
        raise OrderSyntaxError("PROBLEM needs a problem and FAIL, + or -",
                               "e.g. PROBLEM Pirates FAIL")
    stance = m.group(2).lower()
    return (problem, Stance.FAIL if stance == "fail" else Stance(stance))


def _draw(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    if not rest.upper().startswith("ONLY"):
        raise _unknown(word)
    try:
        b.draw_only = Draw(rest.strip()[4:].strip().lower())
    except ValueError:
        raise OrderSyntaxError("DRAW ONLY needs LOYALTY, OPPORTUNITY or EVENT") from None


def _reaction(word: str, rest: str, text: str, n: Names) -> Reaction:
    return parse_reaction(text, n)


def _withdraw(word: str, rest: str, text: str, n: Names) -> int:
    m = _WITHDRAW.match(rest.strip())
    if not m:
        raise OrderSyntaxError("WITHDRAW needs a reaction's number", "e.g. WITHDRAW REACTION 2")
    return int(m.group(1))


def _own(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    """HIDE, UNHIDE, SUICIDE, RESTORE: his PC or FACs."""
    for who in who_list(rest, n):
        if not (who == PC or who.isdigit()):
            raise IllegalOrderError(f"{word} takes your PC or a FAC", f"e.g. {word} PC")
        b.lists[word].append(who)
    if set(b.lists["HIDE"]) & set(b.lists["UNHIDE"]):
        raise IllegalOrderError("HIDE and UNHIDE of the same character",
                                "not in and out of hiding the same turn (DWTK 24.2)")


def _dissolve(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    if rest.strip():
        raise _unknown(word)
    b.dissolve = True


def _appoint(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    office_text, sep, who_text = rest.partition(":")
    office, who = n.read_office(office_text), n.read_who(who_text) if sep else None
    if office is None or who is None or not (who == PC or who.isdigit()):
        raise OrderSyntaxError("APPOINT needs an office and a noble",
                               "e.g. APPOINT High Minister : 23")
    if len(b.appoint) == 3:
        raise IllegalOrderError("APPOINT at most three offices", "DWTK 36.14")
    b.appoint.append((office, who))


def _usurp(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    if b.usurp is not None:
        raise IllegalOrderError("USURP appears twice", "one usurpation attempt a turn")
    b.usurp = parse_usurp(rest, n)


def _attend(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    if rest.strip().upper() != "WEDDINGS":
        raise _unknown(word)
    b.attend = True


def _solicit(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    if b.solicit:
        raise IllegalOrderError("SOLICIT BRIBE appears twice",
                                "one bribe a turn (DWTK 13.4.20.1)")
    b.solicit = parse_solicit(rest)


def _bribe(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    if b.bribe is not None:
        raise IllegalOrderError("BRIBE appears twice",
                                "one bribe attempt a turn (DWTK 13.4.20.2)")
    b.bribe = parse_bribe(rest, n)


def _lose(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    if b.lose_first is not None:
        raise IllegalOrderError("LOSE FIRST appears twice",
                                "one list, in the order you would lose them")
    b.lose_first = _lose_first(rest, n)


def _announce(word: str, rest: str, text: str, b: _Builder, n: Names) -> None:
    announcement = parse_announcement(rest)
    if announcement.alias is not None:  # never another's signature (`aliases`)
        names = (*n.players, *n.players.values(), *n.characters.values())
        problem = alias_problem(announcement.alias, names)
        if problem is not None:
            raise OrderSyntaxError(problem, HINT)
    b.announcements.append(announcement)


_VALUES: dict[str, tuple[str, _ValueReader]] = {
    "DO": ("activities", _activity), "COUNSEL": ("counsels", _counsel),
    "PROPOSE": ("proposals", _propose), "IF": ("reactions", _reaction),
    "ALIGN": ("align", _align), "DISCARD": ("discard", _card), "KEEP": ("keep_last", _card),
    "BID": ("bids", _bid), "PROBLEM": ("stances", _problem), "WITHDRAW": ("withdraw", _withdraw),
}
# The others: what they may say depends on the lines before (twice, at most three ...).
_READERS: dict[str, _Reader] = {
    "BUY": _buy, "DRAW": _draw, "HIDE": _own, "UNHIDE": _own, "SUICIDE": _own,
    "RESTORE": _own, "DISSOLVE": _dissolve, "APPOINT": _appoint, "USURP": _usurp,
    "ATTEND": _attend, "SOLICIT": _solicit, "BRIBE": _bribe, "LOSE": _lose,
    "ANNOUNCE": _announce, "ANNOUNCE:": _announce, "ANNOUNCEMENT": _announce,
}


def _unknown(word: str) -> OrderSyntaxError:
    return OrderSyntaxError(f"unknown order {word!r}", _KEYWORDS)


def _lose_first(rest: str, n: Names) -> tuple[str, ...]:
    """``LOSE FIRST <FAC/FARC>, ...`` or ``LOSE FIRST NONE`` (35.5: whom he loses first
    when over his PP limit; standing until replaced)."""
    m = _LOSE_FIRST.match(rest.strip())
    if m is None:
        raise OrderSyntaxError("LOSE needs FIRST and a list",
                               "e.g. LOSE FIRST 23, Prince Alan (DWTK 35.5)")
    if m.group(1).strip().upper() == "NONE":
        return ()
    keys = who_list(m.group(1), n)
    if PC in keys:
        raise IllegalOrderError("LOSE FIRST lists FACs and FARCs",
                                "your PC is never lost (DWTK 35.5)")
    return tuple(dict.fromkeys(keys))  # a name twice counts once


def _read(line: str, b: _Builder, n: Names) -> tuple[str, object] | None:
    """A line not read before: a value family's (the builder's list, the value), which
    `Names.read_line` remembers; any other family's reader adds to the builder itself."""
    head, _, rest = line.partition(" ")
    word = head.upper()
    family = _VALUES.get(word)
    if family is not None:
        into, read = family
        return n.read_line(line, lambda: (into, read(word, rest, line, n)))
    reader = _READERS.get(word)
    if reader is None:
        raise _unknown(word)
    reader(word, rest, line, b, n)
    return None


def _take(line: str, b: _Builder, n: Names) -> None:
    known = n.recall(line)  # (the builder's list, the value) of a line read before
    if known is None:
        known = _read(line, b, n)
    if known is not None:
        getattr(b, known[0]).append(known[1])


def _take_sentence(line: str, b: _Builder, n: Names) -> None:
    """`_take`; a line that does not read as written is read again without one closing
    ``.`` ``;`` or ``!`` (a player writing sentences: "DO RECRUIT Sir Drew."), and the
    problem of the line as written stands if that does not read either.  A line that
    reads as written is kept so (a player's name may end in a full stop: "Bob Jr.")."""
    try:
        _take(line, b, n)
    except ParseProblem as problem:
        bare = line[:-1].rstrip() if line[-1] in ".;!" else ""
        if not bare:
            raise
        try:
            _take(bare, b, n)
        except ParseProblem:
            raise problem from None


def parse_orders(text: str, tables: Tables,
                 players: Mapping[str, str] | None = None) -> ParsedOrders:
    """Every line read; every problem collected with its line number (style rule 5).

    ``players`` (key -> name) lets reaction orders name a player (reaction.py).
    """
    n = Names.of(tables, players)
    orders, errors = _read_sheet(text, n)
    return ParsedOrders(orders.to_dict(), format_orders(orders, n), errors)


def read_orders(text: str, tables: Tables, players: Mapping[str, str] | None = None,
                ) -> tuple[TurnOrders, tuple[OrderError, ...]]:
    """`parse_orders` without the JSON form and the canonical read-back: the value and
    every problem (the engine's `Batching.read_orders`)."""
    return _read_sheet(text, Names.of(tables, players))


def _read_sheet(text: str, n: Names) -> tuple[TurnOrders, tuple[OrderError, ...]]:
    b = _Builder()
    errors: list[OrderError] = []
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = (raw.split("#", 1)[0] if "#" in raw else raw).strip()  # '#': a comment
        if not line or (":" in line and _IGNORED.match(line)):  # (the header needs a ':')
            continue
        try:
            _take_sentence(line, b, n)
        except ParseProblem as problem:
            errors.append(OrderError(number, raw, problem.message, problem.hint,
                                     problem.severity))
    orders = b.build()
    kinds = [a.kind for a in orders.activities]
    # in the order of their first lines (a set's order would vary with the hash seed)
    twice = dict.fromkeys(k for k in kinds if kinds.count(k) > 1) \
        if len(set(kinds)) < len(kinds) else {}
    for kind in twice:
        order = f"DO {kind._value_.upper()}"
        at = next(i for i, r in enumerate(lines, 1) if r.strip().upper().startswith(order))
        errors.append(OrderError(at, lines[at - 1], f"{order} appears twice",
                                 "the same activity only once a turn (DWTK 13.1)"))
    return orders, tuple(errors)
