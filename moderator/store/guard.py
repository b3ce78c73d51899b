"""One `moderator serve` per database: a second one refuses, saying who holds it.

The guard is a lock that dies with its process, so a `serve` killed outright (SIGKILL, a
crash, the host rebooting) never leaves a stale guard behind and systemd may restart it
at once:

* PostgreSQL: a session-level advisory lock (``pg_try_advisory_lock``) on a connection
  held open for the life of the process.  Advisory locks belong to one database, so two
  deployments on one server do not meet.  A plain `serve` takes it exclusively; a
  worker (``serve --worker``, several sharing one database) takes it shared, so workers
  run beside each other but never beside a plain `serve`, nor it beside them.
* SQLite: an exclusive ``flock`` on ``<database>.serve-lock`` next to the database file
  (SQLite is one host's anyway).  Workers need PostgreSQL.

Workers share the work through the database: messages, turns and mails are claimed by
guarded updates in the store (one winner), and each scheduler job runs under `job_lock`,
a PostgreSQL advisory lock per job: a second worker whose timer fires for the same job
waits, then finds the work done (or, if the first died, does it).

Who holds the guard is written to the service status (``serve.owner``: host, pid, role,
since) for the refusal message and `moderator status`.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from sqlalchemy import Connection, Engine, text
from sqlmodel import Session

from moderator.store import repo
from moderator.store.db import session_scope

OWNER = "serve.owner"
# The advisory lock's key: any fixed 64-bit number; this one spells "moderatr".
LOCK_KEY = 0x6D6F646572617472
ROLES = ("serve", "worker")
# The first key of the two-key advisory locks `job_lock` takes (the second is the job's
# name hashed by the server): apart from the guard's own one-key lock.
JOB_LOCKS = 0x6D6F64


class AlreadyRunning(RuntimeError):
    """Another `serve` holds the guard of this database."""


def owner_text(role: str) -> str:
    return json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "role": role,
                       "since": datetime.now(UTC).isoformat(timespec="seconds")})


def _holder(db: Engine) -> str:
    with Session(db) as session:
        row = repo.service_status(session).get(OWNER)
    if row is None:
        return "another `moderator serve`"
    try:
        who = json.loads(row.value)
        command = "serve --worker" if who["role"] == "worker" else "serve"
        return f"`moderator {command}` on {who['host']}, pid {who['pid']}, since {who['since']}"
    except (ValueError, KeyError, TypeError):
        return "another `moderator serve`"


@dataclass
class Guard:
    """The guard held by this process (``single_instance`` yields it)."""

    role: str
    conn: Connection | None = None  # PostgreSQL: the session holding the advisory lock

    def alone(self) -> bool:
        """Whether no other `serve` or worker runs on this database now.

        PostgreSQL: whether any other session of this database holds the guard's lock,
        read from ``pg_locks`` without taking a lock.  (Taking the exclusive lock for a
        moment to find out, as it once did, made a worker starting in that moment find
        the guard held exclusively and refuse to run: CI, stop 18.)
        SQLite: always (one `serve`).  A worker uses it to settle mail a crash left half
        sent only when no live worker may be sending it.
        """
        if self.conn is None:
            return True
        others = self.conn.execute(_OTHER_HOLDERS, {"classid": LOCK_KEY >> 32,
                                                    "objid": LOCK_KEY & 0xFFFFFFFF}).scalar()
        self.conn.commit()
        return others == 0


# A one-key (bigint) advisory lock shows in pg_locks as classid = its high 32 bits,
# objid = its low 32 bits, objsubid = 1, in the database it was taken in.
_OTHER_HOLDERS = text(
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    " AND classid::bigint = :classid AND objid::bigint = :objid AND objsubid = 1"
    " AND pid <> pg_backend_pid()")


@contextmanager
def single_instance(db: Engine, role: str = "serve") -> Iterator[Guard]:
    """Hold the guard while the body runs; `AlreadyRunning` if another `serve` has it."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, not {role!r}")
    if db.dialect.name == "postgresql":
        with _advisory(db, role) as guard:
            yield guard
        return
    if role == "worker":
        raise AlreadyRunning("`serve --worker` needs PostgreSQL: on SQLite one `moderator "
                             "serve` does all the work (database.url in config.toml)")
    with _file_lock(db):
        yield Guard(role)


def _record(db: Engine, role: str) -> None:
    with session_scope(db) as session:
        repo.set_status(session, OWNER, owner_text(role))


@contextmanager
def _advisory(db: Engine, role: str) -> Iterator[Guard]:
    take = "pg_try_advisory_lock_shared" if role == "worker" else "pg_try_advisory_lock"
    conn = db.connect()
    try:
        got = conn.execute(text(f"SELECT {take}(:key)"), {"key": LOCK_KEY}).scalar()
        conn.commit()  # the lock is the session's: it outlives this transaction
        if not got:
            how = ("it runs as the only one" if role == "worker" else
                   "stop it first, or start each one with `serve --worker`")
            raise AlreadyRunning(f"{_holder(db)} is already running on this database; {how}")
        _record(db, role)
        yield Guard(role, conn)
    finally:
        # The connection goes back to the pool, so let go of the lock explicitly; when the
        # process dies, the server ends the session and the lock with it.
        try:
            conn.rollback()
            conn.execute(text("SELECT pg_advisory_unlock_all()"))
            conn.commit()
        finally:
            conn.close()


@contextmanager
def _file_lock(db: Engine) -> Iterator[None]:
    database = db.url.database
    if not database or database == ":memory:":
        yield
        return
    path = Path(database).with_name(Path(database).name + ".serve-lock")
    handle: IO[str] = path.open("a+", encoding="utf-8")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise AlreadyRunning(f"{_holder(db)} is already running on {database}; "
                                 "stop it first") from None
        _record(db, "serve")
        yield
    finally:
        handle.close()  # releases the flock


@contextmanager
def job_lock(db: Engine, name: str) -> Iterator[None]:
    """Run one scheduler job (``deadline:paris:3``) in one worker at a time.

    PostgreSQL: a session advisory lock on (`JOB_LOCKS`, hashtext(name)), waited for;
    the connection dies with a killed worker, so the job is left to the next one.
    SQLite (one `serve`, one process): nothing to do; the process's own locks suffice.
    """
    if db.dialect.name != "postgresql":
        yield
        return
    conn = db.connect()
    try:
        conn.execute(text("SELECT pg_advisory_lock(:ns, hashtext(:name))"),
                     {"ns": JOB_LOCKS, "name": name})
        conn.commit()
        yield
    finally:
        try:
            conn.rollback()
            conn.execute(text("SELECT pg_advisory_unlock(:ns, hashtext(:name))"),
                         {"ns": JOB_LOCKS, "name": name})
            conn.commit()
        finally:
            conn.close()
