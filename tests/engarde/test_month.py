"""EG §C–D the month: conditionals, standing and NMR orders, determinism, ledgers."""

from __future__ import annotations

import json
from collections import defaultdict

from moderator.dice import Dice
from moderator.games.engarde import ENGINE
from tests.engarde.conftest import (
    _TABLES,
    assert_event,
    give_orders,
    make_char,
    make_state,
    no_event,
    run_month,
)


def test_month_advances_and_labels() -> None:
    state = make_state(make_char("a"), month=12)
    assert ENGINE.turn_label(state) == "December 1625"
    result = run_month(state)
    assert ENGINE.turn_label(result.state) == "January 1626"
    assert result.state["turn"] == 2
    assert ENGINE.character_name(result.state, "a") == "A"


def test_new_game_starts_from_the_calendar_file() -> None:
    state = ENGINE.new_game("Paris", _TABLES, Dice.for_turn(1, 0))
    assert ENGINE.turn_label(state) == "April 1625" and state["characters"] == {}


def test_conditional_week_takes_the_else_branch_on_success() -> None:
    """EG §D: "One week's action may be stated as contingent upon a previous week's outcome"."""
    state = make_state(make_char("a", sl=5, club="frog_and_peach"))
    text = ("WEEK 1: CLUB; CAROUSE\n"
            "WEEK 2: IF WEEK 1 FAILED THEN BAWDYHOUSE ELSE PRACTICE rapier ENDIF")
    result = run_month(state, give_orders(state, a=text))
    assert_event(result, "practice.week", "a")
    no_event(result, "bawdyhouse.visit")


def test_conditional_week_takes_the_then_branch_on_failure() -> None:
    """EG §D: turned away at a club he does not belong to, he goes elsewhere."""
    state = make_state(make_char("a", sl=12))
    text = ("WEEK 1: CLUB Bothwell's\n"
            "WEEK 2: IF WEEK 1 FAILED THEN BAWDYHOUSE ELSE PRACTICE rapier ENDIF")
    result = run_month(state, give_orders(state, a=text))
    assert_event(result, "club.refused_entry", "a")
    assert assert_event(result, "bawdyhouse.visit", "a").week == 2


def test_standing_orders_fill_empty_slots_and_are_kept() -> None:
    """Reference §12: standing orders apply every month until replaced."""
    state = make_state(make_char("a", sl=5, crowns=1000))
    first = run_month(state, give_orders(state, a="STANDING WEEK 4: BAWDYHOUSE\n"
                                                   "WEEK 1: PRACTICE rapier"))
    assert assert_event(first, "bawdyhouse.visit", "a").week == 4
    second_orders = give_orders(first.state, a="WEEK 1: PRACTICE sabre")
    second = run_month(first.state, second_orders)
    assert assert_event(second, "bawdyhouse.visit", "a").week == 4
    third_orders = give_orders(second.state, a="STANDING: NONE\nWEEK 4: REST")
    third = run_month(second.state, third_orders)
    no_event(third, "bawdyhouse.visit")
    assert third.state["characters"]["a"]["standing"] is None


def test_nmr_orders_used_when_no_orders_arrive() -> None:
    """Reference §11/§12: NMR orders stand in for a missing month's orders."""
    state = make_state(make_char("a", sl=5, crowns=1000))
    first = run_month(state, give_orders(state, a="NMR WEEK 2: BAWDYHOUSE\nWEEK 1: REST"))
    no_event(first, "bawdyhouse.visit")
    second = run_month(first.state)  # no orders this month
    assert assert_event(second, "bawdyhouse.visit", "a").week == 2
    assert second.state["characters"]["a"]["missed_months"] == 1


def test_no_orders_and_no_nmr_means_indisposed_but_upkeep_applies() -> None:
    """Reference §11: "indisposed": no actions, but support, dues and rent still apply."""
    state = make_state(make_char("a", sl=5, club="frog_and_peach", allowance=20))
    result = run_month(state)
    assert_event(result, "character.indisposed", "a")
    assert_event(result, "support.paid", "a")
    assert_event(result, "club.dues", "a")
    assert_event(result, "club.membership_sp", "a")


def _busy_state() -> tuple[dict, dict]:
    chars = [make_char("cyrano", sl=14, club="bothwells", crowns=3000),
             make_char("jacques", sl=4, crowns=200),
             make_char("porthos", sl=9, club="hunters", crowns=900,
                       home={"area": "belleville", "kind": "apartment", "tenure": "rented"}),
             make_char("aramis", sl=7, crowns=400)]
    state = make_state(*chars)
    orders = give_orders(
        state,
        cyrano="PREMONTH: SUPPORT CONSPICUOUS; BOX\nWEEK 1: CLUB; BRING Jacques; TOADY Jacques; "
               "CAROUSE; GAMBLE 100 x3 CUT 5\nWEEK 2: HOST PARTY AT CLUB\nWEEKEND 2: THEATRE",
        jacques="WEEK 1: CLUB Bothwell's; GUEST OF Cyrano; TOADY Cyrano; CAROUSE\n"
                "WEEK 2: PARTY Cyrano\nWEEK 3: BAWDYHOUSE; GAMBLE 5 x4 CUT 4",
        porthos="WEEK 1: PRACTICE sabre\nWEEK 2: HOST PARTY AT HOME\n"
                "WEEKEND 1: THEATRE FIRST NIGHT\nWEEK 3: CLUB; CAROUSE; GAMBLE 100 x9",
        aramis="ANYTIME: JOIN CLUB The Blue Gables\nWEEK 2: PARTY Porthos; TOADY Jacques\n"
               "WEEK 4: BAWDYHOUSE",
    )
    return state, orders


def test_same_seed_gives_identical_json() -> None:
    """Determinism: the same state, orders and seed give byte-identical results."""
    state, orders = _busy_state()
    runs = [ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(42, 1)) for _ in range(2)]
    dumps = [json.dumps([r.state, [e.to_dict() for e in r.events]], sort_keys=False)
             for r in runs]
    assert dumps[0] == dumps[1]
    other = ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(43, 1))
    assert other.state["characters"].keys() == runs[0].state["characters"].keys()


def test_ledgers_add_up_to_the_state_change() -> None:
    """Every SP and crown change is an event: a character's event sums equal his change."""
    state, orders = _busy_state()
    for seed in range(20):
        result = ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(seed, 1))
        crowns, sp = defaultdict(int), defaultdict(int)
        for e in result.events:
            if e.actor:
                crowns[e.actor] += e.crowns
                sp[e.actor] += e.sp
        for key, after in result.state["characters"].items():
            before = state["characters"][key]
            assert after["crowns"] - before["crowns"] == crowns[key], (seed, key)
            assert after["sp_month"] == sp[key], (seed, key)
