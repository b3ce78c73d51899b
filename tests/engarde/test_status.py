"""EG §E status, §F support and ConCon, §L female companionship."""

from __future__ import annotations

from tests.engarde.conftest import (
    assert_event,
    dice,
    give_orders,
    make_char,
    make_state,
    no_event,
    run_month,
)


def test_status_rises_on_three_times_next_sl() -> None:
    """EG §E: "For a character of SL 4 to attain SL 5, he must accumulate 15 status points"."""
    state = make_state(make_char("a", sl=4, club="red_phillips",
                                 home={"area": "les_batignoles", "kind": "town_house",
                                       "tenure": "owned"}))
    # 2 club + 2 town house + 1 bawdyhouse drink + 1 ConCon = 6 ... add gambling wins.
    orders = give_orders(state, a="PREMONTH: SUPPORT CONSPICUOUS\n"
                                    "WEEK 1: BAWDYHOUSE; GAMBLE 10 x9\n"
                                    "WEEK 2: CLUB; CAROUSE")
    # house 1, player 6: nine wins = +9 SP.
    result = run_month(state, orders, dice(gambling=[1, 6] * 9))
    rose = assert_event(result, "status.rose", "a")
    assert rose.args["sp"] == 2 + 2 + 1 + 1 + 9 + 1 == 16
    assert result.state["characters"]["a"]["sl"] == 5
    assert result.state["characters"]["a"]["sl_change"] == 1


def test_status_held_when_sp_reach_sl_but_not_rise() -> None:
    """EG §E: a character must accumulate SP equal to his SL to maintain it."""
    state = make_state(make_char("a", sl=3, club="red_phillips"))
    orders = give_orders(state, a="WEEK 1: BAWDYHOUSE")
    result = run_month(state, orders)
    held = assert_event(result, "status.held", "a")  # 2 club + 1 drink
    assert held.args["sp"] == 3
    assert result.state["characters"]["a"]["sl"] == 3


def test_status_falls_one_level_and_sp_do_not_carry_over() -> None:
    """EG §E: failure to keep up loses one SL; SP count for one month only."""
    state = make_state(make_char("a", sl=8))
    result = run_month(state)
    assert assert_event(result, "status.fell", "a").args["sl_after"] == 7
    nxt = run_month(result.state)
    assert nxt.state["characters"]["a"]["sl"] == 6
    assert result.state["characters"]["a"]["sp_month"] == -2


def test_support_paid_at_twice_sl() -> None:
    """EG §F: support costs twice SL a month."""
    state = make_state(make_char("a", sl=6, crowns=100))
    result = run_month(state)
    assert assert_event(result, "support.paid", "a").crowns == -12


def test_conspicuous_consumption_three_times_sl_for_one_sp() -> None:
    """EG §F: ConCon costs 3 x SL and gives 1 SP."""
    state = make_state(make_char("a", sl=6, crowns=100))
    result = run_month(state, give_orders(state, a="PREMONTH: SUPPORT CONSPICUOUS"))
    paid = assert_event(result, "support.paid", "a", level="conspicuous")
    assert (paid.crowns, paid.sp) == (-18, 1)


def test_concon_falls_back_to_normal_when_short() -> None:
    """EG §F: he pays normal support if he cannot afford conspicuous consumption."""
    state = make_state(make_char("a", sl=6, crowns=15))
    result = run_month(state, give_orders(state, a="PREMONTH: SUPPORT CONCON"))
    assert_event(result, "support.downgraded", "a")
    assert assert_event(result, "support.paid", "a", level="normal").crowns == -12


def test_unpaid_support_loses_one_sl() -> None:
    """EG §F: "A character who fails to do so loses one SL" (and status may cost another)."""
    state = make_state(make_char("a", sl=6, crowns=5))
    result = run_month(state)
    unpaid = assert_event(result, "support.unpaid", "a")
    assert unpaid.public and unpaid.args["sl_after"] == 5
    assert result.state["characters"]["a"]["sl"] == 4  # and then the monthly fall
    assert result.state["characters"]["a"]["crowns"] == 5


def test_companionship_penalty_escalates_and_resets() -> None:
    """EG §L: -2 SP the first month without company, an additional 2 each month after."""
    state = make_state(make_char("a", sl=2, crowns=1000))
    first = run_month(state)
    assert assert_event(first, "companionship.lacking", "a").sp == -2
    second = run_month(first.state)
    assert assert_event(second, "companionship.lacking", "a").sp == -4
    third = run_month(second.state)
    assert assert_event(third, "companionship.lacking", "a").sp == -6
    met = run_month(third.state, give_orders(third.state, a="WEEK 2: BAWDYHOUSE"))
    assert_event(met, "companionship.met", "a")
    no_event(met, "companionship.lacking")
    assert met.state["characters"]["a"]["lonely_months"] == 0


def test_allowance_is_income_before_support() -> None:
    """EG §B/§F: the monthly allowance arrives, then support is paid from it."""
    state = make_state(make_char("a", sl=4, crowns=0, allowance=50))
    result = run_month(state)
    ids = [e.id for e in result.events if e.actor == "a"]
    assert ids.index("income.allowance") < ids.index("support.paid")
    assert result.state["characters"]["a"]["crowns"] == 42
