"""Times: stored in UTC, shown in the game's time zone.

A time shown to a player or the GM ends with its zone as the tz database abbreviates it
(``18:00 CEST``) where that abbreviation names one UTC offset only.  Where it names
several (``IST`` is India's, Ireland's and Israel's: `AMBIGUOUS_ABBREVIATIONS`) the offset
follows it (``18:00 IST (UTC+05:30)``), and where the zone has no abbreviation of
letters (the tz database writes Dubai's as ``+04``) the offset stands in its place
(``18:00 UTC+04:00``): a reader anywhere can always tell which moment is meant.
"""

from __future__ import annotations

import calendar
import difflib
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from types import MappingProxyType
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

# The abbreviations a reader may take for another zone's, with the zones that share them.
# Provenance: (tz) the IANA tz database (release 2025b, as Python's zoneinfo reads it)
# gives the abbreviation to zones of different UTC offsets in 2020-2040: checked by
# tests/test_clock.py against the installed database, so a new clash fails a test;
# (use) the tz database gives it to one offset, but the other zone's people write it
# too (Wikipedia, "List of time zone abbreviations"; the tz database's theory.html:
# "CST means one thing in China and something else in North America, and IST can refer
# to time in India, Ireland or Israel").  Abbreviations the tz database does not print
# (GST, MYT ...) need no entry: a zone without one of letters always shows its offset.
AMBIGUOUS_ABBREVIATIONS: Mapping[str, str] = MappingProxyType({
    "CST": "tz: US Central UTC-06:00, China and Taiwan UTC+08:00, Cuba UTC-05:00",
    "CDT": "tz: US Central UTC-05:00, Cuba UTC-04:00",
    "IST": "tz: India UTC+05:30, Israel UTC+02:00, Ireland (summer) UTC+01:00",
    "PST": "tz: US Pacific UTC-08:00, Philippines UTC+08:00",
    "AST": "use: Atlantic UTC-04:00 (tz), Arabia UTC+03:00 (tz prints +03)",
    "BST": "use: British Summer Time UTC+01:00 (tz), Bangladesh UTC+06:00 (tz prints +06)",
    "EST": "use: US Eastern UTC-05:00 (tz), Australian Eastern UTC+10:00 (tz's own EST "
           "until release 2014f, AEST since)",
    "MST": "use: US Mountain UTC-07:00 (tz), Malaysia UTC+08:00 (tz prints +08)",
    "SST": "use: Samoa UTC-11:00 (tz), Singapore UTC+08:00 (tz prints +08)",
})


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything we store is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def utc_offset(local: datetime) -> str:
    """``UTC+05:30``, ``UTC-03:00``: the offset of an aware time, to the minute."""
    offset = local.utcoffset() or timedelta(0)
    minutes = round(offset.total_seconds() / 60)
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def zone_label(local: datetime) -> str:
    """The zone written after an aware time, as the module doc says: ``CEST``,
    ``IST (UTC+05:30)``, ``UTC+04:00``."""
    name = local.tzname() or ""
    if not name.isalpha():
        return utc_offset(local)
    if name in AMBIGUOUS_ABBREVIATIONS:
        return f"{name} ({utc_offset(local)})"
    return name


def format_local(moment: datetime, zone: str, pattern: str) -> str:
    """``moment`` in ``zone`` by a strftime ``pattern`` without its zone, then the zone
    (`zone_label`): ``format_local(t, "Asia/Kolkata", "%H:%M")`` is
    ``18:00 IST (UTC+05:30)``."""
    local = as_utc(moment).astimezone(ZoneInfo(zone))
    return f"{local.strftime(pattern)} {zone_label(local)}"


def format_deadline(moment: datetime | None, zone: str) -> str | None:
    """``Saturday 25 April 2026, 18:00 CEST`` in the game's zone (None stays None)."""
    if moment is None:
        return None
    return format_local(moment, zone, "%A %d %B %Y, %H:%M")


def format_deadline_for(moment: datetime | None, zone: str, own: str | None) -> str | None:
    """The deadline in a player's own zone ``own`` (`zone_named`), when he has one and
    it writes the moment otherwise than the game's ``zone`` does; else None (the
    game's alone is told)."""
    if moment is None or not own:
        return None
    shown = format_deadline(moment, own)
    return shown if shown != format_deadline(moment, zone) else None


def deadline_for(moment: datetime | None, zone: str, own: str | None) -> str:
    """The deadline as a player reads it: the game's zone, and his own after it when he
    has one that writes it otherwise (`format_deadline_for`): "..., 18:00 CET (your
    time: ..., 12:00 EST)"."""
    shown = format_deadline(moment, zone) or ""
    mine = format_deadline_for(moment, zone, own)
    return f"{shown} (your time: {mine})" if mine else shown


class UnknownZone(ValueError):
    """A time zone name the tz database does not know; the message says what might be
    meant."""


def zone_named(text: str) -> str:
    """The tz database's name for a zone a player wrote (``europe/paris`` is
    ``Europe/Paris``), or `UnknownZone` with the names he may have meant
    (``Paris``: ``Europe/Paris``)."""
    wanted = text.strip()
    found = _zones_by_folded_name().get(wanted.casefold())
    if found is not None:
        try:
            ZoneInfo(found)
        except (ZoneInfoNotFoundError, ValueError):
            found = None
    if found is None:
        raise UnknownZone(_zone_hint(wanted))
    return found


@lru_cache(maxsize=1)
def _zones_by_folded_name() -> Mapping[str, str]:
    return {name.casefold(): name for name in available_timezones()}


def _zone_hint(wanted: str) -> str:
    """Why ``wanted`` is refused and the zones whose city or name is near it."""
    folded = _zones_by_folded_name()
    city = wanted.casefold().replace(" ", "_").rsplit("/", 1)[-1]
    near = sorted(name for key, name in folded.items() if key.rsplit("/", 1)[-1] == city)
    near += [folded[key] for key in difflib.get_close_matches(wanted.casefold(), folded, 3)
             if folded[key] not in near]
    meant = f"did you mean {' or '.join(near[:3])}? " if near else ""
    return (f"{wanted!r} is not a time zone the moderator knows: {meant}a zone is named "
            "by region and city as the tz database writes it, e.g. Europe/Paris, "
            "America/New_York, Asia/Kolkata")


def add_month(moment: datetime, zone: ZoneInfo) -> datetime:
    """The same day and wall-clock time next month in the game's zone (UTC in, UTC out):
    18:00 CET in March gives 18:00 CEST in April, and a game far from UTC keeps its day.
    A day the next month lacks becomes its last day (31 January gives 28 February, and
    then 28 March: the turn keeps no memory of the 31st; a rule does)."""
    local = as_utc(moment).astimezone(zone).replace(tzinfo=None)
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    day = min(local.day, calendar.monthrange(year, month)[1])
    return as_utc(local.replace(year=year, month=month, day=day, tzinfo=zone))
