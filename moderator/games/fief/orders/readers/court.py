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
    Decoy,
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
    if re.search(r"\sDECOY\s", f" {rest} ", re.I):
        # fief-email.md §2.4.4 shows both markers on one line: two orders, two lines.
        raise BadSyntax("the DECOY marker is an order of its own", "VOTE Lucia (a line), "
                        "then DECOY Simon (the next line)")
    if not rest:
        raise BadSyntax("VOTE names the candidates, the first still standing takes your "
                        "FOR marker (FE 9.1)", "VOTE Lucia, Henri")
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
    # FE 9.2: "either a FOR or DECOY (against) Vote Marker": PARLIAMENT DECOY, in the
    # rulebook's words, is AGAINST (found playing by mail: it was refused).
    m = re.match(r"^(FOR|AGAINST|DECOY)(\s+WITH\s+BURGHER)?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("PARLIAMENT FOR or PARLIAMENT AGAINST [WITH BURGHER]")
    vote = "for" if m.group(1).upper() == "FOR" else "against"
    return ParliamentVote(vote=vote, burgher=bool(m.group(2)))


def _garter(ctx: Context, rest: str) -> Order:
    if rest.strip().upper() not in ("FIRST", "NONE"):
        raise BadSyntax("GARTER FIRST or GARTER NONE")
    return GarterPolicy(award=rest.strip().upper() == "FIRST")


def _interdict(ctx: Context, rest: str) -> Order:
    if not rest.strip():
        raise BadSyntax("INTERDICT <captive of the Bandits>", "INTERDICT Hugh")
    return Interdict(captive=ctx.noble(rest))


def _decoy(ctx: Context, rest: str) -> Order:
    """FE 9.1: "A 'DECOY' Vote Marker ... DECOY Votes have no effect": one marker, so one
    candidate (fief-email.md §2.4.4 `DECOY <c>`)."""
    names = read_list(rest)
    if len(names) != 1:
        raise BadSyntax("you have one DECOY marker: it goes on one candidate (FE 9.1)",
                        "DECOY Simon")
    return Decoy(candidate=ctx.noble(names[0]))


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
