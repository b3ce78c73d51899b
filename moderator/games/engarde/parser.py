"""Order text -> order values; `parse_order` is the inverse of `Order.format`.

One order (or one clause of a week's order) at a time; every problem raises a
typed `ParseProblem` that `forms_in.parse_orders` turns into an `OrderError` for
its line, so a player gets every mistake in one receipt (reference §12).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from moderator.games.base import Severity
from moderator.games.engarde.lookup import Lookup, Table, keyword_hint, normalise
from moderator.games.engarde.orders import (
    DECISION_SUBJECT,
    DECISIONS,
    Announce,
    Answer,
    AnswerChallenge,
    Apply,
    AttendParty,
    Bawdyhouse,
    Borrow,
    Bribe,
    Buy,
    BuyBox,
    BuyCommission,
    BuyHorse,
    Challenge,
    Champion,
    ChargeOrder,
    ClubVisit,
    CombineFavours,
    Conditional,
    Court,
    Demand,
    DuelOrders,
    Duty,
    Gamble,
    HostParty,
    HouseDeal,
    JoinClub,
    JoinRegiment,
    Lend,
    Let,
    Liaise,
    Marry,
    Move,
    Order,
    Outcome,
    Practice,
    PregnancyAnswer,
    Propose,
    Rent,
    Repay,
    RequestWarrant,
    ResignClub,
    ResignPosition,
    Rest,
    Sell,
    SellCommission,
    StayInParis,
    StopLetting,
    SueForDivorce,
    Support,
    SupportLevel,
    Testify,
    Theatre,
    UseFavour,
    VisitMistress,
    Volunteer,
)


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
                  "WITH MISTRESS")
WEEKEND_KEYWORDS = ("THEATRE", "THEATRE FIRST NIGHT", "RENT", "BUY", "LIAISE", "PROPOSE",
                    "MARRY")
GENERAL_KEYWORDS = ("SUPPORT", "BOX", "JOIN CLUB", "RESIGN CLUB", "LET", "STOP LETTING", "SELL",
                    "PREGNANCY", "COMBINE FAVOURS", "BRIBE", "USE FAVOUR", "LEND", "BORROW",
                    "REPAY", "DEMAND REPAYMENT FROM", "STAY IN PARIS", "JOIN REGIMENT",
                    "BUY COMMISSION", "SELL COMMISSION", "BUY HORSE", "VOLUNTEER FOR THE FRONT",
                    "CHALLENGE", "DUEL", "ACCEPT CHALLENGE FROM", "REFUSE CHALLENGE FROM",
                    "CHARGE", "REQUEST WARRANT AGAINST", "TESTIFY", "APPLY FOR",
                    "RESIGN POSITION", "SUE FOR DIVORCE", "CHAMPION", "ANNOUNCE")
KEYWORDS = (*WEEK_KEYWORDS, *COMBO_KEYWORDS, *WEEKEND_KEYWORDS, *GENERAL_KEYWORDS,
            "PREMONTH", "ANYTIME", "WEEK", "WEEKEND", "STANDING", "NMR")
_CONDITIONAL = re.compile(
    r"^IF\s+WEEK\s+(\d+)\s+(FAILED|FAILS|FAIL|SUCCEEDED|SUCCEEDS|SUCCEED)\s+THEN\s+(.+?)"
    r"(?:\s+ELSE\s+(.+?))?(?:\s+ENDIF)?\s*$", re.IGNORECASE)
_GAMBLE = re.compile(r"^(\d+)\s*(?:[x×*]\s*(\d+))?(?:\s+CUT\s+(\d+))?$", re.IGNORECASE)
_HOUSE = re.compile(r"^(.+?)\s+IN\s+(.+)$", re.IGNORECASE)
_COURT = re.compile(r"^(.+?)(?:\s+EXTRA\s+(\d+))?(\s+WITHDRAW)?$", re.IGNORECASE)
_LIAISE = re.compile(r"^(.+?)(\s+GIFT\s+(?:DOUBLE|2X|X2|TWICE))?(\s+REVEAL)?(\s+SECRET)?$",
                     re.IGNORECASE)
_ANSWER = re.compile(r"^(.+?)\s+(PAY\s*OFF|MARRY|ASSASSINS|ACKNOWLEDGE|IGNORE)$", re.IGNORECASE)
_USE = re.compile(r"^(\d+)\s+ON\s+(.+?)\s+(FOR|AGAINST)(?:\s+(.+))?$", re.IGNORECASE)
_BRIBE = re.compile(r"^(.+?)\s+CLASS\s+(\d+)$", re.IGNORECASE)
_MONEY = re.compile(r"^(\d+|ALL)\s+(?:TO|FROM)\s+(.+)$", re.IGNORECASE)
_WITH_MISTRESS = re.compile(r"^(.*?)\s+WITH\s+MISTRESS$", re.IGNORECASE)

Clause = tuple[int, str]


def starts(text: str, keyword: str) -> str | None:
    """The rest of ``text`` after ``keyword`` (whole words, any case), else None."""
    pattern = re.escape(keyword).replace(r"\ ", " ").replace(" ", r"\s+")
    match = re.match("^" + pattern + r"\b\s*(.*)$", text, re.IGNORECASE | re.DOTALL)
    return match.group(1).strip() if match else None


def check_unavailable(text: str) -> None:
    for phrase, topic in UNAVAILABLE.items():
        if starts(text, phrase) is not None:
            raise UnavailableOrderError(
                f"{phrase} ({topic}) is not available yet in this game",
                "see docs/engarde-orders.md for the orders this game runs")


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
    match = _GAMBLE.match(text)
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
    match = _HOUSE.match(text)
    if not match:
        raise OrderSyntaxError(f"cannot read dwelling {text!r}",
                               "write <housing type> IN <area>, e.g. Town House IN Charonne")
    return find(look.houses, match.group(1)), find(look.areas, match.group(2))


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
    army = _army_order(text, look)
    if army is not None:
        return army
    if (rest := starts(text, "JOIN CLUB")) is not None or (rest := starts(text, "JOIN")):
        return JoinClub(find(look.clubs, rest))
    society = _society_order(text, look)
    if society is not None:
        return society
    if starts(text, "RESIGN") is not None:
        return ResignClub()
    for keyword, cls in (("STOP LETTING", StopLetting), ("LET", Let), ("SELL", Sell)):
        if (rest := starts(text, keyword)) is not None:
            return cls(*parse_house(rest, look))
    raise _unknown(text, GENERAL_KEYWORDS)


_JOIN_REGIMENT = re.compile(r"^(.+?)(?:\s+AS\s+(?:A\s+|AN\s+)?(.+))?$", re.IGNORECASE)
_CHALLENGE = re.compile(r"^(.+?)(?:\s+WEAPON\s+(\w+))?(?:\s+WEEK\s+(\d+))?"
                        r"(\s+TO\s+THE\s+DEATH|\s+TO\s+FIRST\s+BLOOD)?$", re.IGNORECASE)
_CHARGE = re.compile(r"^(.+?)\s+WITH\s+(.+)$", re.IGNORECASE)
_WARRANT = re.compile(r"^(.+?)(?:\s+FOR\s+(.+))?$", re.IGNORECASE)
_ANNOUNCE = re.compile(r'^:?\s*["\u201c](.*)["\u201d]\s*(UNSIGNED|AS\s+(.+))?$',
                       re.IGNORECASE | re.DOTALL)
_DEAL = re.compile(r"^(.+?\s+IN\s+.+?)\s+(TO|FROM)\s+(.+?)\s+FOR\s+(\d+)$", re.IGNORECASE)


def _army_order(text: str, look: Lookup) -> Order | None:
    """Regiments and the front (reference §4-5), duels (§6), trials (EG §R),
    appointments (§7), divorce (EG §L), announcements and player deals (EG §P)."""
    if (rest := starts(text, "JOIN REGIMENT")) is not None:
        match = _JOIN_REGIMENT.match(rest)
        if not rest or not match:
            raise OrderSyntaxError("which regiment?", "JOIN REGIMENT <regiment> [AS <rank>]")
        rank = find(look.ranks, match.group(2)) if match.group(2) else "private"
        return JoinRegiment(find(look.regiments, match.group(1)), rank)
    for keyword in ("BUY COMMISSION", "PURCHASE COMMISSION"):
        if (rest := starts(text, keyword)) is not None:
            return BuyCommission(find(look.ranks, rest))
    if starts(text, "SELL COMMISSION") == "":
        return SellCommission()
    if (rest := starts(text, "BUY HORSES")) is not None or \
            (rest := starts(text, "BUY HORSE")) is not None:
        return BuyHorse(_amount(rest) if rest else 1)
    if starts(text, "VOLUNTEER FOR THE FRONT") == "" or starts(text, "VOLUNTEER") == "":
        return Volunteer()
    if (rest := starts(text, "CHALLENGE")) is not None:
        match = _CHALLENGE.match(rest)
        if not rest or not match:
            raise OrderSyntaxError("whom do you challenge?",
                                   "CHALLENGE <name> [WEAPON w] [WEEK n] [TO THE DEATH]")
        week = int(match.group(3)) if match.group(3) else None
        if week is not None and not 1 <= week <= 4:
            raise IllegalOrderError("a duel is fought in week 1-4")
        weapon = find(look.weapons, match.group(2)) if match.group(2) else None
        return Challenge(find(look.characters, match.group(1)), weapon, week,
                         bool(match.group(4)) and "DEATH" in match.group(4).upper())
    if (rest := starts(text, "DUEL")) is not None:
        return _duel(rest, look)
    for word, accept in (("ACCEPT", True), ("REFUSE", False)):
        if (rest := starts(text, f"{word} CHALLENGE FROM")) is not None or \
                (rest := starts(text, f"{word} CHALLENGE")) is not None:
            return AnswerChallenge(find(look.characters, rest), accept)
    if (rest := starts(text, "CHARGE")) is not None:
        match = _CHARGE.match(rest)
        if not match:
            raise OrderSyntaxError("cannot read this charge", "CHARGE <name> WITH <crime>, "
                                   "e.g. CHARGE Cyrano WITH treason")
        return ChargeOrder(find(look.characters, match.group(1)), find(look.crimes,
                                                                       match.group(2)))
    if (rest := starts(text, "REQUEST WARRANT AGAINST")) is not None or \
            (rest := starts(text, "REQUEST WARRANT")) is not None:
        match = _WARRANT.match(rest)
        assert match is not None
        crime = find(look.crimes, match.group(2)) if match.group(2) else "treason"
        return RequestWarrant(find(look.characters, match.group(1)), crime)
    if (rest := starts(text, "TESTIFY")) is not None:
        side = rest.split(None, 1)
        if len(side) != 2 or side[0].upper() not in ("FOR", "AGAINST"):
            raise OrderSyntaxError("cannot read this testimony", "TESTIFY FOR|AGAINST <name>")
        return Testify(find(look.characters, side[1]), side[0].upper() == "AGAINST")
    if (rest := starts(text, "APPLY FOR")) is not None or \
            (rest := starts(text, "APPLY")) is not None:
        return Apply(find(look.appointments, rest))
    if starts(text, "RESIGN POSITION") == "" or starts(text, "RESIGN APPOINTMENT") == "":
        return ResignPosition()
    if starts(text, "SUE FOR DIVORCE") == "":
        return SueForDivorce()
    if (rest := starts(text, "CHAMPION")) is not None:
        return Champion(find(look.ladies, rest))
    if (rest := starts(text, "ANNOUNCE")) is not None or \
            (rest := starts(text, "ANNOUNCEMENT")) is not None:
        match = _ANNOUNCE.match(rest)
        if not match or not match.group(1).strip():
            raise OrderSyntaxError("put the announcement in quotes",
                                   'ANNOUNCE: "text" [UNSIGNED|AS <alias>]')
        body = re.sub(r"\s+", " ", match.group(1).replace('"', "'")).strip()
        alias = match.group(3).strip() if match.group(3) else None
        unsigned = bool(match.group(2)) and match.group(2).upper() == "UNSIGNED"
        return Announce(body, unsigned, alias)
    for keyword, selling in (("SELL", True), ("BUY", False)):
        if (rest := starts(text, keyword)) is not None and (match := _DEAL.match(rest)):
            if (match.group(2).upper() == "TO") != selling:
                raise OrderSyntaxError(f"write {keyword} ... {'TO' if selling else 'FROM'} "
                                       "<name> FOR <crowns>")
            house, area = parse_house(match.group(1), look)
            return HouseDeal(house, area, find(look.characters, match.group(3)),
                             _amount(match.group(4)), selling)
    return None


def _duel(rest: str, look: Lookup) -> DuelOrders:
    """DUEL <name>: WEAPON w; SECONDS a, b; TO FIRST BLOOD|TO THE DEATH (reference §6)."""
    name, _, clauses = rest.partition(":")
    weapon, seconds, to_death = None, (), None
    for clause in (c.strip() for c in clauses.split(";") if c.strip()):
        if (value := starts(clause, "WEAPON")) is not None:
            weapon = find(look.weapons, value)
        elif (value := starts(clause, "SECONDS")) is not None or \
                (value := starts(clause, "SECOND")) is not None:
            seconds = names_list(look.characters, value)
        elif re.fullmatch(r"TO\s+THE\s+DEATH", clause, re.IGNORECASE):
            to_death = True
        elif re.fullmatch(r"TO\s+FIRST\s+BLOOD", clause, re.IGNORECASE):
            to_death = False
        elif re.fullmatch(r"AS\s+CHALLENGED", clause, re.IGNORECASE):
            continue
        else:
            raise OrderSyntaxError(f"cannot read {clause!r} in duelling orders",
                                   "WEAPON w; SECONDS a, b; TO FIRST BLOOD|TO THE DEATH")
    if len(seconds) > 2:
        raise IllegalOrderError("at most two seconds (reference §6)")
    return DuelOrders(find(look.characters, name.strip()), weapon, seconds, to_death)


def _amount(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise OrderSyntaxError(f"{text!r} is not an amount of crowns", "e.g. 200")
    return int(text)


def _class(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 9:
        raise IllegalOrderError(f"favour class {text!r} must be 1-9 (EG §S)")
    return int(text)


def _lender(text: str, look: Lookup) -> str | None:
    return None if text.strip().upper() in ("SHYLOCK", "A SHYLOCK", "THE SHYLOCK") \
        else find(look.characters, text)


def _society_order(text: str, look: Lookup) -> Order | None:
    """Anytime orders for mistresses (EG §L), loans (EG §Q) and influence (EG §S)."""
    if (rest := starts(text, "PREGNANCY")) is not None:
        match = _ANSWER.match(rest)
        if not match:
            raise OrderSyntaxError("cannot read this answer to a pregnancy",
                                   "PREGNANCY <lady> MARRY|PAY OFF|ASSASSINS|ACKNOWLEDGE|IGNORE")
        word = re.sub(r"\s+", " ", match.group(2).upper()).replace("PAYOFF", "PAY OFF")
        return PregnancyAnswer(find(look.ladies, match.group(1)), Answer(word.lower()))
    if (rest := starts(text, "COMBINE FAVOURS")) is not None or \
            (rest := starts(text, "COMBINE FAVORS")) is not None:
        return CombineFavours(_class(rest))
    if (rest := starts(text, "BRIBE")) is not None:
        match = _BRIBE.match(rest)
        if not match:
            raise OrderSyntaxError("cannot read this bribe", "BRIBE <position> CLASS <n>, "
                                   "e.g. BRIBE Minister CLASS 3")
        return Bribe(find(look.positions, match.group(1)), _class(match.group(2)))
    for keyword in ("USE FAVOUR", "USE FAVOR", "USE INFLUENCE"):
        if (rest := starts(text, keyword)) is not None:
            return _use_favour(rest, look)
    for keyword, cls in (("LEND", Lend), ("BORROW", Borrow), ("REPAY", Repay)):
        if (rest := starts(text, keyword)) is not None:
            match = _MONEY.match(rest)
            if not match:
                raise OrderSyntaxError(f"cannot read this {keyword}",
                                       f"e.g. {keyword} 200 {'TO' if cls is not Borrow else 'FROM'}"
                                       " Porthos (or SHYLOCK)")
            amount = 0 if match.group(1).upper() == "ALL" and cls is Repay \
                else _amount(match.group(1))
            if cls is Lend:
                return Lend(amount, find(look.characters, match.group(2)))
            return cls(amount, _lender(match.group(2), look))  # type: ignore[call-arg]
    if (rest := starts(text, "DEMAND REPAYMENT FROM")) is not None or \
            (rest := starts(text, "DEMAND")) is not None:
        rest = re.sub(r"^(REPAYMENT\s+)?FROM\s+", "", rest, flags=re.IGNORECASE)
        return Demand(find(look.characters, rest))
    if starts(text, "STAY IN PARIS") == "":
        return StayInParis()
    if starts(text, "PAY MISTRESS") is not None:
        raise IllegalOrderError("a mistress's support is paid automatically (EG §L)",
                                "nothing to write: 3 x her SL goes out each month")
    return None


def _use_favour(rest: str, look: Lookup) -> UseFavour:
    match = _USE.match(rest)
    if not match:
        raise OrderSyntaxError("cannot read this USE FAVOUR",
                               "USE FAVOUR <class> ON <decision> FOR|AGAINST [<character>]")
    wanted = normalise(match.group(2))
    decision = next((k for k, words in DECISIONS.items() if normalise(words) == wanted), None)
    if decision is None:
        raise OrderSyntaxError(f"unknown decision {match.group(2)!r}",
                               "decisions: " + ", ".join(DECISIONS.values()))
    subject = find(look.characters, match.group(4)) if match.group(4) else None
    if decision in DECISION_SUBJECT and subject is None:
        raise OrderSyntaxError(f"whose {DECISIONS[decision]}?",
                               f"e.g. USE FAVOUR 8 ON {DECISIONS[decision]} FOR Cyrano")
    if decision not in DECISION_SUBJECT and subject is not None:
        raise IllegalOrderError(f"{DECISIONS[decision]} names no character")
    return UseFavour(_class(match.group(1)), decision, subject,
                     match.group(3).upper() == "AGAINST")


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
    raise _unknown(text, WEEKEND_KEYWORDS)


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
    then = parse_week(_split(line, match.group(3)), look)
    otherwise = parse_week(_split(line, match.group(4)), look) if match.group(4) else None
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
    raise _unknown(text, WEEK_KEYWORDS)


def _combo(text: str, look: Lookup, combos: dict[str, object]) -> None:
    handlers = (
        ("GUEST OF", lambda r: find(look.characters, r)),
        ("BRING", lambda r: names_list(look.characters, r)),
        ("TOADY", lambda r: find(look.characters, r)),
        ("CAROUSE", lambda r: True),
        ("GAMBLE", parse_gamble),
        ("EXCLUDE", lambda r: names_list(look.characters, r)),
        ("BOUNCERS", lambda r: True),
        ("WITH MISTRESS", lambda r: True),
        ("VISIT MISTRESS", lambda r: True),
    )
    for keyword, handler in handlers:
        rest = starts(text, keyword)
        if rest is None or (rest and keyword in ("CAROUSE", "BOUNCERS", "WITH MISTRESS",
                                                 "VISIT MISTRESS")):
            continue
        keyword = "WITH MISTRESS" if keyword == "VISIT MISTRESS" else keyword
        if keyword in combos:
            raise IllegalOrderError(f"{keyword} given twice in one week")
        combos[keyword] = handler(rest)
        return
    check_unavailable(text)
    if any(starts(text, k) is not None for k in WEEK_KEYWORDS):
        raise IllegalOrderError("only one weekly action per week (EG §D)",
                                "combine only TOADY, CAROUSE, GAMBLE, GUEST OF, BRING")
    raise _unknown(text, COMBO_KEYWORDS)


_ALLOWED = {
    ClubVisit: {"GUEST OF", "BRING", "TOADY", "CAROUSE", "GAMBLE", "WITH MISTRESS"},
    Bawdyhouse: {"TOADY", "CAROUSE", "GAMBLE"},
    AttendParty: {"TOADY", "CAROUSE"},
    HostParty: {"EXCLUDE", "BOUNCERS"},
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
        return HostParty(main.at_home, bool(exclude) or "BOUNCERS" in combos, exclude)  # type: ignore[arg-type]
    return main


def _split(line: int, text: str) -> list[Clause]:
    return [(line, c.strip()) for c in text.split(";") if c.strip()]


def _unknown(text: str, keywords: tuple[str, ...]) -> OrderSyntaxError:
    word = text.split()[0] if text.split() else text
    return OrderSyntaxError(f"unknown order {text!r}", keyword_hint(word, keywords))


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
        return parse_week(_split(0, text) or [(0, text)], look)
    if slot.section == "WEEKEND":
        return parse_weekend(text, look)
    return parse_general(text, look)
