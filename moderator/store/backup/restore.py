"""A backup (`moderator.store.backup`) brought back into an empty store.

``moderator backup restore FILE`` on the host that should run the service, with its own
config (a new SQLite file, or a PostgreSQL database: a backup of either restores into
either, which is also how a host moves from SQLite to PostgreSQL):

1. the whole file is verified first (`verify_backup`): nothing is touched for a backup
   that is not whole;
2. the store must hold no game, message, mail or log (a restore never merges and never
   overwrites), the archive folder nothing but the backup's own files, and the schema
   revision must be one this code knows;
3. the server key: the backup's (``--with-key``), else the key file already in place
   must be the one the backup names; ``new_key`` goes on without it (the generated
   passwords will not verify: the GM gives new ones, `moderator player password`);
4. in ONE transaction: the empty tables are dropped, the schema is built at the backup's
   revision, then one read of the backup puts every row back with its own id (only into
   the tables of that schema: never another program's) and writes the key and the
   archive (each file whole or not at all), PostgreSQL's id sequences are set past the
   ids, the schema is migrated to this code's head, and the restore is written in the
   audit trail.  Any failure rolls the store back, leaving it empty; the files written
   are the backup's own, which a restore run again accepts (and writes again).

So the file is read twice: to verify it, then to restore it.  Not once: the manifest,
which names the schema the rows need and proves every member, is the last member of one
gzip stream, so a single read would have to keep every table aside (as much disk again
as the store) until the manifest at the end says it can be trusted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import IO

from sqlalchemy import Connection, Engine, MetaData, func, select, text
from sqlmodel import Session, col

from moderator.faults import crash_point
from moderator.store import audit
from moderator.store.backup.manifest import (
    SKIPPED_TABLES,
    BackupError,
    Manifest,
    decode_value,
    digest_of,
    key_id,
    schema_tables,
)
from moderator.store.backup.verify import (
    PARTIAL_SUFFIX,
    copy_member,
    open_members,
    verify_backup,
)
from moderator.store.db import alembic_config, head_revisions, known_revisions, open_store
from moderator.store.models import Game, Player
from moderator.store.passwords import HMAC_SCHEME, forget_key

# Tables whose rows do not make a store "in use": what a `serve` or `status` started on
# the new, empty host may already have written about itself.
_HOUSEKEEPING = frozenset({"servicestatus"})
_ROWS_PER_INSERT = 500


@dataclass(frozen=True)
class Restored:
    manifest: Manifest
    rows: int
    archive_files: int
    key: str  # "restored", "kept" (the one in place is the backup's) or "new"
    need_new_passwords: tuple[str, ...]  # "game: player" whose generated password is lost


def restore_backup(path: Path, *, database_url: str, key_file: Path, archive_dir: Path,
                   reason: str, who: str, new_key: bool = False) -> Restored:
    """Restore the backup at ``path`` (see the module's docstring); `BackupError` says
    why not, with the store as it was."""
    reason = audit.checked(reason)
    manifest = verify_backup(path)
    unknown = set(manifest.schema) - known_revisions()
    if unknown:
        raise BackupError(f"the backup's schema ({', '.join(sorted(unknown))}) is newer "
                          f"than this moderator's (made by moderator {manifest.moderator}): "
                          "install that version or later to restore it")
    engine = open_store(database_url, upgrade=False)
    try:
        _check_empty(engine, manifest)
        _check_archive(manifest, archive_dir)
        key = _key_plan(manifest, key_file, new_key)
        rows, archive_files = _load(engine, path, manifest, _Places(key_file, archive_dir),
                                    reason, who, key)
        lost = _lost_passwords(engine) if key == "new" else ()
    finally:
        engine.dispose()
    return Restored(manifest, rows, archive_files, key, lost)


def _ours(manifest: Manifest) -> frozenset[str]:
    """The tables a restore may find, check and drop: ours at this code's head or at the
    backup's revision, and the skipped ones (never another program's)."""
    return (schema_tables(tuple(sorted(head_revisions()))) | schema_tables(manifest.schema)
            | SKIPPED_TABLES)


def _check_empty(engine: Engine, manifest: Manifest) -> None:
    ours = _ours(manifest)
    metadata = MetaData()
    metadata.reflect(bind=engine, only=lambda name, _meta: name in ours)
    in_use = []
    with engine.connect() as connection:
        for table in metadata.sorted_tables:
            if table.name in SKIPPED_TABLES | _HOUSEKEEPING:
                continue
            rows = connection.execute(select(func.count()).select_from(table)).scalar_one()
            if rows:
                in_use.append(f"{table.name}: {rows}")
    if in_use:
        raise BackupError("the store is in use (" + ", ".join(in_use) + " rows): a restore "
                          "goes only into an empty store; point [database] url at a new "
                          "one")


def _check_archive(manifest: Manifest, archive_dir: Path) -> None:
    """The archive folder may hold only the backup's own files, as they are in it (a
    restore run again after a failure finds them; a file it was writing when it was
    killed, never renamed into place, is removed)."""
    if not archive_dir.is_dir():
        return
    for partial in archive_dir.rglob(f"*{PARTIAL_SUFFIX}"):
        partial.unlink()
    present = {p.relative_to(archive_dir).as_posix()
               for p in archive_dir.rglob("*") if not p.is_dir()}
    theirs = {m.name.removeprefix("archive/"): m.sha256 for m in manifest.members
              if m.name.startswith("archive/")}
    foreign = sorted(name for name in present
                     if theirs.get(name) != digest_of(archive_dir / name)[0])
    if foreign:
        more = " ..." if len(foreign) > 3 else ""
        raise BackupError(f"the archive folder {archive_dir} holds files that are not the "
                          f"backup's ({', '.join(foreign[:3])}{more}): restore into an empty "
                          "archive folder")


def _key_plan(manifest: Manifest, key_file: Path, new_key: bool) -> str:
    if manifest.has_key:
        return "restored"
    if not manifest.key_id or (key_file.is_file() and key_id(key_file) == manifest.key_id):
        return "kept"
    if new_key:
        return "new"
    where = (f"the key file {key_file} is another key" if key_file.is_file()
             else f"there is no key file at {key_file}")
    raise BackupError(f"the backup was taken without the server key (its id {manifest.key_id}) "
                      f"and {where}: put the host's key file there, or restore with "
                      "--new-key and give the players new passwords")


@dataclass(frozen=True)
class _Places:
    """Where a restore writes the backup's files."""

    key_file: Path
    archive_dir: Path


