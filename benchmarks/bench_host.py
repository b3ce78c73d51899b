"""Benchmark: a host with 1,000 games in one SQLite file (issue 16, goal 5).

Builds (or reuses, ``--keep``) a store with ``--games`` En Garde! games of ``--players``
characters each: one game made by the desk (`admin.create_game` / `add_player`, welcome
mails queued and marked sent), the rest copies of it row for row, each with its own
deadlines, half of its players' orders in, and the welcome mails in the outbox.  Then it
measures, side by side where there is an old way:

* CLI start-up: ``moderator --help`` and ``moderator status`` (all games), wall and CPU;
  with ``--before DIR`` (a checkout of the code before this work, e.g. /work/main) the
  same commands of that code on a copy of the store migrated down to its schema;
* the scheduler's re-sync: the old full sync (every game's open turn loaded, its jobs
  worked out, every job unpickled) next to the incremental `JobSync` (quiet, and with
  one game changed);
* the outbox poll (the outgoing loop's query, every second) with and without its index;
* ``moderator serve``: time to its ``ready`` line, a deadline's turn start after the
  deadline, and its idle CPU over ``--idle-seconds``.

Run:  .venv/bin/python benchmarks/bench_host.py [--games 1000] [--players 30]
          [--before /work/main] [--idle-seconds 60] [--keep /tmp/host1000]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
NAMES = ("Jacques", "Cyrano", "Porthos", "Aramis", "Athos", "Gaston", "Henri", "Louis",
         "Armand", "Blaise", "Claude", "Denis", "Etienne", "Fabien", "Gilles")


def write_config(folder: Path) -> Path:
    lines = ["[database]", f'url = "sqlite:///{folder / "moderator.sqlite"}"',
             "[paths]", f'data = "{ROOT / "data"}"', f'templates = "{ROOT / "templates"}"',
             'spool = "spool"', 'archive = "archive"',
             "[mail]", 'address = "moderator@paris.example"', 'gm_address = "gm@paris.example"',
             "[mail.maildir]", 'inbox = "mail/moderator"', 'mailboxes = "mail"']
    path = folder / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- building the host ---------------------------------------------------------------


def build(folder: Path, games: int, players: int) -> None:
    """The template game through the desk, then ``games - 1`` copies in plain SQL."""
    from moderator.desk import admin
    from moderator.settings.config import load_config
    from moderator.store import outbox_tidy, repo
    from moderator.store.db import open_store, session_scope
    from moderator.store.models import Outbox, Submission
    from moderator.turn import deadlines

    config = load_config(write_config(folder))
    db = open_store(config.database_url)
    admin.hash_password = lambda password: "bench$" + password  # type: ignore[attr-defined]
    soon = datetime.now(UTC) + timedelta(days=5)
    with session_scope(db) as session:
        admin.create_game(session, config, "g0000", "engarde", seed=1)
        for i in range(players):
            admin.add_player(session, config, "g0000", f"p{i}@host.example",
                             f"{NAMES[i % len(NAMES)]} {i}", password="rapier")
    with session_scope(db) as session:
        game = repo.game_by_name(session, "g0000")
        deadlines.set_deadlines(session, game, soon, soon - timedelta(days=2))
        turn = repo.open_turn(session, game)
        for p in repo.players(session, game)[: players // 2]:
            session.add(Submission(game_id=game.id, player_id=p.id, turn_number=turn.number,  # type: ignore[arg-type]
                                   version=1, text="WEEK 1: PRACTICE", orders_json="{}",
                                   normal_form_json="[]", errors_json="[]"))
        for row in session.exec(__import__("sqlmodel").select(Outbox)):
            row.status, row.sent_at = "sent", datetime.now(UTC)
    with session_scope(db) as session:  # as the CLI does once it delivered the welcomes
        outbox_tidy.mask_sent_secrets(session, limit=10_000)
    db.dispose()
    _clone(folder / "moderator.sqlite", games)


def _rows(conn: sqlite3.Connection, table: str, where: str) -> tuple[list[str], list[tuple]]:
    cur = conn.execute(f"SELECT * FROM {table} WHERE {where}")
    return [d[0] for d in cur.description], cur.fetchall()


def _clone(path: Path, games: int) -> None:
    conn = sqlite3.connect(path)
    tables = {t: _rows(conn, t, "game_id = 1")
              for t in ("turn", "player", "playeraddress", "submission", "outbox", "gmlog")}
    gcols, (grow,) = _rows(conn, "game", "id = 1")
    maxima = {t: conn.execute(f"SELECT max(id) FROM {t}").fetchone()[0] or 0
              for t in tables}
    span = {t: maxima[t] for t in tables}
    for k in range(1, games):
        game = dict(zip(gcols, grow, strict=True))
        game.update(id=k + 1, name=f"g{k:04d}")
        _insert(conn, "game", [game])
        for table, (cols, rows) in tables.items():
            copies = []
            for row in rows:
                item = dict(zip(cols, row, strict=True))
                item["id"] = item["id"] + k * span[table]
                item["game_id"] = k + 1
                if "player_id" in item and item["player_id"] is not None:
                    item["player_id"] += k * span["player"]
                if table == "outbox":
                    item["message_id"] = item["message_id"].replace("@", f".{k}@")
                if table == "submission":
                    item["message_id"] = None
                if table == "turn":
                    for key in ("deadline", "announcement_deadline"):
                        if item[key]:
                            moved = datetime.fromisoformat(item[key]) + timedelta(minutes=k)
                            item[key] = moved.isoformat(sep=" ")
                copies.append(item)
            _insert(conn, table, copies)
    conn.commit()
    conn.close()


def _insert(conn: sqlite3.Connection, table: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    cols = list(rows[0])
    conn.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES "
                     f"({', '.join('?' for _ in cols)})", [tuple(r[c] for c in cols) for r in rows])


# --- measuring -------------------------------------------------------------------------


def run_cli(folder: Path, args: list[str], code: Path = ROOT,
            tries: int = 3) -> tuple[float, float]:
    """Best wall time and CPU time (user + sys) of ``moderator ARGS`` run from ``code``."""
    env = {**os.environ, "PYTHONPATH": str(code), "COLUMNS": "100"}
    best = (float("inf"), float("inf"))
    for _ in range(tries):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([PYTHON, "-c", "from moderator.cli import main; main()", *args],
                       cwd=folder, env=env, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = (min(best[0], wall), min(best[1], cpu))
    return best


def timed(fn: Callable[[], Any], tries: int = 3) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(tries):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def old_full_sync(db: Any, config: Any, scheduler: Any) -> int:
    """The sync as it was: every game's whole open turn, its jobs, every job unpickled."""
    from sqlmodel import Session

    from moderator.runners import job_sync
    from moderator.store import repo

    specs = []
    with Session(db) as session:
        for game in repo.games(session):
            turn = repo.open_turn(session, game)  # the whole row, the state included
            if game.status == "active" and turn.deadline is not None:
                specs += job_sync.jobs_for(session, config, game, turn, None,
                                           datetime.now(UTC))
    wanted = {s.id: s for s in specs}
    kept = 0
    for job in scheduler.get_jobs():
        spec = wanted.get(job.id)
        if spec is not None and tuple(job.args) == spec.args:
            kept += 1
    return kept


