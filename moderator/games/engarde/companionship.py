"""Female companionship (EG §L, first paragraph only).

Once a month a gentleman needs female company; in this game only a bawdyhouse
provides it (mistresses are not in yet).  Lacking it costs 2 SP the first month
and 2 more each consecutive month (-2, -4, -6 ...).
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Month


def reckon(m: Month) -> None:
    step = m.tables.rule("companionship", "penalty_step")
    for a in m:
        if a.company:
            a.c = replace(a.c, lonely_months=0)
            m.emit(a.key, EventId.COMPANIONSHIP_MET)
            continue
        months = a.c.lonely_months + 1
        a.c = replace(a.c, lonely_months=months)
        m.emit(a.key, EventId.COMPANIONSHIP_LACKING, {"months": months}, sp=-step * months)
