"""Times: stored in UTC, shown in the game's time zone."""

from __future__ import annotations

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


def add_month(moment: datetime) -> datetime:
    """The same day and time next month (clamped to the month's last day)."""
    year, month = (moment.year + 1, 1) if moment.month == 12 else (moment.year, moment.month + 1)
    for day in (moment.day, 30, 29, 28):
        try:
            return moment.replace(year=year, month=month, day=day)
        except ValueError:
            continue
    raise AssertionError("unreachable")
