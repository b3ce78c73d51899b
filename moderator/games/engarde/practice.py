"""Weapon practice (EG §N): four weeks (not necessarily consecutive) give +1 Exp.

Outside a regiment (or with another weapon than the regiment's) a week costs the character's Exp
with that weapon in crowns.
"""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Practice


def practise(m: Month, a: Actor, order: Practice) -> bool:
    """One week of practice; False if he could not pay for it."""
    exp = a.c.expertise.get(order.weapon, 0)
    cost = exp * m.tables.rule("practice", "cost_per_exp")
    if a.c.regiment and m.tables.army.regiment(a.c.regiment).weapon == order.weapon:
        cost = 0  # EG §N: free with the regiment's weapon
    if a.crowns < cost:
        m.emit(a.key, EventId.PRACTICE_UNAFFORDABLE, {"weapon": order.weapon, "cost": cost})
        return False
    weeks = a.c.practice_weeks.get(order.weapon, 0) + 1
    per_point = m.tables.rule("practice", "weeks_per_point")
    m.emit(a.key, EventId.PRACTICE_WEEK, {"weapon": order.weapon, "cost": cost,
                                          "weeks": weeks, "per_point": per_point},
           crowns=-cost)
    expertise = dict(a.c.expertise)
    if weeks >= per_point:
        weeks -= per_point
        expertise[order.weapon] = exp + 1
        m.emit(a.key, EventId.PRACTICE_IMPROVED, {"weapon": order.weapon, "exp": exp + 1})
    a.update(expertise=expertise, practice_weeks={**a.c.practice_weeks, order.weapon: weeks})
    return True
