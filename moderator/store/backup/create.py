"""Writing a backup: the store read at one instant, the archive, the manifest last."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import sqlite3
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, MetaData, create_engine, inspect, select

from moderator import __version__
from moderator.store.backup.manifest import (
    FORMAT,
    MANIFEST,
    BackupError,
    Manifest,
    Member,
    digest_of,
    encode_value,
    key_id,
    schema_tables,
)
from moderator.store.db import sqlite_path

NAME_PATTERN = "moderator-backup-*.tar.gz"
_NAME = re.compile(r"^moderator-backup-\d{8}T\d{6}Z(?:-\d+)?\.tar\.gz$")
_ROWS_PER_FETCH = 500


def backup_name(when: datetime) -> str:
    return f"moderator-backup-{when.astimezone(UTC):%Y%m%dT%H%M%SZ}.tar.gz"


def create_backup(engine: Engine, folder: Path, *, key_file: Path, archive_dir: Path,
                  config_file: Path | None, with_key: bool = False,
                  now: datetime | None = None) -> Path:
    """Write a backup into ``folder`` (made 0700 if new) and return its path.  The file
    appears under its name only once whole (written beside it, synced, renamed)."""
    now = now or datetime.now(UTC)
    if with_key and not key_file.is_file():
        raise BackupError(f"no server key at {key_file} to put in the backup")
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = _free_name(folder, backup_name(now))
    with tempfile.TemporaryDirectory(prefix=".backup-", dir=folder) as work:
        scratch = Path(work)
        partial = scratch / "partial.tar.gz"
        members: list[Member] = []
        with _private_tar(partial) as tar:
            with _snapshot(engine, scratch) as (connection, backend):
                schema = tuple(sorted(stored_revisions_of(connection)))
                if not schema:
                    raise BackupError("the store has no schema revision: is it a moderator "
                                      "store?")
                for name, path, rows in _dump_tables(connection, scratch, schema):
                    members.append(_add(tar, f"tables/{name}.jsonl", path, now, rows))
            if with_key:
                members.append(_add(tar, "key", key_file, now))
            for path in _files_under(archive_dir):
                members.append(_add(tar, f"archive/{path.relative_to(archive_dir).as_posix()}",
                                    path, now))
            if config_file is not None and config_file.is_file():
                members.append(_add(tar, "config.toml", config_file, now))
            manifest = Manifest(FORMAT, now, __version__, backend, schema,
                                key_id(key_file) if key_file.is_file() else "",
                                tuple(members))
            _add_bytes(tar, MANIFEST, manifest.as_json(), now)
        _sync(partial)
        os.replace(partial, target)
    _sync_folder(folder)
    return target


def stored_revisions_of(connection: Connection) -> list[str]:
    if not inspect(connection).has_table("alembic_version"):
        return []
    rows = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
    return [row[0] for row in rows]


def _free_name(folder: Path, name: str) -> Path:
    """``name`` in ``folder``, numbered when two backups are taken in the same second."""
    target, n = folder / name, 1
    while target.exists():
        n += 1
        target = folder / name.replace(".tar.gz", f"-{n}.tar.gz")
    return target


@contextmanager
def _snapshot(engine: Engine, scratch: Path) -> Iterator[tuple[Connection, str]]:
    """A connection that reads the whole store as of one instant."""
    if engine.dialect.name == "sqlite":
        source = sqlite_path(str(engine.url))
        if source is None:
            raise BackupError("an in-memory store cannot be backed up")
        copy = scratch / "snapshot.sqlite"
        # One step (pages=-1): the copy is taken under one read lock, so it is one
        # instant of the store; `serve` writes on meanwhile (WAL).  A checkpoint that
        # holds the file for a moment is waited for, as the store waits (busy_timeout).
        with sqlite3.connect(source, timeout=30) as live, sqlite3.connect(copy) as snapshot:
            live.backup(snapshot, pages=-1)
        live.close()
        snapshot.close()
        copied = create_engine(f"sqlite:///{copy}")
        try:
            with copied.connect() as connection:
                yield connection, "sqlite"
        finally:
            copied.dispose()
        return
    with engine.connect().execution_options(isolation_level="REPEATABLE READ") as connection, \
            connection.begin():
        connection.exec_driver_sql("SET TRANSACTION READ ONLY")
        yield connection, engine.dialect.name


def _dump_tables(connection: Connection, scratch: Path,
                 schema: tuple[str, ...]) -> Iterator[tuple[str, Path, int]]:
    ours = schema_tables(schema)
    metadata = MetaData()
    metadata.reflect(bind=connection, only=lambda name, _meta: name in ours)
    for table in metadata.sorted_tables:
        path, rows = scratch / f"{table.name}.jsonl", 0
        columns = [c.name for c in table.columns]
        order = list(table.primary_key.columns) or list(table.columns)
        with path.open("w", encoding="utf-8") as out:
            out.write(json.dumps(columns) + "\n")
            result = connection.execution_options(stream_results=True).execute(
                select(table).order_by(*order))
            for chunk in result.partitions(_ROWS_PER_FETCH):
                for row in chunk:
                    out.write(json.dumps([encode_value(v) for v in row],
                                         ensure_ascii=False) + "\n")
                    rows += 1
        yield table.name, path, rows


def _files_under(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


@contextmanager
def _private_tar(path: Path) -> Iterator[tarfile.TarFile]:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as zipped, \
            tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar:
        yield tar


def _info(name: str, size: int, when: datetime) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = size, 0o600, int(when.timestamp())
    return info


def _add(tar: tarfile.TarFile, name: str, path: Path, when: datetime,
         rows: int | None = None) -> Member:
    digest, size = digest_of(path)
    with path.open("rb") as source:
        tar.addfile(_info(name, size, when), source)
    return Member(name, digest, size, rows)


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes, when: datetime) -> None:
    tar.addfile(_info(name, len(data), when), io.BytesIO(data))


def _sync(path: Path) -> None:
    with path.open("rb") as handle:
        os.fsync(handle.fileno())


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backups_in(folder: Path) -> list[Path]:
    """The backups in ``folder``, oldest first (their names sort by when)."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.glob(NAME_PATTERN) if _NAME.match(p.name)),
                  key=_backup_order)


def _backup_order(path: Path) -> tuple[str, int]:
    stem = path.name.removesuffix(".tar.gz")
    taken, _, n = stem.removeprefix("moderator-backup-").partition("-")
    return taken, int(n or 1)


def prune_backups(folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest backups in ``folder``; the deleted ones."""
    if keep < 1:
        raise BackupError("keep at least one backup")
    old = backups_in(folder)[:-keep]
    for path in old:
        path.unlink()
    return old
