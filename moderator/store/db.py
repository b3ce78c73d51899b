"""Opening the store: engine, sessions, and schema migrations (Alembic).

The schema is created on first run and upgraded on every later run by running the
Alembic migrations in ``moderator/store/migrations`` up to head, so a host that
updates the code keeps its data.

Two backends, both tested (tests/conftest.py runs the store, intake, turn and desk tests
on each): SQLite (a file; WAL, so the CLI reads while `serve` writes) and PostgreSQL
through psycopg 3 (``postgresql://`` or ``postgresql+psycopg://``; several `serve`
workers may share one).  PostgreSQL sessions run in UTC, so the stored instants come
back the same whatever the server's own time zone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Engine, event
from sqlmodel import Session, create_engine

MIGRATIONS = Path(__file__).parent / "migrations"
# Tables in the store that belong to a library, not to our models: APScheduler's job
# store.  Autogenerate must never propose dropping them.
FOREIGN_TABLES = frozenset({"apscheduler_jobs"})


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
    cursor.close()


def alembic_config() -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest version (creating it on an empty database)."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def engine_url(url: str) -> str:
    """``url`` with PostgreSQL through psycopg 3 (SQLAlchemy's bare ``postgresql://``
    means psycopg2, which moderator does not depend on)."""
    for bare in ("postgresql://", "postgres://"):
        if url.startswith(bare):
            return "postgresql+psycopg://" + url.removeprefix(bare)
    return url


def open_store(url: str, *, upgrade: bool = True) -> Engine:
    """An engine for ``url`` with the schema migrated to head."""
    url = engine_url(url)
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    if url.startswith("postgresql"):
        # pre_ping: a worker outlives server restarts and idle-connection timeouts.
        engine = create_engine(url, pool_pre_ping=True,
                               connect_args={"options": "-c timezone=UTC"})
    else:
        engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    if upgrade:
        migrate(engine)
    return engine


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any exception."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
