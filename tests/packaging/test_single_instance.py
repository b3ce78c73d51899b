"""One `serve` per database (moderator.store.guard), on SQLite and PostgreSQL: a second
refuses naming the first; a `serve` killed outright leaves no stale guard behind."""

from __future__ import annotations

import signal
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, event
from sqlmodel import Session

from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import open_store
from moderator.store.guard import OWNER, AlreadyRunning, single_instance

pytestmark = pytest.mark.backends
MODERATOR = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "moderator"
# Every wait is for a condition; a loaded machine (a CI run beside other work, a CPU
# burner on each core) starts `serve` ten times slower than an idle one.
WAIT_SECONDS = 120.0


def test_a_second_guard_on_the_same_database_is_refused(db: Engine, config: Config) -> None:
    other = open_store(config.database_url, upgrade=False)
    try:
        with single_instance(db):
            with pytest.raises(AlreadyRunning, match="already running") as refused, \
                    single_instance(other):
                pass
            assert "pid" in str(refused.value)
        with single_instance(other):  # released on leaving
            pass
    finally:
        other.dispose()


def test_workers_share_the_guard_on_postgresql_only(db: Engine, backend: str) -> None:
    if backend == "sqlite":
        with pytest.raises(AlreadyRunning, match="needs PostgreSQL"), \
                single_instance(db, "worker"):
            pass
        return
    second = open_store(str(db.url.render_as_string(hide_password=False)), upgrade=False)
    try:
        with single_instance(db, "worker"), single_instance(second, "worker"), \
                pytest.raises(AlreadyRunning, match="start each one with `serve --worker`"), \
                single_instance(second, "serve"):
            pass
        with single_instance(db, "serve"), \
                pytest.raises(AlreadyRunning, match="runs as the only one"), \
                single_instance(second, "worker"):
            pass
        with single_instance(second, "serve"):  # all let go
            pass
    finally:
        second.dispose()


def test_asking_whether_a_worker_is_alone_takes_no_lock(db: Engine, backend: str) -> None:
    """`Guard.alone` reads who holds the guard and takes nothing: it once took the
    exclusive lock for a moment, and a worker starting in that moment refused to run
    (CI, stop 18: a fresh worker beside one whose outbox asked at its start)."""
    if backend == "sqlite":
        with single_instance(db) as guard:
            assert guard.alone()
        return
    second = open_store(str(db.url.render_as_string(hide_password=False)), upgrade=False)
    statements: list[str] = []

    def record(_conn, _cursor, statement: str, *_args) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    try:
        with single_instance(db, "worker") as first:
            event.listen(db, "before_cursor_execute", record)
            try:
                assert first.alone()
            finally:
                event.remove(db, "before_cursor_execute", record)
            assert statements and not any("advisory_lock" in s for s in statements), statements
            with single_instance(second, "worker") as other:
                assert not first.alone() and not other.alone()
            assert first.alone()
        with single_instance(second, "serve") as plain:  # all let go
            assert plain.alone()
    finally:
        second.dispose()


def _serve(config: Config) -> subprocess.Popen[str]:
    return subprocess.Popen([str(MODERATOR), "--config", str(config.path), "serve"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_started(db: Engine, proc: subprocess.Popen[str],
                  seconds: float = WAIT_SECONDS) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        with Session(db) as session:
            if "service.started" in repo.service_status(session):
                return
        time.sleep(0.2)
    raise AssertionError("serve did not start")


@pytest.mark.skipif(not MODERATOR.exists(), reason="needs the installed moderator script")
def test_a_second_serve_refuses_and_a_killed_one_leaves_no_guard(db: Engine,
                                                                  config: Config) -> None:
    first = _serve(config)
    try:
        _wait_started(db, first)
        second = subprocess.run([str(MODERATOR), "--config", str(config.path), "serve"],
                                capture_output=True, text=True, timeout=WAIT_SECONDS,
                                check=False)
        assert second.returncode == 2
        assert "already running" in second.stdout and f"pid {first.pid}" in second.stdout
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=WAIT_SECONDS)
        killed_at = datetime.now(UTC).isoformat()
        with Session(db) as session:
            assert OWNER in repo.service_status(session)  # the stale record stays...
        again = _serve(config)  # ...but the guard died with the process
        try:
            deadline = time.monotonic() + WAIT_SECONDS
            while time.monotonic() < deadline and again.poll() is None:
                with Session(db) as session:
                    owner = repo.service_status(session)[OWNER].value
                if f'"pid": {again.pid}' in owner:
                    break
                time.sleep(0.2)
            assert again.poll() is None, again.communicate()
            assert f'"pid": {again.pid}' in owner
            # SIGTERM only once it is up (its signal handlers are set as it starts).
            while time.monotonic() < deadline and again.poll() is None:
                with Session(db) as session:
                    started = repo.service_status(session)["service.started"].value
                if started > killed_at:
                    break
                time.sleep(0.2)
        finally:
            again.send_signal(signal.SIGTERM)
            again.communicate(timeout=WAIT_SECONDS)
        assert again.returncode == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
