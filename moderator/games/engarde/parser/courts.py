"""Parsers for the courts (EG §R), appointments (reference §7), divorce (EG §L), the
press (reference §13) and deals between players (EG §P).
"""

from __future__ import annotations

import re

from moderator.games.aliases import HINT, alias_problem
from moderator.games.engarde.lookup import Lookup
from moderator.games.engarde.orders import (
    Announce,
    Apply,
    Champion,
    ChargeOrder,
    HouseDeal,
    Order,
    Petition,
    RequestWarrant,
    ResignPosition,
    SueForDivorce,
    Testify,
)
from moderator.games.engarde.parser.common import (
    OrderSyntaxError,
    crowns_amount,
    find,
    parse_house,
    starts,
)

_CHARGE = re.compile(r"^(.+?)\s+WITH\s+(.+)$", re.IGNORECASE)
_WARRANT = re.compile(r"^(.+?)(?:\s+FOR\s+(.+))?$", re.IGNORECASE)
_ANNOUNCE = re.compile(r'^:?\s*["\u201c](.*)["\u201d]\s*(UNSIGNED|AS\s+(.+))?$',
                       re.IGNORECASE | re.DOTALL)
_DEAL = re.compile(r"^(.+?\s+IN\s+.+?)\s+(TO|FROM)\s+(.+?)\s+FOR\s+(\d+)$", re.IGNORECASE)


def _check_alias(alias: str, look: Lookup) -> None:
    """An alias hides the writer (reference §13), never names anyone (`aliases`)."""
    names = (*look.characters.names, *look.characters.names.values(),
             *look.ladies.names.values())
    problem = alias_problem(alias, names)
    if problem is not None:
        raise OrderSyntaxError(problem, HINT)


def courts_order(text: str, look: Lookup) -> Order | None:
    """Trials (EG §R), appointments (§7), divorce (EG §L), announcements and player
    deals (EG §P); None if not one of them."""
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
    if any(starts(text, k) == "" for k in ("PETITION FOR PARDON", "PETITION THE KING",
                                           "PETITION", "SEEK PARDON")):
        return Petition()
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
        if alias is not None:
            _check_alias(alias, look)
        unsigned = bool(match.group(2)) and match.group(2).upper() == "UNSIGNED"
        return Announce(body, unsigned, alias)
    for keyword, selling in (("SELL", True), ("BUY", False)):
        if (rest := starts(text, keyword)) is not None and (match := _DEAL.match(rest)):
            if (match.group(2).upper() == "TO") != selling:
                raise OrderSyntaxError(f"write {keyword} ... {'TO' if selling else 'FROM'} "
                                       "<name> FOR <crowns>")
            house, area = parse_house(match.group(1), look)
            return HouseDeal(house, area, find(look.characters, match.group(3)),
                             crowns_amount(match.group(4)), selling)
    return None
