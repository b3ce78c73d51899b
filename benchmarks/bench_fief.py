"""Speed of the Fief: England engine: ``.venv/bin/python benchmarks/bench_fief.py`` plays
300 four-player games of random orders (tests/fief/games.py) and times the moderator's own
work (parse_orders + adjudicate) apart from the random-order generator."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the game helpers live in tests/

from moderator.dice import Dice
from moderator.games.fief import ENGINE
from tests.fief.conftest import TABLES, signed_up
from tests.fief.games import random_orders

GAMES = 300


def main() -> None:
    generating = moderating = 0.0
    rounds = 0
    start = time.perf_counter()
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = signed_up(4)
        for turn in range(1, 10):
            a = time.perf_counter()
            texts = {k: random_orders(state, k, TABLES, rng) for k in state["seats"]}
            b = time.perf_counter()
            orders = {k: ENGINE.parse_orders(t, state, k, TABLES).orders for k, t in texts.items()}
            result = ENGINE.adjudicate(state, orders, TABLES, Dice.for_turn(seed, turn))
            c = time.perf_counter()
            generating += b - a
            moderating += c - b
            rounds += 1
            state = json.loads(json.dumps(result.state))
            if state["phase"] == "over":
                break
    total = time.perf_counter() - start
    print(f"{GAMES} four-player games, {rounds} adjudications in {total:.1f} s: "
          f"{GAMES / total * 60:.0f} games a minute; parse + adjudicate "
          f"{moderating / rounds * 1000:.2f} ms a round, order generator "
          f"{generating / rounds * 1000:.2f} ms")


if __name__ == "__main__":
    main()
