"""The engine's typed batch path (`Batching`, moderator.games.base) gives exactly what the
per-turn JSON path gives: the same parsed orders, states, events and dice, turn by turn.

`run_turn` passes the frozen `GameState` from one turn to the next without the JSON round
trip; the rules walk the court in its mappings' order, so `Court.freeze` must give them in
the order `GameState.from_dict` reads the stored state (nobles sorted as text, offices and
each player's Prestige modifiers and counsels by key), or the next turn would run
differently (benchmarks/dwtk_fingerprint.py checks 40 whole games the same way).
"""

from __future__ import annotations

import json
import random

import pytest

from moderator.dice import Dice
from moderator.games.capabilities import Batching
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.orders import TurnOrders
from tests.dwtk.conftest import TABLES, muster
from tests.dwtk.games import players_for, sheets_for


def test_the_engine_has_the_batch_path() -> None:
    assert isinstance(ENGINE, Batching)


@pytest.mark.parametrize("seed", range(1, 7))
def test_batch_path_equals_the_json_path_turn_by_turn(seed: int) -> None:
    """Seeds 1-6 (2-6 players), 30 turns: parsed orders, every state (byte for byte, key
    order included), events and dice alike; the stored state reads back as the very
    value the batch path holds, field by field and in the same order."""
    stored = muster(players_for(seed))
    state = ENGINE.load_state(stored)
    rng = random.Random(seed)
    for n in range(1, 31):
        sheets = sheets_for(state, rng, resend=False)
        parsed = {k: ENGINE.parse_orders(text, stored, k, TABLES) for k, text in sheets.items()}
        read = {k: ENGINE.read_orders(text, state, k, TABLES) for k, text in sheets.items()}
        for key, p in parsed.items():
            assert ENGINE.store_orders(read[key].orders) == p.orders, (seed, n, key)
            assert read[key].errors == p.errors, (seed, n, key)
            assert repr(TurnOrders.from_dict(p.orders)) == repr(read[key].orders), (seed, n, key)
        dice, again = Dice.for_turn(seed, n), Dice.for_turn(seed, n)
        result = ENGINE.adjudicate(stored, {k: p.orders for k, p in parsed.items()}, TABLES,
                                   dice)
        turn = ENGINE.run_turn(state, {k: r.orders for k, r in read.items()}, TABLES, again)
        assert json.dumps(ENGINE.store_state(turn.state)) == json.dumps(result.state), (seed, n)
        assert [e.to_dict() for e in turn.events] == [e.to_dict() for e in result.events]
        assert again.log_dicts() == dice.log_dicts(), (seed, n)
        assert repr(ENGINE.load_state(result.state)) == repr(turn.state), (seed, n)
        stored, state = result.state, turn.state
        if stored["phase"] == "over":
            break


def test_run_turn_leaves_its_inputs_alone() -> None:
    """Frozen values in, a new value out: the state and orders passed are unchanged, and
    the same turn played again from them gives the same result."""
    state = ENGINE.load_state(muster(4))
    for n in range(1, 4):
        state = ENGINE.run_turn(state, {}, TABLES, Dice.for_turn(2, n)).state
    sheets = sheets_for(state, random.Random(2), resend=True)
    orders = {k: ENGINE.read_orders(text, state, k, TABLES).orders for k, text in sheets.items()}
    before, sent = repr(state), repr(orders)
    first = ENGINE.run_turn(state, orders, TABLES, Dice.for_turn(2, 4))
    second = ENGINE.run_turn(state, orders, TABLES, Dice.for_turn(2, 4))
    assert repr(state) == before and repr(orders) == sent
    assert repr(first.state) == repr(second.state) and first.events == second.events
    assert first.state is not state and first.events
