"""EG §K gambling (and §M: bawdyhouse gambling has no limit and no divisor)."""

from __future__ import annotations

from moderator.games.engarde import ENGINE
from tests.engarde.conftest import (
    _TABLES,
    assert_event,
    dice,
    give_orders,
    make_char,
    make_state,
    no_event,
    run_month,
)


def test_gambling_week_with_known_faces_and_divisor_bonus() -> None:
    """EG §K: win +stake +1 SP, lose -stake -1 SP, cut -half -1 SP; house wins ties;
    all the week's bets (cuts at half) / house divisor = bonus SP.

    Hunter's (limit 200, divisor 300); 4 wagers of 200, CUT 5:
    house 2 / player 5 -> won; house 3 / player 3 -> tie, lost;
    house 5 -> cut without rolling; house 1 / player 4 -> won.
    """
    state = make_state(make_char("a", sl=9, crowns=1000, club="hunters"))
    orders = give_orders(state, a="WEEK 1: CLUB Hunter's; GAMBLE 200 x4 CUT 5")
    result = run_month(state, orders, dice(gambling=[2, 5, 3, 3, 5, 1, 4]))
    session = assert_event(result, "gambling.session", "a")
    assert session.args | {} == {"venue": "Hunter's", "stake": 200, "won": 2, "lost": 1,
                                 "cut": 1, "net": 200 + 200 - 200 - 100}
    assert (session.crowns, session.sp) == (100, 2 - 1 - 1)
    bonus = assert_event(result, "gambling.bonus", "a")
    assert bonus.args["total"] == 700 and bonus.sp == 700 // 300


def test_bawdyhouse_gambling_has_no_limit_and_no_divisor() -> None:
    """EG §K/§M: "A bawdyhouse has no house limit"; no divisor bonus."""
    state = make_state(make_char("a", sl=3, crowns=5000))
    orders = give_orders(state, a="WEEK 1: BAWDYHOUSE; GAMBLE 1000 x1")
    result = run_month(state, orders, dice(gambling=[1, 2]))
    assert assert_event(result, "gambling.session", "a").crowns == 1000
    no_event(result, "gambling.bonus")


def test_house_limit_and_bothwells_minimum_are_parse_errors() -> None:
    """EG §K house limit; reference §3: Bothwell's minimum wager 100."""
    state = make_state(make_char("a", sl=12, club="bothwells"), make_char("b", sl=5,
                                                                       club="red_phillips"))
    low = ENGINE.parse_orders("WEEK 1: CLUB; GAMBLE 50 x2", state, "a", _TABLES)
    assert "the minimum wager at Bothwell's is 100" in low.hard_errors[0].message
    high = ENGINE.parse_orders("WEEK 1: CLUB; GAMBLE 60 x2", state, "b", _TABLES)
    assert "the house limit at Red Phillips is 50" in high.hard_errors[0].message
    many = ENGINE.parse_orders("WEEK 1: CLUB; GAMBLE 10 x10", state, "b", _TABLES)
    assert "wagers 1-9" in many.hard_errors[0].message


def test_a_club_whose_name_ends_in_s_reads_without_a_double_possessive() -> None:
    """EG §K: the receipt said "Hunter's's house limit is 200 a wager" (found by mail)."""
    state = make_state(make_char("a", sl=10, club="hunters"))
    error = ENGINE.parse_orders("WEEK 1: CLUB; GAMBLE 300 x2", state, "a", _TABLES)
    message = error.hard_errors[0].message
    assert "'s's" not in message
    assert message.startswith("the house limit at Hunter's is 200 a wager")


def test_gambling_more_than_he_holds_is_a_warning_and_stops_when_broke() -> None:
    """EG §K: he cannot stake what he does not have; the parser warns first."""
    state = make_state(make_char("a", sl=3, crowns=60))
    parsed = ENGINE.parse_orders("WEEK 1: BAWDYHOUSE; GAMBLE 50 x3", state, "a", _TABLES)
    assert not parsed.hard_errors and parsed.errors[0].severity.value == "warning"
    # support 6, company 3 + drink 3 -> 48 left: not enough for a 50 stake.
    result = run_month(state, parsed and {"a": parsed.orders}, dice(gambling=[]))
    assert_event(result, "gambling.stopped", "a", wager=1)
