"""Benchmark: one host, 1,000 games in one database (SQLite or PostgreSQL).

Reports what BENCHMARKS.md's "Many games on one host" section asks for:

1. `moderator status` (every game) and `moderator status --check`, wall clock;
2. `moderator serve` start-up: from the process starting to its "ready" log line;
3. idle CPU of that `serve` over ``--idle`` seconds (user + system time, psutil);
4. the delay between a deadline and its turn starting (the "turn.run" log line, less
   the turn's own run time), for one game whose deadline falls while serve is idle.

The games are En Garde! games of three players each, made through the GM's desk
(`admin.create_game`), every one with an orders deadline 30 days away, so the scheduler
holds one deadline and one reminder job for each.

Run:  .venv/bin/python benchmarks/bench_hosting.py --games 1000 [--postgresql URL]
      (without --postgresql: a SQLite file; with --postgresql auto: a throwaway cluster
      started as the tests start it, tests/pg/cluster.py)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psutil

from moderator.desk import admin
from moderator.settings.config import load_config
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.turn.deadlines import set_deadlines

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from pg.cluster import start_cluster  # noqa: E402

from support import write_config  # noqa: E402

MODERATOR = ROOT / ".venv" / "bin" / "moderator"
PLAYERS = (("a@x.example", "Athos", "pw-a"), ("b@x.example", "Bazin", "pw-b"),
           ("c@x.example", "Cyrano", "pw-c"))


def make_games(config_path: Path, count: int) -> float:
    config = load_config(config_path)
    db = open_store(config.database_url)
    began = time.perf_counter()
    due = datetime.now(UTC) + timedelta(days=30)
    for n in range(count):
        name = f"g{n:04d}"
        with session_scope(db) as session:
            admin.create_game(session, config, name, "engarde", seed=n + 1)
            for email, character, password in PLAYERS:
                admin.add_player(session, config, name, email.replace("@", f"+{n}@"),
                                 f"{character} {n}", password=password)
            set_deadlines(session, repo.game_by_name(session, name), due)
    db.dispose()
    return time.perf_counter() - began


def timed(args: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(args, capture_output=True, check=False, timeout=600)
    return time.perf_counter() - began


def _lines(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


def _wait_for(path: Path, event: str, proc: subprocess.Popen[str], after: int = 0) -> dict:  # type: ignore[type-arg]
    while True:
        found = [x for x in _lines(path)[after:] if x.get("event") == event]
        if found:
            return found[0]
        if proc.poll() is not None:
            raise RuntimeError(f"serve exited: {path.read_text()[-2000:]}")
        time.sleep(0.05)


def serve_figures(config_path: Path, idle: float) -> dict[str, float]:
    """Start `serve` (its log to a file: a pipe nobody reads would fill and stall it)."""
    config = load_config(config_path)
    db = open_store(config.database_url)
    log = config_path.parent / "serve.log"
    began = time.perf_counter()
    with log.open("w") as out:
        proc = subprocess.Popen([str(MODERATOR), "--config", str(config_path), "serve"],
                                stdout=out, stderr=subprocess.STDOUT, text=True)
    figures: dict[str, float] = {}
    try:
        _wait_for(log, "ready", proc)
        figures["startup_s"] = time.perf_counter() - began
        ps = psutil.Process(proc.pid)
        time.sleep(5)  # the first sync's aftermath
        before = ps.cpu_times()
        time.sleep(idle)
        after = ps.cpu_times()
        used = (after.user - before.user) + (after.system - before.system)
        figures["idle_cpu_s"] = used
        figures["idle_cpu_pct"] = 100 * used / idle
        # One deadline, 8 s from now, while serve is idle.
        seen = len(_lines(log))
        deadline = datetime.now(UTC) + timedelta(seconds=8)
        with session_scope(db) as session:
            set_deadlines(session, repo.game_by_name(session, "g0000"), deadline)
        record = _wait_for(log, "turn.run", proc, seen)
        ran = datetime.fromisoformat(record["time"])
        figures["deadline_to_turn_done_s"] = (ran - deadline).total_seconds()
        started = [x for x in _lines(log)[seen:] if x.get("event") == "jobs.synced"]
        if started:
            figures["deadline_to_resync_s"] = (
                datetime.fromisoformat(started[0]["time"]) - deadline).total_seconds()
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        db.dispose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=60.0)
    parser.add_argument("--postgresql", help="a database URL, or 'auto' for a throwaway one")
    parser.add_argument("--folder", type=Path,
                        help="keep the config and store here; one that has them is reused")
    options = parser.parse_args()
    cluster = None
    with tempfile.TemporaryDirectory() as tmp:
        folder = options.folder or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        url = None
        if options.postgresql == "auto":
            cluster = start_cluster()
            url = cluster.new_database()
        elif options.postgresql:
            url = options.postgresql
        reuse = (folder / "config.toml").exists()
        config_path = folder / "config.toml" if reuse else write_config(folder, database_url=url)
        try:
            made = 0.0 if reuse else make_games(config_path, options.games)
            base = [str(MODERATOR), "--config", str(config_path)]
            report = {
                "backend": "postgresql" if url else "sqlite",
                "games": options.games,
                "make_games_s": round(made, 1),
                "status_s": round(timed([*base, "status", "--problems", "0"]), 2),
                "status_check_s": round(timed([*base, "status", "--check"]), 2),
                "game_list_s": round(timed([*base, "game", "list"]), 2),
            }
            report.update({k: round(v, 3) for k, v in
                           serve_figures(config_path, options.idle).items()})
            print(json.dumps(report, indent=2))
        finally:
            if cluster is not None:
                cluster.stop()


if __name__ == "__main__":
    main()
