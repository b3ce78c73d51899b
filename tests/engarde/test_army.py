"""Reference §4 regiments (EG §C, §G, §N): joining, commissions, pay, duty, horses."""

from __future__ import annotations

import pytest

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


@pytest.mark.parametrize(("sl", "regiment", "needed"), [
    (7, "rfg", 5), (9, "rfg", 4), (15, "rfg", 1), (6, "rfg", None), (6, "cg", 5),
    (16, "cg", 0), (1, "pm", 5), (1, "13f", 5), (2, "13f", 4), (1, "53f", 4), (3, "gas", 3),
    (1, "fr", 0)])
def test_table_a_by_sl_band(sl: int, regiment: str, needed: int | None) -> None:
    """Reference §4.3 Table A: needed = 5 - (SL - first SL) // 2; '-' below the first SL."""
    assert _TABLES.army.table_a(sl, regiment) == needed


@pytest.mark.parametrize(("rank", "column", "min_sl", "price", "sp", "pay"), [
    ("private", 1, 7, 0, 6, 12), ("subaltern", 1, 8, 140, 7, 16), ("captain", 3, 7, 130, 6, 16),
    ("major", 10, 3, 80, 1, 12), ("lieutenant_colonel", 6, 6, 140, 6, 20),
    ("colonel", 2, 11, 230, 10, 28), ("subaltern", 4, 5, 110, 4, 10)])
def test_table_b_cells(rank: str, column: int, min_sl: int, price: int, sp: int,
                       pay: int) -> None:
    """Reference §4.4 Table B (S6 pay, recommended): min SL, price, SP, pay."""
    reg = next(r.key for r in _TABLES.army.regiments if r.column == column)
    army = _TABLES.army
    assert [army.cell(rank, reg, w) for w in ("min_sl", "price", "sp", "pay")] == \
        [min_sl, price, sp, pay]


def test_join_as_captain_pays_each_step_and_earns_pay_and_sp() -> None:
    """Reference §4.1: buy up to Major on entry, paying every rank's price in turn."""
    state = make_state(make_char("a", sl=9, crowns=1000))
    result = run_month(state, give_orders(state, a="ANYTIME: JOIN REGIMENT 13th Fusiliers AS "
                                                   "Captain"), dice(army=[5]))
    joined = assert_event(result, "regiment.joined", "a")
    assert joined.crowns == -(70 + 80)  # subaltern 70 + captain 80 in column 8
    pay = assert_event(result, "regiment.pay", "a")
    assert (pay.crowns, pay.sp) == (10, 2)
    a = result.state["characters"]["a"]
    assert (a["regiment"], a["rank"], a["horses"]) == ("13f", "captain", 1)
    assert_event(result, "horse.bought", "a", count=1)  # reference §4.5: captains keep one


def test_rejection_allows_only_lower_regiments_and_two_rejections_cost_one() -> None:
    """Reference §4.1: after a failure only lower-ranked regiments; every two rejections -1."""
    state = make_state(make_char("a", sl=6, crowns=500))
    result = run_month(state, give_orders(state, a="ANYTIME: JOIN REGIMENT Cardinal's Guard\n"
                                                   "ANYTIME: JOIN REGIMENT RFG\n"
                                                   "ANYTIME: JOIN REGIMENT 4th Arquebusiers"),
                       dice(army=[4, 1]))
    assert_event(result, "regiment.rejected", "a", reason="roll", regiment="Cardinal's Guard")
    assert_event(result, "regiment.rejected", "a", reason="lower_only")
    assert_event(result, "regiment.rejected", "a", reason="roll", regiment="4th Arquebusiers")
    assert result.state["characters"]["a"]["rejections"] == 2
    again = run_month(result.state, give_orders(result.state,
                                                a="ANYTIME: JOIN REGIMENT 4th Arquebusiers"),
                      dice(army=[2]))  # 4A needs 2 at SL 5; +1 for two rejections: 3
    assert_event(again, "regiment.rejected", "a", reason="roll")


