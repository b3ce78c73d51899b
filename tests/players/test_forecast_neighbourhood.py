"""The receipt's forecast run on the character's neighbourhood only (issue 16, goal 3) is
the forecast of the whole world, line for line.

The states are the twelve months of the golden game (tests/engarde/golden: loans,
mistresses and wives, regiments, duels, trials, favours); the orders are the golden
orders, then random months: every character given another one's orders (they name other
characters, ladies, clubs and regiments), at random amounts of money.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from moderator.dice import Dice
from moderator.games.engarde import ENGINE, forecast
from tests.engarde.conftest import _TABLES
from tests.engarde.test_golden import GOLDEN, SEED, cast, read_orders


def months() -> list[tuple[int, dict[str, Any], dict[str, str]]]:
    """(number, the state before, the order texts) of each golden month."""
    state, found = cast(), []
    for number in range(1, 13):
        texts, decisions = read_orders(GOLDEN / "orders" / f"{number:02d}.txt")
        state = dict(state, decisions={**state.get("decisions", {}), **decisions})
        found.append((number, state, texts))
        orders = {k: ENGINE.parse_orders(t, state, k, _TABLES).orders for k, t in texts.items()}
        state = ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(SEED, state["turn"])).state
    return found


MONTHS = months()


def both(state: dict[str, Any], key: str, text: str) -> tuple[Any, Any]:
    orders = {key: ENGINE.parse_orders(text, state, key, _TABLES).orders}
    return (ENGINE.forecast(state, orders, _TABLES),
            ENGINE.forecast(state, orders, _TABLES, ENGINE.prepare_forecast(state)))


@pytest.mark.parametrize(("number", "state", "texts"), MONTHS, ids=[f"{m[0]:02d}" for m in MONTHS])
def test_the_neighbourhood_forecasts_what_the_whole_world_does(
        number: int, state: dict[str, Any], texts: dict[str, str]) -> None:
    for key, text in sorted(texts.items()):
        if key in state["characters"]:
            full, fast = both(state, key, text)
            assert fast == full, (number, key)


@pytest.mark.parametrize("seed", range(12))
def test_random_months_forecast_the_same_on_the_neighbourhood(seed: int) -> None:
    rng = random.Random(seed)
    number, state, texts = MONTHS[seed % len(MONTHS)]
    characters = {k: {**c, "crowns": rng.choice([0, 15, 60, 200, 900, c["crowns"]])}
                  for k, c in state["characters"].items()}
    state = {**state, "characters": characters}
    pool = list(texts.values())
    before = json.dumps(state, sort_keys=True)
    for key in sorted(characters):
        full, fast = both(state, key, rng.choice(pool))
        assert fast == full, (seed, number, key)
    # Intake shares one decoded state among every message of a turn: nothing changes it.
    assert json.dumps(state, sort_keys=True) == before


def test_the_neighbourhood_keeps_who_he_names_and_who_names_him() -> None:
    _, state, _ = MONTHS[-1]
    world = forecast.index(state)
    alone = forecast.neighbourhood(world, "planchet", {})
    assert "planchet" in alone["characters"]
    named = forecast.neighbourhood(
        world, "planchet", ENGINE.parse_orders("WEEK 1: CLUB Hunter's; TOADY Athos\n", state,
                                               "planchet", _TABLES).orders)
    assert "athos" in named["characters"]


def test_the_index_maps_each_regiment_to_exactly_its_members() -> None:
    """Review of the fast forecast: the regiments were read from the last character of
    the loop before, so the map was empty or gave one regiment every character."""
    state = {"characters": {"a": {"regiment": "R1"}, "b": {}, "c": {"regiment": "R2"},
                            "d": {"regiment": "R1"}, "e": {}}}
    assert forecast.index(state).regiments == {"R1": frozenset({"a", "d"}),
                                               "R2": frozenset({"c"})}
