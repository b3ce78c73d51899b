"""Parsers for weeks (one action and its combination actions, IF ... ENDIF) and
weekends (EG §D, §G–§P).
"""

from __future__ import annotations

import re

from moderator.games.engarde.lookup import Lookup
from moderator.games.engarde.orders import (
    AttendParty,
    Bawdyhouse,
    Buy,
    ClubVisit,
    Conditional,
    Court,
    Duty,
    HostParty,
    Liaise,
    Marry,
    Move,
    Order,
    Outcome,
    Practice,
    Propose,
    Rent,
    Rest,
    Theatre,
    VisitMistress,
)
from moderator.games.engarde.parser.common import (
    COMBO_KEYWORDS,
    GENERAL_KEYWORDS,
    WEEK_KEYWORDS,
    WEEKEND_KEYWORDS,
    Clause,
    IllegalOrderError,
    OrderSyntaxError,
    ParseProblem,
    ParseProblems,
    check_unavailable,
    find,
    names_list,
    parse_gamble,
    parse_house,
    split_clauses,
    starts,
    unknown,
)

_CONDITIONAL = re.compile(
    r"^IF\s+WEEK\s+(\d+)\s+(FAILED|FAILS|FAIL|SUCCEEDED|SUCCEEDS|SUCCEED)\s+THEN\s+(.+?)"
    r"(?:\s+ELSE\s+(.+?))?(?:\s+ENDIF)?\s*$", re.IGNORECASE)
_COURT = re.compile(r"^(.+?)(?:\s+EXTRA\s+(\d+))?(\s+WITHDRAW)?$", re.IGNORECASE)
_LIAISE = re.compile(r"^(.+?)(\s+GIFT\s+(?:DOUBLE|2X|X2|TWICE))?(\s+REVEAL)?(\s+SECRET)?$",
                     re.IGNORECASE)
_WITH_MISTRESS = re.compile(r"^(.*?)\s+WITH\s+MISTRESS$", re.IGNORECASE)


def parse_weekend(text: str, look: Lookup) -> Order:
    """A weekend activity (EG §D, §L, §O, §P)."""
    check_unavailable(text)
    with_mistress = False
    if match := _WITH_MISTRESS.match(text):
        text, with_mistress = match.group(1), True
    if starts(text, "THEATRE FIRST NIGHT") == "" or starts(text, "FIRST NIGHT") == "":
        return Theatre(first_night=True, with_mistress=with_mistress)
    if starts(text, "THEATRE") == "" or starts(text, "THEATER") == "":
        return Theatre(with_mistress=with_mistress)
    if with_mistress:
        raise IllegalOrderError("WITH MISTRESS goes with THEATRE at the weekend (EG §L)")
    if (rest := starts(text, "LIAISE")) is not None:
        match = _LIAISE.match(rest)
        if not match or not rest:
            raise OrderSyntaxError("with whom?", "LIAISE <lady> [GIFT DOUBLE] [REVEAL]")
        return Liaise(find(look.ladies, match.group(1)), bool(match.group(2)),
                      bool(match.group(3)) and not match.group(4))
    if starts(text, "PROPOSE") == "":
        return Propose()
    if (rest := starts(text, "MARRY")) is not None:
        multiples = re.match(r"^(?:[x×*]\s*(\d+))?$", rest, re.IGNORECASE)
        if not multiples:
            raise OrderSyntaxError(f"cannot read MARRY {rest!r}",
                                   "MARRY, or MARRY x3 to spend 3 x your combined SL")
        n = int(multiples.group(1) or 1)
        if n < 1:
            raise IllegalOrderError("the wedding costs at least the couple's combined SL")
        return Marry(n)
    if starts(text, "THEATRE BOX") is not None:
        raise IllegalOrderError("a box is bought for the month with PREMONTH: BOX",
                                "then attend with WEEKEND n: THEATRE")
    for keyword, cls in (("RENT", Rent), ("BUY", Buy)):
        if (rest := starts(text, keyword)) is not None:
            return cls(*parse_house(rest, look))
    raise unknown(text, WEEKEND_KEYWORDS)


def parse_week(clauses: list[Clause], look: Lookup) -> Order:
    """A week's action and its combination actions, ``;``-separated (EG §D, §G–N)."""
    line, first = clauses[0]
    joined = "; ".join(c for _, c in clauses)
    match = _CONDITIONAL.match(joined)
    if match:
        return _conditional(match, line, look)
    if starts(first, "IF") is not None:
        raise OrderSyntaxError("cannot read this IF",
                               "write IF WEEK n FAILED THEN <order> ELSE <order> ENDIF")
    problems: list[ParseProblem] = []
    main: Order | None = None
    try:
        check_unavailable(first)
        main = _week_main(first, look)
    except ParseProblem as problem:
        problem.line = problem.line or line
        problems.append(problem)
    combos: dict[str, object] = {}
    for clause_line, clause in clauses[1:]:
        try:
            _combo(clause, look, combos)
        except ParseProblem as problem:  # keep going: the receipt lists every bad clause
            problem.line = problem.line or clause_line
            problems.append(problem)
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise ParseProblems(problems)
    assert main is not None
    return _combine(main, combos)


def _conditional(match: re.Match[str], line: int, look: Lookup) -> Order:
    outcome = Outcome.FAILED if match.group(2).upper().startswith("FAIL") else Outcome.SUCCEEDED
    then = parse_week(split_clauses(line, match.group(3)), look)
    otherwise = parse_week(split_clauses(line, match.group(4)), look) if match.group(4) else None
    if isinstance(then, Conditional) or isinstance(otherwise, Conditional):
        raise IllegalOrderError("an IF cannot contain another IF")
    return Conditional(int(match.group(1)), outcome, then, otherwise)


