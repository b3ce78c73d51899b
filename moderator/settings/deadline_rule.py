"""A game's recurring deadline rule, as the GM writes it in config.toml or on the desk.

Pure settings: it checks what the GM typed and computes the next deadline in the game's
time zone; setting deadlines on a turn is `moderator.turn.deadlines`.
"""

from __future__ import annotations

import calendar
import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from moderator.clock import as_utc

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WEEKS = ("1st", "2nd", "3rd", "4th", "last")


class ScheduleError(ValueError):
    """A deadline or rule the GM gave cannot be used, with the reason."""


# --- rules -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """A recurring deadline at ``time`` ("HH:MM") in the game's time zone, one of:

    * ``monthly_day``: that day of every month (29-31 mean the last day of a shorter month);
    * ``weekday`` and ``week``: e.g. the "2nd" "sat" or the "last" "fri" of every month;
    * ``every_days``: that many days after the previous deadline.

    ``announcements_days_before`` puts the announcement deadline that many days before
    the orders deadline, at the same wall-clock time.
    """

    monthly_day: int | None = None
    weekday: str | None = None
    week: str | None = None
    every_days: int | None = None
    time: str = "18:00"
    announcements_days_before: int | None = None

    def __post_init__(self) -> None:
        """Refuse a rule that is ambiguous or impossible, with a reason the GM can act on."""
        kinds = [self.monthly_day is not None, self.weekday is not None or self.week is not None,
                 self.every_days is not None]
        if sum(kinds) != 1:
            raise ScheduleError("a rule is one of: a day of the month, a weekday of the month "
                                "(week and weekday), or every so many days")
        if self.monthly_day is not None and not 1 <= self.monthly_day <= 31:
            raise ScheduleError("the day of the month must be 1 to 31")
        if kinds[1] and (self.weekday not in WEEKDAYS or self.week not in WEEKS):
            raise ScheduleError(f"weekday is one of {', '.join(WEEKDAYS)} and week one of "
                                f"{', '.join(WEEKS)}")
        if self.every_days is not None and not 1 <= self.every_days <= 366:
            raise ScheduleError("every so many days: 1 to 366")
        self.hour_minute()
        days = self.announcements_days_before
        if days is not None and not 1 <= days <= 27:
            raise ScheduleError("announcements must be 1 to 27 days before the deadline")
        if days is not None and self.every_days is not None and days >= self.every_days:
            raise ScheduleError("announcements must come after the previous deadline")

    def hour_minute(self) -> tuple[int, int]:
        """``time`` as numbers (checked, so a typo is refused when the rule is made)."""
        try:
            hour, minute = (int(part) for part in self.time.split(":"))
            if not (0 <= hour <= 23 and 0 <= minute <= 59):
                raise ValueError
        except ValueError:
            raise ScheduleError(f"time {self.time!r}: use HH:MM, e.g. 18:00") from None
        return hour, minute

    def to_json(self) -> str:
        """The rule as stored in ``Game.schedule_json`` (only the fields given)."""
        data = {key: value for key, value in self.__dict__.items() if value is not None}
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | None) -> Rule | None:
        """The stored rule, or None for a game whose deadlines are set by hand."""
        return cls(**json.loads(text)) if text else None

    def describe(self) -> str:
        """One line for the GM: ``monthly on day 12 at 18:00, announcements 4 days before``."""
        if self.monthly_day is not None:
            when = f"monthly on day {self.monthly_day} at {self.time}"
        elif self.every_days is not None:
            when = f"every {self.every_days} days at {self.time}"
        else:
            when = f"monthly on the {self.week} {self.weekday} at {self.time}"
        if self.announcements_days_before:
            when += f", announcements {self.announcements_days_before} days before"
        return when

    def next_after(self, moment: datetime, zone: ZoneInfo) -> datetime:
        """The first deadline strictly after ``moment`` (UTC in, UTC out)."""
        moment = as_utc(moment)
        hour, minute = self.hour_minute()
        if self.every_days is not None:
            day = moment.astimezone(zone).date() + timedelta(days=self.every_days)
            return wall_clock(day, hour, minute, zone)
        local = moment.astimezone(zone)
        year, month = local.year, local.month
        for _ in range(3):
            candidate = wall_clock(self._day_in(year, month), hour, minute, zone)
            if candidate > moment:
                return candidate
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        raise AssertionError("unreachable")

    def _day_in(self, year: int, month: int) -> date:
        """The rule's day in a month: ``monthly_day`` (the last day of a shorter month),
        or the ``week``'s ``weekday`` ("2nd" "sat", "last" "fri")."""
        days = calendar.monthrange(year, month)[1]
        if self.monthly_day is not None:
            return date(year, month, min(self.monthly_day, days))
        assert self.weekday is not None and self.week is not None
        wanted = WEEKDAYS.index(self.weekday)
        first = 1 + (wanted - date(year, month, 1).weekday()) % 7
        if self.week == "last":
            return date(year, month, first + 7 * ((days - first) // 7))
        return date(year, month, first + 7 * WEEKS.index(self.week))

    def announcements_for(self, deadline: datetime, zone: ZoneInfo) -> datetime | None:
        """The announcement deadline that goes with an orders deadline, if the rule has one."""
        if not self.announcements_days_before:
            return None
        return local_shift(deadline, zone, days=-self.announcements_days_before)


def wall_clock(day: date, hour: int, minute: int, zone: ZoneInfo) -> datetime:
    """``hour:minute`` on ``day`` in the game's zone, in UTC, so 18:00 stays 18:00 across
    DST.  On a change-over night a time that does not exist (02:30 when the clocks go
    forward) is read with the offset before the change, so it falls an hour later on the
    clock (03:30); a time that happens twice (when they go back) is the first one."""
    return as_utc(datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone))


def local_shift(moment: datetime, zone: ZoneInfo, *, days: int) -> datetime:
    """Move by whole days keeping the wall-clock time in the zone (DST-correct)."""
    local = as_utc(moment).astimezone(zone).replace(tzinfo=None) + timedelta(days=days)
    return as_utc(local.replace(tzinfo=zone))
