"""Benchmark: `moderator site build` for an En Garde! game of N characters and M months.

Each month is played as in bench_month.py (the same plausible orders), adjudicated by
the engine and its gazette rendered and stored as the turn runner stores it; then the
static site is built from the database twice: from nothing, and again (the rerun that
follows every turn, which writes only what changed).

Run:  .venv/bin/python benchmarks/bench_site.py [--characters 40] [--months 12]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench_month import ROOT, build_month
from sqlmodel import Session

from moderator import jsonio
from moderator.dice import Dice
from moderator.publish.newsletter import TurnData, render_turn
from moderator.publish.site import build_site
from moderator.settings.config import load_config
from moderator.store.db import open_store, session_scope
from moderator.store.models import Game, Newsletter, Turn
from moderator.store.statuses import TurnStatus


def play(db, characters: int, months: int) -> float:  # type: ignore[no-untyped-def]
    """Store ``months`` adjudicated months with their gazettes; the time it took."""
    start = time.perf_counter()
    engine, tables, state, texts = build_month(characters)
    with session_scope(db) as session:
        game = Game(name="bench", kind="engarde", seed=1625)
        session.add(game)
        session.flush()
        for number in range(1, months + 1):
            orders = {k: engine.parse_orders(t, state, k, tables).orders
                      for k, t in texts.items() if k in state["characters"]}
            dice = Dice.for_turn(1625, number)
            result = engine.adjudicate(state, orders, tables, dice)
            data = TurnData("bench", number, engine.turn_label(state), None, state,
                            result.state, result.events, dice.log_dicts())
            gazette = render_turn(ROOT / "templates", engine, tables, data, []).gazette
            session.add(Turn(game_id=game.id, number=number, label=engine.turn_label(state),
                             seed=1625, status=TurnStatus.DONE, state_before=jsonio.dumps(state),
                             state_after=jsonio.dumps(result.state),
                             events_json=jsonio.dumps([e.to_dict() for e in result.events])))
            session.add(Newsletter(game_id=game.id, turn_number=number, kind="gazette",
                                   subject=gazette.subject, markdown=gazette.markdown,
                                   html=gazette.html, text=gazette.text))
            state = result.state
    return time.perf_counter() - start


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
            'spool = "spool"\narchive = "archive"\n')
        config = load_config(folder / "config.toml")
        db = open_store(config.database_url)
        setup = play(db, args.characters, args.months)
        out = folder / "site"
        with Session(db) as session:
            start = time.perf_counter()
            written = build_site(session, config, out)
            first = time.perf_counter() - start
            start = time.perf_counter()
            again = build_site(session, config, out)
            rerun = time.perf_counter() - start
        files = [p for p in out.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
    print(f"| figure ({args.characters} characters, {args.months} months) | value |")
    print("|---|---|")
    print(f"| setup: play and store the months (not measured below) | {setup:.1f} s |")
    print(f"| **site build from nothing** | **{first:.2f} s** ({len(written)} files, "
          f"{size / 2**20:.1f} MiB) |")
    print(f"| site build again (nothing changed; {len(again)} files written) | {rerun:.2f} s |")


if __name__ == "__main__":
    main()
