"""The service's heartbeat: whether `serve` is running, and the outages between beats.

`serve` writes `HEARTBEAT` every `SYNC_SECONDS` (and tidies the outbox on each beat);
`service_alive` reads it, so commands can leave the outbox to a running service.  A gap
longer than `OUTAGE_AFTER` between two beats, or before a start, was an outage: it goes in
the GM's log, and the scheduler slides the deadlines that fell in it
(`moderator.runners.schedule`).  A stopping service writes a last beat, then `STOPPED`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import Engine
from sqlmodel import Session

from moderator.clock import as_utc
from moderator.runners.jobs import Log
from moderator.settings.config import Config
from moderator.store import outbox_tidy, repo
from moderator.store.db import session_scope
from moderator.turn.deadlines import now_utc

# How often `serve` writes its heartbeat (and tidies the outbox).
SYNC_SECONDS = 30
# A gap this long between heartbeats means the service was not running (or the host slept).
OUTAGE_AFTER = timedelta(seconds=3 * SYNC_SECONDS)

HEARTBEAT = "scheduler.heartbeat"
STOPPED = "service.stopped"

# Seconds on a clock that runs on while the host sleeps but never jumps when the wall
# clock is set (NTP stepping it, a GM fixing the date); None where there is none.
SteadyClock = Callable[[], float]


def boot_clock() -> SteadyClock | None:
    """Linux's CLOCK_BOOTTIME, or None (``time.monotonic`` stops while a Mac sleeps: a
    slept host would look awake, so there the wall clock alone judges gaps)."""
    clock_id = getattr(time, "CLOCK_BOOTTIME", None)
    if clock_id is None:
        return None
    return lambda: time.clock_gettime(clock_id)


# A clock set this soon after the start is a host setting its clock as it boots (a board
# without a real-time clock starts at the time it last saved): the start could not see
# the real downtime, so that jump counts as the outage it hides.
BOOT_SETTLE_SECONDS = 600.0


def wall_jumped(steady_gap: float | None, running: float | None) -> bool:
    """Whether a long gap between two beats on the wall clock was the clock being set
    while the service ran, not an outage: the steady clock saw no such gap, and the
    service (``running`` steady seconds) was past its boot-time settling."""
    return (steady_gap is not None and steady_gap <= OUTAGE_AFTER.total_seconds()
            and running is not None and running > BOOT_SETTLE_SECONDS)


def service_alive(db: Engine, now: datetime | None = None) -> datetime | None:
    """The last heartbeat of a `serve` that seems to be running, else None.

    A heartbeat within `OUTAGE_AFTER` counts as running unless the service recorded its
    stop after it (its shutdown writes a last heartbeat, then `STOPPED`).  A service
    killed outright looks alive for at most `OUTAGE_AFTER`.
    """
    now = now or now_utc()
    with Session(db) as session:
        status = repo.service_status(session)
    beat, stopped = status.get(HEARTBEAT), status.get(STOPPED)
    if beat is None or now - as_utc(beat.updated_at) > OUTAGE_AFTER:
        return None
    if stopped is not None and as_utc(stopped.updated_at) >= as_utc(beat.updated_at):
        return None
    return as_utc(beat.updated_at)


def first_beat(db: Engine, log: Log, now: datetime) -> datetime | None:
    """A starting service's heartbeat; when the outage it ends began (noted in the GM's
    log), or None."""
    with session_scope(db) as session:
        beat = repo.service_status(session).get(HEARTBEAT)
        down_since = as_utc(beat.updated_at) if beat else None
        # A first start (no heartbeat ever) is no outage: nothing was running to miss
        # a deadline, and counting everything since datetime.min as down made a turn
        # due a moment after a slow start "late".  A restart within OUTAGE_AFTER is no
        # outage either; only a real gap slides the deadlines that fell in it.
        outage = down_since is not None and now - down_since > OUTAGE_AFTER
        if outage and down_since is not None:
            repo.log_gm(session, "service.outage",
                        f"not running from {down_since:%Y-%m-%d %H:%M} to "
                        f"{now:%Y-%m-%d %H:%M} UTC", level="warning")
            log("warning", "service.outage", since=down_since.isoformat(),
                until=now.isoformat())
        repo.set_status(session, HEARTBEAT, now.isoformat())
    return down_since if outage else None


def note_gap(db: Engine, log: Log, last_beat: datetime, now: datetime) -> None:
    """A gap between two beats of a running service (the host slept, or this process was
    stopped), in the GM's log."""
    with session_scope(db) as session:
        repo.log_gm(session, "service.outage",
                    f"no heartbeat from {last_beat:%Y-%m-%d %H:%M} to "
                    f"{now:%Y-%m-%d %H:%M} UTC", level="warning")
    log("warning", "service.outage", since=last_beat.isoformat(),
        until=now.isoformat())


def tidy_outbox(session: Session, config: Config, log: Log, now: datetime) -> None:
    """Welcomes sent, failed or bounced lose their password; old sent mail its body (the
    archive keeps every issue).  Both are cheap index lookups when there is nothing to do."""
    masked = outbox_tidy.mask_sent_secrets(session, now)
    days = config.outbox_compact_days
    compacted = outbox_tidy.compact_outbox(session, now - timedelta(days=days), now) if days else 0
    if masked or compacted:
        log("info", "outbox.tidied", masked=masked, compacted=compacted)
