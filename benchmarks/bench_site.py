"""Benchmark: `moderator site build` for an En Garde! game of N characters and M months.

Each month is played as in bench_month.py (the same plausible orders), adjudicated by
the engine and its gazette rendered and stored as the turn runner stores it.  Measured:

1. the rebuild that follows the last month's turn (`rebuild_game_site`, what `turn run`
   does after its commit: that game's pages and the index, from the site of the months
   before);
2. the whole site built from nothing;
3. the whole site built again with nothing changed (every page and chart computed,
   none written).

Each as wall-clock time and as the process's CPU time (on a shared machine the wall clock
grows with the load; the CPU time much less).

Run:  .venv/bin/python benchmarks/bench_site.py [--characters 40] [--months 12]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_month import ROOT, build_month
from sqlalchemy import Engine
from sqlmodel import Session

from moderator import jsonio
from moderator.dice import Dice
from moderator.publish.newsletter import TurnData, render_turn
from moderator.publish.site import build_site
from moderator.publish.site.after_turn import rebuild_game_site
from moderator.settings.config import load_config
from moderator.store.db import open_store, session_scope
from moderator.store.models import Game, Newsletter, Turn
from moderator.store.statuses import TurnStatus


class Months:
    """The benchmark game, played a month at a time into the store."""

    def __init__(self, db: Engine, characters: int) -> None:
        self.db = db
        self.engine, self.tables, self.state, self.texts = build_month(characters)
        self.number = 0
        with session_scope(db) as session:
            game = Game(name="bench", kind="engarde", seed=1625)
            session.add(game)
            session.flush()
            self.game_id: Any = game.id

    def play(self, months: int) -> float:
        """Store ``months`` more adjudicated months with their gazettes; the time it took."""
        start = time.perf_counter()
        engine, tables = self.engine, self.tables
        for _ in range(months):
            self.number += 1
            number, state = self.number, self.state
            orders = {k: engine.parse_orders(t, state, k, tables).orders
                      for k, t in self.texts.items() if k in state["characters"]}
            dice = Dice.for_turn(1625, number)
            result = engine.adjudicate(state, orders, tables, dice)
            data = TurnData("bench", number, engine.turn_label(state), None, state,
                            result.state, result.events, dice.log_dicts())
            gazette = render_turn(ROOT / "templates", engine, tables, data, []).gazette
            with session_scope(self.db) as session:
                session.add(Turn(game_id=self.game_id, number=number,
                                 label=engine.turn_label(state), seed=1625,
                                 status=TurnStatus.DONE, state_before=jsonio.dumps(state),
                                 state_after=jsonio.dumps(result.state),
                                 events_json=jsonio.dumps([e.to_dict() for e in result.events])))
                session.add(Newsletter(game_id=self.game_id, turn_number=number,
                                       kind="gazette", subject=gazette.subject,
                                       markdown=gazette.markdown, html=gazette.html,
                                       text=gazette.text))
            self.state = result.state
        return time.perf_counter() - start


def _timed(build: Any) -> tuple[str, list[str]]:
    """``build()`` timed: wall-clock seconds, and this process's CPU seconds (what a shared
    machine's load does not inflate); the files it wrote."""
    start, cpu = time.perf_counter(), time.process_time()
    written = build()
    took = f"{time.perf_counter() - start:.2f} s (CPU {time.process_time() - cpu:.2f} s)"
    return took, written or []


def _size(folder: Path) -> tuple[int, float]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=40)
    parser.add_argument("--months", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "config.toml").write_text(
            f'[database]\nurl = "sqlite:///{folder}/s.sqlite"\n'
            f'[paths]\ndata = "{ROOT / "data"}"\ntemplates = "{ROOT / "templates"}"\n'
            'spool = "spool"\narchive = "archive"\n[site]\nfolder = "site"\n')
        config = load_config(folder / "config.toml")
        db = open_store(config.database_url)
        months = Months(db, args.characters)
        setup = months.play(args.months - 1)
        with Session(db) as session:  # the site as it stood before the last month
            build_site(session, config, config.site_folder)
        setup += months.play(1)
        after_turn, changed = _timed(lambda: rebuild_game_site(db, config, "bench"))
        fresh = folder / "fresh"
        with Session(db) as session:
            first, written = _timed(lambda: build_site(session, config, fresh))
            rerun, again = _timed(lambda: build_site(session, config, fresh))
        files, size = _size(fresh)
    print(f"| figure ({args.characters} characters, {args.months} months) | value |")
    print("|---|---|")
    print(f"| setup: play and store the months (not measured below) | {setup:.1f} s |")
    print(f"| **rebuild after the last month's turn** (that game and the index) | "
          f"**{after_turn}** ({len(changed)} files written) |")
    print(f"| **site build from nothing** | **{first}** ({len(written)} files, "
          f"{size:.1f} MiB; {files} in the folder) |")
    print(f"| site build again (nothing changed; {len(again)} files written) | {rerun} |")


if __name__ == "__main__":
    main()
