"""Where a full-sheet DWTK game spends its time: a sampling profile of the replay's calls.

cProfile charges every Python call a fixed cost of its own, so in a profile as flat as
the engine's (hundreds of small functions, tens of thousands of calls a game) it
inflates the small ones several times over.  This records the typed batch calls of
seeds 1..N as `dwtk_replay.py` does, then replays them ``--reps`` times while a CPU-time
timer (``ITIMER_PROF``) interrupts the process every ``--interval`` seconds of CPU (or
as often as the kernel's tick allows: about every 3 ms here) and notes the functions on
the stack: a function's *inclusive* share is the share of samples with
it anywhere on the stack, its *self* share the samples it was running itself.

With ``--pieces`` it times instead a few of the rules' reads on courts of the recorded
states (min CPU time of 15 repetitions): the per-piece figures of BENCHMARKS.md.

Run:  .venv/bin/python benchmarks/dwtk_profile.py [--seeds 10] [--reps 6] [--top 60]
      .venv/bin/python benchmarks/dwtk_profile.py --pieces
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import signal
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dwtk_replay

from moderator.dice import Dice
from moderator.games.dwtk import faction, status
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import TABLES


class Sampler:
    """Stacks noted on each CPU-time tick: inclusive and self counts by function."""

    def __init__(self) -> None:
        self.total = 0
        self.inclusive: collections.Counter[str] = collections.Counter()
        self.own: collections.Counter[str] = collections.Counter()

    def tick(self, signum: int, frame: FrameType | None) -> None:
        self.total += 1
        seen: set[str] = set()
        first = True
        while frame is not None:
            code = frame.f_code
            name = f"{Path(code.co_filename).name}:{code.co_name}"
            if first:
                self.own[name] += 1
                first = False
            if name not in seen:
                self.inclusive[name] += 1
                seen.add(name)
            frame = frame.f_back


def profile(seeds: int, reps: int, interval: float, top: int) -> None:
    calls = dwtk_replay.record(seeds)
    gc.collect()
    gc.freeze()  # as the batch benchmark does after start-up
    sampler = Sampler()
    signal.signal(signal.SIGPROF, sampler.tick)
    signal.setitimer(signal.ITIMER_PROF, interval, interval)
    try:
        dwtk_replay.replay(calls, reps)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
    print(f"{seeds} games ({len(calls)} calls) x {reps} reps, {sampler.total} samples; "
          f"load {os.getloadavg()[0]:.1f}")
    for title, counts in (("inclusive", sampler.inclusive), ("self", sampler.own)):
        print(f"-- {title}")
        for name, n in counts.most_common(top):
            print(f"{n / sampler.total * 100:6.1f}%  {name}")


def pieces(seeds: int) -> None:
    """Min CPU time of a few reads over courts of every fifth recorded state."""
    states = [c[1] for c in dwtk_replay.record(seeds) if c[0] == "adjudicate"][10::5]
    courts = [Court(s, TABLES, Dice.for_turn(1, 1), faction.enforce_limit) for s in states]

    def each_player() -> None:
        for c in courts:
            for key in c.players:
                status.faction_load(c, key)

    def all_seats() -> None:
        for c in courts:
            status.loads(c, c.seats)

    def at_sea() -> None:
        for c in courts:
            for cid in (1, 5, 22, 40):
                status.at_sea(c, cid)

    timed: tuple[tuple[str, Callable[[], None]], ...] = (
        ("faction_load of every player", each_player), ("loads of all seats", all_seats),
        ("at_sea x4", at_sea))
    for name, run in timed:
        least = min(timeit.repeat(run, number=50, repeat=15, timer=time.process_time))
        print(f"{name}: {least / 50 * 1e3:.3f} ms for {len(courts)} courts")
    print(f"load {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--reps", type=int, default=6)
    parser.add_argument("--interval", type=float, default=0.0005, help="seconds of CPU")
    parser.add_argument("--top", type=int, default=60)
    parser.add_argument("--pieces", action="store_true",
                        help="time faction_load, loads and at_sea instead (seeds 1..3)")
    args = parser.parse_args()
    if args.pieces:
        pieces(3)
    else:
        profile(args.seeds, args.reps, args.interval, args.top)


if __name__ == "__main__":
    main()
