"""Benchmark: intake and turn throughput with 1, 2 and 3 `serve --worker` processes on one
PostgreSQL database (a throwaway cluster, as the tests start it).

The work is tests/pg/test_pg_workers.py's: 20 En Garde! games of 3 players and 300 order
emails (5 versions each) in the Maildir inbox.  Intake throughput: messages per second
from the workers' start to the last message handled (start-up included, as a host sees
it).  Turn throughput: turns per second from the common deadline to the last turn stored.

Run:  .venv/bin/python benchmarks/bench_workers.py [--workers 1 2 3]
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func
from sqlmodel import col, select

from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.store.models import ReceivedMessage, Submission, Turn
from moderator.store.statuses import MessageStatus, TurnStatus
from moderator.turn.deadlines import set_deadlines

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from pg.cluster import start_cluster  # noqa: E402
from pg.test_pg_workers import GAMES, PLAYERS, VERSIONS, _count, _setup, _start  # noqa: E402


def one(cluster, workers: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as tmp:
        config = _setup(Path(tmp), cluster.own_database())
        db = open_store(config.database_url)
        total = GAMES * PLAYERS * VERSIONS
        began = time.perf_counter()
        procs = [_start(config, None, n) for n in range(workers)]
        try:
            while (_count(db, select(func.count()).select_from(Submission)) < total
                   or _count(db, select(func.count()).select_from(ReceivedMessage).where(
                       col(ReceivedMessage.status) != MessageStatus.ACCEPTED))):
                time.sleep(0.2)
            intake = time.perf_counter() - began
            due = datetime.now(UTC) + timedelta(seconds=2)
            with session_scope(db) as session:
                for g in range(GAMES):
                    set_deadlines(session, repo.game_by_name(session, f"g{g:02d}"), due)
            while _count(db, select(func.count()).select_from(Turn).where(
                    Turn.number == 1, Turn.status == TurnStatus.DONE)) < GAMES:
                time.sleep(0.2)
            turns = (datetime.now(UTC) - due).total_seconds()
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            for proc in procs:
                proc.wait(timeout=120)
            db.dispose()
        return {"workers": workers, "messages": total, "intake_s": round(intake, 1),
                "messages_per_s": round(total / intake, 1), "turns": GAMES,
                "deadline_to_last_turn_s": round(turns, 1),
                "turns_per_s": round(GAMES / turns, 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 3])
    options = parser.parse_args()
    cluster = start_cluster()
    try:
        for n in options.workers:
            print(json.dumps(one(cluster, n)), flush=True)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
