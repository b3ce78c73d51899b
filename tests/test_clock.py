"""How a time is shown to players and the GM (`moderator.clock`): the zone's abbreviation
where it names one UTC offset, the offset beside it where it names several, the offset
alone where the zone has no abbreviation of letters."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, available_timezones

import pytest

from moderator.cli.hostview import short
from moderator.clock import AMBIGUOUS_ABBREVIATIONS, format_deadline, format_local

SUMMER = datetime(2027, 7, 10, 16, 0, tzinfo=UTC)
WINTER = datetime(2027, 1, 9, 17, 0, tzinfo=UTC)


@pytest.mark.parametrize(("zone", "moment", "shown"), [
    ("Europe/Paris", SUMMER, "Saturday 10 July 2027, 18:00 CEST"),
    ("Europe/Paris", WINTER, "Saturday 09 January 2027, 18:00 CET"),
    ("Europe/Dublin", WINTER, "Saturday 09 January 2027, 17:00 GMT"),
    ("UTC", SUMMER, "Saturday 10 July 2027, 16:00 UTC"),
    ("Asia/Tokyo", SUMMER, "Sunday 11 July 2027, 01:00 JST"),
    ("Pacific/Auckland", WINTER, "Sunday 10 January 2027, 06:00 NZDT"),
])
def test_an_abbreviation_that_names_one_offset_is_shown_as_before(
        zone: str, moment: datetime, shown: str) -> None:
    assert format_deadline(moment, zone) == shown


@pytest.mark.parametrize(("zone", "moment", "shown"), [
    ("Asia/Kolkata", SUMMER, "Saturday 10 July 2027, 21:30 IST (UTC+05:30)"),
    ("Europe/Dublin", SUMMER, "Saturday 10 July 2027, 17:00 IST (UTC+01:00)"),
    ("Asia/Jerusalem", WINTER, "Saturday 09 January 2027, 19:00 IST (UTC+02:00)"),
    ("America/Chicago", WINTER, "Saturday 09 January 2027, 11:00 CST (UTC-06:00)"),
    ("America/Chicago", SUMMER, "Saturday 10 July 2027, 11:00 CDT (UTC-05:00)"),
    ("Asia/Shanghai", WINTER, "Sunday 10 January 2027, 01:00 CST (UTC+08:00)"),
    ("Europe/London", SUMMER, "Saturday 10 July 2027, 17:00 BST (UTC+01:00)"),
])
def test_an_ambiguous_abbreviation_gets_its_utc_offset(
        zone: str, moment: datetime, shown: str) -> None:
    assert format_deadline(moment, zone) == shown


@pytest.mark.parametrize(("zone", "shown"), [
    ("Asia/Dubai", "2027-07-10 20:00 UTC+04:00"),
    ("Asia/Kathmandu", "2027-07-10 21:45 UTC+05:45"),
    ("America/Sao_Paulo", "2027-07-10 13:00 UTC-03:00"),
])
def test_a_zone_without_an_abbreviation_shows_its_offset(zone: str, shown: str) -> None:
    """Python's %Z prints these zones as ``+04``, ``+0545``, ``-03``."""
    assert format_local(SUMMER, zone, "%Y-%m-%d %H:%M") == shown


def test_naive_times_are_utc_as_stored() -> None:
    naive = SUMMER.replace(tzinfo=None)  # as SQLite hands them back
    assert format_local(naive, "Asia/Dubai", "%H:%M") == "20:00 UTC+04:00"


def _abbreviations_in_use() -> dict[str, set[timedelta]]:
    """Each letters-only abbreviation the installed tz database prints in 2024-2040, with
    the UTC offsets it stands for (every zone, sampled fortnightly: every summer time
    lasts longer)."""
    found: dict[str, set[timedelta]] = defaultdict(set)
    start = datetime(2024, 1, 1, 12, tzinfo=UTC)
    for name in sorted(available_timezones()):
        zone = ZoneInfo(name)
        for days in range(0, 17 * 365, 14):
            local = (start + timedelta(days=days)).astimezone(zone)
            abbreviation = local.tzname() or ""
            if abbreviation.isalpha():
                found[abbreviation].add(local.utcoffset() or timedelta(0))
    return found


def test_the_table_holds_every_clash_of_the_tz_database_and_only_its_abbreviations() -> None:
    """A tz database update that gives an abbreviation a second offset fails here (add it
    to the table); an entry the database no longer prints is dead data."""
    in_use = _abbreviations_in_use()
    clashing = {name for name, offsets in in_use.items() if len(offsets) > 1}
    assert clashing <= set(AMBIGUOUS_ABBREVIATIONS), clashing - set(AMBIGUOUS_ABBREVIATIONS)
    assert {"CST", "IST", "PST"} <= clashing
    assert set(AMBIGUOUS_ABBREVIATIONS) <= set(in_use)


def test_no_module_but_the_clock_prints_a_zone_abbreviation() -> None:
    """Every time shown to players or the GM goes through `format_local` (newsletters,
    receipts, reminders, STATUS, the site, the CLI): a bare %Z or tzname() elsewhere would
    print ``IST`` or ``+03`` again."""
    package = Path(__file__).resolve().parents[1] / "moderator"
    offenders = [str(path.relative_to(package)) for path in sorted(package.rglob("*.py"))
                 if path.name != "clock.py" or path.parent != package
                 if "%Z" in (text := path.read_text(encoding="utf-8")) or "tzname(" in text]
    assert offenders == []


def test_the_host_view_shows_the_offset_too() -> None:
    assert short(WINTER, "Asia/Kolkata") == "2027-01-09 22:30 IST (UTC+05:30)"
