"""Order text -> order values; `parse_order` is the inverse of `Order.format`.

One order (or one clause of a week's order) at a time; every problem raises a
typed `ParseProblem` that `submission.parse_orders` turns into an `OrderError` for
its line, so a player gets every mistake in one receipt (reference §12).  This
module dispatches by section; the family parsers are `week` (weeks and weekends),
`society` (mistresses, loans, influence), `army` (regiments, duels) and `courts`
(trials, appointments, divorce, the press, deals); `common` holds what they share.
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.games.engarde.lookup import Lookup
from moderator.games.engarde.orders import (
    BuyBox,
    JoinClub,
    Let,
    Order,
    ResignClub,
    Sell,
    StopLetting,
    Support,
    SupportLevel,
)
from moderator.games.engarde.parser.army import army_order
from moderator.games.engarde.parser.common import (
    COMBO_KEYWORDS,
    GENERAL_KEYWORDS,
    KEYWORDS,
    WEEK_KEYWORDS,
    WEEKEND_KEYWORDS,
    Clause,
    IllegalOrderError,
    OrderSyntaxError,
    OrderWarning,
    ParseProblem,
    ParseProblems,
    UnavailableOrderError,
    check_unavailable,
    find,
    parse_house,
    split_clauses,
    starts,
    unknown,
)
from moderator.games.engarde.parser.courts import courts_order
from moderator.games.engarde.parser.society import society_order
from moderator.games.engarde.parser.week import parse_week, parse_weekend

__all__ = ["COMBO_KEYWORDS", "GENERAL_KEYWORDS", "KEYWORDS", "WEEKEND_KEYWORDS", "WEEK_KEYWORDS",
           "Clause", "IllegalOrderError", "OrderSyntaxError", "OrderWarning", "ParseProblem",
           "ParseProblems", "Slot", "UnavailableOrderError", "parse_general", "parse_order",
           "parse_week", "parse_weekend", "starts"]


def parse_general(text: str, look: Lookup) -> Order:
    """A pre-month or anytime order (EG §D, §F, §G, §O, §P)."""
    check_unavailable(text)
    if (rest := starts(text, "SUPPORT")) is not None:
        level = {"NORMAL": SupportLevel.NORMAL, "CONSPICUOUS": SupportLevel.CONSPICUOUS,
                 "CONCON": SupportLevel.CONSPICUOUS}.get(rest.upper())
        if level is None:
            raise OrderSyntaxError(f"unknown support level {rest!r}",
                                   "write SUPPORT NORMAL or SUPPORT CONSPICUOUS")
        return Support(level)
    if starts(text, "CONCON") == "" or starts(text, "CONSPICUOUS CONSUMPTION") == "":
        return Support(SupportLevel.CONSPICUOUS)
    if starts(text, "BOX") == "" or starts(text, "BUY BOX") == "":
        return BuyBox()
    army = army_order(text, look) or courts_order(text, look)
    if army is not None:
        return army
    if (rest := starts(text, "JOIN CLUB")) is not None or (rest := starts(text, "JOIN")):
        return JoinClub(find(look.clubs, rest))
    society = society_order(text, look)
    if society is not None:
        return society
    if starts(text, "RESIGN") is not None:
        return ResignClub()
    for keyword, cls in (("STOP LETTING", StopLetting), ("LET", Let), ("SELL", Sell)):
        if (rest := starts(text, keyword)) is not None:
            return cls(*parse_house(rest, look))
    raise unknown(text, GENERAL_KEYWORDS)


@dataclass(frozen=True)
class Slot:
    """Where an order goes: ``PREMONTH``, ``ANYTIME``, ``WEEK`` n or ``WEEKEND`` n."""

    section: str
    number: int = 0

    def label(self) -> str:
        return f"{self.section} {self.number}" if self.number else self.section


def parse_order(slot: Slot, text: str, look: Lookup) -> Order:
    """The inverse of `Order.format` for an order written under ``slot``."""
    if slot.section == "WEEK":
        return parse_week(split_clauses(0, text) or [(0, text)], look)
    if slot.section == "WEEKEND":
        return parse_weekend(text, look)
    return parse_general(text, look)
