"""Gambling at clubs and bawdyhouses (EG §K).

Each wager: the house rolls 1d6 first.  Reading of the cut number (documented
in docs/engarde-orders.md): with ``CUT n`` the player cuts, without rolling,
whenever the house rolls n or more; a cut loses half the stake (rounded up, the
house keeps the odd crown) and 1 SP.  Otherwise the player rolls; higher wins,
the house wins ties.  Won: +stake, +1 SP; lost: -stake, -1 SP.  At a club, all
the week's stakes (cuts at half) divided by the house divisor, fractions dropped,
give bonus SP; a bawdyhouse has no limit and no divisor.  He stops when he can
no longer cover a stake.
"""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Gamble


def gamble(m: Month, a: Actor, bet: Gamble, venue: str, divisor: int | None) -> None:
    stream = m.dice.stream("gambling")
    won = lost = cut = crowns = sp = tallied = 0
    for n in range(1, bet.wagers + 1):
        if a.crowns + crowns < bet.stake:
            m.emit(a.key, EventId.GAMBLING_STOPPED, {"venue": venue, "wager": n,
                                                     "stake": bet.stake})
            break
        purpose = f"wager {n} ({bet.stake} crowns) at {venue}"
        house = stream.roll("1d6", f"{purpose}: house", actor=a.key)
        if bet.cut is not None and house.total >= bet.cut:
            cut += 1
            half = (bet.stake + 1) // 2
            crowns -= half
            tallied += half
            sp -= 1
            continue
        player = stream.roll("1d6", f"{purpose}: player", actor=a.key, needs=house.total + 1)
        tallied += bet.stake
        if player.total > house.total:
            won, crowns, sp = won + 1, crowns + bet.stake, sp + 1
        else:
            lost, crowns, sp = lost + 1, crowns - bet.stake, sp - 1
    if won + lost + cut:
        m.emit(a.key, EventId.GAMBLING_SESSION,
               {"venue": venue, "stake": bet.stake, "won": won, "lost": lost, "cut": cut,
                "net": crowns}, crowns=crowns, sp=sp)
    if divisor and tallied // divisor:
        m.emit(a.key, EventId.GAMBLING_BONUS,
               {"venue": venue, "total": tallied, "divisor": divisor},
               sp=tallied // divisor)
