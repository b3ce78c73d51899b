"""Times: stored in UTC, shown in the game's time zone."""

from __future__ import annotations

import calendar
from datetime import UTC, datetime
from zoneinfo import ZoneInfo


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything we store is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def format_deadline(moment: datetime | None, zone: str) -> str | None:
    """``Saturday 25 April 2026, 18:00 CEST`` in the game's zone (None stays None)."""
    if moment is None:
        return None
    return as_utc(moment).astimezone(ZoneInfo(zone)).strftime("%A %d %B %Y, %H:%M %Z")


def add_month(moment: datetime, zone: ZoneInfo) -> datetime:
    """The same day and wall-clock time next month in the game's zone (UTC in, UTC out):
    18:00 CET in March gives 18:00 CEST in April, and a game far from UTC keeps its day.
    A day the next month lacks becomes its last day (31 January gives 28 February, and
    then 28 March: the turn keeps no memory of the 31st; a rule does)."""
    local = as_utc(moment).astimezone(zone).replace(tzinfo=None)
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    day = min(local.day, calendar.monthrange(year, month)[1])
    return as_utc(local.replace(year=year, month=month, day=day, tzinfo=zone))
