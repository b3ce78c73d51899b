"""Benchmark: Down with the King (issue 5's two figures).

1. One 6-player turn adjudicated, and rendered through the real templates (gazette and the
   six private sheets, jinja2 -> Markdown -> HTML, `render_turn`), timed separately; the
   median over turns 1..N of a seeded 6-player game with the property test's random legal
   orders.
2. Random 30-turn games per minute, adjudication only (order parsing + adjudication, no
   invariant checks or rendering), the games of the property test (tests/dwtk/test_property.py:
   2-6 players varying with the seed, shuffled activity priority, reactions sent once), in
   one process, on the engine's typed batch path (`Batching`: `read_orders` and `run_turn`
   on the frozen state and orders from turn to turn, as tests/dwtk/games.py `play` runs
   them), with two order sheets:
   - "full sheet": the generator's (tests/dwtk/games.py `sheets_for`): every activity,
     counsel and order, ~45 lines a player a turn, most of them refused as illegal;
   - "realistic sheet": what a human player would send: of the same sheet, the reaction
     lines (sent once, while none stand) and `HUMAN_LINES` of the others picked at random
     (``random.Random(seed)``), kept in the generator's (shuffled) order.
   With ``--workers N`` (N > 1) the same games are also played by N worker processes in
   parallel (one game per task, pool start-up included), reported separately and labelled
   "parallel"; the single-process figures stay the comparable ones.
   The moderator's work is timed twice: wall clock (`time.perf_counter`) and CPU time of
   this process (`time.process_time`), the figure to compare on a loaded machine; the
   load average is printed with the figures.
   This process is the batch process, so it does what one does after its start-up: the
   objects alive once the engine and its tables are loaded are moved out of the
   collector's sight (`gc.freeze`) before the games: the tables and modules are never
   garbage, and the collector's full passes need not walk them again and again.  (The
   batch process does it, not the engine's batch entry point: an engine is pure and never
   touches the collector, tests/test_purity.py.)  ``--no-gc-freeze`` leaves the collector
   as it starts, for the figure before that.

Run:  .venv/bin/python benchmarks/bench_dwtk.py [--turns 12] [--games 60] [--workers 2]
      [--no-gc-freeze]
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the order generator lives with the tests

import tests.dwtk.games as games  # noqa: E402
from moderator.dice import Dice  # noqa: E402
from moderator.games.capabilities import ReadOrders, StateTurn  # noqa: E402
from moderator.games.dwtk import ENGINE  # noqa: E402
from moderator.games.dwtk.orders import TurnOrders  # noqa: E402
from moderator.games.dwtk.state import GameState  # noqa: E402
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


HUMAN_LINES = 8  # order lines (besides reactions) a human player writes a turn


def human_sheet(text: str, rng: random.Random) -> str:
    """The realistic sheet: the reaction lines and `HUMAN_LINES` of the others at random,
    in the order written."""
    lines = text.splitlines()
    reactions = [line for line in lines if line.startswith("IF ")]
    others = [line for line in lines if not line.startswith("IF ")]
    picked = sorted(rng.sample(range(len(others)), min(HUMAN_LINES, len(others))))
    return "\n".join(reactions + [others[i] for i in picked]) + "\n"


class _Engine:
    """The engine as tests/dwtk/games.py sees it during a benchmark game: the time spent in
    the moderator's own work — `read_orders` and `run_turn`, the engine's typed batch path
    (`Batching`: the frozen state and orders from turn to turn, no JSON) — is added to
    ``busy`` (the random-order generator's own time is not, nor the JSON of the muster
    and of the last state, which a batch stores); with ``realistic`` each sheet the
    generator writes is cut to `human_sheet` before it is read.  All else is `ENGINE`."""

    busy = 0.0  # seconds, summed over every game of this process
    busy_cpu = 0.0  # the same, CPU time of this process (time.process_time)

    def __init__(self, seed: int, realistic: bool) -> None:
        self.rng = random.Random(seed) if realistic else None

    def read_orders(self, text: str, state: GameState, key: str,
                    tables: Any) -> ReadOrders[TurnOrders]:
        if self.rng is not None:
            text = human_sheet(text, self.rng)
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return ENGINE.read_orders(text, state, key, tables)
        finally:
            _Engine.busy += time.perf_counter() - start
            _Engine.busy_cpu += time.process_time() - cpu

    def run_turn(self, *args: Any) -> StateTurn[GameState]:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return ENGINE.run_turn(*args)
        finally:
            _Engine.busy += time.perf_counter() - start
            _Engine.busy_cpu += time.process_time() - cpu

    def __getattr__(self, name: str) -> Any:
        return getattr(ENGINE, name)


def play_game(seed: int, realistic: bool = False) -> int:
    """One benchmark game (the property test's); the number of turns played."""
    turns = 0

    def count(n: int, before: GameState, result: StateTurn[GameState]) -> None:
        nonlocal turns
        turns += 1

    with mock.patch.object(games, "ENGINE", _Engine(seed, realistic)):
        play(seed, players_for(seed), 30, shuffle=True, resend=False, checked=False,
             after_turn=count)
    return turns


def _label(realistic: bool) -> str:
    return f"realistic sheet: {HUMAN_LINES} lines + reactions" if realistic else "full sheet"


def bench_games(games: int, realistic: bool = False) -> dict[str, float]:
    """Wall clock (the generator included) and the moderator's own time (parsing and
    adjudication only) for the same games, in this process."""
    _Engine.busy = _Engine.busy_cpu = 0.0
    start = time.perf_counter()
    turns = sum(play_game(seed, realistic) for seed in range(1, games + 1))
    elapsed = time.perf_counter() - start
    label = _label(realistic)
    return {f"games ({label})": games, f"turns played ({label})": turns,
            f"elapsed (s, {label})": elapsed, f"per game (ms, {label})": elapsed / games * 1000,
            f"games per minute ({label})": games / elapsed * 60,
            f"games per minute, parsing + adjudication only ({label})":
                games / _Engine.busy * 60,
            f"games per minute, parsing + adjudication only, CPU time ({label})":
                games / _Engine.busy_cpu * 60}


def _play_realistic(seed: int) -> int:
    return play_game(seed, realistic=True)


def bench_parallel(games: int, workers: int, realistic: bool = False) -> dict[str, float]:
    """The same games over ``workers`` processes (forked: the tables are loaded once)."""
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        turns = sum(pool.imap_unordered(_play_realistic if realistic else play_game,
                                        range(1, games + 1)))
    elapsed = time.perf_counter() - start
    label = f"{_label(realistic)}, {workers} worker processes, parallel"
    return {f"turns played ({label})": turns, f"elapsed (s, {label})": elapsed,
            f"games per minute ({label})": games / elapsed * 60}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--workers", type=int, default=1,
                        help="also play the games in this many processes (parallel figure)")
    parser.add_argument("--no-gc-freeze", dest="gc_freeze", action="store_false",
                        help="no gc.freeze() after start-up (what a batch process does)")
    args = parser.parse_args()
    if args.gc_freeze:
        gc.collect()
        gc.freeze()
    before = os.getloadavg()
    figures: dict[str, float | str] = {
        **bench_turn(args.turns), **bench_games(args.games),
        **bench_games(args.games, realistic=True)}
    if args.workers > 1:
        figures.update(bench_parallel(args.games, args.workers))
        figures.update(bench_parallel(args.games, args.workers, realistic=True))
    after = os.getloadavg()
    figures["load average (1 min) before / after"] = f"{before[0]:.1f} / {after[0]:.1f}"
    figures["gc.freeze after start-up"] = "yes" if args.gc_freeze else "no"
    print("| figure | value |")
    print("|---|---|")
    for label, value in figures.items():
        print(f"| {label} | {value:.1f} |" if isinstance(value, float) else
              f"| {label} | {value} |")


if __name__ == "__main__":
    main()