def _week_main(text: str, look: Lookup) -> Order:
    for keyword in ("VISIT CLUB", "CLUB"):
        if (rest := starts(text, keyword)) is not None:
            return ClubVisit(find(look.clubs, rest) if rest else "")
    if starts(text, "BAWDYHOUSE") == "" or starts(text, "VISIT BAWDYHOUSE") == "":
        return Bawdyhouse()
    if (rest := starts(text, "HOST PARTY")) is not None:
        where = {"AT CLUB": False, "AT HOME": True}.get(re.sub(r"\s+", " ", rest.upper()))
        if where is None:
            raise OrderSyntaxError("where is the party?",
                                   "write HOST PARTY AT CLUB or HOST PARTY AT HOME")
        return HostParty(at_home=where)
    for keyword in ("ATTEND PARTY", "PARTY OF", "PARTY"):
        if (rest := starts(text, keyword)) is not None:
            return AttendParty(find(look.characters, rest))
    for keyword in ("PRACTICE", "PRACTISE"):  # players write both spellings
        if (rest := starts(text, keyword)) is not None:
            return Practice(find(look.weapons, rest))
    if starts(text, "MOVE") == "":
        return Move()
    if starts(text, "REGIMENTAL DUTY") == "" or starts(text, "DUTY") == "":
        return Duty()
    if (rest := starts(text, "COURT")) is not None:
        match = _COURT.match(rest)
        if not match or not rest:
            raise OrderSyntaxError("whom do you court?", "COURT <lady> [EXTRA n] [WITHDRAW]")
        return Court(find(look.ladies, match.group(1)), int(match.group(2) or 0),
                     bool(match.group(3)))
    if starts(text, "VISIT MISTRESS") == "":
        return VisitMistress()
    if any(starts(text, k) == "" for k in ("REST", "NOTHING", "IDLE")):
        return Rest()
    general = next((k for k in GENERAL_KEYWORDS if starts(text, k) is not None), None)
    if general is not None:
        raise IllegalOrderError(f"{general} is not a weekly action: put it under ANYTIME:",
                                f"e.g. ANYTIME: {text}")
    if any(starts(text, k) is not None for k in COMBO_KEYWORDS):
        raise IllegalOrderError(
            f"{text.split()[0].upper()} is a combination action: it needs a club, "
            "bawdyhouse or party in the same week", "e.g. WEEK 1: CLUB Red Phillips; CAROUSE")
    raise unknown(text, WEEK_KEYWORDS)


def _combo(text: str, look: Lookup, combos: dict[str, object]) -> None:
    handlers = (
        ("GUEST OF", lambda r: find(look.characters, r)),
        ("BRING", lambda r: names_list(look.characters, r)),
        ("TOADY", lambda r: find(look.characters, r)),
        ("CAROUSE", lambda r: True),
        ("GAMBLE", parse_gamble),
        ("EXCLUDE", lambda r: names_list(look.characters, r)),
        ("BOUNCERS", lambda r: True),
        ("COHOST", lambda r: names_list(look.characters, r)),
        ("CO-HOST", lambda r: names_list(look.characters, r)),
        ("WITH MISTRESS", lambda r: True),
        ("VISIT MISTRESS", lambda r: True),
    )
    for keyword, handler in handlers:
        rest = starts(text, keyword)
        if rest is None or (rest and keyword in ("CAROUSE", "BOUNCERS", "WITH MISTRESS",
                                                 "VISIT MISTRESS")):
            continue
        keyword = {"VISIT MISTRESS": "WITH MISTRESS", "CO-HOST": "COHOST"}.get(keyword, keyword)
        if keyword in combos:
            raise IllegalOrderError(f"{keyword} given twice in one week")
        combos[keyword] = handler(rest)
        return
    check_unavailable(text)
    if any(starts(text, k) is not None for k in WEEK_KEYWORDS):
        raise IllegalOrderError("only one weekly action per week (EG §D)",
                                "combine only TOADY, CAROUSE, GAMBLE, GUEST OF, BRING")
    raise unknown(text, COMBO_KEYWORDS)


_ALLOWED = {
    ClubVisit: {"GUEST OF", "BRING", "TOADY", "CAROUSE", "GAMBLE", "WITH MISTRESS"},
    Bawdyhouse: {"TOADY", "CAROUSE", "GAMBLE"},
    AttendParty: {"TOADY", "CAROUSE"},
    HostParty: {"EXCLUDE", "BOUNCERS", "COHOST"},
}


def _combine(main: Order, combos: dict[str, object]) -> Order:
    allowed = _ALLOWED.get(type(main), set())
    for keyword in combos:
        if keyword not in allowed:
            raise IllegalOrderError(f"{keyword} cannot be combined with {main.kind.upper()}",
                                    "combination actions go with a club, bawdyhouse or party")
    if isinstance(main, ClubVisit):
        return ClubVisit(main.club, combos.get("GUEST OF"), combos.get("BRING", ()),  # type: ignore[arg-type]
                         combos.get("TOADY"), "CAROUSE" in combos, combos.get("GAMBLE"),  # type: ignore[arg-type]
                         "WITH MISTRESS" in combos)
    if isinstance(main, Bawdyhouse):
        return Bawdyhouse(combos.get("TOADY"), combos.get("GAMBLE"))  # type: ignore[arg-type]
    if isinstance(main, AttendParty):
        return AttendParty(main.host, combos.get("TOADY"), "CAROUSE" in combos)  # type: ignore[arg-type]
    if isinstance(main, HostParty):
        exclude = combos.get("EXCLUDE", ())
        return HostParty(main.at_home, bool(exclude) or "BOUNCERS" in combos, exclude,  # type: ignore[arg-type]
                         combos.get("COHOST", ()))  # type: ignore[arg-type]
    return main
