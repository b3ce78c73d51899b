"""Where the scheduler keeps its jobs, and how they are written (`moderator.runners.schedule`).

APScheduler's BackgroundScheduler (`new_scheduler`), its jobs never expiring and run once
however late.  `serve` keeps them in the store's own ``apscheduler_jobs`` table, whose
writes `BatchedJobStore` can gather into one transaction (`batched`: a new host's first
sync adds thousands); `scheduled` reads that table's rows without unpickling a job.  A job
is described by a `JobSpec` (what `schedule` derives from the database) and written with
`put_job`.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from apscheduler.job import Job
from apscheduler.jobstores.base import ConflictingIdError, JobLookupError
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.util import datetime_to_utc_timestamp
from sqlalchemy import Connection, Engine, bindparam, select


@dataclass(frozen=True)
class JobSpec:
    id: str
    func: Callable[..., None]
    run_date: datetime
    args: tuple[str, int]


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


def scheduled(db: Engine) -> list[tuple[str, datetime | None]]:
    """The job store's jobs and their next run times, read without unpickling."""
    from sqlalchemy import inspect, text

    if not inspect(db).has_table("apscheduler_jobs"):
        return []
    with db.connect() as conn:
        rows = conn.execute(text("SELECT id, next_run_time FROM apscheduler_jobs "
                                 "ORDER BY next_run_time")).all()
    return [(row[0], datetime.fromtimestamp(row[1], UTC) if row[1] else None) for row in rows]


def same_time(stored: datetime | None, wanted: datetime) -> bool:
    # The job store keeps run times as float timestamps: allow for their rounding.
    return stored is not None and abs((stored - wanted).total_seconds()) < 0.001


def put_job(scheduler: Any, spec: JobSpec) -> None:
    from apscheduler.triggers.date import DateTrigger

    scheduler.add_job(spec.func, DateTrigger(run_date=spec.run_date, timezone=UTC),
                      args=list(spec.args), id=spec.id, name=spec.id, replace_existing=True)
