"""Benchmark: Down with the King (issue 5's two figures).

1. One 6-player turn adjudicated, and rendered through the real templates (gazette and the
   six private sheets, jinja2 -> Markdown -> HTML, `render_turn`), timed separately; the
   median over turns 1..N of a seeded 6-player game with the property test's random legal
   orders.
2. Random 30-turn games per minute, adjudication only (order parsing + adjudication, no
   invariant checks or rendering), the games of the property test (tests/dwtk/test_property.py:
   2-6 players varying with the seed, shuffled activity priority, reactions sent once), in
   one process.  With ``--workers N`` (N > 1) the same games are also played by N worker
   processes in parallel (one game per task, pool start-up included), reported separately
   and labelled "parallel"; the single-process figure stays the comparable one.

Run:  .venv/bin/python benchmarks/bench_dwtk.py [--turns 12] [--games 60] [--workers 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the order generator lives with the tests

from moderator.dice import Dice  # noqa: E402
from moderator.games.dwtk import ENGINE  # noqa: E402
from moderator.publish.newsletter import Reader, TurnData, render_turn  # noqa: E402
from tests.dwtk.conftest import TABLES, muster  # noqa: E402
from tests.dwtk.games import orders_for, play, players_for  # noqa: E402


def bench_turn(turns: int) -> dict[str, float]:
    rng = random.Random(6)
    state = muster(6)
    readers = [Reader(i, key, p["name"], f"{key}@bench.example")
               for i, (key, p) in enumerate(sorted(state["players"].items()))]
    adjudicate, render, events, sheets, html = [], [], [], [], []
    for n in range(1, turns + 1):
        orders = orders_for(state, rng, resend=False)
        dice = Dice.for_turn(6, n)
        start = time.perf_counter()
        result = ENGINE.adjudicate(state, orders, TABLES, dice)
        adjudicate.append(time.perf_counter() - start)
        data = TurnData("bench", n, ENGINE.turn_label(state), None, state, result.state,
                        result.events, dice.log_dicts())
        start = time.perf_counter()
        rendered = render_turn(ROOT / "templates", ENGINE, TABLES, data, readers)
        render.append(time.perf_counter() - start)
        events.append(len(result.events))
        sheets.append(len(rendered.sheets))
        html.append(len(rendered.gazette.html) + sum(len(s.html) for s in
                                                     rendered.sheets.values()))
        state = result.state
        if state["phase"] == "over":
            break
    adj, ren = statistics.median(adjudicate), statistics.median(render)
    return {"turns measured": len(adjudicate), "adjudicate (median, ms)": adj * 1000,
            "render gazette + 6 sheets (median, ms)": ren * 1000,
            "adjudicate + render (median, ms)": (adj + ren) * 1000,
            "slowest adjudicate + render (ms)": max(a + r for a, r in
                                                    zip(adjudicate, render, strict=True)) * 1000,
            "events per turn (median)": statistics.median(events),
            "turn sheets per turn": sheets[0],
            "HTML per turn (median, KiB)": statistics.median(html) / 1024}


def play_game(seed: int) -> int:
    """One benchmark game (the property test's); the number of turns played."""
    turns = 0

    def count(n: int, before: object, result: object) -> None:
        nonlocal turns
        turns += 1

    play(seed, players_for(seed), 30, shuffle=True, resend=False, checked=False,
         after_turn=count)
    return turns


def bench_games(games: int) -> dict[str, float]:
    start = time.perf_counter()
    turns = sum(play_game(seed) for seed in range(1, games + 1))
    elapsed = time.perf_counter() - start
    return {"games": games, "turns played": turns, "elapsed (s)": elapsed,
            "per game (ms)": elapsed / games * 1000, "games per minute": games / elapsed * 60}


def bench_parallel(games: int, workers: int) -> dict[str, float]:
    """The same games over ``workers`` processes (forked: the tables are loaded once)."""
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        turns = sum(pool.imap_unordered(play_game, range(1, games + 1)))
    elapsed = time.perf_counter() - start
    label = f"{workers} worker processes, parallel"
    return {f"turns played ({label})": turns, f"elapsed (s, {label})": elapsed,
            f"games per minute ({label})": games / elapsed * 60}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--workers", type=int, default=1,
                        help="also play the games in this many processes (parallel figure)")
    args = parser.parse_args()
    figures = {**bench_turn(args.turns), **bench_games(args.games)}
    if args.workers > 1:
        figures.update(bench_parallel(args.games, args.workers))
    print("| figure | value |")
    print("|---|---|")
    for label, value in figures.items():
        print(f"| {label} | {value:.1f} |" if isinstance(value, float) else
              f"| {label} | {value} |")


if __name__ == "__main__":
    main()
