"""The service's scheduler: jobs at the deadlines, kept in step with the database.

The scheduler is APScheduler's BackgroundScheduler with its jobs in the store itself
(SQLAlchemyJobStore, table ``apscheduler_jobs``).  The database is the truth (the
deadlines on each open turn, see `moderator.turn.deadlines`); the jobs are derived from it by
`sync_jobs` (once the service is up, after every change the service makes, within
`CHANGE_POLL_SECONDS` of a change made elsewhere, and every `FULL_SYNC_SECONDS` whatever
happened), one job of each kind per active game.  What tells a change made elsewhere is
the *change stamp* (`change_stamp`): one query, every `CHANGE_POLL_SECONDS`, of the
newest ids of the GM log, submissions, audit entries, turns and players, the active
games, the note commands leave with `deadlines.note_change`, and the job rows' count; an
idle service runs that query and nothing else.  Only the service writes the job
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
it, so commands can leave the outbox to a running service.  `serve` is ready before the
first sync: the scheduler starts paused and its loop (`DeadlineScheduler.run`) syncs,
with every job written in one transaction (`BatchedJobStore`), then lets the jobs run.
"""

from __future__ import annotations

import contextlib
import pickle
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from apscheduler.job import Job
from apscheduler.jobstores.base import ConflictingIdError, JobLookupError
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.util import datetime_to_utc_timestamp
from sqlalchemy import Connection, Engine, bindparam, select
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
from moderator.store.guard import job_lock
from moderator.store.host import panic_reason
from moderator.store.models import Game, Turn
from moderator.store.statuses import GameStatus
from moderator.turn.deadlines import CHANGED, now_utc
from moderator.turn.inputs import due_at

# How often `serve` writes its heartbeat (and tidies the outbox).
SYNC_SECONDS = 30
# How often `serve` re-reads the deadlines from the database whether or not the change
# stamp moved (what the stamp cannot see: a reminder or announcements slot passing).
FULL_SYNC_SECONDS = 300
# A gap this long between heartbeats means the service was not running (or the host slept).
OUTAGE_AFTER = timedelta(seconds=3 * SYNC_SECONDS)

HEARTBEAT = "scheduler.heartbeat"
STOPPED = "service.stopped"
# How often the running service reads the change stamp (changes made in other processes:
# a deadline set by a command starts its turn within this time of the deadline).
CHANGE_POLL_SECONDS = 1
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
        turns = repo.open_turns_light(session)
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


def new_scheduler(db: Engine, *, shared: bool = True) -> Any:
    """A scheduler whose jobs never expire and run once however late (missed deadlines).

    ``shared``: the jobs in the store's ``apscheduler_jobs`` table (one `serve`).  Workers
    keep theirs in memory instead: APScheduler does not share one job table between
    processes, and every worker derives the same jobs from the database anyway
    (`sync_jobs`), the job lock deciding which of them does each one.
    """
    from apscheduler.executors.pool import ThreadPoolExecutor
    from apscheduler.jobstores.memory import MemoryJobStore
    from apscheduler.schedulers.background import BackgroundScheduler

    return BackgroundScheduler(
        jobstores={"default": BatchedJobStore(engine=db) if shared else MemoryJobStore()},
        executors={"default": ThreadPoolExecutor(2)},
        job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        timezone=UTC,
    )


class BatchedJobStore(SQLAlchemyJobStore):  # type: ignore[misc]
    """APScheduler's SQLAlchemy job store, whose writes from one thread can be gathered
    and written at once (`batch`): a new host's first sync adds 3,000 jobs, and a
    statement and a commit each (APScheduler's way) took 25 s.  Inside a batch the
    store knows the stored ids from one query at its start and keeps the writes until its
    end (one transaction, one statement of each kind).  Batch only while the scheduler
    is paused: no other thread then reads or writes the jobs."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._local = threading.local()

    @contextmanager
    def batch(self) -> Iterator[None]:
        with self.engine.connect() as connection:
            stored = {row[0] for row in connection.execute(select(self.jobs_t.c.id))}
        pending = _Batch(stored)
        self._local.batch = pending
        try:
            yield
        finally:
            self._local.batch = None
        with self.engine.begin() as connection:
            pending.write(connection, self.jobs_t)

    def _batch(self) -> _Batch | None:
        return getattr(self._local, "batch", None)

    def _row(self, job: Job) -> dict[str, Any]:
        return {"id": job.id, "next_run_time": datetime_to_utc_timestamp(job.next_run_time),
                "job_state": pickle.dumps(job.__getstate__(), self.pickle_protocol)}

    def add_job(self, job: Job) -> None:
        pending = self._batch()
        if pending is None:
            super().add_job(job)
        else:
            pending.add(self._row(job))

    def update_job(self, job: Job) -> None:
        pending = self._batch()
        if pending is None:
            super().update_job(job)
        else:
            pending.update(self._row(job))

    def remove_job(self, job_id: str) -> None:
        pending = self._batch()
        if pending is None:
            super().remove_job(job_id)
        else:
            pending.remove(job_id)


class _Batch:
    """The job-store writes of one `BatchedJobStore.batch`, with the store's errors."""

    def __init__(self, stored: set[str]) -> None:
        self.stored = stored  # ids in the table when the batch began, less those removed
        self.inserts: dict[str, dict[str, Any]] = {}
        self.updates: dict[str, dict[str, Any]] = {}
        self.deletes: set[str] = set()

    def add(self, row: dict[str, Any]) -> None:
        if row["id"] in self.stored or row["id"] in self.inserts:
            raise ConflictingIdError(row["id"])
        self.inserts[row["id"]] = row

    def update(self, row: dict[str, Any]) -> None:
        if row["id"] in self.inserts:
            self.inserts[row["id"]] = row
        elif row["id"] in self.stored:
            self.updates[row["id"]] = row
        else:
            raise JobLookupError(row["id"])

    def remove(self, job_id: str) -> None:
        if self.inserts.pop(job_id, None) is not None:
            return
        if job_id not in self.stored:
            raise JobLookupError(job_id)
        self.stored.discard(job_id)
        self.updates.pop(job_id, None)
        self.deletes.add(job_id)

    def write(self, connection: Connection, table: Any) -> None:
        if self.deletes:
            connection.execute(table.delete().where(table.c.id.in_(sorted(self.deletes))))
        if self.inserts:
            connection.execute(table.insert(), list(self.inserts.values()))
        if self.updates:
            connection.execute(
                table.update().where(table.c.id == bindparam("job_id")).values(
                    next_run_time=bindparam("next_run_time"),
                    job_state=bindparam("job_state")),
                [{"job_id": row["id"], "next_run_time": row["next_run_time"],
                  "job_state": row["job_state"]} for row in self.updates.values()])


