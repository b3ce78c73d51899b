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

This module keeps the jobs' entry points (their stored references name it), what each
game's jobs are (`desired_jobs`, `JobSync`) and the service's loop (`DeadlineScheduler`);
it re-exports what the service, commands and tests import from it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from typing import Any

from apscheduler.jobstores.base import JobLookupError
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from sqlalchemy import Engine
from sqlmodel import Session

from moderator.clock import as_utc
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
from moderator.runners.job_store import (
    BatchedJobStore,
    JobSpec,
    batched,
    new_scheduler,
    put_job,
    same_time,
    scheduled,
)
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
from moderator.store import hostreads, repo
from moderator.store.db import checkpoint, session_scope
from moderator.store.guard import job_lock
from moderator.store.host import panic_reason
from moderator.store.models import Game, Turn
from moderator.store.statuses import GameStatus
from moderator.turn.deadlines import now_utc
from moderator.turn.inputs import due_at

# How often `serve` re-reads the deadlines from the database whether or not the change
# stamp moved (what the stamp cannot see: a reminder or announcements slot passing).
FULL_SYNC_SECONDS = 300
JOB_KINDS = ("deadline", "announcements", "reminder")

# --- the scheduler ---------------------------------------------------------------------

# The job store keeps a reference to each job's function by module and name
# ("moderator.runners.schedule:_job_deadline"), so these ``_job_*`` entry points stay here under
# these names: moving or renaming one would make APScheduler drop every stored job that
# uses it ("Unable to restore job").  What the jobs do is in `moderator.runners.jobs`.
_runtime: Runtime | None = None
# The jobs running now in this process, by job id.  APScheduler drops a one-shot job from
# the store as it starts it; a sync during the run (the run's own writes move the change
# stamp) must not put it back while its turn is still open, or it fires a second time.
_running: set[str] = set()
_running_lock = threading.Lock()


@contextmanager
def _run(rt: Runtime, kind: str, game_name: str, number: int) -> Iterator[None]:
    """Around a job: its lock (workers), noted as running, and a re-sync once it ended
    (its job is put back if still wanted, say when the deadline moved later)."""
    job_id = f"{kind}:{game_name}"
    with _running_lock:
        _running.add(job_id)
    try:
        with rt.job_lock(f"{kind}:{game_name}:{number}"):
            yield
    finally:
        with _running_lock:
            _running.discard(job_id)
        if rt.on_change is not None:
            rt.on_change()


def running_jobs() -> frozenset[str]:
    with _running_lock:
        return frozenset(_running)


def _job_deadline(game_name: str, number: int) -> None:
    """A job stores only names: it runs in the service process, which set `_runtime`.
    With workers, the job lock lets one at a time at it (`Runtime.job_lock`)."""
    rt = _runtime
    if rt is not None:
        with _run(rt, "deadline", game_name, number):
            # When the deadline's job started (how late after the deadline a turn starts).
            rt.log("info", "deadline.due", game=game_name, turn=number)
            run_due_turn(rt, game_name, number)


def _job_announcements(game_name: str, number: int) -> None:
    """The announcements job (see `_job_deadline` for why it reads `_runtime`)."""
    rt = _runtime
    if rt is not None:
        with _run(rt, "announcements", game_name, number):
            run_announcements(rt, game_name, number)


def _job_reminder(game_name: str, number: int) -> None:
    """The reminder job (see `_job_deadline` for why it reads `_runtime`)."""
    rt = _runtime
    if rt is not None:
        with _run(rt, "reminder", game_name, number):
            run_reminders(rt, game_name, number)


def desired_jobs(db: Engine, config: Config, runtime: Runtime | None = None,
                 now: datetime | None = None) -> list[JobSpec]:
    """The jobs the database calls for now (none while the host is stopped by `panic`)."""
    now = now or now_utc()
    specs: list[JobSpec] = []
    with Session(db) as session:
        if panic_reason(session) is not None:
            return []
        turns = hostreads.open_turns_light(session)
        for game in repo.games(session):
            turn = turns.get(game.id) if game.id is not None else None
            if game.status == GameStatus.ACTIVE and turn is not None \
                    and turn.deadline is not None:
                specs += _jobs_for(session, config, game, turn, runtime, now)
    return specs