def measure_sync(folder: Path) -> dict[str, float]:
    from moderator.runners import schedule
    from moderator.settings.config import load_config
    from moderator.store import repo
    from moderator.store.db import open_store, session_scope
    from moderator.turn import deadlines

    config = load_config(folder / "config.toml")
    db = open_store(config.database_url)
    scheduler = schedule.new_scheduler(db)
    scheduler.start(paused=True)
    with db.begin() as conn:  # a new host's first sync, even on a kept store
        conn.exec_driver_sql("DELETE FROM apscheduler_jobs")
    out: dict[str, float] = {}
    try:
        jobs = schedule.JobSync(db, config)
        start = time.perf_counter()
        with schedule.batched(scheduler):  # as serve's first sync, while paused
            counts = jobs.sync(scheduler)
        out["first sync, batched (store filled or read)"] = time.perf_counter() - start
        out["jobs"] = counts["added"] + counts["kept"]
        out["jobs added by it"] = counts["added"]
        out.update(_unbatched_sample(db, config, scheduler))
        out["old full sync"], _ = timed(lambda: old_full_sync(db, config, scheduler))
        out["new full sync (fresh JobSync)"], _ = timed(
            lambda: schedule.JobSync(db, config).sync(scheduler))
        out["incremental sync, nothing changed"], _ = timed(lambda: jobs.sync(scheduler), 5)
        with session_scope(db) as session:
            game = repo.game_by_name(session, "g0500" if out["jobs"] > 1500 else "g0000")
            deadlines.set_deadlines(session, game, datetime.now(UTC) + timedelta(days=7))
        start = time.perf_counter()
        counts = jobs.sync(scheduler)
        out["incremental sync, one game changed"] = time.perf_counter() - start
        out["games worked out again"] = counts["games"]
    finally:
        scheduler.shutdown(wait=False)
        db.dispose()
    return out


