"""EG §N practice, §J parties, §M bawdyhouse."""

from __future__ import annotations

from moderator.games.engarde import clubs
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


def test_four_weeks_of_practice_raise_expertise_for_that_weapon() -> None:
    """EG §N: every four weeks of practice (not necessarily consecutive) +1 Exp,
    costing Exp crowns a week outside a regiment."""
    state = make_state(make_char("a", sl=5, crowns=500))
    orders = give_orders(state, a="WEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE sabre\n"
                                    "WEEK 3: PRACTICE rapier")
    first = run_month(state, orders)
    assert [e.crowns for e in first.events if e.id == "practice.week"] == [-10, -10, -10]
    assert first.state["characters"]["a"]["practice_weeks"] == {"rapier": 2, "sabre": 1}
    second = run_month(first.state, give_orders(first.state, a="WEEKS 1-2: PRACTICE rapier"))
    assert_event(second, "practice.improved", "a", weapon="rapier", exp=11)
    a = second.state["characters"]["a"]
    assert a["expertise"]["rapier"] == 11 and a["expertise"]["sabre"] == 10
    assert a["practice_weeks"]["rapier"] == 0


def test_party_at_home_host_pays_drinks_and_gains_total_sl_over_seven() -> None:
    """EG §J: host pays carousing for all guests; SP = total SL present / 7; royal
    attendance needs 7 on 1d6 (rolled, always fails); EG §P: -1 SP per guest over the limit."""
    home = {"area": "les_batignoles", "kind": "apartment", "tenure": "rented"}  # limit 3
    guests = [make_char(k, sl=5) for k in ("b", "c", "d", "e")]
    state = make_state(make_char("host", sl=6, crowns=500, home=home), *guests)
    orders = give_orders(state, host="WEEK 2: HOST PARTY AT HOME",
                         **{g["key"]: "WEEK 2: PARTY Host; CAROUSE" for g in guests})
    result = run_month(state, orders, dice(party=[6]))
    held = assert_event(result, "party.held", "host")
    assert held.args["total_sl"] == 26 and held.sp == 26 // 7
    assert assert_event(result, "party.drinks", "host").crowns == -4 * 6
    assert assert_event(result, "party.over_limit", "host").sp == -1
    drink = assert_event(result, "carouse.drink", "b")
    assert (drink.crowns, drink.sp, drink.args["paid_by"]) == (0, 1, "host")
    assert [r for r in result.events if r.id == "party.royals"] == []


def test_party_bouncers_turn_away_the_excluded() -> None:
    """EG §J: excluding people means bouncers at 3 x the club's dues."""
    state = make_state(make_char("host", sl=9, club="hunters"), make_char("b", sl=5),
                       make_char("c", sl=5))
    orders = give_orders(state, host="WEEK 1: HOST PARTY AT CLUB; EXCLUDE C",
                         b="WEEK 1: PARTY Host", c="WEEK 1: PARTY Host")
    result = run_month(state, orders, dice(party=[1]))
    assert assert_event(result, "party.bouncers", "host").crowns == -60
    assert_event(result, "party.turned_away", "c")
    assert_event(result, "party.attended", "b")
    assert assert_event(result, "party.held", "host").args["guests"] == ["b"]


def test_club_party_guest_gets_guest_sp_and_carousing() -> None:
    """EG §J: party guests "only get status points for carousing and being at that
    club": a non-member guest at a club party gains EG §I's guest SP (highest club
    he could join minus the club's rank) as well as the carousing point."""
    state = make_state(make_char("host", sl=12, club="hunters"), make_char("b", sl=3),
                       make_char("c", sl=12, club="hunters"))
    orders = give_orders(state, host="WEEK 1: HOST PARTY AT CLUB",
                         b="WEEK 1: PARTY Host", c="WEEK 1: PARTY Host")
    result = run_month(state, orders, dice(party=[1]))
    club = _TABLES.club("hunters")
    expected = clubs.highest_joinable_rank(3, _TABLES) - club.rank
    assert expected > 0
    guest = assert_event(result, "club.guest", "b", club=club.name, host="host")
    assert guest.sp == expected
    assert assert_event(result, "carouse.drink", "b").sp == 1
    no_event(result, "club.guest", "c")  # a member is not his club's guest


def test_bawdyhouse_company_and_mandatory_drink() -> None:
    """EG §M: company costs SL, drink (mandatory) costs SL; EG §L: that is company."""
    state = make_state(make_char("a", sl=4, crowns=100))
    result = run_month(state, give_orders(state, a="WEEK 4: BAWDYHOUSE"))
    assert assert_event(result, "bawdyhouse.visit", "a").crowns == -4
    drink = assert_event(result, "carouse.drink", "a")
    assert (drink.crowns, drink.sp) == (-4, 1)
    assert_event(result, "companionship.met", "a")
