"""Speed of the Fief: England engine: ``.venv/bin/python benchmarks/bench_fief.py``.

1. One full round of the largest game the rules allow (four players: Fief has four
   families, FE 13.7-13.8; the "6-player round" of the other games' benchmarks does not
   exist here) adjudicated, and rendered through the real templates (gazette and the four
   private sheets, jinja2 -> Markdown -> HTML, `render_turn`), timed apart; medians over the
   rounds of seed 6.
2. Random whole games (``--games``, four players, the property test's order generator,
   tests/fief/games.py): the moderator's own work (parse_orders + adjudicate) apart from
   the random-order generator, as games a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the game helpers live in tests/

from moderator.dice import Dice  # noqa: E402
from moderator.games.fief import ENGINE  # noqa: E402
from moderator.publish.newsletter import Reader, TurnData, render_turn  # noqa: E402
from tests.fief.conftest import TABLES, signed_up  # noqa: E402
from tests.fief.games import random_orders  # noqa: E402


def bench_round(seed: int = 6) -> dict[str, float]:
    """Each round of one four-player game: adjudicated, then rendered."""
    rng = random.Random(seed)
    state = signed_up(4)
    readers = [Reader(i, key, p["name"], f"{key}@bench.example")
               for i, (key, p) in enumerate(sorted(state["players"].items()))]
    adjudicate: list[float] = []
    render: list[float] = []
    cpu_adjudicate: list[float] = []
    cpu_render: list[float] = []
    events: list[int] = []
    for n in range(1, 10):
        texts = {k: random_orders(state, k, TABLES, rng) for k in state["seats"]}
        dice = Dice.for_turn(seed, n)
        start, cpu = time.perf_counter(), time.process_time()
        orders = {k: ENGINE.parse_orders(t, state, k, TABLES).orders for k, t in texts.items()}
        result = ENGINE.adjudicate(state, orders, TABLES, dice)
        adjudicate.append(time.perf_counter() - start)
        cpu_adjudicate.append(time.process_time() - cpu)
        data = TurnData("bench", n, ENGINE.turn_label(state), None, state, result.state,
                        result.events, dice.log_dicts())
        start, cpu = time.perf_counter(), time.process_time()
        render_turn(ROOT / "templates", ENGINE, TABLES, data, readers)
        render.append(time.perf_counter() - start)
        cpu_render.append(time.process_time() - cpu)
        events.append(len(result.events))
        state = json.loads(json.dumps(result.state))
        if state["phase"] == "over":
            break
    adj, ren = statistics.median(adjudicate[1:]), statistics.median(render[1:])
    return {"rounds": len(adjudicate), "events (median)": statistics.median(events),
            "parse + adjudicate a round (median, ms)": adj * 1000,
            "render gazette + 4 sheets (median, ms)": ren * 1000,
            "adjudicate + render (median, ms)": (adj + ren) * 1000,
            "the same in CPU time: parse + adjudicate (median, ms)":
                statistics.median(cpu_adjudicate[1:]) * 1000,
            "the same in CPU time: render (median, ms)": statistics.median(cpu_render[1:]) * 1000,
            "first round (templates compiled), ms": (adjudicate[0] + render[0]) * 1000}


def bench_games(games: int) -> dict[str, Any]:
    generating = moderating = cpu = 0.0
    rounds = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = signed_up(4)
        for turn in range(1, 10):
            a = time.perf_counter()
            texts = {k: random_orders(state, k, TABLES, rng) for k in state["seats"]}
            b, b_cpu = time.perf_counter(), time.process_time()
            orders = {k: ENGINE.parse_orders(t, state, k, TABLES).orders for k, t in texts.items()}
            result = ENGINE.adjudicate(state, orders, TABLES, Dice.for_turn(seed, turn))
            c = time.perf_counter()
            cpu += time.process_time() - b_cpu
            generating += b - a
            moderating += c - b
            rounds += 1
            state = json.loads(json.dumps(result.state))
            if state["phase"] == "over":
                break
    total = time.perf_counter() - start
    return {"games": games, "rounds": rounds, "wall (s)": total,
            "games a minute, the moderator's work": games / moderating * 60,
            "games a minute, the moderator's work in CPU time": games / cpu * 60,
            "games a minute, wall clock (generator included)": games / total * 60,
            "parse + adjudicate a round (ms)": moderating / rounds * 1000,
            "order generator a round (ms)": generating / rounds * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    for label, figures in (("a four-player round", bench_round()),
                           ("random whole games", bench_games(args.games))):
        print(label)
        for key, value in figures.items():
            print(f"  {key}: {value:.2f}" if isinstance(value, float) else f"  {key}: {value}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
