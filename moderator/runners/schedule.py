"""The service's scheduler: jobs at the deadlines, kept in step with the database.

The scheduler is APScheduler's BackgroundScheduler with its jobs in the store itself
(SQLAlchemyJobStore, table ``apscheduler_jobs``).  The database is the truth (the
deadlines on each open turn, see `moderator.turn.deadlines`); the jobs are derived from it by
`sync_jobs` (at start, after every change the service makes, within
`CHANGE_POLL_SECONDS` of a change a command notes with `deadlines.note_change`, and every
`SYNC_SECONDS`), one job of each kind per active game.  Only the service writes the job
store; commands only change the database.  The jobs:

* ``deadline:GAME``: at the orders deadline, run the turn (`run_due_turn`);
* ``announcements:GAME``: at the announcement deadline, mail the announcements gazette
  (`moderator.runners.reminders.send_announcements`);
* ``reminder:GAME``: ``service.reminder_hours`` (or the game's ``reminder_hours``, one
  job per reminder in turn) before the orders deadline, remind the players who have
  sent no orders yet (`moderator.runners.reminders.send_reminders`).

While the host is stopped (`moderator panic`) no job is wanted and every job that
fires does nothing; ``panic --off`` notes a change, and the next sync brings them back.

Jobs never expire (``misfire_grace_time=None``) and run once however late they are
(DateTrigger, ``coalesce``): a deadline passed while the service was down runs when it
starts.  Each job checks the turn it was made for is still the open one, so a job that
fires twice, or after the GM ran the turn by hand, does nothing.  A deadline that passed
during an outage also slides the next turn's deadlines by ``service.outage_slide_hours``
(the turn runner does it, told ``missed``).

The service writes a heartbeat (`HEARTBEAT`) every `SYNC_SECONDS`; `service_alive` reads
it, so commands can leave the outbox to a running service.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session

from moderator.clock import as_utc
from moderator.runners.jobs import (
    Log,
    Runtime,
    no_log,
    run_announcements,
    run_due_turn,
    run_reminders,
)
from moderator.runners.reminders import announcements_sent, announcements_template, next_reminder
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.host import panic_reason
from moderator.store.models import Game, ServiceStatus, Turn
from moderator.turn.deadlines import CHANGED, now_utc
from moderator.turn.inputs import due_at

# How often `serve` re-reads the deadlines from the database (changes made by the CLI in
# another process are picked up within this time) and writes its heartbeat.
SYNC_SECONDS = 30
# A gap this long between heartbeats means the service was not running (or the host slept).
OUTAGE_AFTER = timedelta(seconds=3 * SYNC_SECONDS)

HEARTBEAT = "scheduler.heartbeat"
STOPPED = "service.stopped"
# How often the running service checks for CHANGED (set by commands in other processes).
CHANGE_POLL_SECONDS = 5
JOB_KINDS = ("deadline", "announcements", "reminder")

# --- the scheduler ---------------------------------------------------------------------

# The job store keeps a reference to each job's function by module and name
# ("moderator.runners.schedule:_job_deadline"), so these ``_job_*`` entry points stay here under
# these names: moving or renaming one would make APScheduler drop every stored job that
# uses it ("Unable to restore job").  What the jobs do is in `moderator.runners.jobs`.
_runtime: Runtime | None = None


def _job_deadline(game_name: str, number: int) -> None:
    """A job stores only names: it runs in the service process, which set `_runtime`."""
    if _runtime is not None:
        run_due_turn(_runtime, game_name, number)


def _job_announcements(game_name: str, number: int) -> None:
    """The announcements job (see `_job_deadline` for why it reads `_runtime`)."""
    rt = _runtime
    if rt is not None:
        run_announcements(rt, game_name, number)


def _job_reminder(game_name: str, number: int) -> None:
    """The reminder job (see `_job_deadline` for why it reads `_runtime`)."""
    rt = _runtime
    if rt is not None:
        run_reminders(rt, game_name, number)


@dataclass(frozen=True)
class JobSpec:
    id: str
    func: Callable[..., None]
    run_date: datetime
    args: tuple[str, int]


def desired_jobs(db: Engine, config: Config, runtime: Runtime | None = None,
                 now: datetime | None = None) -> list[JobSpec]:
    """The jobs the database calls for now (none while the host is stopped by `panic`)."""
    now = now or now_utc()
    specs: list[JobSpec] = []
    with Session(db) as session:
        if panic_reason(session) is not None:
            return []
        for game in repo.games(session):
            if game.status != "active":
                continue
            try:
                turn = repo.open_turn(session, game)
            except repo.NotFound:
                continue
            if turn.deadline is not None:
                specs += _jobs_for(session, config, game, turn, runtime, now)
    return specs


def _jobs_for(session: Session, config: Config, game: Game, turn: Turn,
              runtime: Runtime | None, now: datetime) -> list[JobSpec]:
    """One game's jobs: its deadline (or a retry), and, while it is still ahead, its
    announcements gazette and next reminder if they have not gone out.  The deadline job
    runs at `due_at`: the deadline plus the game's grace, or earlier when the
    game runs early once all orders are in."""
    assert turn.deadline is not None
    args = (game.name, turn.number)
    deadline = as_utc(turn.deadline)
    due = due_at(session, config, game, turn) or deadline
    retry = runtime.retry_at.get(args) if runtime else None
    specs = [JobSpec(f"deadline:{game.name}", _job_deadline,
                     max(due, retry) if retry else due, args)]
    if deadline <= now:
        return specs
    ann = turn.announcement_deadline
    if (ann is not None and announcements_template(config, game) is not None
            and not announcements_sent(session, game, turn.number)):
        specs.append(JobSpec(f"announcements:{game.name}", _job_announcements,
                             as_utc(ann), args))
    slot = next_reminder(config, game, turn)
    if slot is not None:
        specs.append(JobSpec(f"reminder:{game.name}", _job_reminder, slot, args))
    return specs


def new_scheduler(db: Engine) -> Any:
    """A scheduler whose jobs never expire and run once however late (missed deadlines)."""
    from apscheduler.executors.pool import ThreadPoolExecutor
    from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
    from apscheduler.schedulers.background import BackgroundScheduler

    return BackgroundScheduler(
        jobstores={"default": SQLAlchemyJobStore(engine=db)},
        executors={"default": ThreadPoolExecutor(2)},
        job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        timezone=UTC,
    )


def sync_jobs(scheduler: Any, db: Engine, config: Config, runtime: Runtime | None = None,
              now: datetime | None = None) -> dict[str, int]:
    """Make the job store match the database: add, replace and remove jobs."""
    from apscheduler.triggers.date import DateTrigger

    wanted = {spec.id: spec for spec in desired_jobs(db, config, runtime, now)}
    counts = {"added": 0, "removed": 0, "kept": 0}
    for job in scheduler.get_jobs():
        spec = wanted.get(job.id)
        if spec is None and job.id.split(":", 1)[0] in JOB_KINDS:
            scheduler.remove_job(job.id)
            counts["removed"] += 1
        elif spec is not None and (tuple(job.args) == spec.args
                                   and as_utc(job.trigger.run_date) == spec.run_date):
            wanted.pop(job.id)
            counts["kept"] += 1
    for spec in wanted.values():
        scheduler.add_job(spec.func, DateTrigger(run_date=spec.run_date, timezone=UTC),
                          args=list(spec.args), id=spec.id, name=spec.id,
                          replace_existing=True)
        counts["added"] += 1
    return counts


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


def scheduled(db: Engine) -> list[tuple[str, datetime | None]]:
    """The job store's jobs and their next run times, read without unpickling."""
    from sqlalchemy import inspect, text

    if not inspect(db).has_table("apscheduler_jobs"):
        return []
    with db.connect() as conn:
        rows = conn.execute(text("SELECT id, next_run_time FROM apscheduler_jobs "
                                 "ORDER BY next_run_time")).all()
    return [(row[0], datetime.fromtimestamp(row[1], UTC) if row[1] else None) for row in rows]


