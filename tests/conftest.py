"""Shared fixtures: a real config file, a real store, real Maildirs in tmp_path.

The store is SQLite, and for the store, intake, turn and desk tests also PostgreSQL: each
of their tests runs once per backend (``[sqlite]``, ``[postgresql]``), the PostgreSQL run
on its own database in a throwaway cluster (tests/pg/cluster.py) started once per
session.  ``@pytest.mark.backends`` puts any other test on both, and
``MODERATOR_TEST_BACKENDS=all`` every test that opens a store.  Under CI=true a
PostgreSQL test that cannot run fails instead of skipping.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from pg.cluster import PgCluster, start_cluster
from sqlalchemy import Engine

from moderator.intake import turnstate
from moderator.publish import outgoing
from moderator.publish.text import REPLY_COLUMNS
from moderator.settings.config import Config, load_config
from moderator.store.db import open_store

from support import write_config

BACKENDS = ("sqlite", "postgresql")
# Test modules (relative to tests/) whose tests run on both backends.
ON_BOTH = ("test_store.py", "test_intake.py", "test_turns.py", "test_desk_actions.py",
           "test_desk_rollback.py", "test_migrations.py", "test_backup.py", "intake/", "pg/")
TESTS = Path(__file__).resolve().parent

# Property tests: no time limit on one example, and no failure when drawing examples is
# slow.  Hypothesis fails an example over 200 ms (and calls the test flaky when the rerun
# is quick), which a loaded machine's pause alone can cause; the cost of code is measured
# in benchmarks/ and bounded with `support.cpu_cost`.
settings.register_profile("moderator", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("moderator")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "backends: run this test on SQLite and on PostgreSQL")
    config.addinivalue_line("markers", "postgresql: needs the throwaway PostgreSQL cluster")


def _on_both(metafunc: pytest.Metafunc) -> bool:
    if os.environ.get("MODERATOR_TEST_BACKENDS") == "all":
        return True
    where = metafunc.definition.path.resolve().relative_to(TESTS).as_posix()
    return (any(where == m or (m.endswith("/") and where.startswith(m)) for m in ON_BOTH)
            or metafunc.definition.get_closest_marker("backends") is not None)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames and _on_both(metafunc):
        metafunc.parametrize("backend", [
            pytest.param(b, marks=[pytest.mark.postgresql] if b == "postgresql" else [])
            for b in BACKENDS])


@pytest.fixture(autouse=True)
def _fresh_turn_contexts() -> Iterator[None]:
    """Each test reads its turns afresh: intake keeps the parse context of a game's open
    turn per process (`moderator.intake.turnstate`), keyed by ids and state bytes that
    two tests' fresh stores can share (game 1, turn 1, the same seed), so a test could
    otherwise be handed another test's context (one made before a monkeypatch)."""
    turnstate._contexts.clear()
    yield


@pytest.fixture(autouse=True)
def _command_replies_fit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every reply to a player's commands that a test queues has lines of at most
    `REPLY_COLUMNS` columns: a check over all the replies the tests produce."""
    queued: list[str] = []
    real = outgoing.queue

    def queue(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("kind") == outgoing.REPLY_KIND:
            queued.append(kwargs["text"])
        return real(*args, **kwargs)

    monkeypatch.setattr(outgoing, "queue", queue)
    yield
    long = [line for text in queued for line in text.splitlines() if len(line) > REPLY_COLUMNS]
    assert not long, f"command reply lines over {REPLY_COLUMNS} columns: {long}"


@pytest.fixture
def backend() -> str:
    """The store's backend; the default where a test is not on both (see ON_BOTH)."""
    return "sqlite"


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A fresh store's URL: a SQLite file in tmp_path, or a new PostgreSQL database."""
    if backend == "postgresql":
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        return cluster.new_database()
    return f"sqlite:///{tmp_path / 'moderator.sqlite'}"


@pytest.fixture
def empty_database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A store with no schema at all, for the migration tests."""
    if backend == "postgresql":
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        return cluster.empty_database()
    return f"sqlite:///{tmp_path / 'old.sqlite'}"


@pytest.fixture
def config(tmp_path: Path, database_url: str) -> Config:
    return load_config(write_config(tmp_path, database_url=database_url))


@pytest.fixture
def db(config: Config) -> Iterator[Engine]:
    engine = open_store(config.database_url)
    yield engine
    engine.dispose()  # PostgreSQL: give the connections back before the next test
