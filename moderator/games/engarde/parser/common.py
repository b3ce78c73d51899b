"""What every order parser shares: the typed problems, the keywords, and small
readers for names, amounts, dwellings and gambling (reference §12; style rule 5)."""

from __future__ import annotations

import re
from functools import lru_cache

from moderator.games.base import Severity
from moderator.games.engarde.lookup import Lookup, Table, keyword_hint
from moderator.games.engarde.orders import Gamble


class ParseProblem(ValueError):
    """A problem with one order; ``line`` is set when it is known to be another line."""

    severity = Severity.ERROR

    def __init__(self, message: str, hint: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.line = line


class ParseProblems(ValueError):
    """Several problems in one order (a week with more than one bad clause)."""

    def __init__(self, problems: list[ParseProblem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


class OrderSyntaxError(ParseProblem):
    """The words do not make an order."""


class IllegalOrderError(ParseProblem):
    """A well-formed order the rules do not allow here."""


class UnavailableOrderError(ParseProblem):
    """A real En Garde! action this game does not run yet (reference §1)."""


class OrderWarning(ParseProblem):
    """Legal, but probably not what the player meant."""

    severity = Severity.WARNING


# Actions from the reference §1 list that this game does not run yet.
UNAVAILABLE = {"INVEST": "investing"}
WEEK_KEYWORDS = ("CLUB", "BAWDYHOUSE", "HOST PARTY", "PARTY", "PRACTICE", "MOVE", "REST", "IF",
                 "COURT", "VISIT MISTRESS", "REGIMENTAL DUTY")
COMBO_KEYWORDS = ("GUEST OF", "BRING", "TOADY", "CAROUSE", "GAMBLE", "EXCLUDE", "BOUNCERS",
                  "COHOST", "WITH MISTRESS")
WEEKEND_KEYWORDS = ("THEATRE", "THEATRE FIRST NIGHT", "RENT", "BUY", "LIAISE", "PROPOSE",
                    "MARRY")
GENERAL_KEYWORDS = ("SUPPORT", "BOX", "JOIN CLUB", "RESIGN CLUB", "LET", "STOP LETTING", "SELL",
                    "PREGNANCY", "COMBINE FAVOURS", "BRIBE", "USE FAVOUR", "LEND", "BORROW",
                    "REPAY", "DEMAND REPAYMENT FROM", "STAY IN PARIS", "JOIN REGIMENT",
                    "BUY COMMISSION", "SELL COMMISSION", "BUY HORSE", "VOLUNTEER FOR THE FRONT",
                    "CHALLENGE", "DUEL", "ACCEPT CHALLENGE FROM", "REFUSE CHALLENGE FROM",
                    "CHARGE", "REQUEST WARRANT AGAINST", "TESTIFY", "APPLY FOR",
                    "RESIGN POSITION", "SUE FOR DIVORCE", "CHAMPION", "ANNOUNCE",
                    "DISGUISE AS PRIVATE", "PETITION FOR PARDON")
KEYWORDS = (*WEEK_KEYWORDS, *COMBO_KEYWORDS, *WEEKEND_KEYWORDS, *GENERAL_KEYWORDS,
            "PREMONTH", "ANYTIME", "WEEK", "WEEKEND", "STANDING", "NMR")
GAMBLE_RE = re.compile(r"^(\d+)\s*(?:[x×*]\s*(\d+))?(?:\s+CUT\s+(\d+))?$", re.IGNORECASE)
HOUSE_RE = re.compile(r"^(.+?)\s+IN\s+(.+)$", re.IGNORECASE)

Clause = tuple[int, str]


def starts(text: str, keyword: str) -> str | None:
    """The rest of ``text`` after ``keyword`` (whole words, any case), else None."""
    match = _keyword_re(keyword).match(text)
    return match.group(1).strip() if match else None


@lru_cache(maxsize=1024)
def _keyword_re(keyword: str) -> re.Pattern[str]:
    # Compiled once per keyword: every clause of every message tries dozens of them.
    pattern = re.escape(keyword).replace(r"\ ", " ").replace(" ", r"\s+")
    return re.compile("^" + pattern + r"\b\s*(.*)$", re.IGNORECASE | re.DOTALL)


def check_unavailable(text: str) -> None:
    for phrase, topic in UNAVAILABLE.items():
        if starts(text, phrase) is not None:
            raise UnavailableOrderError(
                f"{phrase} ({topic}) is not available yet in this game",
                "send HELP to get the orders this game runs")


def find(table: Table, text: str) -> str:
    """The key for a name, or a syntax error with a 'did you mean' hint."""
    if not text:
        raise OrderSyntaxError(f"a {table.what} name is missing")
    key = table.find(text)
    if key is None:
        raise OrderSyntaxError(f"unknown {table.what} {text!r}", table.hint(text))
    return key


def names_list(table: Table, text: str) -> tuple[str, ...]:
    parts = [p for p in re.split(r"\s*,\s*|\s+AND\s+", text, flags=re.IGNORECASE) if p]
    if not parts:
        raise OrderSyntaxError(f"a {table.what} name is missing")
    return tuple(find(table, p) for p in parts)


def parse_gamble(text: str) -> Gamble:
    match = GAMBLE_RE.match(text)
    if not match:
        raise OrderSyntaxError(f"cannot read GAMBLE {text!r}",
                               "write GAMBLE <stake> x<wagers> CUT <n>, e.g. GAMBLE 50 x6 CUT 4")
    stake, wagers, cut = int(match.group(1)), int(match.group(2) or 1), match.group(3)
    if stake < 1 or not 1 <= wagers <= 9:
        raise IllegalOrderError("stake must be at least 1 and wagers 1-9 (EG §K)")
    if cut is not None and not 1 <= int(cut) <= 6:
        raise IllegalOrderError("CUT must be a die face 1-6 (EG §K)")
    return Gamble(stake, wagers, int(cut) if cut else None)


def parse_house(text: str, look: Lookup) -> tuple[str, str]:
    match = HOUSE_RE.match(text)
    if not match:
        raise OrderSyntaxError(f"cannot read dwelling {text!r}",
                               "write <housing type> IN <area>, e.g. Town House IN Charonne")
    return find(look.houses, match.group(1)), find(look.areas, match.group(2))


def crowns_amount(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise OrderSyntaxError(f"{text!r} is not an amount of crowns", "e.g. 200")
    return int(text)


def favour_class(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 9:
        raise IllegalOrderError(f"favour class {text!r} must be 1-9 (EG §S)")
    return int(text)


def split_clauses(line: int, text: str) -> list[Clause]:
    return [(line, c.strip()) for c in text.split(";") if c.strip()]


# Where each kind of order is written (EG §D), for an order found in another section.
_SECTIONS = ((WEEK_KEYWORDS, "a weekly action", "WEEK n", "WEEK 1"),
             (WEEKEND_KEYWORDS, "a weekend order", "WEEKEND n", "WEEKEND 1"),
             (GENERAL_KEYWORDS, "an anytime order", "ANYTIME", "ANYTIME"))


def unknown(text: str, keywords: tuple[str, ...]) -> OrderSyntaxError:
    """An order this section does not take: where it belongs, when it is another
    section's (a guessed keyword of this section would mislead), else the nearest
    keyword of this section."""
    for words, kind, section, example in _SECTIONS:
        found = [k for k in words if k not in keywords and starts(text, k) is not None]
        if found:
            keyword = max(found, key=len)
            return OrderSyntaxError(f"{keyword} is {kind}: put it under {section}:",
                                    f"e.g. {example}: {text}")
    word = text.split()[0] if text.split() else text
    return OrderSyntaxError(f"unknown order {text!r}", keyword_hint(word, keywords))
