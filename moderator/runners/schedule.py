"""The service's scheduler: jobs at the deadlines, kept in step with the database.

The scheduler is APScheduler's BackgroundScheduler with its jobs in the store itself
(`moderator.runners.job_store`).  The database is the truth (the deadlines on each open
turn, see `moderator.turn.deadlines`); the jobs are derived from it by `sync_jobs` (once
the service is up, after every change the service makes, within `CHANGE_POLL_SECONDS` of
a change made elsewhere, and every `FULL_SYNC_SECONDS` whatever happened), one job of each
kind per active game.  What tells a change made elsewhere is the *change stamp*
(`moderator.runners.change_stamp`), one query an idle service runs and nothing else.
Only the service writes the job store; commands only change the database.  The jobs:

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

The service writes a heartbeat every `SYNC_SECONDS` (`moderator.runners.heartbeat`: the
outages it notices, `service_alive` for the commands).  `serve` is ready before the
first sync: the scheduler starts paused and its loop (`DeadlineScheduler.run`) syncs,
with every job written in one transaction (`BatchedJobStore`), then lets the jobs run.

This module keeps the service's loop (`DeadlineScheduler`) and the names stored jobs
refer to; the jobs' entry points are in `moderator.runners.job_entry`, what each game's
jobs are (`desired_jobs`, `JobSync`) in `moderator.runners.job_sync`.  It re-exports
what the service, commands and tests import from it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterable
from datetime import datetime
from functools import partial

from sqlalchemy import Engine

from moderator.runners.change_stamp import CHANGE_POLL_SECONDS, Stamp, change_stamp
from moderator.runners.heartbeat import (
    HEARTBEAT,
    OUTAGE_AFTER,
    STOPPED,
    SYNC_SECONDS,
    boot_clock,
    first_beat,
    note_gap,
    service_alive,
    tidy_outbox,
    wall_jumped,
)
from moderator.runners.job_entry import (
    current_runtime,
    job_announcements,
    job_deadline,
    job_reminder,
    running_jobs,
    set_runtime,
)
from moderator.runners.job_store import (
    BatchedJobStore,
    JobSpec,
    batched,
    new_scheduler,
    scheduled,
)
from moderator.runners.job_sync import JOB_KINDS, JobSync, desired_jobs, sync_jobs
from moderator.runners.jobs import Log, Runtime, no_log, run_due_turn
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import checkpoint, session_scope
from moderator.store.guard import job_lock
from moderator.turn.deadlines import now_utc

# How often `serve` re-reads the deadlines from the database whether or not the change
# stamp moved (what the stamp cannot see: a reminder or announcements slot passing).
FULL_SYNC_SECONDS = 300

# --- the jobs' stored references ---------------------------------------------------------

# The job store keeps a reference to each job's function by module and name.  Jobs stored
# before the entry points moved to `moderator.runners.job_entry` name them here
# ("moderator.runners.schedule:_job_deadline"): these names stay, or APScheduler would
# drop every such job ("Unable to restore job").  Jobs stored since name job_entry's.
_job_deadline = job_deadline
_job_announcements = job_announcements
_job_reminder = job_reminder


def _listed(items: Iterable[str], most: int = 20) -> str:
    """Up to ``most`` of ``items`` for a log line, and how many more there were."""
    shown = list(items)
    more = len(shown) - most
    return " ".join(shown[:most]) + (f" and {more} more" if more > 0 else "")


class DeadlineScheduler:
    """The service's scheduler: starts, notices outages, keeps the jobs in sync."""

    def __init__(self, db: Engine, config: Config, log: Log = no_log, *,
                 worker: bool = False) -> None:
        self.db, self.config, self.log = db, config, log
        # A worker (`serve --worker`): jobs in memory, each run under its job lock.
        self.scheduler = new_scheduler(db, shared=not worker)
        self.worker = worker
        self.runtime = Runtime(db, config, log, on_change=self.request_sync)
        if worker:
            self.runtime.job_lock = partial(job_lock, db)
        self.jobs = JobSync(db, config, self.runtime)
        self._sync_wanted = threading.Event()
        self.synced = threading.Event()  # set once the first sync is done and jobs run
        self._last_beat: datetime | None = None
        self.steady = boot_clock()  # judges a long gap between beats: outage or clock set
        self._last_steady: float | None = None
        self._started_steady: float | None = None
        self._stamp: Stamp | None = None  # the change stamp the last sync saw

    def start(self, now: datetime | None = None, *, sync: bool = True) -> None:
        """Notice an outage since the last heartbeat, and start the scheduler: with
        ``sync``, the jobs synced before it returns; without (`serve`, ready at once),
        paused until `run` has done the first sync."""
        now = now or now_utc()
        self.runtime.started_at = now
        down_since = first_beat(self.db, self.log, now)
        self._last_beat = now
        self._last_steady = self._started_steady = self.steady() if self.steady else None
        if down_since is not None:
            self.runtime.outages.append((down_since, now))
        set_runtime(self.runtime)
        self.scheduler.start(paused=True)
        if sync:
            self.first_sync()

    def first_sync(self) -> None:
        """Sync while the scheduler is still paused, every job written in one
        transaction, then let the jobs run."""
        if self.synced.is_set():
            return
        began = time.monotonic()
        counts = self.sync(batch=True)
        self.scheduler.resume()
        self.synced.set()
        self.log("info", "jobs.ready", **counts, seconds=round(time.monotonic() - began, 3))

    def request_sync(self) -> None:
        self._sync_wanted.set()

    def sync(self, *, batch: bool = False) -> dict[str, int]:
        """Re-derive the jobs from the database now; log when that changed anything.
        ``batch``: the job-store writes in one transaction (only while paused, see
        `BatchedJobStore`)."""
        self._sync_wanted.clear()
        stamp = change_stamp(self.db, jobs=not self.worker)
        with batched(self.scheduler) if batch else contextlib.nullcontext():
            counts = self.jobs.sync(self.scheduler)
        if counts["added"] or counts["removed"]:
            if not self.worker:  # the sync's own writes moved the rows' count
                stamp = stamp[:-1] + change_stamp(self.db)[-1:]
            # The jobs this sync changed (not every stored job: a thousand games have
            # three thousand, and listing them read and unpickled each one).
            self.log("info", "jobs.synced", **counts,
                     jobs=_listed(f"{spec.id}@{spec.run_date:%Y-%m-%dT%H:%M:%SZ}"
                                  for spec in self.jobs.added),
                     gone=_listed(self.jobs.removed))
        self._stamp = stamp
        self.scheduler.wakeup()
        return counts

    def moved(self) -> bool:
        """Whether the change stamp moved since the last sync (one query)."""
        return change_stamp(self.db, jobs=not self.worker) != self._stamp

    def heartbeat(self, now: datetime | None = None) -> None:
        """Record that the service is alive; a long gap since the last one was an outage,
        unless only the wall clock jumped (the steady clock saw no gap): then the jobs ran
        all along and no deadline was missed."""
        now = now or now_utc()
        steady = self.steady() if self.steady else None
        if self._last_beat is not None and now - self._last_beat > OUTAGE_AFTER:
            gap = None if steady is None or self._last_steady is None \
                else steady - self._last_steady
            running = None if steady is None or self._started_steady is None \
                else steady - self._started_steady
            if wall_jumped(gap, running):
                self.log("warning", "clock.jumped", since=self._last_beat.isoformat(),
                         until=now.isoformat())
            else:
                # The host slept, or this process was stopped: deadlines in the gap
                # were missed.
                self.runtime.outages.append((self._last_beat, now))
                note_gap(self.db, self.log, self._last_beat, now)
        with session_scope(self.db) as session:
            repo.set_status(session, HEARTBEAT, now.isoformat())
            tidy_outbox(session, self.config, self.log, now)
        checkpoint(self.db)  # no password lingers in SQLite's log past the next beat
        self._last_beat, self._last_steady = now, steady

    def run(self, stop: threading.Event, interval: float = SYNC_SECONDS,
            poll: float = CHANGE_POLL_SECONDS, full: float = FULL_SYNC_SECONDS) -> None:
        """The first sync (unless `start` did it), then: heartbeat every ``interval``
        seconds; re-sync at once when a job asks, within ``poll`` seconds of the change
        stamp moving, and every ``full`` seconds whatever happened."""
        self.first_sync()
        last_beat = last_full = time.monotonic()
        while not stop.is_set():
            asked = self._sync_wanted.wait(poll)
            if stop.is_set():
                break
            clock = time.monotonic()
            if clock - last_beat >= interval:
                self.heartbeat()
                last_beat = clock
            if self.tick(asked or clock - last_full >= full):
                last_full = clock

    def tick(self, force: bool = False) -> bool:
        """One turn of `run` after its wait: sync if ``force`` or the stamp moved (an
        idle tick is the one stamp query).  Whether it synced."""
        if force or self.moved():
            self.sync()
            return True
        return False

    def wake(self) -> None:
        """Let `run` return promptly (called on shutdown)."""
        self._sync_wanted.set()

    def shutdown(self) -> None:
        """Stop after any running job, and leave a last heartbeat (outage checks start there)."""
        self.scheduler.shutdown(wait=True)
        with session_scope(self.db) as session:
            repo.set_status(session, HEARTBEAT, now_utc().isoformat())
        if current_runtime() is self.runtime:
            set_runtime(None)


# Re-exported: what the rest of the service, the tests and the benchmarks import from here.
__all__ = [
    "CHANGE_POLL_SECONDS",
    "FULL_SYNC_SECONDS",
    "HEARTBEAT",
    "JOB_KINDS",
    "OUTAGE_AFTER",
    "STOPPED",
    "SYNC_SECONDS",
    "BatchedJobStore",
    "DeadlineScheduler",
    "JobSpec",
    "JobSync",
    "Runtime",
    "Stamp",
    "batched",
    "change_stamp",
    "desired_jobs",
    "new_scheduler",
    "run_due_turn",
    "running_jobs",
    "scheduled",
    "service_alive",
    "sync_jobs",
]
