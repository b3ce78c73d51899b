"""EG §R prosecutions and trials; reference §9 disgrace (PROPOSED); EG §L divorce."""

from __future__ import annotations

import pytest

from moderator.games.engarde import ENGINE
from tests.engarde.conftest import (
    _TABLES,
    assert_event,
    dice,
    give_orders,
    make_char,
    make_lady,
    make_state,
    no_event,
    run_month,
)

FAVOUR = {"id": "x.1", "cls": 9, "source": "npc", "expires": None, "lady": None}


@pytest.mark.parametrize(("sl", "needs"), [(1, 4), (3, 4), (4, 7), (7, 7), (8, 9), (12, 9),
                                            (13, 11), (20, 11)])
def test_conviction_table_by_sl(sl: int, needs: int) -> None:
    """EG §R: 2d6 to convict: SL 3 -> 4, 4-7 -> 7, 8-12 -> 9, 13+ -> 11 (SL 1-2 as SL 3)."""
    assert _TABLES.army.to_convict(sl) == needs


def _charged(**accused: object) -> dict:
    """Month one: the Military Governor (a PC) charges b with a riot; it is published."""
    gov = make_char("g", sl=12, appointment="military_governor")
    state = make_state(gov, make_char("b", sl=5, crowns=500, club="frog_and_peach", **accused),
                       make_char("c", sl=6), make_char("d", sl=2))
    result = run_month(state, give_orders(state, g="ANYTIME: CHARGE B WITH causing a riot"))
    charged = assert_event(result, "trial.charged", "b", by="g")
    assert charged.public  # EG §R: published before the trial
    no_event(result, "trial.verdict")  # the trial is next month
    return result.state


def _orders(state: dict, **texts: str) -> dict:
    return give_orders(state, **{k: "WEEK 4: REST" for k in "gbcd"} | texts)


def test_witnesses_conviction_default_sentence_and_disgrace() -> None:
    """EG §R: +1 per qualified prosecution witness (SL >= the accused's); an unqualified one
    counts nothing; default sentence (offices.toml riot: 1d6 x 100, 1 month) + 100 costs."""
    state = _charged()
    orders = _orders(state, c="ANYTIME: TESTIFY AGAINST B", d="ANYTIME: TESTIFY AGAINST B")
    result = run_month(state, orders, dice(trials=[3, 3, 2]))
    assert_event(result, "trial.witness", "c", qualified="sl")
    assert_event(result, "trial.witness", "d", qualified=None)
    verdict = assert_event(result, "trial.verdict", "b", convicted=True)
    assert (verdict.args["modifier"], verdict.args["needs"]) == (1, 7)
    sentence = assert_event(result, "trial.sentence", "b", fine=200, prison=1)
    assert sentence.crowns == -300
    assert_event(result, "honour.disgraced", "b", reason="conviction")
    assert_event(result, "decision.applied", "b", key="sentence:1:b", recorded=False)
    b = result.state["characters"]["b"]
    assert (b["prison_until"], b["convictions"], b["club"]) == (result.state["turn"], 1, None)
    jailed = run_month(result.state, _orders(result.state, b="WEEK 1: BAWDYHOUSE"))
    no_event(jailed, "bawdyhouse.visit")  # EG §R: no actions in prison
    assert_event(jailed, "trial.released", "b")


def test_defence_witness_and_sentence_from_the_gm() -> None:
    """EG §R: -1 per defence witness in a civil trial; the GM's sentence replaces the default."""
    state = _charged()
    state["decisions"] = {"sentence:1:b": "fine=50,prison=0,disgrace=no,costs=no",
                          "plea:1:b": "2"}
    orders = _orders(state, c="ANYTIME: TESTIFY FOR B")
    result = run_month(state, orders, dice(trials=[3, 3]))
    verdict = assert_event(result, "trial.verdict", "b", convicted=True)
    assert verdict.args["modifier"] == 1  # -1 witness +2 witty plea
    assert assert_event(result, "trial.sentence", "b").crowns == -50
    no_event(result, "honour.disgraced")


def test_npc_prosecutor_needs_influence_and_nobles_accuse_nobles() -> None:
    """EG §R/§S: an NPC Military Governor acts on 7 on 1d6: only with favours."""
    state = make_state(make_char("a", favours=[FAVOUR]), make_char("b"), make_char("n", noble=True))
    plain = run_month(state, give_orders(state, a="ANYTIME: CHARGE B WITH blackmail"),
                      dice(trials=[6]))
    assert_event(plain, "trial.charge_refused", "a", reason="roll")
    pushed = run_month(state, give_orders(state, a="ANYTIME: USE FAVOUR 9 ON CHARGE FOR B\n"
                                                   "ANYTIME: CHARGE B WITH blackmail"),
                       dice(trials=[3]))  # class 9 at General level (6): -4 -> needs 3
    assert_event(pushed, "trial.charged", "b", by="a")
    noble = run_month(state, give_orders(state, a="ANYTIME: CHARGE N WITH blackmail"))
    assert_event(noble, "trial.charge_refused", "a", reason="noble")