def _unbatched_sample(db: Any, config: Any, scheduler: Any, n: int = 300) -> dict[str, float]:
    """``n`` jobs added one commit each (APScheduler's own way) and ``n`` in one batch,
    after deleting their rows: the first sync of a new host, on a sample."""
    from moderator.runners import schedule

    out: dict[str, float] = {}
    for how in ("one commit each", "batched"):
        ids = [job_id for job_id, _ in schedule.scheduled(db)][:n]
        with db.begin() as conn:
            for job_id in ids:
                conn.exec_driver_sql("DELETE FROM apscheduler_jobs WHERE id = ?", (job_id,))
        fresh = schedule.JobSync(db, config)
        start = time.perf_counter()
        with schedule.batched(scheduler) if how == "batched" else contextlib.nullcontext():
            added = fresh.sync(scheduler)["added"]
        took = time.perf_counter() - start
        out[f"{added} jobs re-added, {how} (s)"] = took
    return out


def measure_stamp(folder: Path) -> dict[str, float]:
    """The idle poll: one change-stamp query (every second in serve)."""
    from moderator.runners import schedule
    from moderator.settings.config import load_config
    from moderator.store.db import open_store

    config = load_config(folder / "config.toml")
    db = open_store(config.database_url)
    try:
        schedule.change_stamp(db)
        took, _ = timed(lambda: schedule.change_stamp(db), 50)
    finally:
        db.dispose()
    return {"change stamp query (ms)": took * 1000}


