"""Female companionship (EG §L).

Once a month a gentleman needs female company: a bawdyhouse, a visit to his
mistress (or escorting her to a club or the theatre), winning a mistress, or a
revealed liaison.  A husband has it without being seen with his wife, and a
widower of childbirth is excused for three months.  Lacking it costs 2 SP the
first month and 2 more each consecutive month (-2, -4, -6 ...).
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Month


def reckon(m: Month) -> None:
    step = m.tables.rule("companionship", "penalty_step")
    for a in m:
        # PROPOSED: at the front or in prison the need is waived.
        if a.company or a.c.wife or a.c.grieving_until >= m.turn or a.c.at_front \
                or a.c.imprisoned(m.turn):
            a.c = replace(a.c, lonely_months=0)
            m.emit(a.key, EventId.COMPANIONSHIP_MET)
            continue
        months = a.c.lonely_months + 1
        a.c = replace(a.c, lonely_months=months)
        m.emit(a.key, EventId.COMPANIONSHIP_LACKING, {"months": months}, sp=-step * months)