@contextmanager
def batched(scheduler: Any) -> Iterator[None]:
    """The scheduler's job-store writes inside the block in one transaction (when its
    store is a `BatchedJobStore`; a worker's jobs in memory need none)."""
    store = scheduler._lookup_jobstore("default")
    if isinstance(store, BatchedJobStore):
        with store.batch():
            yield
    else:
        yield


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
        turns = repo.open_turns_light(session)
        orders = repo.open_turn_orders(session)
        announced = repo.announced_turns(session)
        early = {g.id for g in games if g.id is not None
                 and self.config.game(g.name).early_run}
        people = repo.player_marks(session, early)  # type: ignore[arg-type]
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
            if job_id in stored and _same_time(stored[job_id], spec.run_date) \
                    and applied.get(job_id) == spec:
                kept += 1
                continue
            if job_id not in stored and job_id in running:
                continue  # left the store as it started; the sync after it ends decides
            _add(scheduler, spec)
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


def _same_time(stored: datetime | None, wanted: datetime) -> bool:
    # The job store keeps run times as float timestamps: allow for their rounding.
    return stored is not None and abs((stored - wanted).total_seconds()) < 0.001


def _add(scheduler: Any, spec: JobSpec) -> None:
    from apscheduler.triggers.date import DateTrigger

    scheduler.add_job(spec.func, DateTrigger(run_date=spec.run_date, timezone=UTC),
                      args=list(spec.args), id=spec.id, name=spec.id, replace_existing=True)


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


# What moves when anything a job depends on changes, in one query (see the module's
# docstring): new GM-log entries (deadlines set, turns run or failed, announcements sent),
# orders, GM actions, turns and players; which games are active; the note commands leave;
# and how many jobs are stored (a job that ran has left the store).
_STAMP = ("SELECT (SELECT max(id) FROM gmlog), (SELECT max(id) FROM submission), "
          "(SELECT max(id) FROM auditentry), (SELECT max(id) FROM turn), "
          "(SELECT max(id) FROM player), "
          f"(SELECT count(*) FROM game WHERE status = '{GameStatus.ACTIVE}'), "
          f"(SELECT sum(id) FROM game WHERE status = '{GameStatus.ACTIVE}'), "
          f"(SELECT value FROM servicestatus WHERE key = '{CHANGED}')")
_STAMP_JOBS = ", (SELECT count(*) FROM apscheduler_jobs)"

Stamp = tuple[object, ...]


def change_stamp(db: Engine, *, jobs: bool = True) -> Stamp:
    """The change stamp: the same value means nothing the jobs derive from has changed
    (``jobs``: with the job store's row count, for a store kept in the database)."""
    with db.connect() as connection:
        row = connection.exec_driver_sql(_STAMP + (_STAMP_JOBS if jobs else "")).one()
    return tuple(row)


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
        self._stamp: Stamp | None = None  # the change stamp the last sync saw

    def start(self, now: datetime | None = None, *, sync: bool = True) -> None:
        """Notice an outage since the last heartbeat, and start the scheduler: with
        ``sync``, the jobs synced before it returns; without (`serve`, ready at once),
        paused until `run` has done the first sync."""
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
            self._tidy_outbox(session, now)
        self._last_beat = now

    def _tidy_outbox(self, session: Session, now: datetime) -> None:
        """Sent welcomes lose their password; old sent mail its body (the archive keeps
        every issue).  Both are cheap index lookups when there is nothing to do."""
        masked = repo.mask_sent_secrets(session, now)
        days = self.config.outbox_compact_days
        compacted = repo.compact_outbox(session, now - timedelta(days=days), now) if days else 0
        if masked or compacted:
            self.log("info", "outbox.tidied", masked=masked, compacted=compacted)

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