def test_royal_warrant_minus_three_and_pc_judge_verdict() -> None:
    """EG §R: a titled noble's warrant (6 on 1d6) takes 3 off the number to convict;
    a PC Minister of State's verdict is his (GM decision 'verdict:')."""
    lord = make_char("l", sl=10, noble=True, title="baron")
    judge = make_char("j", sl=14, appointment="minister_of_state")
    state = make_state(lord, judge, make_char("b", sl=5))
    first = run_month(state, give_orders(state, l="ANYTIME: REQUEST WARRANT AGAINST B"),
                      dice(trials=[6]))
    assert_event(first, "trial.charged", "b", warrant=True)
    nxt = first.state
    nxt["decisions"] = {"verdict:1:b": "innocent"}
    orders = give_orders(nxt, l="WEEK 4: REST", j="WEEK 4: REST", b="WEEK 4: REST")
    result = run_month(nxt, orders, dice(trials=[2, 2]))
    verdict = assert_event(result, "trial.verdict", "b", convicted=False, judge="j")
    assert verdict.args["needs"] == 4  # 7 - 3


def test_reported_crime_becomes_a_charge_and_a_mistrial() -> None:
    """EG §S/§R: an honest man's report is a charge; guilty as sin yet acquitted: the
    Minister of State declares a mistrial on 3+ and the case is tried again."""
    state = make_state(make_char("b", sl=5), make_char("c", sl=6), make_char("e", sl=7))
    state["matters"] = [{"kind": "crime", "turn": 0, "parties": ["b"],
                         "args": {"crime": "bribery"}}]
    first = run_month(state, {}, dice())
    assert_event(first, "trial.charged", "b", authority="report")
    orders = give_orders(first.state, b="WEEK 4: REST", c="ANYTIME: TESTIFY AGAINST B",
                         e="ANYTIME: TESTIFY AGAINST B")
    result = run_month(first.state, orders, dice(trials=[1, 1, 4]))
    assert_event(result, "trial.verdict", "b", convicted=False)
    assert_event(result, "trial.mistrial", "b")
    assert result.state["charges"][0]["retrial"] is True


def test_divorce_by_the_husband_and_a_champion_for_the_wife() -> None:
    """EG §L: after public adultery the innocent party may sue; the Pope needs 7 (influence);
    a wife's champion rolls as for a liaison; a husband divorced by his wife is disgraced."""
    wife = make_lady("w", loyalty=3, married=True, since=1)
    husband = make_char("h", wife="w", favours=[FAVOUR])
    state = make_state(husband, make_char("c", favours=[dict(FAVOUR, id="c.1")]), ladies=[wife])
    state["matters"] = [{"kind": "adultery", "turn": 1, "parties": ["h"],
                         "args": {"lady": "w", "guilty": "wife"}}]
    sued = run_month(state, give_orders(state, h="ANYTIME: USE FAVOUR 9 ON DIVORCE FOR H\n"
                                                 "ANYTIME: SUE FOR DIVORCE"),
                     dice(offices=[6]))
    assert_event(sued, "divorce.granted", "h", by_wife=False)
    assert sued.state["characters"]["h"]["wife"] is None
    state["matters"][0]["args"]["guilty"] = "husband"
    championed = run_month(state, give_orders(
        state, c="ANYTIME: USE FAVOUR 9 ON DIVORCE FOR H\nANYTIME: CHAMPION Mlle W"),
        dice(offices=[4, 6]))
    assert_event(championed, "divorce.granted", "h", by_wife=True)
    assert_event(championed, "honour.disgraced", "h", reason="divorced")


def test_the_receipt_warns_of_testimony_with_no_charge_on_record() -> None:
    """EG §R: a witness testifies at the trial, the month after the charge is published.
    Found by mail: Gaston's TESTIFY AGAINST Rene, with no charge against Rene, was accepted
    silently and vanished at the turn (no line on his sheet)."""
    state = _charged()
    assert not ENGINE.parse_orders("ANYTIME: TESTIFY AGAINST B", state, "c", _TABLES).errors
    parsed = ENGINE.parse_orders("ANYTIME: TESTIFY FOR C", state, "d", _TABLES)
    assert [e.message for e in parsed.errors] == [
        "no charge against him is on record: a witness testifies at the trial, in the month "
        "after the gazette publishes the charge (EG §R); this testimony will count for nothing"]
