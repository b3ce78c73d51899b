"""`ENGINE.validate_state`: every problem of a hand-amended state, with its path."""

from __future__ import annotations

import copy
from typing import Any

from moderator.dice import Dice
from moderator.games.engarde import ENGINE
from tests.engarde.conftest import _TABLES
from tests.engarde.test_month import _busy_state


def _after_a_month() -> dict[str, Any]:
    state, orders = _busy_state()
    return ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(7, 1)).state


def test_states_the_engine_writes_are_clean() -> None:
    state, _orders = _busy_state()
    assert ENGINE.validate_state(state, _TABLES) == []
    assert ENGINE.validate_state(_after_a_month(), _TABLES) == []


def test_wrong_types_and_unknown_fields_are_all_reported() -> None:
    state = copy.deepcopy(_after_a_month())
    c = state["characters"]["aramis"]
    c["crowns"], c["crowsn"], c["orphan"] = "lots", 5, 1
    c["expertise"]["rapier"] = 2.5
    state["month"] = True  # a bool is not a month number
    assert ENGINE.validate_state(state, _TABLES) == [
        "month: must be int, got True",
        "characters.aramis.orphan: must be bool, got 1",
        "characters.aramis.expertise.rapier: must be int, got 2.5",
        "characters.aramis.crowns: must be int, got 'lots'",
        "characters.aramis.crowsn: unknown field",
    ]


def test_broken_invariants_are_reported() -> None:
    state = copy.deepcopy(_after_a_month())
    state["month"] = 13
    c = state["characters"]["aramis"]
    c["club"], c["regiment"], c["horses"], c["mistress"] = "nowhere", "9th", -1, "nobody"
    problems = ENGINE.validate_state(state, _TABLES)
    assert problems == [
        "month: must be 1-12, got 13",
        "characters.aramis.mistress: no lady 'nobody'",
        "characters.aramis.club: no club 'nowhere'",
        "characters.aramis.regiment: no regiment '9th'",
        "characters.aramis.horses: must not be negative, got -1",
    ]


def test_a_state_that_does_not_load_says_why() -> None:
    state = copy.deepcopy(_after_a_month())
    del state["characters"]["aramis"]["sl"]
    assert ENGINE.validate_state(state, _TABLES) == ["the state does not load: KeyError 'sl'"]


def test_the_report_does_not_depend_on_key_order() -> None:
    state = copy.deepcopy(_after_a_month())
    for key in state["characters"]:
        state["characters"][key]["horses"] = -1
        state["characters"][key]["extra"] = 1
    backwards = dict(state, characters=dict(reversed(list(state["characters"].items()))))
    assert ENGINE.validate_state(backwards, _TABLES) == ENGINE.validate_state(state, _TABLES)
    assert len(ENGINE.validate_state(state, _TABLES)) == len(state["characters"])
