"""Benchmark: how much the store grows a turn (issue 16, goal 6).

A ``--players``-character En Garde! game (the desk's `create_game` / `add_player`) runs
``--turns`` turns with the turn runner (no orders: the NMR policy plays them), its mail is
delivered after each turn (maildir transport), and the SQLite file is measured: bytes
added per turn, and how much of it is the outbox (the gazette is stored once per
recipient inside each mail), the newsletters and the turns' JSON.  Then the outbox
compaction `serve` runs at its heartbeat (`repo.compact_outbox`, sent bodies older than
``service.outbox_compact_days``) is applied and the file vacuumed, side by side.

Run:  .venv/bin/python benchmarks/bench_store.py [--players 30] [--turns 6]
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_host import write_config  # type: ignore[import-not-found]

from moderator.desk import admin
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import load_config
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.turn.run import run_turn

NAMES = ("Jacques", "Cyrano", "Porthos", "Aramis", "Athos", "Gaston", "Henri", "Louis")


def sizes(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    used = (conn.execute("PRAGMA page_count").fetchone()[0]
            - conn.execute("PRAGMA freelist_count").fetchone()[0]) * page
    out = {
        "file in use": used,
        "outbox raw": conn.execute("SELECT coalesce(sum(length(raw)), 0) FROM outbox"
                                   ).fetchone()[0],
        "newsletters": conn.execute(
            "SELECT coalesce(sum(length(content)), 0) FROM newsletter").fetchone()[0],
        "turn JSON": conn.execute(
            "SELECT coalesce(sum(length(state_before) + coalesce(length(state_after), 0) + "
            "coalesce(length(events_json), 0) + coalesce(length(inputs_json), 0) + "
            "coalesce(length(dice_json), 0) + coalesce(length(render_json), 0)), 0) FROM turn"
        ).fetchone()[0],
    }
    conn.close()
    return out


def compact(db: object, path: Path) -> int:
    """Compact every sent mail (as `serve` does once they are old enough), then VACUUM."""
    with session_scope(db) as session:  # type: ignore[arg-type]
        count = repo.compact_outbox(session, datetime.now(UTC) + timedelta(seconds=1),
                                   limit=None)
    db.dispose()  # type: ignore[attr-defined]
    conn = sqlite3.connect(path)
    conn.execute("VACUUM")
    conn.close()
    return count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--turns", type=int, default=6)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-store-"))
    config = load_config(write_config(folder))
    db = open_store(config.database_url)
    path = Path(config.database_url.removeprefix("sqlite:///"))
    with session_scope(db) as session:
        admin.create_game(session, config, "paris", "engarde", seed=1625)
    with session_scope(db) as session:
        for i in range(args.players):
            admin.add_player(session, config, "paris", f"p{i}@host.example",
                             f"{NAMES[i % len(NAMES)]} {i}")
    deliver_outbox(db, config)
    compact(db, path)  # the welcomes: the baseline is a compacted store
    start = sizes(path)
    started = time.perf_counter()
    for _ in range(args.turns):
        run_turn(db, config, "paris")
        deliver_outbox(db, config)
    took = time.perf_counter() - started
    end = sizes(path)
    print(f"{args.players} characters, {args.turns} turns ({took:.1f} s)")
    for key in start:
        grown = (end[key] - start[key]) / args.turns / 1024
        print(f"  {key + ' per turn':28s} {grown:8.1f} KiB")
    count = compact(db, path)
    after = sizes(path)
    print(f"after compacting {count} sent mails (all of them, as after "
          f"service.outbox_compact_days):")
    for key in start:
        grown = (after[key] - start[key]) / args.turns / 1024
        print(f"  {key + ' per turn':28s} {grown:8.1f} KiB")


if __name__ == "__main__":
    main()
