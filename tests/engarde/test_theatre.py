"""EG §O: theatre trips, first nights, boxes and long runs."""

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
from tests.engarde.test_templates_purity import ENV


def test_weekend_trip_one_sp_for_three_times_sl_once_a_month() -> None:
    """EG §O: a trip costs 3 x SL for 1 SP; further visits that month bring nothing."""
    state = make_state(make_char("a", sl=5))
    orders = give_orders(state, a="WEEKEND 2: THEATRE\nWEEKEND 3: THEATRE")
    result = run_month(state, orders)
    trips = [e for e in result.events if e.id == "theatre.trip"]
    assert [(e.crowns, e.sp) for e in trips] == [(-15, 1), (-15, 0)]


def test_first_night_flop() -> None:
    """EG §O: first night costs 6 x SL; a flop (1) is -3 SP."""
    state = make_state(make_char("a", sl=5))
    result = run_month(state, give_orders(state, a="WEEKEND 1: THEATRE FIRST NIGHT"),
                       dice(theatre=[1]))
    assert_event(result, "theatre.reception", None, outcome="flop")
    night = assert_event(result, "theatre.first_night", "a")
    assert (night.crowns, night.sp) == (-30, -3)
    assert result.state["theatre"] == {"play": 2, "long_run": False, "run_months": 0,
                                       "last_outcome": None, "box_holders": []}


def test_first_night_resounding_success_starts_a_long_run() -> None:
    """EG §O: a 6 is +4 SP and the play goes on for another month with no first night."""
    state = make_state(make_char("a", sl=5))
    result = run_month(state, give_orders(state, a="WEEKEND 1: FIRST NIGHT"), dice(theatre=[6]))
    assert assert_event(result, "theatre.first_night", "a").sp == 4
    assert_event(result, "theatre.run_continues")
    assert result.state["theatre"]["long_run"] is True
    warn = ENGINE.parse_orders("WEEKEND 1: THEATRE FIRST NIGHT", result.state, "a", _TABLES)
    assert warn.errors and "long run" in warn.errors[0].message
    nxt = run_month(result.state, {"a": warn.orders}, dice(theatre=[2]))
    assert_event(nxt, "theatre.no_first_night", "a")
    no_event(nxt, "theatre.reception")
    assert_event(nxt, "theatre.run_ends")
    assert nxt.state["theatre"]["play"] == 2


def test_gazette_says_once_that_the_play_runs_on() -> None:
    """EG §O: after a resounding success the gazette said 'Play no. 2 runs on into next
    month. Next month play no. 2 runs on, so there is no first night.'"""
    state = make_state(make_char("a", sl=5))
    result = run_month(state, give_orders(state, a="WEEKEND 1: FIRST NIGHT"), dice(theatre=[6]))
    ctx = ENGINE.newsletter_context(state, result.state, result.events, ["a"], _TABLES)
    gazette = ENV.get_template("engarde/gazette.md.j2").render(
        game={"name": "Paris", "kind": "engarde", "title": "En Garde!"},
        turn={"number": 1, "label": "April 1625"}, next_deadline=None,
        events=[e.to_dict() for e in result.events if e.public], ctx=ctx.gazette)
    theatre = gazette.split("## At the theatre")[1].split("##")[0]
    assert theatre.count("runs on") == 1, theatre
    assert "no first night" in theatre


def test_in_a_long_run_weekend_one_is_an_ordinary_evening_at_the_theatre() -> None:
    """EG §O: during a long run "there will be no first night that month", so
    'WEEKEND 1: THEATRE' is a plain trip; it was refused as 'weekend 1 is the first
    night', leaving no way to the theatre that weekend."""
    state = make_state(make_char("a", sl=5), theatre={
        "play": 2, "long_run": True, "run_months": 1, "last_outcome": "resounding_success",
        "box_holders": []})
    parsed = ENGINE.parse_orders("WEEKEND 1: THEATRE", state, "a", _TABLES)
    assert not parsed.hard_errors, parsed.hard_errors
    trip = assert_event(run_month(state, {"a": parsed.orders}), "theatre.trip", "a")
    assert (trip.crowns, trip.sp) == (-15, 1)
    standing = ENGINE.parse_orders("STANDING WEEKEND 1: THEATRE", state, "a", _TABLES)
    assert standing.hard_errors  # a standing order would meet a first night later


def test_box_during_a_long_run_original_owner_keeps_the_benefit() -> None:
    """EG §O: box 150 CR, +4 SP; in a long run repurchasing owners get the same benefit
    (+SL for a resounding success), new owners only the basic 4."""
    state = make_state(make_char("old", sl=6, crowns=1000), make_char("new", sl=6, crowns=1000))
    orders = give_orders(state, old="PREMONTH: BOX\nWEEKEND 1: THEATRE FIRST NIGHT")
    first = run_month(state, orders, dice(theatre=[6]))
    box = assert_event(first, "theatre.box_seen", "old")
    assert box.sp == 4 + 6 and assert_event(first, "theatre.box", "old").crowns == -150
    assert first.state["theatre"]["box_holders"] == ["old"]
    orders = give_orders(first.state, old="PREMONTH: BOX\nWEEKEND 2: THEATRE",
                         new="PREMONTH: BOX\nWEEKEND 3: THEATRE")
    second = run_month(first.state, orders, dice(theatre=[6]))
    assert assert_event(second, "theatre.box_seen", "old").sp == 4 + 6
    assert assert_event(second, "theatre.box_seen", "new").sp == 4
    assert_event(second, "theatre.run_continues", months=2)


def test_box_owner_who_never_attends_gains_nothing() -> None:
    """EG §O: "Box owners must attend the play at least once during the month"."""
    state = make_state(make_char("a", sl=6))
    result = run_month(state, give_orders(state, a="PREMONTH: BOX"), dice(theatre=[5]))
    assert_event(result, "theatre.box_unused", "a")
    no_event(result, "theatre.box_seen")


def test_box_success_gives_half_sl() -> None:
    """EG §O table: success (5) gives box owners +1/2 SL."""
    state = make_state(make_char("a", sl=7))
    result = run_month(state, give_orders(state, a="PREMONTH: BOX\nWEEKEND 4: THEATRE"),
                       dice(theatre=[5]))
    assert assert_event(result, "theatre.box_seen", "a").sp == 4 + 3


def test_trip_on_the_first_weekend_is_an_error() -> None:
    """EG §O: trips may be made on any weekend apart from the first."""
    state = make_state(make_char("a", sl=7))
    parsed = ENGINE.parse_orders("WEEKEND 1: THEATRE\nWEEKEND 2: THEATRE FIRST NIGHT", state,
                                 "a", _TABLES)
    assert [e.line for e in parsed.hard_errors] == [1, 2]