def _jobs_for(session: Session, config: Config, game: Game, turn: Turn,
              runtime: Runtime | None, now: datetime,
              announced: bool | None = None) -> list[JobSpec]:
    """One game's jobs: its deadline (or a retry), and, while it is still ahead, its
    announcements gazette and next reminder if they have not gone out.  The deadline job
    runs at `due_at`: the deadline plus the game's grace, or earlier when the
    game runs early once all orders are in.  ``announced``: whether the announcements
    gazette went out, when the caller knows (else it is looked up)."""
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
            and not (announcements_sent(session, game, turn.number) if announced is None
                     else announced)):
        specs.append(JobSpec(f"announcements:{game.name}", _job_announcements,
                             as_utc(ann), args))
    slot = next_reminder(config, game, turn)
    if slot is not None:
        specs.append(JobSpec(f"reminder:{game.name}", _job_reminder, slot, args))
    return specs


def sync_jobs(scheduler: Any, db: Engine, config: Config, runtime: Runtime | None = None,
              now: datetime | None = None) -> dict[str, int]:
    """Make the job store match the database: add, replace and remove jobs (every game
    looked at; `JobSync` does the same looking only at the games that changed)."""
    return JobSync(db, config, runtime).sync(scheduler, now)


# What a game's jobs are derived from; the same mark means the same jobs.
Mark = tuple[object, ...]


