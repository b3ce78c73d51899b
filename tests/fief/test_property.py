"""Property test: 200 seeded games of random orders (2, 3 and 4 players) to the end; after
every round the invariants hold, every event renders, and VP are what the titles say."""

from __future__ import annotations

import json
import random

from moderator.dice import Dice
from moderator.games.fief import ENGINE
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState
from tests.fief.conftest import TABLES, render_all, signed_up
from tests.fief.games import random_orders
from tests.fief.invariants import problems

GAMES = 200


def _vp_consistent(state: dict[str, object]) -> list[str]:
    game = GameState.from_dict(state)  # type: ignore[arg-type]
    realm = Realm(game, TABLES, Dice.for_turn(0, 0))
    out = []
    for p in game.seats:
        fams = game.players[p].families
        titles = sum(len(n.titles) for n in game.living() if n.family in fams)
        if realm.vp(p) != titles + (1 if game.players[p].relic_vp else 0):
            out.append(f"{p}: VP {realm.vp(p)}")
        if game.phase.value == "over" and game.history[-1]["vp"][p] != realm.vp(p):
            out.append(f"{p}: the final VP differ from the titles")   # nothing runs after
    return out


def play(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    state = signed_up((2, 3, 4)[seed % 3])
    for turn in range(1, 10):
        orders = {}
        for key in state["seats"]:
            parsed = ENGINE.parse_orders(random_orders(state, key, TABLES, rng), state, key,
                                         TABLES)
            orders[key] = parsed.orders
        result = ENGINE.adjudicate(state, orders, TABLES, Dice.for_turn(seed, turn))
        render_all(result)
        state = json.loads(json.dumps(result.state))
        found = problems(state, TABLES) + _vp_consistent(state)
        assert found == [], (seed, turn, found)
        if state["phase"] == "over":
            break
    return state


def test_two_hundred_random_games_keep_every_invariant_and_end() -> None:
    ended = 0
    for seed in range(GAMES):
        state = play(seed)
        ended += state["phase"] == "over"
        assert state["winners"], seed
    assert ended == GAMES


def test_a_random_game_reruns_byte_identically() -> None:
    assert json.dumps(play(17), sort_keys=True) == json.dumps(play(17), sort_keys=True)
