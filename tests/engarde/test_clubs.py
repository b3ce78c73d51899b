"""EG §G clubs, §H carousing, §I guest status points."""

from __future__ import annotations

from tests.engarde.conftest import (
    assert_event,
    give_orders,
    make_char,
    make_state,
    no_event,
    run_month,
)


def test_join_is_automatic_when_qualified_and_pays_dues() -> None:
    """EG §G: qualified applicants are made members at once; dues are paid monthly."""
    state = make_state(make_char("a", sl=9, crowns=100))
    result = run_month(state, give_orders(state, a="ANYTIME: JOIN CLUB Hunter's\n"
                                                   "WEEK 1: CLUB; CAROUSE"))
    assert assert_event(result, "club.joined", "a").crowns == -20
    assert_event(result, "club.visit", "a", club="Hunter's")
    assert assert_event(result, "club.membership_sp", "a").sp == 6
    assert result.state["characters"]["a"]["club"] == "hunters"
    nxt = run_month(result.state)
    assert assert_event(nxt, "club.dues", "a").crowns == -20


def test_join_refused_below_minimum_sl() -> None:
    """EG §G: the main requirement is a minimum social level (Blue Gables: SL 7)."""
    state = make_state(make_char("a", sl=5))
    parsed_warning = give_orders(state, a="ANYTIME: JOIN CLUB The Blue Gables")
    result = run_month(state, parsed_warning)
    assert_event(result, "club.join_refused", "a", reason="sl")
    assert result.state["characters"]["a"]["club"] is None


def test_only_one_club_at_a_time() -> None:
    """EG §G: "A character may belong to only one club at a time"."""
    state = make_state(make_char("a", sl=9, club="red_phillips"))
    result = run_month(state, give_orders(state, a="ANYTIME: JOIN CLUB Hunter's"))
    assert_event(result, "club.join_refused", "a", reason="other_club")
    ok = run_month(state, give_orders(state, a="ANYTIME: RESIGN CLUB; JOIN CLUB Hunter's"))
    assert_event(ok, "club.resigned", "a")
    assert ok.state["characters"]["a"]["club"] == "hunters"


def test_resign_bars_rejoining_for_three_weeks() -> None:
    """EG §G: "Upon resigning, a player may not rejoin that club for three weeks"."""
    state = make_state(make_char("a", sl=12, club="hunters"))
    month = run_month(state, give_orders(state, a="ANYTIME: RESIGN CLUB\n"
                                                  "ANYTIME: JOIN CLUB Hunter's"))
    assert_event(month, "club.join_refused", "a", reason="barred")
    assert month.state["characters"]["a"]["club"] is None
    no_event(month, "club.membership_sp", "a")
    later = run_month(month.state, give_orders(month.state, a="ANYTIME: JOIN CLUB Hunter's"))
    assert_event(later, "club.joined", "a")


def test_unpaid_dues_expel_the_member() -> None:
    """EG §G: members must pay their dues to retain membership."""
    state = make_state(make_char("a", sl=12, crowns=30, club="bothwells"))
    result = run_month(state)  # support 24 first, then 30 dues: short
    assert_event(result, "club.expelled", "a")
    assert result.state["characters"]["a"]["club"] is None


def test_non_member_is_turned_away() -> None:
    """EG §G: no visiting a club unless a member or a member's guest."""
    state = make_state(make_char("a", sl=12))
    parsed = give_orders(state, a="WEEK 1: CLUB Bothwell's")
    result = run_month(state, parsed)
    assert_event(result, "club.refused_entry", "a")
    assert not result.state["characters"]["a"]["club"]


def test_guest_sp_rank_seven_when_no_club_is_open_to_him() -> None:
    """EG §I; reference §3: a guest who can join no club counts as rank 7."""
    state = make_state(make_char("host", sl=9, club="hunters"), make_char("g", sl=2))
    orders = give_orders(state, host="WEEK 1: CLUB; BRING G",
                         g="WEEK 1: CLUB Hunter's; GUEST OF Host")
    result = run_month(state, orders)
    assert assert_event(result, "club.guest", "g").sp == 7 - 2


def test_carousing_costs_sl_and_gives_one_sp() -> None:
    """EG §H: carousing costs CRs equal to SL and gains 1 SP."""
    state = make_state(make_char("a", sl=5, club="frog_and_peach"))
    result = run_month(state, give_orders(state, a="WEEK 3: CLUB; CAROUSE"))
    drink = assert_event(result, "carouse.drink", "a")
    assert (drink.crowns, drink.sp, drink.week) == (-5, 1, 3)


def test_joining_a_second_club_without_resigning_is_warned_on_the_receipt() -> None:
    """EG §G: "A character may belong to only one club at a time".  Found by mail: Jacques,
    of Red Phillips, wrote JOIN CLUB Frog and Peach; the receipt warned only of the SL and
    the turn refused him for belonging to another club."""
    from moderator.games.engarde import ENGINE
    from tests.engarde.conftest import _TABLES
    state = make_state(make_char("a", sl=9, club="red_phillips"))
    parsed = ENGINE.parse_orders("ANYTIME: JOIN CLUB Hunter's", state, "a", _TABLES)
    assert any("RESIGN CLUB" in e.message for e in parsed.errors)
    resigned = ENGINE.parse_orders("ANYTIME: RESIGN CLUB\nANYTIME: JOIN CLUB Hunter's", state,
                                   "a", _TABLES)
    assert not any("RESIGN CLUB" in e.message for e in resigned.errors)
