"""Benchmark: how much the store grows a turn (issue 16, goal 6).

A ``--players``-character En Garde! game (the desk's `create_game` / `add_player`) runs
``--turns`` turns with the turn runner (no orders: the NMR policy plays them), its mail is
delivered after each turn (maildir transport), and the SQLite file is measured: bytes
added per turn, and how much of it is the outbox (a newsletter's mail: headers and a
reference to the newsletter), the newsletters (Markdown, HTML and text packed in one
zlib stream) and the turns' JSON (compressed).  Then the outbox compaction `serve` runs
at its heartbeat (`outbox_tidy.compact_outbox`, sent bodies older than
``service.outbox_compact_days``) is applied and the file vacuumed, side by side; last,
the same newsletters and JSON measured as they would be stored other ways.

Run:  .venv/bin/python benchmarks/bench_store.py [--players 30] [--turns 6]
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_host import write_config  # type: ignore[import-not-found]

from moderator.desk import admin
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import load_config
from moderator.store import outbox_tidy
from moderator.store.db import open_store, session_scope
from moderator.store.models import ZLIB_LEVEL, pack_texts, unpack_texts
from moderator.turn.run import run_turn

TURN_JSON = ("state_before", "state_after", "inputs_json", "events_json", "dice_json",
             "render_json")
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
            "SELECT coalesce(sum(" + " + ".join(f"coalesce(length({c}), 0)" for c in TURN_JSON)
            + "), 0) FROM turn").fetchone()[0],
    }
    conn.close()
    return out


def alternatives(path: Path, turns: int) -> dict[str, float]:
    """The newsletters and turn JSON of the run stored other ways (KiB a turn), side by
    side with what the store does: as text (before goal 6), each form compressed alone,
    the three packed in one stream (the store), and the Markdown alone (HTML and text
    derived at send time)."""
    conn = sqlite3.connect(path)
    letters = [unpack_texts(blob) for (blob,) in conn.execute("SELECT content FROM newsletter")]
    payload = [value for row in conn.execute(f"SELECT {', '.join(TURN_JSON)} FROM turn")
               for value in row if value is not None]
    conn.close()

    def z(text: str) -> int:
        return len(zlib.compress(text.encode(), ZLIB_LEVEL))

    found = {
        "newsletters as text": sum(len("".join(parts).encode()) for parts in letters),
        "newsletters, each form compressed": sum(z(p) for parts in letters for p in parts),
        "newsletters packed (the store)": sum(len(pack_texts(parts)) for parts in letters),
        "newsletters, Markdown only": sum(z(parts[0]) for parts in letters),
        "turn JSON as text": sum(len(zlib.decompress(v)) for v in payload),
        "turn JSON compressed (the store)": sum(len(v) for v in payload),
    }
    return {key: value / turns / 1024 for key, value in found.items()}


def compact(db: object, path: Path) -> int:
    """Compact every sent mail (as `serve` does once they are old enough), then VACUUM."""
    with session_scope(db) as session:  # type: ignore[arg-type]
        count = outbox_tidy.compact_outbox(session, datetime.now(UTC) + timedelta(seconds=1),
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
    print("the same newsletters and turn JSON stored other ways (every row / turns run):")
    for key, value in alternatives(path, args.turns).items():
        print(f"  {key:36s} {value:8.1f} KiB")


if __name__ == "__main__":
    main()