class DeadlineScheduler:
    """The service's scheduler: starts, notices outages, keeps the jobs in sync."""

    def __init__(self, db: Engine, config: Config, log: Log = no_log) -> None:
        self.db, self.config, self.log = db, config, log
        self.scheduler = new_scheduler(db)
        self.runtime = Runtime(db, config, log, on_change=self.request_sync)
        self._sync_wanted = threading.Event()
        self._last_beat: datetime | None = None
        self._synced_at: datetime | None = None

    def start(self, now: datetime | None = None) -> None:
        """Notice an outage since the last heartbeat, then start with the jobs in sync."""
        global _runtime
        now = now or now_utc()
        self.runtime.started_at = now
        with session_scope(self.db) as session:
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
                self.log("warning", "service.outage", since=down_since.isoformat(),
                         until=now.isoformat())
            repo.set_status(session, HEARTBEAT, now.isoformat())
        self._last_beat = now
        if outage and down_since is not None:
            self.runtime.outages.append((down_since, now))
        _runtime = self.runtime
        self.scheduler.start(paused=True)
        self.sync()
        self.scheduler.resume()

    def request_sync(self) -> None:
        self._sync_wanted.set()

    def sync(self) -> dict[str, int]:
        """Re-derive the jobs from the database now; log when that changed anything."""
        self._sync_wanted.clear()
        self._synced_at = now_utc()
        counts = sync_jobs(self.scheduler, self.db, self.config, self.runtime)
        if counts["added"] or counts["removed"]:
            self.log("info", "jobs.synced", **counts,
                     jobs=" ".join(f"{job.id}@{as_utc(job.next_run_time):%Y-%m-%dT%H:%M:%SZ}"
                                   for job in self.scheduler.get_jobs() if job.next_run_time))
        self.scheduler.wakeup()
        return counts

    def heartbeat(self, now: datetime | None = None) -> None:
        """Record that the service is alive; a long gap since the last one was an outage."""
        now = now or now_utc()
        if self._last_beat is not None and now - self._last_beat > OUTAGE_AFTER:
            # The host slept, or this process was stopped: deadlines in the gap were missed.
            self.runtime.outages.append((self._last_beat, now))
            with session_scope(self.db) as session:
                repo.log_gm(session, "service.outage",
                            f"no heartbeat from {self._last_beat:%Y-%m-%d %H:%M} to "
                            f"{now:%Y-%m-%d %H:%M} UTC", level="warning")
            self.log("warning", "service.outage", since=self._last_beat.isoformat(),
                     until=now.isoformat())
        with session_scope(self.db) as session:
            repo.set_status(session, HEARTBEAT, now.isoformat())
        self._last_beat = now

    def run(self, stop: threading.Event, interval: float = SYNC_SECONDS,
            poll: float = CHANGE_POLL_SECONDS) -> None:
        """Heartbeat and re-sync every ``interval`` seconds; re-sync at once when a job
        asks, or within ``poll`` seconds of a command noting a change."""
        last_full = time.monotonic()
        while not stop.is_set():
            asked = self._sync_wanted.wait(poll)
            if stop.is_set():
                break
            due = time.monotonic() - last_full >= interval
            if due:
                self.heartbeat()
                last_full = time.monotonic()
            if asked or due or self._changed_elsewhere():
                self.sync()

    def _changed_elsewhere(self) -> bool:
        """Whether a command in another process noted a change since our last sync."""
        with Session(self.db) as session:
            row = session.get(ServiceStatus, CHANGED)
            changed = as_utc(row.updated_at) if row else None
        return changed is not None and (self._synced_at is None or changed >= self._synced_at)

    def wake(self) -> None:
        """Let `run` return promptly (called on shutdown)."""
        self._sync_wanted.set()

    def shutdown(self) -> None:
        """Stop after any running job, and leave a last heartbeat (outage checks start there)."""
        global _runtime
        self.scheduler.shutdown(wait=True)
        with session_scope(self.db) as session:
            repo.set_status(session, HEARTBEAT, now_utc().isoformat())
        if _runtime is self.runtime:
            _runtime = None
