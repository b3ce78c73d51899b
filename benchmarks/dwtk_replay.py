"""Benchmark for a loaded machine: the full-sheet DWTK games replayed call by call.

`bench_dwtk.py` times whole games; on a machine whose cores other work keeps busy even
their CPU time swings by ±15% from run to run, more than a small speed-up.  This plays
seeds 1..N (the full sheet, as `bench_dwtk.bench_games` does) once, recording every
`parse_orders` and `adjudicate` call with its inputs, then replays those calls ``--reps``
times and takes, per call, the least CPU time (`time.process_time`) of the repetitions:
a call the other work slowed down in one repetition is usually spared in another.  It
prints the sum of the per-call minima (and of the medians) and the games a minute they
make.  Run it for old and new code alternately, in the same minutes.

Run:  .venv/bin/python benchmarks/dwtk_replay.py [--seeds 10] [--reps 6]
"""

from __future__ import annotations

import argparse
import copy
import os
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
from moderator.games.base import ParsedOrders, TurnResult  # noqa: E402
from moderator.games.dwtk import ENGINE  # noqa: E402
from tests.dwtk.conftest import TABLES  # noqa: E402

# ("parse", text, state, player) or ("adjudicate", state, orders, seed, turn)
Call = tuple[Any, ...]


class _Recorder:
    """The engine as tests/dwtk/games.py sees it while recording: each call's inputs kept
    (copies: the game goes on with the same dicts)."""

    def __init__(self, seed: int, calls: list[Call]) -> None:
        self.seed, self.calls, self.turn = seed, calls, 0

    def parse_orders(self, text: str, state: Any, key: str, tables: Any) -> ParsedOrders:
        self.calls.append(("parse", text, copy.deepcopy(state), key))
        return ENGINE.parse_orders(text, state, key, tables)

    def adjudicate(self, state: Any, orders: Any, tables: Any, dice: Dice) -> TurnResult:
        self.turn += 1
        self.calls.append(("adjudicate", copy.deepcopy(state), copy.deepcopy(orders),
                           self.seed, self.turn))
        return ENGINE.adjudicate(state, orders, tables, dice)

    def __getattr__(self, name: str) -> Any:
        return getattr(ENGINE, name)


def record(seeds: int) -> list[Call]:
    calls: list[Call] = []
    for seed in range(1, seeds + 1):
        with mock.patch.object(games, "ENGINE", _Recorder(seed, calls)):
            games.play(seed, games.players_for(seed), 30, shuffle=True, resend=False,
                       checked=False)
    return calls


def replay(calls: list[Call], reps: int) -> list[list[float]]:
    """CPU seconds of each call, once per repetition (fresh copies of the inputs each time:
    the engine never sees the same dicts twice)."""
    times: list[list[float]] = [[] for _ in calls]
    clock = time.process_time
    for _ in range(reps):
        for i, call in enumerate(copy.deepcopy(calls)):
            if call[0] == "parse":
                start = clock()
                ENGINE.parse_orders(call[1], call[2], call[3], TABLES)
            else:
                dice = Dice.for_turn(call[3], call[4])
                start = clock()
                ENGINE.adjudicate(call[1], call[2], TABLES, dice)
            times[i].append(clock() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--reps", type=int, default=6)
    args = parser.parse_args()
    calls = record(args.seeds)
    times = replay(calls, args.reps)
    least = sum(map(min, times))
    median = sum(map(statistics.median, times))
    print(f"{args.seeds} games ({len(calls)} calls) x {args.reps} reps, full sheet, CPU s: "
          f"sum of per-call min {least:.3f} ({args.seeds / least * 60:.0f} games a minute), "
          f"of medians {median:.3f} ({args.seeds / median * 60:.0f}); "
          f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
