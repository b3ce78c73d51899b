"""An idle `serve` (issue 16, goal 5): each poll of the scheduler is the one change-stamp
query, a change made by another process moves the stamp, the first sync writes every job
in one transaction, and `serve` is ready before it."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, event

from moderator.runners import job_entry, schedule
from moderator.runners.service import JsonLog, Service
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.statuses import GameStatus
from moderator.turn import deadlines
from tests.speed.test_resync import _deadline, _games, counted

SOON = datetime.now(UTC) + timedelta(days=5)


@pytest.fixture
def started(db: Engine, config: Config) -> Iterator[schedule.DeadlineScheduler]:
    _games(db, config, ["a1", "a2", "a3"])
    s = schedule.DeadlineScheduler(db, config)
    s.start()
    yield s
    s.shutdown()


def _run_date(s: schedule.DeadlineScheduler, job_id: str) -> datetime | None:
    return dict(schedule.scheduled(s.db)).get(job_id)


def test_an_idle_poll_is_one_query(db: Engine, started: schedule.DeadlineScheduler) -> None:
    for _ in range(3):
        with counted(db, this_thread=True) as statements:
            assert not started.tick()
        assert len(statements) == 1 and "max(id)" in statements[0]


def test_a_deadline_set_by_another_process_moves_the_stamp(
    db: Engine, started: schedule.DeadlineScheduler,
) -> None:
    later = SOON + timedelta(days=3)
    _deadline(db, "a2", later)  # as `moderator deadline` does, in its own session
    assert started.tick()
    assert _run_date(started, "deadline:a2") == later
    with counted(db, this_thread=True) as statements:
        assert not started.tick()  # its own job writes do not count as a change
    assert len(statements) == 1


def test_a_job_gone_from_the_store_or_a_paused_game_moves_the_stamp(
    db: Engine, started: schedule.DeadlineScheduler,
) -> None:
    with db.begin() as conn:  # as if the job had run (a one-shot job leaves the store)
        conn.exec_driver_sql("DELETE FROM apscheduler_jobs WHERE id = 'reminder:a1'")
    assert started.tick()
    assert _run_date(started, "reminder:a1") is not None
    with session_scope(db) as session:  # a status change alone, no log line, no note
        game = repo.game_by_name(session, "a3")
        game.status = GameStatus.PAUSED
        session.add(game)
    assert started.tick()
    assert _run_date(started, "deadline:a3") is None


def test_a_forced_tick_syncs_whatever_the_stamp(started: schedule.DeadlineScheduler) -> None:
    assert started.tick(force=True)


def test_the_first_sync_writes_every_job_in_one_transaction(db: Engine,
                                                            config: Config) -> None:
    _games(db, config, ["b1", "b2", "b3", "b4"])
    commits: list[int] = []

    def note(_conn: Any) -> None:
        commits.append(1)

    s = schedule.DeadlineScheduler(db, config)
    s.start(sync=False)
    event.listen(db, "commit", note)
    try:
        s.first_sync()
    finally:
        event.remove(db, "commit", note)
        s.shutdown()
    assert len(schedule.scheduled(db)) == 12
    assert len(commits) <= 2  # one for the twelve jobs (APScheduler alone: one each)


def test_serve_is_ready_before_the_first_sync(db: Engine, config: Config,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _games(db, config, ["c1"])
    release = threading.Event()
    original = schedule.DeadlineScheduler.first_sync

    def slow_first_sync(self: schedule.DeadlineScheduler) -> None:
        release.wait()  # until the test has looked (the finally below always sets it)
        original(self)

    monkeypatch.setattr(schedule.DeadlineScheduler, "first_sync", slow_first_sync)
    out = io.StringIO()
    service = Service(db, config, JsonLog(out))
    service.start()
    try:
        assert '"ready"' in out.getvalue()
        assert not service.scheduler.synced.is_set()
        assert not schedule.scheduled(db)  # no job yet, and none runs: paused
        release.set()
        assert service.scheduler.synced.wait(120)
        assert {job for job, _ in schedule.scheduled(db)} == {
            "deadline:c1", "announcements:c1", "reminder:c1"}
    finally:
        release.set()
        service.shutdown()


def test_a_note_from_a_command_alone_moves_the_stamp(
    db: Engine, started: schedule.DeadlineScheduler,
) -> None:
    with session_scope(db) as session:
        deadlines.note_change(session)
    assert started.tick()


def test_a_workers_quiet_resync_adds_nothing(db: Engine, config: Config) -> None:
    """A worker keeps its jobs in memory: a sync with nothing changed finds them there
    (it used to read the job table, empty for workers, and add every job again)."""
    _games(db, config, ["w1", "w2"])
    s = schedule.DeadlineScheduler(db, config, worker=True)
    s.start()
    try:
        assert len(s.scheduler.get_jobs()) == 6
        assert s.sync() == {"added": 0, "removed": 0, "kept": 6, "games": 0}
        assert not s.tick()
    finally:
        s.shutdown()


def test_a_batched_first_sync_replaces_and_removes_what_a_previous_run_left(
    db: Engine, config: Config,
) -> None:
    _games(db, config, ["r1", "r2"])
    s = schedule.DeadlineScheduler(db, config)
    s.start()
    s.shutdown()
    later = SOON + timedelta(days=2)
    _deadline(db, "r1", later)
    with session_scope(db) as session:
        game = repo.game_by_name(session, "r2")
        game.status = GameStatus.PAUSED
        session.add(game)
    again = schedule.DeadlineScheduler(db, config)
    again.start()  # the first sync, batched
    try:
        jobs = dict(schedule.scheduled(db))
        assert set(jobs) == {"deadline:r1", "announcements:r1", "reminder:r1"}
        assert jobs["deadline:r1"] == later
        assert again.scheduler.get_job("deadline:r1").trigger.run_date == later
    finally:
        again.shutdown()


def test_a_running_job_is_not_put_back_until_it_ends(
    db: Engine, started: schedule.DeadlineScheduler,
) -> None:
    """APScheduler drops a one-shot job from the store as it starts it; a sync during the
    run (its writes move the stamp) put it back, and it fired a second time."""
    with db.begin() as conn:  # as APScheduler does when it starts the job
        conn.exec_driver_sql("DELETE FROM apscheduler_jobs WHERE id = 'deadline:a1'")
    with job_entry.running(started.runtime, "deadline", "a1", 1):
        started.sync()
        assert _run_date(started, "deadline:a1") is None
    assert started._sync_wanted.is_set()  # its end asks for a sync, which puts it back
    started.sync()
    assert _run_date(started, "deadline:a1") is not None