def measure_outbox_poll(path: Path) -> dict[str, float]:
    query = ("SELECT id FROM outbox WHERE status = 'queued' AND (next_attempt_at IS NULL "
             "OR next_attempt_at <= ?) ORDER BY created_at, id")
    copy = path.with_name("poll.sqlite")
    shutil.copy(path, copy)
    conn = sqlite3.connect(copy)
    now = datetime.now(UTC).isoformat(sep=" ")
    rows = conn.execute("SELECT count(*) FROM outbox").fetchone()[0]
    with_index, _ = timed(lambda: conn.execute(query, (now,)).fetchall(), 20)
    conn.execute("DROP INDEX IF EXISTS ix_outbox_status_created")
    conn.execute("DROP INDEX IF EXISTS ix_outbox_status_sent")
    without, _ = timed(lambda: conn.execute(query, (now,)).fetchall(), 20)
    conn.close()
    copy.unlink()
    return {"outbox rows": rows, "poll with index (ms)": with_index * 1000,
            "poll without index (ms)": without * 1000}


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_serve(folder: Path, idle_seconds: float, code: Path = ROOT,
                  label: str = "serve") -> dict[str, float]:
    """Time to ``ready`` (and, with this code, to the first sync's end); idle CPU; a
    deadline set 8 s ahead by another process until its turn starts (the turn row
    claimed, read from outside every 20 ms) and until ``turn.run`` is logged."""
    from moderator.settings.config import load_config
    from moderator.store import repo
    from moderator.store.db import open_store, session_scope
    from moderator.turn import deadlines

    env = {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    proc = subprocess.Popen([PYTHON, "-c", "from moderator.cli import main; main()", "serve"],
                            cwd=folder, env=env, stdout=subprocess.PIPE, text=True)
    lines: list[dict[str, Any]] = []
    seen = {name: threading.Event()
            for name in ("ready", "jobs.ready", "deadline.due", "turn.run")}

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            record = json.loads(line)
            record["seen"] = time.perf_counter()
            if record.get("event") in seen:
                record["cpu"] = cpu_of(proc.pid)  # the process's CPU so far
            lines.append(record)
            if record.get("event") in seen:
                seen[record["event"]].set()

    threading.Thread(target=read, daemon=True).start()
    out: dict[str, float] = {}
    try:
        if not seen["ready"].wait(180):
            raise RuntimeError("serve did not get ready in 180 s")
        ready = next(r for r in lines if r.get("event") == "ready")
        out[f"{label}: ready after (wall s, cpu s)"] = (ready["seen"] - start, ready["cpu"])
        if seen["jobs.ready"].wait(180 if code == ROOT else 0):  # the first sync, after ready
            first = next(r for r in lines if r.get("event") == "jobs.ready")
            out[f"{label}: first sync done after (wall s, cpu s)"] = (first["seen"] - start,
                                                                     first["cpu"])
        time.sleep(3)  # let the first cycles settle
        cpu0, t0 = cpu_of(proc.pid), time.perf_counter()
        load0 = os.getloadavg()[0]
        time.sleep(idle_seconds)
        cpu1, t1 = cpu_of(proc.pid), time.perf_counter()
        out[f"{label}: idle CPU (% of a core)"] = 100 * (cpu1 - cpu0) / (t1 - t0)
        out[f"{label}: load average during idle (start, end)"] = (load0, os.getloadavg()[0])
        config = load_config(folder / "config.toml")
        db = open_store(config.database_url, upgrade=False)
        due = datetime.now(UTC) + timedelta(seconds=8)
        with session_scope(db) as session:
            game = repo.game_by_name(session, "g0001")
            turn = deadlines.set_deadlines(session, game, due)
            game_id, number = game.id, turn.number
        due_clock = time.perf_counter() + (due - datetime.now(UTC)).total_seconds()
        db.dispose()
        if seen["deadline.due"].wait(60 if code == ROOT else 0):  # this code logs it
            fired = next(r["seen"] for r in lines if r.get("event") == "deadline.due")
            out[f"{label}: deadline -> its job started (s)"] = fired - due_clock
        started = _wait_for_claim(folder / "moderator.sqlite", game_id, number, 60)
        if started is not None:
            out[f"{label}: deadline -> turn row done (s)"] = started - due_clock
        if seen["turn.run"].wait(60):
            ran = next(r["seen"] for r in lines if r.get("event") == "turn.run")
            out[f"{label}: deadline -> turn.run logged (s)"] = ran - due_clock
    finally:
        proc.terminate()
        proc.wait(30)
    return out


def _wait_for_claim(path: Path, game_id: int | None, number: int,
                    seconds: float) -> float | None:
    """When the game's turn ``number`` stopped being open (claimed by a run), polled."""
    conn = sqlite3.connect(path, timeout=10)
    end = time.perf_counter() + seconds
    try:
        while time.perf_counter() < end:
            row = conn.execute("SELECT status FROM turn WHERE game_id = ? AND number = ?",
                               (game_id, number)).fetchone()
            if row is not None and row[0] != "open":
                return time.perf_counter()
            time.sleep(0.02)
    finally:
        conn.close()
    return None


def downgraded_copy(folder: Path, revision: str) -> Path:
    """A copy of the host whose store is migrated down to ``revision`` (old code's schema)."""
    from alembic import command
    from sqlalchemy import create_engine

    from moderator.store.db import alembic_config

    old = folder.with_name(folder.name + "-before")
    if old.exists():
        shutil.rmtree(old)
    old.mkdir()
    shutil.copy(folder / "moderator.sqlite", old / "moderator.sqlite")
    write_config(old)
    engine = create_engine(f"sqlite:///{old / 'moderator.sqlite'}")
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
    engine.dispose()
    return old


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--before", type=Path, help="a checkout of the old code (e.g. /work/main)")
    parser.add_argument("--before-revision", default="0007",
                        help="the schema the --before code expects (its migrations' head)")
    parser.add_argument("--idle-seconds", type=float, default=60)
    parser.add_argument("--keep", type=Path, help="build the host here (reused if present)")
    parser.add_argument("--no-serve", action="store_true")
    parser.add_argument("--serve-only", action="store_true",
                        help="only `serve` (of this code) on a kept store with its jobs")
    args = parser.parse_args()

    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-host-"))
    if not (folder / "moderator.sqlite").exists():
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        build(folder, args.games, args.players)
        print(f"built {args.games} games x {args.players} players in "
              f"{time.perf_counter() - start:.1f} s ({folder})")
    report = Report()
    report["load average at start (1, 5, 15 min)"] = tuple(round(x, 2) for x in os.getloadavg())
    if args.serve_only:
        report.update(measure_serve(folder, args.idle_seconds))
        return
    report["python -c pass (wall s, cpu s)"] = run_bare()
    report["--help (wall s, cpu s)"] = run_cli(folder, ["--help"])
    report["status (wall s, cpu s)"] = run_cli(folder, ["status"])
    report["status GAME (wall s, cpu s)"] = run_cli(folder, ["status", "g0007"])
    report.update(measure_sync(folder))  # fills the job store: serve below is a restart
    report.update(measure_stamp(folder))
    report.update(measure_outbox_poll(folder / "moderator.sqlite"))
    if args.before:  # a copy with the same 3,000 jobs stored
        old = downgraded_copy(folder, args.before_revision)
        report["before: --help (wall s, cpu s)"] = run_cli(old, ["--help"], args.before)
        report["before: status (wall s, cpu s)"] = run_cli(old, ["status"], args.before)
    if not args.no_serve:
        if args.before:
            report.update(measure_serve(old, args.idle_seconds, args.before, "before: serve"))
        report.update(measure_serve(folder, args.idle_seconds))
    report["load average at end (1, 5, 15 min)"] = tuple(round(x, 2) for x in os.getloadavg())


def run_bare(tries: int = 3) -> tuple[float, float]:
    """The interpreter's own start-up, the floor under every command."""
    best = (float("inf"), float("inf"))
    for _ in range(tries):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([PYTHON, "-c", "pass"], check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = (min(best[0], wall), min(best[1], cpu))
    return best


class Report(dict[str, Any]):
    """Figures printed as they come (a later failure loses none)."""

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        shown = (", ".join(f"{v:.3f}" for v in value) if isinstance(value, tuple)
                 else f"{value:.3f}" if isinstance(value, float) else str(value))
        print(f"{key:45s} {shown}", flush=True)

    def update(self, other: Any = (), **kwargs: Any) -> None:  # type: ignore[override]
        for key, value in dict(other, **kwargs).items():
            self[key] = value


if __name__ == "__main__":
    main()
