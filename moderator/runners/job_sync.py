"""Which scheduler jobs the database calls for, and keeping the job store in step.

The database is the truth (the deadlines on each open turn); the jobs are derived from
it, one job of each kind per active game (`JOB_KINDS`, see `moderator.runners.schedule`
for what each does): `desired_jobs` works them all out, `JobSync` keeps the store
matching them looking only at the games that changed.  The service's loop that calls
it is `moderator.runners.schedule.DeadlineScheduler`.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

from apscheduler.jobstores.base import JobLookupError
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from sqlalchemy import Engine
from sqlmodel import Session

from moderator.clock import as_utc
from moderator.runners.job_entry import (
    job_announcements,
    job_deadline,
    job_reminder,
    running_jobs,
)
from moderator.runners.job_store import JobSpec, put_job, same_time, scheduled
from moderator.runners.jobs import Runtime
from moderator.runners.reminders import announcements_sent, announcements_template, next_reminder
from moderator.settings.config import Config
from moderator.store import hostreads, repo
from moderator.store.host import panic_reason
from moderator.store.models import Game, Turn
from moderator.store.statuses import GameStatus
from moderator.turn.deadlines import now_utc
from moderator.turn.inputs import due_at

JOB_KINDS = ("deadline", "announcements", "reminder")


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
                specs += jobs_for(session, config, game, turn, runtime, now)
    return specs


def jobs_for(session: Session, config: Config, game: Game, turn: Turn,
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
    specs = [JobSpec(f"deadline:{game.name}", job_deadline,
                     max(due, retry) if retry else due, args)]
    if deadline <= now:
        return specs
    ann = turn.announcement_deadline
    if (ann is not None and announcements_template(config, game) is not None
            and not (announcements_sent(session, game, turn.number) if announced is None
                     else announced)):
        specs.append(JobSpec(f"announcements:{game.name}", job_announcements,
                             as_utc(ann), args))
    slot = next_reminder(config, game, turn)
    if slot is not None:
        specs.append(JobSpec(f"reminder:{game.name}", job_reminder, slot, args))
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
    last sync have their jobs worked out again (`jobs_for`, with its per-game queries);
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
                    jobs_for(session, self.config, game, turn, self.runtime, now,
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
