"""A host's backup: one file that holds everything needed to bring the service back.

``moderator backup create`` writes a gzipped tar, mode 0600, named by the instant it was
taken (``moderator-backup-20261207T180000Z.tar.gz``):

* ``tables/NAME.jsonl``: every row of every table of the store, one JSON array a line
  after a first line naming the columns, read in ONE snapshot while `serve` keeps
  writing (SQLite: the online backup API copies the file under one read lock;
  PostgreSQL: one REPEATABLE READ, READ ONLY transaction).  Values are written as the
  database holds them (compressed columns stay compressed; bytes as base64, instants as
  ISO text), so a backup of a SQLite store restores into PostgreSQL and back
  (`moderator.store.restore`).  APScheduler's job table is left out: `serve` derives its
  jobs from the games again; so is ``alembic_version``, which the manifest names;
* ``key``, only with ``--with-key``: the server key (`moderator.store.passwords`).  It
  is kept apart from the store on purpose (a copy of the store alone cannot test
  guesses of a password), so by default a backup holds only its fingerprint
  (``key_id`` in the manifest): back the key file up once, somewhere else; a restore
  checks that the key it finds is that one;
* ``archive/...``: the published newsletters, which outlive the outbox's compacted bodies;
* ``config.toml``: the settings file in use, for reference (a restore never writes it);
* ``manifest.json``, last: the format, when, which schema revision, and each member's
  SHA-256 and size (rows for a table), so `verify` proves a file whole before anyone
  relies on it.

The spool is not kept: every raw email it holds is also in the store (`ReceivedMessage`).
A backup holds every received email and the players' addresses, and with ``--with-key``
the key: keep it private.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Connection, Engine, MetaData, create_engine, inspect, select

from moderator import __version__
from moderator.store.db import FOREIGN_TABLES, sqlite_path

FORMAT = 1
MANIFEST = "manifest.json"
# Tables a backup leaves out: Alembic's (the manifest names the revision) and those of
# libraries (`FOREIGN_TABLES`: APScheduler's jobs, derived from the games again).
SKIPPED_TABLES = FOREIGN_TABLES | {"alembic_version"}
NAME_PATTERN = "moderator-backup-*.tar.gz"
_NAME = re.compile(r"^moderator-backup-\d{8}T\d{6}Z(?:-\d+)?\.tar\.gz$")
_ROWS_PER_FETCH = 500


class BackupError(ValueError):
    """A backup that cannot be written, read or trusted; the message says why."""


@dataclass(frozen=True)
class Member:
    """One file of a backup as its manifest lists it."""

    name: str
    sha256: str
    size: int
    rows: int | None = None  # a table's rows; None for a file


@dataclass(frozen=True)
class Manifest:
    format: int
    created: datetime
    moderator: str
    backend: str
    schema: tuple[str, ...]
    key_id: str
    members: tuple[Member, ...]

    @property
    def has_key(self) -> bool:
        return any(m.name == "key" for m in self.members)

    @property
    def tables(self) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.name.startswith("tables/"))

    def as_json(self) -> bytes:
        return json.dumps({
            "format": self.format, "created": self.created.isoformat(),
            "moderator": self.moderator, "backend": self.backend,
            "schema": list(self.schema), "key_id": self.key_id,
            "members": [{"name": m.name, "sha256": m.sha256, "size": m.size,
                         **({"rows": m.rows} if m.rows is not None else {})}
                        for m in self.members],
        }, indent=1).encode("utf-8")

    @classmethod
    def from_json(cls, raw: bytes) -> Manifest:
        try:
            data = json.loads(raw)
            if data["format"] != FORMAT:
                raise BackupError(f"backup format {data['format']} is not one this "
                                  f"moderator reads (it reads {FORMAT})")
            return cls(FORMAT, datetime.fromisoformat(data["created"]), str(data["moderator"]),
                       str(data["backend"]), tuple(str(r) for r in data["schema"]),
                       str(data["key_id"]),
                       tuple(Member(str(m["name"]), str(m["sha256"]), int(m["size"]),
                                    m.get("rows")) for m in data["members"]))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, BackupError):
                raise
            raise BackupError(f"the manifest is unreadable ({exc!r})") from exc


# --- values as JSON, and back ------------------------------------------------------------

def encode_value(value: Any) -> Any:
    """A column's value as JSON: bytes and instants tagged, the rest as they are."""
    if isinstance(value, bytes | memoryview):
        return {"$b": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, datetime):
        return {"$t": value.isoformat()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise BackupError(f"a column holds a {type(value).__name__}, which a backup cannot keep")


def decode_value(value: Any) -> Any:
    """`encode_value` undone."""
    if isinstance(value, dict):
        if "$b" in value:
            return base64.b64decode(value["$b"])
        return datetime.fromisoformat(value["$t"])
    return value


# --- writing -----------------------------------------------------------------------------

def backup_name(when: datetime) -> str:
    return f"moderator-backup-{when.astimezone(UTC):%Y%m%dT%H%M%SZ}.tar.gz"


def key_id(key_file: Path) -> str:
    """The fingerprint of a server key file: enough to tell two keys apart, nothing to
    find the key by (it is 256 random bits).  A host without a key file (no password
    generated yet) has none: "" in the manifest."""
    return hashlib.sha256(key_file.read_bytes().strip()).hexdigest()[:16]


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
        # instant of the store; `serve` writes on meanwhile (WAL).
        with sqlite3.connect(source) as live, sqlite3.connect(copy) as snapshot:
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


@cache
def schema_tables(revisions: tuple[str, ...]) -> frozenset[str]:
    """The tables our migrations make at ``revisions`` (built once in an in-memory
    SQLite store to find out): a database shared with another program keeps that
    program's tables out of a backup, and out of a restore's reach."""
    from alembic import command

    from moderator.store.db import alembic_config

    scratch = create_engine("sqlite://")
    try:
        with scratch.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            for revision in revisions:
                command.upgrade(config, revision)
            return frozenset(inspect(connection).get_table_names()) - SKIPPED_TABLES
    finally:
        scratch.dispose()


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


def digest_of(path: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as source:
        while block := source.read(1 << 20):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def _sync(path: Path) -> None:
    with path.open("rb") as handle:
        os.fsync(handle.fileno())


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- reading -----------------------------------------------------------------------------

def verify_backup(path: Path) -> Manifest:
    """Read the whole backup and prove it whole: every member the manifest lists is
    there with its SHA-256 and size (a table with its rows), and nothing else is.
    Raises `BackupError` naming the first member that is not."""
    seen: dict[str, tuple[str, int, int]] = {}
    manifest_bytes: bytes | None = None
    with open_members(path) as members:
        for name, handle in members:
            if name == MANIFEST:
                manifest_bytes = handle.read()
                continue
            seen[name] = _read_digest(handle, counting_lines=name.startswith("tables/"))
    if manifest_bytes is None:
        raise BackupError(f"{path.name} has no manifest: not a whole moderator backup")
    manifest = Manifest.from_json(manifest_bytes)
    for member in manifest.members:
        if member.name not in seen:
            raise BackupError(f"{member.name} is missing from {path.name}")
        digest, size, lines = seen.pop(member.name)
        if (digest, size) != (member.sha256, member.size):
            raise BackupError(f"{member.name} in {path.name} is damaged (its SHA-256 or "
                              "size is not the manifest's)")
        if member.rows is not None and lines != member.rows + 1:
            raise BackupError(f"{member.name} holds {lines - 1} rows, the manifest says "
                              f"{member.rows}")
    if seen:
        raise BackupError(f"{path.name} holds files its manifest does not list: "
                          + ", ".join(sorted(seen)))
    return manifest


@contextmanager
def open_members(path: Path) -> Iterator[Iterator[tuple[str, IO[bytes]]]]:
    """The backup's regular files in their order, each as (name, readable), read once.
    Anything else (a link, a device, a name that climbs out) makes it untrusted."""
    try:
        tar = tarfile.open(path, mode="r:gz")  # noqa: SIM115 (closed below, after the reads)
    except (OSError, tarfile.TarError, EOFError) as exc:
        raise BackupError(f"{path.name} is not a readable backup ({exc})") from exc

    damaged = (OSError, tarfile.TarError, EOFError, zlib.error)

    def members() -> Iterator[tuple[str, IO[bytes]]]:
        try:
            for info in tar:
                if not info.isfile() or not _safe_name(info.name):
                    raise BackupError(f"{path.name} holds {info.name!r}, which no "
                                      "moderator backup holds")
                handle = tar.extractfile(info)
                assert handle is not None  # a regular file
                yield info.name, io.BufferedReader(_Reading(handle, path.name, damaged))
        except damaged as exc:
            raise BackupError(f"{path.name} is damaged ({exc})") from exc

    try:
        yield members()
    finally:
        tar.close()


class _Reading(io.RawIOBase):
    """A member as its reader reads it: damage found while reading (a cut file, a bad
    compressed block) is a `BackupError`, and only that (an error writing what was read
    is the writer's)."""

    def __init__(self, inner: IO[bytes], backup: str,
                 damaged: tuple[type[BaseException], ...]) -> None:
        self.inner, self.backup, self.damaged = inner, backup, damaged

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self.inner.read(len(buffer))
        except self.damaged as exc:
            raise BackupError(f"{self.backup} is damaged ({exc})") from exc
        buffer[:len(data)] = data
        return len(data)


def _safe_name(name: str) -> bool:
    parts = name.split("/")
    return not name.startswith("/") and ".." not in parts and "" not in parts and (
        name in (MANIFEST, "key", "config.toml")
        or (parts[0] == "tables" and len(parts) == 2 and name.endswith(".jsonl"))
        or (parts[0] == "archive" and len(parts) > 1))


def _read_digest(handle: IO[bytes], *, counting_lines: bool) -> tuple[str, int, int]:
    digest, size, lines = hashlib.sha256(), 0, 0
    while block := handle.read(1 << 20):
        digest.update(block)
        size += len(block)
        if counting_lines:
            lines += block.count(b"\n")
    return digest.hexdigest(), size, lines


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


def copy_member(handle: IO[bytes], target: Path) -> None:
    """Write a member to ``target`` (0600, beside it first, synced, then renamed)."""
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.restoring")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(handle, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, target)

