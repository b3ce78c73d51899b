"""Parsers for anytime orders about mistresses (EG §L), loans (EG §Q) and influence
(EG §S).
"""

from __future__ import annotations

import re

from moderator.games.engarde.lookup import Lookup, normalise
from moderator.games.engarde.orders import (
    COURT,
    DECISION_SUBJECT,
    DECISIONS,
    Answer,
    Borrow,
    Bribe,
    CombineFavours,
    Demand,
    Lend,
    Order,
    PregnancyAnswer,
    Repay,
    StayInParis,
    UseFavour,
)
from moderator.games.engarde.parser.common import (
    IllegalOrderError,
    OrderSyntaxError,
    crowns_amount,
    favour_class,
    find,
    starts,
)

_ANSWER = re.compile(r"^(.+?)\s+(PAY\s*OFF|MARRY|ASSASSINS|ACKNOWLEDGE|IGNORE)$", re.IGNORECASE)
_USE = re.compile(r"^(\d+)\s+ON\s+(.+?)\s+(FOR|AGAINST)(?:\s+(.+))?$", re.IGNORECASE)
_BRIBE = re.compile(r"^(.+?)\s+CLASS\s+(\d+)$", re.IGNORECASE)
_MONEY = re.compile(r"^(\d+|ALL)\s+(?:TO|FROM)\s+(.+)$", re.IGNORECASE)


def _lender(text: str, look: Lookup) -> str | None:
    word = text.strip().upper()
    if word in ("COURT", "THE COURT", "THE CROWN"):
        return COURT  # an unpaid fine (EG §R)
    return None if word in ("SHYLOCK", "A SHYLOCK", "THE SHYLOCK") \
        else find(look.characters, text)


def society_order(text: str, look: Lookup) -> Order | None:
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
        return CombineFavours(favour_class(rest))
    if (rest := starts(text, "BRIBE")) is not None:
        match = _BRIBE.match(rest)
        if not match:
            raise OrderSyntaxError("cannot read this bribe", "BRIBE <position> CLASS <n>, "
                                   "e.g. BRIBE Minister CLASS 3")
        return Bribe(find(look.positions, match.group(1)), favour_class(match.group(2)))
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
                else crowns_amount(match.group(1))
            if cls is Lend:
                return Lend(amount, find(look.characters, match.group(2)))
            if cls is Borrow:
                return Borrow(amount, _lender(match.group(2), look))
            return Repay(amount, _lender(match.group(2), look))
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
    return UseFavour(favour_class(match.group(1)), decision, subject,
                     match.group(3).upper() == "AGAINST")
