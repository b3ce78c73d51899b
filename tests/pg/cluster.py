"""A throwaway PostgreSQL cluster for the tests, as tests/mail starts Dovecot and Postfix.

`start_cluster` runs Debian's ``initdb`` and ``pg_ctl`` (``/usr/lib/postgresql/*/bin``,
or the PATH) on a free port of 127.0.0.1 with trust authentication, in a temporary
folder that is removed when the cluster stops.  ``initdb`` refuses to run as root, so
as root the cluster runs as the ``postgres`` user the Debian package creates (else
``nobody``).  Durability is switched off (fsync, synchronous_commit): the data is thrown
away.  A template database migrated once to head makes each test's own database a
cheap copy (`PgCluster.new_database`).

Where PostgreSQL cannot run the PostgreSQL tests skip, saying why, except under
``CI=true``, where they fail: CI must run them.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# A port found free can be taken before the server binds it (another test run's cluster,
# a mail server): the start is tried again on another port, this many times in all.
PORT_ATTEMPTS = 5
# The server's start, waited for by ``pg_ctl -w``: seconds when idle, far more when loaded.
START_SECONDS = 180


def must_run() -> bool:
    """Under CI a PostgreSQL test that cannot run fails instead of skipping."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(message: str) -> None:
    if must_run():
        pytest.fail(f"{message}\n(CI is set: the PostgreSQL tests must run)", pytrace=False)
    pytest.skip(message)


def _bin(name: str) -> str | None:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                   key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    return str(found[-1]) if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run_as() -> str | None:
    if os.geteuid() != 0:
        return None
    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
            return user
        except KeyError:
            continue
    return None


@dataclass
class PgCluster:
    folder: Path
    port: int
    pg_ctl: str
    user: str | None
    _count: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    template: str | None = None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]

    def new_database(self) -> str:
        """A database with the schema at head and no rows.

        One database migrated once, emptied between tests (every row deleted, with the
        foreign-key triggers off, and every sequence restarted so ids start at 1 again;
        APScheduler's table dropped): a DELETE of a few rows takes a millisecond where a
        TRUNCATE or a CREATE DATABASE takes half a second.  Connections a test left open
        are ended first.
        """
        import psycopg

        name = f"moderator_tests_{os.getpid()}"
        if self.template is None:
            from moderator.store.db import open_store

            self._admin(f"CREATE DATABASE {name}")
            open_store(self.url(name)).dispose()
            self.template = name
            return self.url(name)
        self._admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    f"WHERE datname = '{name}' AND pid <> pg_backend_pid()")
        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                             dbname=name, autocommit=True) as conn:
            tables = [r[0] for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                "AND tablename NOT IN ('alembic_version', 'apscheduler_jobs')")]
            sequences = [r[0] for r in conn.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")]
            conn.execute("DROP TABLE IF EXISTS apscheduler_jobs")
            conn.execute("SET session_replication_role = replica")
            for table in tables:
                conn.execute(f'DELETE FROM "{table}"')  # type: ignore[arg-type]
            for sequence in sequences:
                conn.execute(f'ALTER SEQUENCE "{sequence}" RESTART')  # type: ignore[arg-type]
        return self.url(name)

    def own_database(self) -> str:
        """A database of its own with the schema at head, kept until the cluster stops
        (for tests whose subprocesses outlive one test's reset)."""
        from moderator.store.db import open_store

        name = f"own_{os.getpid()}_{next(self._count)}"
        self._admin(f"CREATE DATABASE {name}")
        open_store(self.url(name)).dispose()
        return self.url(name)

    def empty_database(self) -> str:
        """A fresh database with no tables at all (for the migration tests)."""
        name = f"empty_{os.getpid()}_{next(self._count)}"
        self._admin(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        _as(self.user, [self.pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate",
                        "-w", "stop"], check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def _as(user: str | None, args: list[str], *,
        check: bool = True) -> subprocess.CompletedProcess[str]:
    command = ["runuser", "-u", user, "--", *args] if user else args
    result = subprocess.run(command, capture_output=True, text=True,
                            timeout=START_SECONDS + 120, check=False)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({result.returncode}):\n"
                           f"{result.stdout}\n{result.stderr}")
    return result


def _start_on_a_free_port(user: str | None, pg_ctl: str, folder: Path) -> int:
    """Start the server of ``folder/data`` on a free port of 127.0.0.1; the port."""
    log = folder / "log"
    for attempt in range(1, PORT_ATTEMPTS + 1):
        port = _free_port()
        seen = log.stat().st_size if log.exists() else 0  # pg_ctl -l appends
        options = (f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        try:
            _as(user, [pg_ctl, "-D", str(folder / "data"), "-l", str(log), "-o", options,
                       "-w", "-t", str(START_SECONDS), "start"])
            return port
        except RuntimeError:
            with log.open("rb") as handle:
                handle.seek(seen)
                taken = b"Address already in use" in handle.read()
            if not taken or attempt == PORT_ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def start_cluster() -> PgCluster:
    """Start the cluster, or skip (fail under CI) saying what is missing."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("psycopg is not installed (pip install 'moderator[postgresql]')")
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        unavailable("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    assert initdb and pg_ctl
    user = _run_as()
    if os.geteuid() == 0 and user is None:
        unavailable("running as root and no postgres or nobody user to run PostgreSQL as")
    folder = Path(tempfile.mkdtemp(prefix="moderator-pg-"))
    if user:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    data = folder / "data"
    try:
        _as(user, [initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                   "--locale=C", "--no-sync"])
        port = _start_on_a_free_port(user, pg_ctl, folder)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        log = folder / "log"
        detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        unavailable(f"PostgreSQL did not start: {exc}\n{detail}")
    cluster = PgCluster(folder, port, pg_ctl, user)
    deadline = time.monotonic() + 60
    while True:
        try:
            cluster._admin("SELECT 1")
            return cluster
        except Exception:
            if time.monotonic() > deadline:
                cluster.stop()
                unavailable("PostgreSQL started but does not answer on 127.0.0.1")
            time.sleep(0.2)