def test_pc_colonel_decides_and_vacancies_limit_officers() -> None:
    """Reference §4.1/4.2: a PC colonel decides (GM decision 'admit:'); one colonel a regiment."""
    chief = make_char("c", sl=12, regiment="pm", rank="colonel")
    state = make_state(chief, make_char("a", sl=5, crowns=900))
    state["decisions"] = {"admit:pm:a": "no"}
    refused = run_month(state, give_orders(state, a="ANYTIME: JOIN REGIMENT PM"))
    assert_event(refused, "regiment.rejected", "a", reason="colonel")
    assert_event(refused, "decision.applied", "a", key="admit:pm:a", value="no", recorded=True)
    default = run_month(dict(state, decisions={}),
                        give_orders(state, a="ANYTIME: JOIN REGIMENT PM"))
    assert_event(default, "decision.applied", "a", value="yes", recorded=False)
    assert_event(default, "regiment.joined", "a")
    rich = make_state(chief, make_char("b", sl=14, crowns=2000, regiment="pm",
                                       rank="lieutenant_colonel"))
    no_slot = run_month(rich, give_orders(rich, b="ANYTIME: BUY COMMISSION Colonel"))
    assert_event(no_slot, "regiment.commission_refused", "b", reason="vacancy")


def test_buy_and_sell_commission() -> None:
    """Reference §4.4: the next rank costs its price; PROPOSED: a commission sells at cost."""
    state = make_state(make_char("a", sl=8, crowns=500, regiment="13f", rank="private"))
    bought = run_month(state, give_orders(state, a="ANYTIME: BUY COMMISSION Subaltern"))
    assert assert_event(bought, "regiment.commission", "a").crowns == -70
    sold = run_month(bought.state, give_orders(bought.state, a="ANYTIME: SELL COMMISSION"))
    assert assert_event(sold, "regiment.sold", "a").crowns == 70
    assert sold.state["characters"]["a"]["regiment"] is None


def test_duty_weeks_and_fine() -> None:
    """Reference §4.5: privates owe 2 weeks, subalterns 1; PROPOSED 10 CR a week, -2 SP."""
    state = make_state(make_char("p", regiment="13f", rank="private"),
                       make_char("s", regiment="13f", rank="subaltern"))
    result = run_month(state, give_orders(state, p="WEEK 1: REGIMENTAL DUTY",
                                          s="WEEK 2: REGIMENTAL DUTY"))
    missed = assert_event(result, "regiment.duty_missed", "p", missed=1)
    assert (missed.crowns, missed.sp) == (-10, -2)
    no_event(result, "regiment.duty_missed", "s")


def test_free_regimental_practice_and_horses_for_cavalry() -> None:
    """EG §N: free practice with the regimental weapon; reference §4.5 cavalry horses."""
    state = make_state(make_char("a", regiment="plld", rank="private", horses=1))
    result = run_month(state, give_orders(state, a="WEEK 1: PRACTICE sabre\n"
                                                   "WEEK 2: PRACTICE rapier\n"
                                                   "WEEK 3: REGIMENTAL DUTY\n"
                                                   "WEEK 4: REGIMENTAL DUTY"))
    assert assert_event(result, "practice.week", "a", weapon="sabre").crowns == 0
    assert assert_event(result, "practice.week", "a", weapon="rapier").crowns == -10
    assert assert_event(result, "horse.upkeep", "a").crowns == -5


def test_horse_guards_club_for_officers_of_dg_and_qoc() -> None:
    """EG §G (reference §3): the Horse Guards takes officers of the Horse Guards Brigade."""
    state = make_state(make_char("o", sl=3, regiment="dg", rank="subaltern", horses=1),
                       make_char("p", sl=3, regiment="dg", rank="private", horses=1))
    result = run_month(state, give_orders(state, o="ANYTIME: JOIN CLUB The Horse Guards",
                                          p="ANYTIME: JOIN CLUB The Horse Guards"))
    assert_event(result, "club.joined", "o")
    assert_event(result, "club.join_refused", "p", reason="requires")
