"""The scheduler's re-sync is incremental (issue 16, goal 5): it looks at every game in a
fixed number of queries, works out again the jobs of the games that changed only, and
never loads a game's state to do it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, event

from moderator.runners import schedule
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.turn import deadlines
from tests.support import make_game


@contextmanager
def counted(db: Engine, *, this_thread: bool = False) -> Iterator[list[str]]:
    """The SQL statements run on ``db`` inside the block (``this_thread``: only those of
    the calling thread, not APScheduler's own, which looks for due jobs when woken)."""
    statements: list[str] = []
    me = threading.get_ident()

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not this_thread or threading.get_ident() == me:
            statements.append(statement)

    event.listen(db, "before_cursor_execute", note)
    try:
        yield statements
    finally:
        event.remove(db, "before_cursor_execute", note)


def _games(db: Engine, config: Config, names: list[str]) -> None:
    soon = datetime.now(UTC) + timedelta(days=5)
    for i, name in enumerate(names):
        make_game(db, config, name, seed=1600 + i)
        _deadline(db, name, soon + timedelta(hours=i))


def _deadline(db: Engine, name: str, when: datetime) -> None:
    with session_scope(db) as session:
        deadlines.set_deadlines(session, repo.game_by_name(session, name), when,
                                when - timedelta(days=2))


@pytest.fixture
def scheduler(db: Engine) -> Iterator[Any]:
    s = schedule.new_scheduler(db)
    s.start(paused=True)
    yield s
    s.shutdown(wait=False)


def _queries_of_a_quiet_sync(db: Engine, config: Config, scheduler: Any) -> tuple[int, int]:
    jobs = schedule.JobSync(db, config)
    first = jobs.sync(scheduler)
    # A new JobSync keeps the jobs a previous one left in the store.
    assert first["added"] + first["kept"] == 3 * len(repo_games(db))
    with counted(db) as statements:
        again = jobs.sync(scheduler)
    assert again == {"added": 0, "removed": 0, "kept": 3 * len(repo_games(db)), "games": 0}
    return len(statements), jobs.recomputed


def repo_games(db: Engine) -> list[str]:
    with session_scope(db) as session:
        return [g.name for g in repo.games(session)]


def test_a_quiet_resync_costs_the_same_queries_for_two_games_or_six(
    db: Engine, config: Config, scheduler: Any, tmp_path: Any,
) -> None:
    _games(db, config, ["a1", "a2"])
    two, _ = _queries_of_a_quiet_sync(db, config, scheduler)
    _games(db, config, ["b1", "b2", "b3", "b4"])
    six, _ = _queries_of_a_quiet_sync(db, config, scheduler)
    assert two == six
    assert six <= 10


def test_a_changed_game_is_the_only_one_worked_out_again(
    db: Engine, config: Config, scheduler: Any,
) -> None:
    _games(db, config, ["a1", "a2", "a3", "a4", "a5"])
    jobs = schedule.JobSync(db, config)
    jobs.sync(scheduler)
    with counted(db) as quiet:
        jobs.sync(scheduler)
    later = datetime.now(UTC) + timedelta(days=9)
    _deadline(db, "a3", later)
    with counted(db) as statements:
        counts = jobs.sync(scheduler)
    assert counts["games"] == 1 and jobs.recomputed == 1
    # The three jobs of a3 replaced (its reminder and announcements moved with it).
    assert counts["added"] == 3 and counts["kept"] == 12 and counts["removed"] == 0
    assert scheduler.get_job("deadline:a3").trigger.run_date == later
    # One game worked out again costs a few queries more than a quiet sync, not five games'.
    assert len(quiet) < len(statements) <= len(quiet) + 8
    # No game's state was read: the turn's JSON payload stays unloaded.
    assert not [s for s in statements if "state_before" in s]


def test_orders_and_a_fired_job_are_noticed(db: Engine, config: Config, scheduler: Any) -> None:
    _games(db, config, ["a1", "a2"])
    jobs = schedule.JobSync(db, config)
    jobs.sync(scheduler)
    # The scheduler drops a job once it ran: the next sync puts it back if still wanted.
    scheduler.remove_job("reminder:a2")
    counts = jobs.sync(scheduler)
    assert counts["added"] == 1 and counts["games"] == 0
    assert scheduler.get_job("reminder:a2") is not None
    # A game leaving play loses its jobs.
    with session_scope(db) as session:
        repo.game_by_name(session, "a1").status = "paused"
    counts = jobs.sync(scheduler)
    assert counts["removed"] == 3 and counts["games"] == 1
    assert {j.id.split(":")[1] for j in scheduler.get_jobs()} == {"a2"}


def test_the_incremental_sync_wants_what_a_full_one_does(
    db: Engine, config: Config, scheduler: Any,
) -> None:
    _games(db, config, ["a1", "a2", "a3"])
    jobs = schedule.JobSync(db, config)
    jobs.sync(scheduler)
    _deadline(db, "a2", datetime.now(UTC) + timedelta(days=3))
    with session_scope(db) as session:
        repo.game_by_name(session, "a3").status = "paused"
    incremental = jobs.wanted()
    full = {s.id: s for s in schedule.desired_jobs(db, config)}
    assert incremental == full