class JobSync:
    """Keeps the job store in step with the database, incrementally.

    Each sync reads, in a handful of queries over all games together, what the jobs of a
    game depend on (its status and open turn's deadlines and reminder stamp, whether the
    deadline has passed, its orders, its announcements gazette, its players when it may run
    early, a pending retry): the game's *mark*.  Only games whose mark changed since the
    last sync have their jobs worked out again (`_jobs_for`, with its per-game queries);
    the job store is read as plain rows (`scheduled`) and only jobs that differ from what
    is wanted are added, replaced or removed.  A job the scheduler ran and dropped is
    missing from the rows, so it is put back if still wanted, as a full sync would.
    """

    def __init__(self, db: Engine, config: Config, runtime: Runtime | None = None) -> None:
        self.db, self.config, self.runtime = db, config, runtime
        self._marks: dict[int, Mark] = {}
        self._specs: dict[int, list[JobSpec]] = {}
        self._applied: dict[str, JobSpec] | None = None  # None: not read from the store yet
        self.recomputed = 0  # games whose jobs the last sync worked out again
        self.added: list[JobSpec] = []  # what the last sync added or replaced
        self.removed: list[str] = []  # and the ids it removed

    def wanted(self, now: datetime | None = None) -> dict[str, JobSpec]:
        """The jobs the database calls for now, recomputing only changed games."""
        now = now or now_utc()
        self.recomputed = 0
        with Session(self.db) as session:
            if panic_reason(session) is not None:
                self._marks.clear()
                self._specs.clear()
                return {}
            current = self._current(session, now)
            for gone in self._marks.keys() - current.keys():
                self._marks.pop(gone)
                self._specs.pop(gone, None)
            for game_id, (game, turn, mark) in current.items():
                if self._marks.get(game_id) == mark:
                    continue
                self._marks[game_id] = mark
                self._specs[game_id] = (
                    _jobs_for(session, self.config, game, turn, self.runtime, now,
                              announced=bool(mark[9]))
                    if turn is not None and turn.deadline is not None else [])
                self.recomputed += 1
        return {spec.id: spec for specs in self._specs.values() for spec in specs}

    def _current(self, session: Session, now: datetime
                 ) -> dict[int, tuple[Game, Turn | None, Mark]]:
        """Every game with its open turn (payload not loaded) and its mark."""
        games = [g for g in repo.games(session) if g.id is not None]
        turns = hostreads.open_turns_light(session)
        orders = hostreads.open_turn_orders(session)
        announced = hostreads.announced_turns(session)
        early = {g.id for g in games if g.id is not None
                 and self.config.game(g.name).early_run}
        people = hostreads.player_marks(session, early)  # type: ignore[arg-type]
        retry = self.runtime.retry_at if self.runtime else {}
        current: dict[int, tuple[Game, Turn | None, Mark]] = {}
        for game in games:
            assert game.id is not None
            turn = turns.get(game.id) if game.status == GameStatus.ACTIVE else None
            if turn is None:
                current[game.id] = (game, None, (game.name, game.status))
                continue
            deadline = as_utc(turn.deadline) if turn.deadline else None
            mark: Mark = (game.name, game.status, turn.id, turn.number, deadline,
                          turn.announcement_deadline, turn.reminded_at,
                          deadline is not None and deadline <= now,
                          orders.get(game.id), (game.id, turn.number) in announced,
                          people.get(game.id),
                          retry.get((game.name, turn.number)))
            current[game.id] = (game, turn, mark)
        return current

    def sync(self, scheduler: Any, now: datetime | None = None) -> dict[str, int]:
        """Add, replace and remove jobs so the store holds exactly the wanted ones."""
        wanted = self.wanted(now)
        stored = self._stored(scheduler)
        applied = self._applied if self._applied is not None else {}
        self.added, self.removed = [], []
        for job_id in stored:
            if job_id not in wanted and job_id.split(":", 1)[0] in JOB_KINDS:
                # A one-shot job may have run (and left the store) since the rows were read.
                with contextlib.suppress(JobLookupError):
                    scheduler.remove_job(job_id)
                applied.pop(job_id, None)
                self.removed.append(job_id)
        kept = 0
        running = running_jobs()
        for job_id, spec in wanted.items():
            if job_id in stored and same_time(stored[job_id], spec.run_date) \
                    and applied.get(job_id) == spec:
                kept += 1
                continue
            if job_id not in stored and job_id in running:
                continue  # left the store as it started; the sync after it ends decides
            put_job(scheduler, spec)
            applied[job_id] = spec
            self.added.append(spec)
        self._applied = applied
        return {"added": len(self.added), "removed": len(self.removed), "kept": kept,
                "games": self.recomputed}

    def _stored(self, scheduler: Any) -> dict[str, datetime | None]:
        """The job store's jobs and run times.  The first time, the jobs themselves are
        read (unpickled) to learn what a previous run left there; later only the rows.
        A worker's jobs in memory are read as they are, every time (nothing to unpickle,
        and no rows: reading the table had every sync add each job again)."""
        in_memory = not isinstance(scheduler._lookup_jobstore("default"), SQLAlchemyJobStore)
        if self._applied is None or in_memory:
            self._applied = {}
            jobs = [j for j in scheduler.get_jobs() if j.id.split(":", 1)[0] in JOB_KINDS]
            for job in jobs:
                self._applied[job.id] = JobSpec(job.id, job.func, as_utc(job.trigger.run_date),
                                                (job.args[0], job.args[1]))
            return {job.id: as_utc(job.trigger.run_date) for job in jobs}
        return dict(scheduled(self.db))


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
        global _runtime
        now = now or now_utc()
        self.runtime.started_at = now
        down_since = first_beat(self.db, self.log, now)
        self._last_beat = now
        self._last_steady = self._started_steady = self.steady() if self.steady else None
        if down_since is not None:
            self.runtime.outages.append((down_since, now))
        _runtime = self.runtime
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
        global _runtime
        self.scheduler.shutdown(wait=True)
        with session_scope(self.db) as session:
            repo.set_status(session, HEARTBEAT, now_utc().isoformat())
        if _runtime is self.runtime:
            _runtime = None


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
