"""`moderator backup create|verify|restore` (moderator.store.backup).

On both backends (tests/conftest.py ON_BOTH), and across them: a SQLite host restored
into PostgreSQL and back.  Whatever a restore refuses, it refuses before touching the
store; a restore killed half-way leaves the store empty and can simply be run again.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.cli import cli
from moderator.desk import admin
from moderator.intake.process import process_message
from moderator.settings.config import Config, load_config
from moderator.store import audit
from moderator.store.backup.create import backups_in, create_backup, prune_backups
from moderator.store.backup.manifest import BackupError
from moderator.store.backup.restore import restore_backup
from moderator.store.backup.verify import verify_backup
from moderator.store.db import head_revisions, open_store, session_scope, stored_revisions
from moderator.store.models import AuditEntry, GmLog, Player
from moderator.store.passwords import server_key, verify_written
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

from support import make_game, order_mail, store_at_revision, write_config

ORDERS = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapier\n"
WAIT_SECONDS = 120


def _new_host(tmp_path: Path, name: str, backend: str, request: pytest.FixtureRequest) -> Config:
    """A second host's config: its own empty store (of ``backend``), archive and key."""
    folder = tmp_path / name
    folder.mkdir()
    url = None
    if backend == "postgresql":
        url = request.getfixturevalue("pg_cluster").own_database()
    return load_config(write_config(folder, database_url=url))


def _played(db: Engine, config: Config) -> str:
    """A game with a turn run and a player whose password was generated; his password."""
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", ORDERS))
    run_turn(db, config, "paris")
    with session_scope(db) as session:
        made = admin.add_player(session, config, "paris", "athos@lafere.example",
                                "Athos de la Fere")
    assert made.password
    return made.password