def _load(engine: Engine, path: Path, manifest: Manifest, places: _Places, reason: str,
          who: str, key: str) -> tuple[int, int]:
    """The store rebuilt in one transaction, the files written on the way; (rows, archive
    files)."""
    from alembic import command

    with engine.begin() as connection:
        _drop_ours(connection, manifest)
        config = alembic_config()
        config.attributes["connection"] = connection
        for revision in manifest.schema:
            command.upgrade(config, revision)
        ours = schema_tables(manifest.schema)
        tables = MetaData()
        tables.reflect(bind=connection, only=lambda name, _meta: name in ours)
        rows, archive_files = _put_back(connection, tables, path, places, key == "restored")
        crash_point("restore.rows-loaded")
        if connection.dialect.name == "postgresql":
            _move_sequences(connection, tables)
        command.upgrade(config, "head")
        with Session(bind=connection) as session:
            audit.record(session, "restore", reason, who,
                         detail=f"{path.name}: taken {manifest.created:%Y-%m-%d %H:%M} UTC "
                                f"on {manifest.backend}, schema {', '.join(manifest.schema)}, "
                                f"{rows} rows, server key {key}")
        crash_point("restore.committing")
    return rows, archive_files


def _put_back(connection: Connection, tables: MetaData, path: Path, places: _Places,
              with_key: bool) -> tuple[int, int]:
    """One read of the backup: its rows into ``tables``, the key (``with_key``) and the
    archive into their places; (rows, archive files)."""
    rows = archive_files = 0
    with open_members(path) as members:
        for name, handle in members:
            if name.startswith("tables/"):
                rows += _load_table(connection, tables, name, handle)
            elif name == "key" and with_key:
                copy_member(handle, places.key_file)
                forget_key(places.key_file)
            elif name.startswith("archive/"):
                copy_member(handle, places.archive_dir / name.removeprefix("archive/"))
                archive_files += 1
    return rows, archive_files


def _drop_ours(connection: Connection, manifest: Manifest) -> None:
    """Drop the empty store's tables (checked empty: they hold nothing), so the schema
    is built at the backup's own revision."""
    ours = _ours(manifest)
    existing = MetaData()
    existing.reflect(bind=connection, only=lambda name, _meta: name in ours)
    existing.drop_all(bind=connection)


def _load_table(connection: Connection, tables: MetaData, member: str,
                handle: IO[bytes]) -> int:
    name = member.removeprefix("tables/").removesuffix(".jsonl")
    table = tables.tables.get(name)  # only the tables of the backup's schema
    if table is None:
        raise BackupError(f"the backup holds a table {name!r} its schema does not have")
    lines = _lines(handle)
    columns = json.loads(next(lines))
    if set(columns) != {c.name for c in table.columns}:
        raise BackupError(f"the backup's columns of {name} are not its schema's")
    count = 0
    while batch := list(islice(lines, _ROWS_PER_INSERT)):
        connection.execute(table.insert(), [
            dict(zip(columns, (decode_value(v) for v in json.loads(line)), strict=True))
            for line in batch])
        count += len(batch)
    return count


def _lines(handle: IO[bytes]) -> Iterator[str]:
    for line in handle:
        yield line.decode("utf-8")


def _move_sequences(connection: Connection, tables: MetaData) -> None:
    """PostgreSQL hands out ids from a sequence that the restored rows did not advance:
    each is set past its table's highest id."""
    for table in tables.sorted_tables:
        key = list(table.primary_key.columns)
        if len(key) != 1 or key[0].type.python_type is not int:
            continue
        connection.execute(
            text("SELECT setval(pg_get_serial_sequence(:table, :column), "
                 f"(SELECT COALESCE(MAX({key[0].name}), 0) + 1 FROM {table.name}), false)"),
            {"table": table.name, "column": key[0].name})


def _lost_passwords(engine: Engine) -> tuple[str, ...]:
    """The players whose generated password (an HMAC under the lost key) no longer
    verifies, as "game: player"."""
    query = (select(col(Game.name), col(Player.name))
             .join(Player, col(Player.game_id) == col(Game.id))
             .where(col(Player.password_hash).startswith(f"{HMAC_SCHEME}$"))
             .order_by(col(Game.name), col(Player.name)))
    with engine.connect() as connection:
        return tuple(f"{game}: {player}" for game, player in connection.execute(query))
