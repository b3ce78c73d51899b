"""Benchmark for a loaded machine: the full-sheet DWTK games replayed call by call.

`bench_dwtk.py` times whole games; on a machine whose cores other work keeps busy even
their CPU time swings by ±15% from run to run, more than a small speed-up.  This plays
seeds 1..N (the full sheet, as `bench_dwtk.bench_games` does) once, recording every
`parse_orders` and `adjudicate` call with its inputs, then replays those calls ``--reps``
times and takes, per call, the least CPU time (`time.process_time`) of the repetitions:
a call the other work slowed down in one repetition is usually spared in another.  It
prints the sum of the per-call minima (and of the medians) and the games a minute they
make.  Run it for old and new code alternately, in the same minutes.

The calls are the engine's typed batch path (`Batching`: `read_orders` and `run_turn` on
the frozen state and orders, as tests/dwtk/games.py `play` and `bench_dwtk.py` run them;
frozen values, so each repetition replays the very inputs recorded); with ``--json`` the
service's per-turn JSON path instead (`parse_orders` and `adjudicate`, fresh copies of the
recorded dicts each repetition), the figure the replay gave before the batch path.

Run:  .venv/bin/python benchmarks/dwtk_replay.py [--seeds 10] [--reps 6] [--json]
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import time
from collections.abc import Mapping
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
from tests.dwtk.conftest import TABLES  # noqa: E402

# ("parse", text, state, player) or ("adjudicate", state, orders, seed, turn)
Call = tuple[Any, ...]


class _Recorder:
    """The engine as tests/dwtk/games.py sees it while recording: each call's inputs kept
    (frozen values, never changed); with ``json`` each call is recorded as the per-turn
    JSON call it stands for (the JSON forms of its inputs, `parse_orders` / `adjudicate`)."""

    def __init__(self, seed: int, calls: list[Call], json: bool) -> None:
        self.seed, self.calls, self.turn, self.json = seed, calls, 0, json

    def read_orders(self, text: str, state: GameState, key: str,
                    tables: Any) -> ReadOrders[TurnOrders]:
        self.calls.append(("parse", text, ENGINE.store_state(state) if self.json else state,
                           key))
        return ENGINE.read_orders(text, state, key, tables)

    def run_turn(self, state: GameState, orders: Mapping[str, TurnOrders], tables: Any,
                 dice: Dice) -> StateTurn[GameState]:
        self.turn += 1
        if self.json:
            self.calls.append(("adjudicate", ENGINE.store_state(state),
                               {k: ENGINE.store_orders(o) for k, o in orders.items()},
                               self.seed, self.turn))
        else:
            self.calls.append(("adjudicate", state, orders, self.seed, self.turn))
        return ENGINE.run_turn(state, orders, tables, dice)

    def __getattr__(self, name: str) -> Any:
        return getattr(ENGINE, name)


def record(seeds: int, json: bool = False) -> list[Call]:
    calls: list[Call] = []
    for seed in range(1, seeds + 1):
        with mock.patch.object(games, "ENGINE", _Recorder(seed, calls, json)):
            games.play(seed, games.players_for(seed), 30, shuffle=True, resend=False,
                       checked=False)
    return calls


def replay(calls: list[Call], reps: int, json: bool = False) -> list[list[float]]:
    """CPU seconds of each call, once per repetition (with ``json``, fresh copies of the
    inputs each time: the engine never sees the same dicts twice)."""
    times: list[list[float]] = [[] for _ in calls]
    clock = time.process_time
    parse, adjudicate = ((ENGINE.parse_orders, ENGINE.adjudicate) if json else
                         (ENGINE.read_orders, ENGINE.run_turn))
    for _ in range(reps):
        for i, call in enumerate(copy.deepcopy(calls) if json else calls):
            if call[0] == "parse":
                start = clock()
                parse(call[1], call[2], call[3], TABLES)
            else:
                dice = Dice.for_turn(call[3], call[4])
                start = clock()
                adjudicate(call[1], call[2], TABLES, dice)
            times[i].append(clock() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--reps", type=int, default=6)
    parser.add_argument("--json", action="store_true",
                        help="the per-turn JSON calls (parse_orders, adjudicate) instead")
    args = parser.parse_args()
    calls = record(args.seeds, args.json)
    times = replay(calls, args.reps, args.json)
    least = sum(map(min, times))
    median = sum(map(statistics.median, times))
    path = "JSON per turn" if args.json else "typed batch"
    print(f"{args.seeds} games ({len(calls)} calls) x {args.reps} reps, full sheet, {path}, "
          f"CPU s: "
          f"sum of per-call min {least:.3f} ({args.seeds / least * 60:.0f} games a minute), "
          f"of medians {median:.3f} ({args.seeds / median * 60:.0f}); "
          f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
