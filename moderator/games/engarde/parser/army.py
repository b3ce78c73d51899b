"""Parsers for the army (reference §4-5) and duels (reference §6).
"""

from __future__ import annotations

import re

from moderator.games.engarde.lookup import Lookup
from moderator.games.engarde.orders import (
    AnswerChallenge,
    BuyCommission,
    BuyHorse,
    Challenge,
    CommissionDeal,
    Disguise,
    DuelOrders,
    JoinRegiment,
    Order,
    SellCommission,
    Volunteer,
)
from moderator.games.engarde.parser.common import (
    IllegalOrderError,
    OrderSyntaxError,
    crowns_amount,
    find,
    names_list,
    starts,
)

_JOIN_REGIMENT = re.compile(r"^(.+?)(?:\s+AS\s+(?:A\s+|AN\s+)?(.+))?$", re.IGNORECASE)
_COMMISSION_DEAL = re.compile(r"^(.+?)\s+(TO|FROM)\s+(.+?)\s+FOR\s+(\d+)$", re.IGNORECASE)
_CHALLENGE = re.compile(r"^(.+?)(?:\s+WEAPON\s+(\w+))?(?:\s+WEEK\s+(\d+))?"
                        r"(\s+TO\s+THE\s+DEATH|\s+TO\s+FIRST\s+BLOOD)?$", re.IGNORECASE)


def army_order(text: str, look: Lookup) -> Order | None:
    """Regiments and the front (reference §4-5) and duels (§6); None if not one of them."""
    if (rest := starts(text, "JOIN REGIMENT")) is not None:
        match = _JOIN_REGIMENT.match(rest)
        if not rest or not match:
            raise OrderSyntaxError("which regiment?", "JOIN REGIMENT <regiment> [AS <rank>]")
        rank = find(look.ranks, match.group(2)) if match.group(2) else "private"
        return JoinRegiment(find(look.regiments, match.group(1)), rank)
    for keyword, selling in (("SELL COMMISSION", True), ("BUY COMMISSION", False)):
        if (rest := starts(text, keyword)) and (match := _COMMISSION_DEAL.match(rest)):
            if (match.group(2).upper() == "TO") != selling:
                raise OrderSyntaxError(f"write {keyword} <rank> {'TO' if selling else 'FROM'} "
                                       "<name> FOR <crowns>")
            return CommissionDeal(find(look.ranks, match.group(1)),
                                  find(look.characters, match.group(3)),
                                  crowns_amount(match.group(4)), selling)
    for keyword in ("BUY COMMISSION", "PURCHASE COMMISSION"):
        if (rest := starts(text, keyword)) is not None:
            return BuyCommission(find(look.ranks, rest))
    if starts(text, "SELL COMMISSION") == "":
        return SellCommission()
    if (rest := starts(text, "BUY HORSES")) is not None or \
            (rest := starts(text, "BUY HORSE")) is not None:
        return BuyHorse(crowns_amount(rest) if rest else 1)
    if any(starts(text, k) == "" for k in ("DISGUISE AS PRIVATE", "DISGUISE AS A PRIVATE",
                                           "DISGUISE", "FORSAKE COMMAND")):
        return Disguise()
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
        return duel_orders(rest, look)
    for word, accept in (("ACCEPT", True), ("REFUSE", False)):
        if (rest := starts(text, f"{word} CHALLENGE FROM")) is not None or \
                (rest := starts(text, f"{word} CHALLENGE")) is not None:
            return AnswerChallenge(find(look.characters, rest), accept)
    return None


def duel_orders(rest: str, look: Lookup) -> DuelOrders:
    """DUEL <name>: WEAPON w; SECONDS a, b; TO FIRST BLOOD|TO THE DEATH (reference §6)."""
    name, _, clauses = rest.partition(":")
    weapon, to_death = None, None
    seconds: tuple[str, ...] = ()
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
