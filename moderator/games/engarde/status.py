"""Status reckoning at the end of the month (EG §E)."""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Month


def needed_to_rise(sl: int, multiple: int) -> int:
    """Three times the SL sought (EG §E: SL 4 -> 5 needs 15)."""
    return multiple * (sl + 1)


def reckon(m: Month) -> None:
    """Rise one SL on 3 x (SL+1) SP, hold on SL, else fall one; SP never carry over."""
    multiple = m.tables.rule("status", "rise_multiple")
    floor = m.tables.rule("status", "min_sl")
    for a in m:
        before, rise = a.sl, needed_to_rise(a.sl, multiple)
        args = {"sl_before": before, "sp": a.sp, "rise": rise, "hold": before}
        if a.sp >= rise:
            a.sl += 1
            m.emit(a.key, EventId.STATUS_ROSE, {**args, "sl_after": a.sl}, public=True)
        elif a.sp >= before:
            m.emit(a.key, EventId.STATUS_HELD, {**args, "sl_after": a.sl})
        else:
            a.sl = max(floor, a.sl - 1)
            m.emit(a.key, EventId.STATUS_FELL, {**args, "sl_after": a.sl}, public=True)
