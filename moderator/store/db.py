"""Opening the store: engine, sessions, and schema migrations (Alembic).

The schema is created on first run and upgraded on every later run by running the
Alembic migrations in ``moderator/store/migrations`` up to head, so a host that
updates the code keeps its data.  A store already at head is told apart without
Alembic: the revision in its ``alembic_version`` table is compared with the head the
migration files name (`head_revisions`, read as text), and Alembic (a tenth of a
second of imports) is imported only to upgrade.  SQLAlchemy too is imported when a
store is opened, not with this module, so `moderator status` can check a SQLite
store's schema through the standard ``sqlite3`` module alone.

Two backends, both tested (tests/conftest.py runs the store, intake, turn and desk tests
on each): SQLite (a file; WAL, so the CLI reads while `serve` writes) and PostgreSQL
through psycopg 3 (``postgresql://`` or ``postgresql+psycopg://``; several `serve`
workers may share one).  PostgreSQL sessions run in UTC, so the stored instants come
back the same whatever the server's own time zone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when a store is opened (see the module's docstring)
    from alembic.config import Config as AlembicConfig
    from sqlalchemy import Engine
    from sqlmodel import Session

MIGRATIONS = Path(__file__).parent / "migrations"
# Tables in the store that belong to a library, not to our models: APScheduler's job
# store.  Autogenerate must never propose dropping them.
FOREIGN_TABLES = frozenset({"apscheduler_jobs"})
# ``revision = "0007"`` and ``down_revision = "0006"`` (or None, or a tuple for a merge)
# as Alembic writes them in each migration file, with or without a type annotation.
_REVISION_LINE = re.compile(r"^(down_revision|revision)\s*(?::[^=\n]*)?=\s*(.*)$", re.M)
_QUOTED = re.compile(r"""["']([^"']+)["']""")


def include_object(
    obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any
) -> bool:
    """Alembic's autogenerate filter: leave the tables in `FOREIGN_TABLES` (and their
    indexes) alone, since our metadata does not know them and would drop them."""
    if type_ == "table" and reflected and compare_to is None:
        return name not in FOREIGN_TABLES
    table = getattr(obj, "table", None)
    if reflected and compare_to is None and table is not None:
        return table.name not in FOREIGN_TABLES
    return True


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # WAL lets the CLI read while the daemon writes; busy_timeout waits instead of failing.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    # Freed pages are zeroed: a password masked after its check leaves no old copy behind.
    cursor.execute("PRAGMA secure_delete=ON")
    # Nor in the write-ahead log: when the log restarts after a checkpoint it is cut to
    # nothing, not overwritten from its start (the pages past what is written again, a
    # password's before it was masked among them, stayed in the file).
    cursor.execute("PRAGMA journal_size_limit=0")
    cursor.close()


def checkpoint(engine: Engine) -> None:
    """Copy SQLite's write-ahead log into the database without waiting for anyone
    (PASSIVE), so that the next write restarts the log and cuts it (`_sqlite_pragmas`):
    what intake masked does not stay there.  Nothing to do on PostgreSQL."""
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


def alembic_config() -> AlembicConfig:
    from alembic.config import Config as AlembicConfig

    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest version (creating it on an empty database)."""
    from alembic import command

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@cache
def _revision_graph() -> tuple[frozenset[str], frozenset[str]]:
    """Every ``revision`` the migration files declare, and every one they name as a
    ``down_revision``, read from the files' text."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        for key, value in _REVISION_LINE.findall(path.read_text(encoding="utf-8")):
            (revisions if key == "revision" else parents).update(_QUOTED.findall(value))
    return frozenset(revisions), frozenset(parents)


def head_revisions() -> frozenset[str]:
    """The head revision(s) of the migrations: every ``revision`` that no file names as
    its ``down_revision`` (Alembic's own notion of a head, without importing Alembic;
    tests/speed checks both agree)."""
    revisions, parents = _revision_graph()
    return revisions - parents


def known_revisions() -> frozenset[str]:
    """Every schema revision this code can build (a backup names one)."""
    return _revision_graph()[0]


def is_current(stored: Iterable[str] | None) -> bool:
    """Whether the revisions in a store's ``alembic_version`` are the migrations' head
    (None: the table is missing, an empty or pre-Alembic store)."""
    return stored is not None and frozenset(stored) == head_revisions()


def stored_revisions(engine: Engine) -> list[str] | None:
    """The revisions in the store's ``alembic_version``, None when it has no such table
    (a store that cannot be reached raises, as before)."""
    from sqlalchemy.exc import DBAPIError

    with engine.connect() as connection:
        try:
            rows = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
            return [row[0] for row in rows]
        except DBAPIError:  # no such table (SQLite: OperationalError, PostgreSQL: Programming)
            return None


def engine_url(url: str) -> str:
    """``url`` with PostgreSQL through psycopg 3 (SQLAlchemy's bare ``postgresql://``
    means psycopg2, which moderator does not depend on)."""
    for bare in ("postgresql://", "postgres://"):
        if url.startswith(bare):
            return "postgresql+psycopg://" + url.removeprefix(bare)
    return url


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///PATH`` store (None for PostgreSQL or in-memory)."""
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else ""
    return Path(path) if path and path != ":memory:" else None


def open_store(url: str, *, upgrade: bool = True) -> Engine:
    """An engine for ``url`` with the schema migrated to head (Alembic imported and run
    only when the store is not at head already)."""
    from sqlalchemy import event
    from sqlmodel import create_engine

    url = engine_url(url)
    path = sqlite_path(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    if url.startswith("postgresql"):
        # pre_ping: a worker outlives server restarts and idle-connection timeouts.
        engine = create_engine(url, pool_pre_ping=True,
                               connect_args={"options": "-c timezone=UTC"})
    else:
        engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    if upgrade and not is_current(stored_revisions(engine)):
        migrate(engine)
    return engine


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any exception."""
    from sqlmodel import Session

    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
