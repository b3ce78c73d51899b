"""Read the orders of Fief at court (FE 9.0-9.2, 13.3-13.4).

MARRY, CANDIDATE, VOTE, CONVENE PARLIAMENT, PARLIAMENT FOR|AGAINST, GARTER and
INTERDICT.  The values they read are in `orders.kinds.court`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from moderator.games.fief.orders.errors import BadNumber, BadSyntax
from moderator.games.fief.orders.readers.context import Context, read_list
from moderator.games.fief.orders.values import (
    Candidate,
    Convene,
    GarterPolicy,
    Interdict,
    Marry,
    Order,
    ParliamentVote,
    Vote,
)


def _marry(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+TO\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("MARRY <your noble> TO <noble>")
    return Marry(noble=ctx.noble(m.group(1)), to=ctx.noble(m.group(2)))


def _candidate(ctx: Context, rest: str) -> Order:
    return Candidate(lord=ctx.noble(rest))


def _vote(ctx: Context, rest: str) -> Order:
    # "VOTE FOR Simon" (found playing by mail) is the FOR marker on Simon (FE 9.1).
    rest = re.sub(r"^FOR\s+", "", rest.strip(), flags=re.I)
    return Vote(candidates=tuple(ctx.noble(n) for n in read_list(rest)))


def _convene(ctx: Context, rest: str) -> Order:
    m = re.match(r"^PARLIAMENT(?:\s+SHARES\s+(.+))?$", rest, re.I)
    if not m:
        raise BadSyntax("CONVENE PARLIAMENT [SHARES <player> <n>, ...]")
    shares = []
    for part in read_list(m.group(1) or ""):
        pm = re.match(r"^(.+?)\s+(\d+)$", part)
        if not pm:
            raise BadSyntax(f"{part!r}: a player and a number", "SHARES Dave 4, Kirsten 8")
        shares.append((ctx.player(pm.group(1)), int(pm.group(2))))
    if sum(n for _, n in shares) > 12:
        raise BadNumber("the Royal Tax is 12 Shillings (FE 9.2)")
    return Convene(shares=tuple(shares))


def _parliament(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(FOR|AGAINST)(\s+WITH\s+BURGHER)?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("PARLIAMENT FOR or PARLIAMENT AGAINST [WITH BURGHER]")
    return ParliamentVote(vote=m.group(1).lower(), burgher=bool(m.group(2)))


def _garter(ctx: Context, rest: str) -> Order:
    if rest.strip().upper() not in ("FIRST", "NONE"):
        raise BadSyntax("GARTER FIRST or GARTER NONE")
    return GarterPolicy(award=rest.strip().upper() == "FIRST")


def _interdict(ctx: Context, rest: str) -> Order:
    if not rest.strip():
        raise BadSyntax("INTERDICT <captive of the Bandits>", "INTERDICT Hugh")
    return Interdict(captive=ctx.noble(rest))


def _decoy(ctx: Context, rest: str) -> Order:
    """FE 9.1's DECOY marker "has no effect" on the election; by mail the votes are
    secret orders, so there is nothing to mislead with (docs/fief-by-email.md: votes).
    Found playing by mail: `DECOY Simon` read "unknown order 'DECOY'"."""
    raise BadSyntax("a DECOY marker has no effect on the election (FE 9.1), and by mail "
                    "no one sees your markers: leave it out",
                    "VOTE <lord> places your FOR marker")


def _abstain(ctx: Context, rest: str) -> Order:
    raise BadSyntax("to abstain, write no VOTE (FAQ P1)", "leave the line out")


KEYWORDS: dict[str, Callable[[Context, str], Order]] = {
    "DECOY": _decoy,
    "ABSTAIN": _abstain,
    "MARRY": _marry,
    "CANDIDATE": _candidate,
    "VOTE": _vote,
    "CONVENE": _convene,
    "PARLIAMENT": _parliament,
    "GARTER": _garter,
    "INTERDICT": _interdict,
}
