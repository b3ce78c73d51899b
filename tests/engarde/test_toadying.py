"""EG §I: toadying, through the real order parser and adjudicator."""

from __future__ import annotations

from tests.engarde.conftest import (
    assert_event,
    events_for,
    give_orders,
    make_char,
    make_state,
    run_month,
    sp_of,
)
from tests.engarde.test_templates_purity import ENV


def cyrano_and_jacques() -> dict:
    return make_state(make_char("cyrano", "Cyrano", sl=14, club="bothwells"),
                      make_char("jacques", "Jacques", sl=4))


def test_rulebook_example_jacques_toadies_to_cyrano() -> None:
    """EG §I: "Jacques receives 5 SP for being at Bothwell's, since the highest club
    Jacques could join is Red Phillips (Bothwell's is club #1, Red Phillips is #6;
    6 - 1 = 5). Jacques receives another 5 SP for being Cyrano's guest (14 - 4 = 10 /
    2 = 5), and 1 more for carousing, for a total of 11 SP for the week. Cyrano loses
    2 SP for being seen in public with the likes of Jacques (per Toady table), but
    receives 1 SP for carousing; his week's total works out to -1 SP."
    """
    state = cyrano_and_jacques()
    orders = give_orders(
        state,
        jacques="WEEK 1: CLUB Bothwell's; GUEST OF Cyrano; TOADY Cyrano; CAROUSE",
        cyrano="week 1: club bothwells; bring Jacques; toady Jacques; carouse",
    )
    result = run_month(state, orders)
    assert sp_of(events_for(result, "jacques", week=1)) == 11
    assert sp_of(events_for(result, "cyrano", week=1)) == -1
    assert assert_event(result, "club.guest", "jacques").sp == 5
    assert assert_event(result, "toady.toadied", "jacques", patron="cyrano").sp == 5
    assert assert_event(result, "toady.patron", "cyrano", toady="jacques").sp == -2
    # EG §I: a guest of a higher host carouses at the host's cost level (SL 14).
    assert assert_event(result, "carouse.drink", "jacques").crowns == -14


def test_mismatched_toady_is_reported_to_both() -> None:
    """EG §I: "Any mismatch will result in the intended persons not meeting." """
    state = make_state(make_char("cyrano", "Cyrano", sl=14, club="bothwells"),
                       make_char("jacques", "Jacques", sl=12, club="bothwells"))
    orders = give_orders(state, jacques="WEEK 1: CLUB Bothwell's; TOADY Cyrano",
                         cyrano="WEEK 2: CLUB Bothwell's; TOADY Jacques")
    result = run_month(state, orders)
    week1 = assert_event(result, "mutual.no_show", "jacques", kind="toady", absent="cyrano",
                         waiting="jacques")
    assert week1.week == 1 and not week1.public
    assert_event(result, "mutual.no_show", "cyrano", kind="toady", absent="cyrano",
                 waiting="jacques")
    assert_event(result, "mutual.no_show", "cyrano", kind="toady", waiting="cyrano")
    assert not [e for e in result.events if e.id.startswith("toady.")]


def test_guest_without_host_is_turned_away_and_both_told() -> None:
    """EG §G: no visiting a club unless a member or a member's guest; §I mutual orders."""
    state = cyrano_and_jacques()
    orders = give_orders(state, jacques="WEEK 1: CLUB Bothwell's; GUEST OF Cyrano",
                         cyrano="WEEK 1: CLUB Bothwell's")
    result = run_month(state, orders)
    assert_event(result, "club.refused_entry", "jacques", host="cyrano")
    assert_event(result, "mutual.no_show", "cyrano", kind="guest", absent="cyrano")
    assert_event(result, "mutual.no_show", "jacques", kind="guest", absent="cyrano")


def test_equal_sl_toadies_both_gain_one() -> None:
    """EG §I Toady table 0-3: +1 (reading for equal SL: both are 'seen with an equal')."""
    state = make_state(make_char("a", sl=6), make_char("b", sl=6))
    orders = give_orders(state, a="WEEK 1: BAWDYHOUSE; TOADY B", b="WEEK 1: BAWDYHOUSE; TOADY A")
    result = run_month(state, orders)
    assert assert_event(result, "toady.patron", "a").sp == 1
    assert assert_event(result, "toady.patron", "b").sp == 1


def test_a_toady_turned_away_at_the_door_is_not_told_his_orders_did_not_match() -> None:
    """EG §I: both wrote TOADY <the other> for the same week and club, but the non-member
    was turned away at the door (EG §G).  Found playing by mail: both were told '...'s
    orders did not match', which sent the player hunting for a typo that was not there."""
    state = make_state(make_char("louis", "Louis", sl=4, club="red_phillips"),
                       make_char("jacques", "Jacques", sl=3))
    orders = give_orders(state, louis="WEEK 4: CLUB; TOADY Jacques",
                         jacques="WEEK 4: CLUB Red Phillips; TOADY Louis")
    result = run_month(state, orders)
    assert_event(result, "club.refused_entry", "jacques")
    for who in ("louis", "jacques"):
        event = assert_event(result, "mutual.no_show", who, kind="toady", waiting="louis",
                             absent="jacques")
        assert event.args.get("kept_away") is True
    line = str(ENV.get_template("engarde/events.md.j2").module.mutual_no_show(
        event.to_dict(), {"louis": "Louis", "jacques": "Jacques"})).strip()
    assert line == ("Louis expected Jacques (toady at Red Phillips), but Jacques never got in "
                    "(turned away at the door, or short of the money): they did not meet.")


def test_a_toady_whose_orders_named_someone_else_still_did_not_match() -> None:
    state = make_state(make_char("louis", "Louis", sl=4, club="red_phillips"),
                       make_char("jacques", "Jacques", sl=3))
    orders = give_orders(state, louis="WEEK 4: CLUB; TOADY Jacques",
                         jacques="WEEK 4: PRACTICE rapier")
    result = run_month(state, orders)
    event = assert_event(result, "mutual.no_show", "louis", kind="toady", absent="jacques")
    assert "kept_away" not in event.args