def _rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, with the values as both backends can compare them
    (instants in UTC, flags as 0/1)."""
    from moderator.store.db import engine_url

    engine = sa.create_engine(engine_url(url))
    try:
        metadata = sa.MetaData()
        metadata.reflect(engine)
        found: dict[str, list[tuple[Any, ...]]] = {}
        with engine.connect() as connection:
            for name in sorted(set(metadata.tables) - {"alembic_version", "apscheduler_jobs"}):
                table = metadata.tables[name]
                found[name] = [tuple(_plain(v) for v in row) for row in connection.execute(
                    sa.select(table).order_by(*table.primary_key.columns))]
        return found
    finally:
        engine.dispose()


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, memoryview):
        return bytes(value)
    return value


def _without_restore_entry(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[Any]]:
    """The rows but the audit entry the restore itself wrote (the last)."""
    return {**rows, "auditentry": rows["auditentry"][:-1]}


def _backup(db: Engine, config: Config, **options: Any) -> Path:
    return create_backup(db, config.archive_dir.parent / "backups", key_file=config.key_file,
                         archive_dir=config.archive_dir, config_file=config.path, **options)


def _restore(path: Path, config: Config, **options: Any) -> Any:
    return restore_backup(path, database_url=config.database_url, key_file=config.key_file,
                          archive_dir=config.archive_dir, reason="new host", who="gm",
                          **options)


def test_a_restored_host_is_the_same_row_for_row_and_plays_on(
    db: Engine, config: Config, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Every row comes back with its id; the archive and the key (``--with-key``) too;
    a generated password still verifies, the turn reruns byte for byte, and the next
    turn runs; the restore is in the audit trail."""
    password = _played(db, config)
    path = _backup(db, config, with_key=True)
    assert path.stat().st_mode & 0o777 == 0o600
    new = _new_host(tmp_path, "new", backend, request)
    done = _restore(path, new)
    assert done.key == "restored" and done.need_new_passwords == ()
    before, after = _rows(config.database_url), _rows(new.database_url)
    assert _without_restore_entry(after) == before
    assert new.key_file.read_bytes() == config.key_file.read_bytes()
    assert new.key_file.stat().st_mode & 0o777 == 0o600
    assert sorted(p.relative_to(new.archive_dir) for p in new.archive_dir.rglob("*")) == \
        sorted(p.relative_to(config.archive_dir) for p in config.archive_dir.rglob("*"))
    restored = open_store(new.database_url)
    try:
        assert set(stored_revisions(restored) or ()) == head_revisions()
        with Session(restored) as session:
            athos = session.exec(select(Player).where(Player.email == "athos@lafere.example")).one()
            assert verify_written(password, athos.password_hash, server_key(new.key_file))
            entry = session.exec(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
            assert entry is not None and (entry.action, entry.reason) == ("restore", "new host")
        assert rerun_turn(restored, new, "paris", 1).identical
        assert run_turn(restored, new, "paris").number == 2
    finally:
        restored.dispose()


@pytest.mark.postgresql
@pytest.mark.parametrize(("source", "target"), [("sqlite", "postgresql"),
                                                ("postgresql", "sqlite")])
def test_a_backup_restores_into_the_other_backend(
    source: str, target: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """How a host moves from SQLite to PostgreSQL (and back): the same rows, the same
    turn on rerun, and new rows get new ids (PostgreSQL's sequences set past the
    restored ones)."""
    old = _new_host(tmp_path, "old", source, request)
    db = open_store(old.database_url)
    try:
        _played(db, old)
        path = _backup(db, old, with_key=True)
    finally:
        db.dispose()
    new = _new_host(tmp_path, "new", target, request)
    _restore(path, new)
    assert _without_restore_entry(_rows(new.database_url)) == _rows(old.database_url)
    restored = open_store(new.database_url)
    try:
        assert rerun_turn(restored, new, "paris", 1).identical
        with session_scope(restored) as session:
            highest = max(e.id or 0 for e in session.exec(select(GmLog)))
            session.add(GmLog(event="after.restore", detail=""))
            session.flush()
            newest = session.exec(select(GmLog).where(GmLog.event == "after.restore")).one()
            assert (newest.id or 0) > highest
    finally:
        restored.dispose()


def test_a_backup_is_one_instant_while_serve_writes(
    db: Engine, config: Config, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A writer adds a GM log line and an audit entry in one transaction, again and
    again, while backups are taken: in every backup the two tables hold the same
    marks (read table by table without one snapshot, the later table would hold more)."""
    make_game(db, config)
    stop = threading.Event()
    written = 0

    def writer() -> None:
        nonlocal written
        while not stop.is_set():
            with session_scope(db) as session:
                mark = f"pair-{written}"
                session.add(GmLog(event=mark, detail=""))
                audit.record(session, mark, "pair", "writer")
            written += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        paths = [_backup(db, config) for _ in range(6)]
    finally:
        stop.set()
        thread.join()
    assert written > 6
    for path in paths:
        marks = _marks_in(path)
        assert marks["gmlog"] == marks["auditentry"], path.name


def _marks_in(path: Path) -> dict[str, set[str]]:
    marks: dict[str, set[str]] = {}
    with tarfile.open(path, "r:gz") as tar:
        for table, column in (("gmlog", "event"), ("auditentry", "action")):
            handle = tar.extractfile(f"tables/{table}.jsonl")
            assert handle is not None
            lines = handle.read().decode().splitlines()
            at = json.loads(lines[0]).index(column)
            marks[table] = {row[at] for row in map(json.loads, lines[1:])
                            if str(row[at]).startswith("pair-")}
    return marks


def _rewritten(path: Path, change: Any) -> Path:
    """A copy of the backup with its members passed through ``change(name, data)``,
    which returns the new (name, data), a list of them, or None to drop the member."""
    members: list[tuple[str, bytes]] = []
    with tarfile.open(path, "r:gz") as tar:
        for info in tar:
            handle = tar.extractfile(info)
            assert handle is not None
            kept = change(info.name, handle.read())
            if isinstance(kept, tuple):
                members.append(kept)
            elif kept is not None:
                members.extend(kept)
    out = path.with_name("changed-" + path.name)
    with tarfile.open(out, "w:gz") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out


@pytest.mark.parametrize(("change", "says"), [
    (lambda n, d: (n, d.replace(b"Jacques", b"Jacquez")) if n == "tables/player.jsonl"
     else (n, d), "tables/player.jsonl in changed-"),
    (lambda n, d: None if n == "tables/turn.jsonl" else (n, d), "tables/turn.jsonl is missing"),
    (lambda n, d: (n, d) if n != "manifest.json" else None, "has no manifest"),
    (lambda n, d: ("archive/../../escape" if n.startswith("archive/") else n, d),
     "which no moderator backup holds"),
    (lambda n, d: [("tables/extra.jsonl", b"[]\n"), (n, d)] if n == "manifest.json"
     else (n, d), "does not list"),
])
def test_verify_finds_a_damaged_or_foreign_backup(
    db: Engine, config: Config, change: Any, says: str
) -> None:
    _played(db, config)
    path = _rewritten(_backup(db, config, with_key=True), change)
    with pytest.raises(BackupError, match=says.replace(".", r"\.")):
        verify_backup(path)


def test_verify_finds_a_truncated_or_flipped_file(db: Engine, config: Config) -> None:
    _played(db, config)
    path = _backup(db, config)
    data = path.read_bytes()
    cut = path.with_name("cut.tar.gz")
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(BackupError):
        verify_backup(cut)
    flipped = path.with_name("flipped.tar.gz")
    raw = bytearray(gzip.decompress(data))
    raw[raw.index(b"Jacques")] ^= 0x20  # a letter's case, in the player table's data
    flipped.write_bytes(gzip.compress(bytes(raw)))
    with pytest.raises(BackupError):
        verify_backup(flipped)


def test_a_restore_never_goes_into_a_store_in_use(
    db: Engine, config: Config, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Not merged, not overwritten: the store in use is refused and left as it was."""
    _played(db, config)
    path = _backup(db, config, with_key=True)
    new = _new_host(tmp_path, "new", backend, request)
    other = open_store(new.database_url)
    try:
        make_game(other, new, name="lyon")
    finally:
        other.dispose()
    before = _rows(new.database_url)
    with pytest.raises(BackupError, match="the store is in use"):
        _restore(path, new)
    assert _rows(new.database_url) == before


def test_a_restore_refuses_a_foreign_archive_or_another_key_before_touching_anything(
    db: Engine, config: Config, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    password = _played(db, config)
    path = _backup(db, config)  # without the key: only its fingerprint
    new = _new_host(tmp_path, "new", "sqlite", request)
    new.archive_dir.mkdir(parents=True)
    (new.archive_dir / "other.html").write_text("another host's", encoding="utf-8")
    with pytest.raises(BackupError, match="holds files that are not the backup's"):
        _restore(path, new)
    (new.archive_dir / "other.html").unlink()
    with pytest.raises(BackupError, match="there is no key file"):
        _restore(path, new)
    server_key(new.key_file).key()  # another host's key
    with pytest.raises(BackupError, match="is another key"):
        _restore(path, new)
    assert stored_revisions(open_store(new.database_url, upgrade=False)) is None
    assert not any(new.archive_dir.iterdir())
    # The host's own key put in place: restored, and the password verifies.
    new.key_file.write_bytes(config.key_file.read_bytes())
    from moderator.store.passwords import forget_key

    forget_key(new.key_file)
    assert _restore(path, new).key == "kept"
    restored = open_store(new.database_url)
    try:
        with Session(restored) as session:
            athos = session.exec(select(Player).where(Player.email == "athos@lafere.example")).one()
            assert verify_written(password, athos.password_hash, server_key(new.key_file))
    finally:
        restored.dispose()


def test_a_restore_with_a_new_key_names_the_players_who_need_a_password(
    db: Engine, config: Config, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    _played(db, config)
    path = _backup(db, config)
    new = _new_host(tmp_path, "new", "sqlite", request)
    done = _restore(path, new, new_key=True)
    assert done.key == "new"
    assert done.need_new_passwords == ("paris: Athos de la Fere",)  # the GM-chosen ones stay


def test_a_backup_of_an_older_schema_is_restored_at_it_then_migrated(
    empty_database_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A backup names its schema revision; the restore builds that revision, loads the
    rows, then runs the migrations since: a backup outlives an upgrade."""
    store_at_revision(empty_database_url, "0007",
                      "INSERT INTO game (id, name, kind, seed, status, time_zone, created_at) "
                      "VALUES (1, 'paris', 'engarde', 1, 'active', 'UTC', '2026-01-01')")
    folder = tmp_path / "old"
    folder.mkdir()
    config = load_config(write_config(folder, database_url=empty_database_url))
    path = _backup(open_store(config.database_url, upgrade=False), config)
    assert verify_backup(path).schema == ("0007",)
    new = _new_host(tmp_path, "new", "sqlite", request)
    _restore(path, new)
    restored = open_store(new.database_url, upgrade=False)
    try:
        assert set(stored_revisions(restored) or ()) == head_revisions()
        assert [g[1] for g in _rows(new.database_url)["game"]] == ["paris"]
    finally:
        restored.dispose()


def test_a_backup_of_a_newer_schema_is_refused(db: Engine, config: Config, tmp_path: Path,
                                               request: pytest.FixtureRequest) -> None:
    path = _rewritten(_backup(db, config), lambda n, d: (n, d.replace(
        f'"schema": [\n  "{max(head_revisions())}"'.encode(), b'"schema": [\n  "9999"'))
        if n == "manifest.json" else (n, d))
    assert verify_backup(path).schema == ("9999",)
    with pytest.raises(BackupError, match="newer than this moderator's"):
        _restore(path, _new_host(tmp_path, "new", "sqlite", request))


RESTORE = """
import sys
from moderator.store.backup.restore import restore_backup
from moderator.settings.config import load_config
config = load_config(__import__("pathlib").Path(sys.argv[1]))
restore_backup(__import__("pathlib").Path(sys.argv[2]), database_url=config.database_url,
               key_file=config.key_file, archive_dir=config.archive_dir,
               reason="crash test", who="gm")
"""


@pytest.mark.parametrize("point", ["restore.rows-loaded", "restore.committing"])
def test_a_restore_killed_half_way_leaves_the_store_empty_and_runs_again(
    db: Engine, config: Config, backend: str, tmp_path: Path, request: pytest.FixtureRequest,
    point: str,
) -> None:
    _played(db, config)
    path = _backup(db, config, with_key=True)
    new = _new_host(tmp_path, "new", backend, request)

    def restore(crash_at: str | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k != "MODERATOR_CRASH_AT"}
        if crash_at:
            env["MODERATOR_CRASH_AT"] = crash_at
        return subprocess.run([sys.executable, "-c", RESTORE, str(new.path), str(path)],
                              env=env, capture_output=True, text=True, timeout=WAIT_SECONDS,
                              check=False)

    crashed = restore(point)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert not any(_rows(new.database_url).get("game", []))
    again = restore()
    assert again.returncode == 0, again.stderr
    assert _without_restore_entry(_rows(new.database_url)) == _rows(config.database_url)


def test_prune_keeps_the_newest_backups_in_the_order_they_were_taken(tmp_path: Path) -> None:
    names = ["moderator-backup-20261207T030000Z.tar.gz",
             "moderator-backup-20261207T030000Z-2.tar.gz",
             "moderator-backup-20261208T030000Z.tar.gz",
             "moderator-backup-20261206T030000Z.tar.gz", "notes.txt"]
    for name in names:
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in prune_backups(tmp_path, 2)] == [names[3], names[0]]
    assert [p.name for p in backups_in(tmp_path)] == [names[1], names[2]]
    assert (tmp_path / "notes.txt").exists()


def test_the_backup_commands(db: Engine, config: Config, tmp_path: Path) -> None:
    """create (0600, verified, --keep), verify, restore (--reason required, audited)."""
    _played(db, config)
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> str:
        result = runner.invoke(cli, ["--config", str(config.path), *args],
                               catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output

    folder = tmp_path / "kept"
    for _ in range(3):
        out = run("backup", "create", "--to", str(folder), "--keep", "2")
    assert "verified" in out and "Deleted the older backup" in out
    assert "keep a copy of" in out and str(config.key_file.name) in out
    kept = backups_in(folder)
    assert len(kept) == 2 and all(p.stat().st_mode & 0o777 == 0o600 for p in kept)
    listing = run("backup", "verify", str(kept[-1]))
    assert "whole" in listing and "not inside" in listing and "player: 4 rows" in listing
    new_folder = tmp_path / "new"
    new_folder.mkdir()
    new = load_config(write_config(new_folder))
    new.key_file.parent.mkdir(parents=True, exist_ok=True)
    new.key_file.write_bytes(config.key_file.read_bytes())
    assert "Missing option '--reason'" in runner.invoke(
        cli, ["--config", str(new.path), "backup", "restore", str(kept[-1])]).output
    result = runner.invoke(cli, ["--config", str(new.path), "backup", "restore", str(kept[-1]),
                                 "--reason", "moved host"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "server key kept" in result.output
    restored = open_store(new.database_url)
    try:
        with Session(restored) as session:
            entry = session.exec(select(AuditEntry).where(AuditEntry.action == "restore")).one()
            assert entry.reason == "moved host" and entry.game_id is None
    finally:
        restored.dispose()


def _another_programs_table(engine: Engine, row_id: int, body: str) -> None:
    """Another program's table beside ours, with one row."""
    with engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE wiki_page (id INTEGER PRIMARY KEY, "
                                   "body TEXT)"))
        connection.execute(sa.text("INSERT INTO wiki_page VALUES (:id, :body)"),
                           {"id": row_id, "body": body})


def _in_a_new_store(host: Config, row_id: int, body: str) -> None:
    """Another program's table in ``host``'s store, which has none of ours yet."""
    other = open_store(host.database_url, upgrade=False)
    try:
        _another_programs_table(other, row_id, body)
    finally:
        other.dispose()


def test_another_programs_tables_are_neither_backed_up_nor_touched(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A database shared with another program: its tables stay out of the backup, and a
    restore neither counts their rows as "in use" nor drops them.  (Both stores are the
    test's own: the shared test database must not keep another program's table.)"""
    old = _new_host(tmp_path, "old", backend, request)
    db = open_store(old.database_url)
    try:
        make_game(db, old)
        _another_programs_table(db, 1, "theirs")
        path = _backup(db, old)  # no key file yet: no password was generated
    finally:
        db.dispose()
    assert not any(m.name == "tables/wiki_page.jsonl" for m in verify_backup(path).members)
    new = _new_host(tmp_path, "new", backend, request)
    _in_a_new_store(new, 7, "also theirs")
    _restore(path, new)
    assert _rows(new.database_url)["wiki_page"] == [(7, "also theirs")]
    assert [g[1] for g in _rows(new.database_url)["game"]] == ["paris"]


def _with_member(path: Path, name: str, data: bytes) -> Path:
    """A copy of the backup with one more member, listed in its manifest as `create`
    lists a table (so the copy verifies whole)."""
    def change(member: str, content: bytes) -> Any:
        if member != "manifest.json":
            return member, content
        manifest = json.loads(content)
        manifest["members"].append({"name": name, "sha256": hashlib.sha256(data).hexdigest(),
                                    "size": len(data), "rows": data.count(b"\n") - 1})
        return [(name, data), (member, json.dumps(manifest).encode())]

    return _rewritten(path, change)


def test_a_backup_listing_another_programs_table_is_refused_and_that_table_untouched(
    db: Engine, config: Config, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Rows go back only into the tables of the backup's schema: a backup that lists a
    table of another program sharing the new database (whole by its manifest) was
    loaded into it."""
    _played(db, config)
    path = _with_member(_backup(db, config, with_key=True), "tables/wiki_page.jsonl",
                        b'["id", "body"]\n[1, "planted"]\n')
    verify_backup(path)
    new = _new_host(tmp_path, "new", backend, request)
    _in_a_new_store(new, 7, "theirs")
    with pytest.raises(BackupError, match="a table 'wiki_page' its schema does not have"):
        _restore(path, new)
    rows = _rows(new.database_url)
    assert rows["wiki_page"] == [(7, "theirs")] and not rows.get("game")


def test_a_restore_reads_the_backup_twice_to_verify_it_then_to_restore_it(
    db: Engine, config: Config, tmp_path: Path, request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It read it three times (verify, the files, the rows); once cannot be (the
    manifest that proves it comes last: restore.py says why)."""
    _played(db, config)
    path = _backup(db, config, with_key=True)
    new = _new_host(tmp_path, "new", "sqlite", request)
    opened: list[str] = []
    real_open = tarfile.open

    def counting_open(name: Any = None, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(tarfile, "open", counting_open)
    done = _restore(path, new)
    assert opened == [str(path), str(path)]
    assert done.key == "restored" and done.archive_files > 0
    assert new.key_file.read_bytes() == config.key_file.read_bytes()
    assert _without_restore_entry(_rows(new.database_url)) == _rows(config.database_url)


def test_a_restore_with_a_new_key_tells_the_gm_whom_to_give_a_password(
    db: Engine, config: Config, tmp_path: Path
) -> None:
    _played(db, config)
    path = _backup(db, config)
    (tmp_path / "new").mkdir()
    new = load_config(write_config(tmp_path / "new"))
    result = CliRunner().invoke(cli, ["--config", str(new.path), "backup", "restore", str(path),
                                      "--reason", "key lost", "--new-key"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "server key new" in said
    assert "no longer verify (1 player): paris: Athos de la Fere." in said
    assert "moderator player password GAME PLAYER --reset" in said


def test_a_file_a_killed_restore_was_writing_does_not_stop_the_next(
    db: Engine, config: Config, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Killed while copying an archive file, a restore leaves it under its partial name;
    run again, it removes that and restores (it is not "another host's file")."""
    _played(db, config)
    path = _backup(db, config, with_key=True)
    new = _new_host(tmp_path, "new", "sqlite", request)
    partial = new.archive_dir / "paris" / ".gazette.html.restoring"
    partial.parent.mkdir(parents=True)
    partial.write_bytes(b"<html>half of it")
    assert _restore(path, new).archive_files > 0
    assert not partial.exists()
