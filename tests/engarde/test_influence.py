"""EG §S influence: Tables A/B/C, combining, NPC decisions, bribery."""

from __future__ import annotations

import pytest

from moderator.dice import ScriptedDice
from moderator.games.engarde.influence import Push, favour_modifier, resolve_npc_decision
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


def favour(fid: str, cls: int, source: str = "npc", expires: int | None = None,
           lady: str | None = None) -> dict:
    return {"id": fid, "cls": cls, "source": source, "expires": expires, "lady": lady}


def test_athos_porthos_cyrano_example_cannot_succeed() -> None:
    """EG §S example: Athos needs 6 unmodified from a Minister (class 7 minimum);
    Porthos's class 8 favour gives -2, Cyrano's class 9 against +3: 6 - 2 + 3 = 7."""
    pushes = [Push("porthos", 8), Push("cyrano", 9, against=True)]
    decision = resolve_npc_decision("minister", 6, pushes, ScriptedDice([6]).stream("x"),
                                    _TABLES, "Inspector-General of Cavalry", "athos")
    assert decision.needed == 7
    assert not decision.success
    assert favour_modifier(9, 6) == 4  # "a class 9 favor ... +4 on the decisions of a general"
    assert favour_modifier(5, 6) == 0


@pytest.mark.parametrize(("position", "cls"), [("king", 9), ("cardinal", 8), ("minister", 7),
                                               ("general", 6), ("lieutenant_general", 5),
                                               ("brigadier_general", 4), ("colonel", 3),
                                               ("lieutenant_colonel", 2), ("captain", 1)])
def test_influence_table_a(position: str, cls: int) -> None:
    """EG §S Influence table A: the class of favour needed for a modification of 1."""
    assert _TABLES.society.position(position).cls == cls


@pytest.mark.parametrize(("sl", "cls"), [(7, 0), (8, 1), (9, 1), (11, 2), (13, 3), (15, 4),
                                         (16, 5), (19, 6), (20, 7), (23, 8), (24, 9), (30, 9)])
def test_influence_table_b(sl: int, cls: int) -> None:
    """EG §S Influence table B: favours by the character's SL."""
    assert _TABLES.society.sl_favour(sl) == cls


@pytest.mark.parametrize(("sl", "normal", "extra"), [(18, 9, 9), (17, 8, 9), (16, 7, 8),
                                                     (14, 6, 6), (12, 4, 5), (8, 1, 3),
                                                     (7, 0, 2), (3, 0, 1), (20, 9, 9)])
def test_influence_table_c(sl: int, normal: int, extra: int) -> None:
    """EG §S Influence table C (over SL 18 counts as 18)."""
    expect = tuple(c for c in (normal, extra) if c)
    assert _TABLES.society.lady_favours(sl, True) == expect
    assert _TABLES.society.lady_favours(sl, False) == tuple(c for c in (normal,) if c)


def test_sl_favour_at_season_start_lapses_at_season_end() -> None:
    """EG §S: SL favours once per season, not saved beyond it (seasons PROPOSED)."""
    state = make_state(make_char("a", sl=12), month=4)
    result = run_month(state, {}, dice())
    got = result.state["characters"]["a"]["favours"]
    assert got == [favour("a.1", 3, "sl", 3)]
    later = make_state(dict(result.state["characters"]["a"], sl=12), turn=4, month=7)
    lapsed = run_month(later, {}, dice())
    assert_event(lapsed, "favour.lapsed", "a", count=1)


def test_mistress_favours_once_a_year_and_lost_with_her() -> None:
    """EG §S: mistresses give Table C favours once a year, saved for the affair."""
    state = make_state(make_char("a", sl=5, mistress="roxanne"), month=5, turn=2, ladies=[
        make_lady("roxanne", sl=10, influential=True, since=1)])
    result = run_month(state, {}, dice(mistress=[2, 1]))  # bored: she leaves
    received = [e for e in result.events if e.id == "favour.received"]
    assert [e.args["cls"] for e in received] == [3, 4]
    assert result.state["characters"]["a"]["favours"] == []  # gone with her
    assert result.state["ladies"].get("roxanne") is None


def test_combining_two_favours() -> None:
    """EG §S: two favours of the same level make one of the next higher level."""
    state = make_state(make_char("a", favours=[favour("a.1", 3), favour("a.2", 3, "sl",
                                                                                  3)],
                                 favour_serial=2), month=5)
    result = run_month(state, give_orders(state, a="ANYTIME: COMBINE FAVOURS 3"), dice())
    assert result.state["characters"]["a"]["favours"] == [favour("a.3", 4, "combined", 3)]


def test_favours_push_royal_attendance_at_a_party() -> None:
    """EG §J/§S: 7 on 1d6 for royalty; a class 9 favour (Crown Prince level, PROPOSED)
    gives -2: a 5 brings them (+2 SP); the favour is spent once."""
    state = make_state(make_char("host", sl=10, club="hunters", crowns=900),
                       make_char("friend", sl=9, favours=[favour("f.1", 9)]), month=5)
    orders = give_orders(state, host="WEEK 1: HOST PARTY AT CLUB",
                         friend="ANYTIME: USE FAVOUR 9 ON PARTY FOR host")
    result = run_month(state, orders, dice(party=[5]))
    assert assert_event(result, "party.royals", "host").sp == 2
    assert_event(result, "favour.used", "friend", cls=9, decision="party")
    assert result.state["characters"]["friend"]["favours"] == []


def test_unused_favour_is_kept() -> None:
    """EG §S: a favour is expended only once used to influence a decision."""
    state = make_state(make_char("a", favours=[favour("a.1", 8)]), month=5)
    result = run_month(state, give_orders(state, a="ANYTIME: USE FAVOUR 8 ON FIRST NIGHT FOR"),
                       dice(influence=[1]))
    assert_event(result, "favour.used", "a")  # the first night is decided every month
    state2 = make_state(make_char("a", favours=[favour("a.1", 8)]), month=5)
    kept = run_month(state2, give_orders(state2, a="ANYTIME: USE FAVOUR 8 ON PARTY FOR a"),
                     dice())
    assert_event(kept, "favour.unused", "a")
    assert kept.state["characters"]["a"]["favours"] == [favour("a.1", 8)]


@pytest.mark.parametrize(("faces", "event", "crowns", "favours"), [
    ([3, 4], "bribe.accepted", -1000, 1),   # indirect, accepted
    ([5, 2], "bribe.wasted", -1000, 0),     # indirect, money taken, no favour
    ([1, 6], "bribe.accepted", -1000, 1),   # direct, accepted
    ([2, 1], "bribe.reported", 0, 0),       # direct: an honest man
])
def test_bribery(faces: list[int], event: str, crowns: int, favours: int) -> None:
    """EG §S Bribery: 1-2 direct, else indirect; then 3-6 accepted; 1-2 refused
    (indirect: money lost; direct: an honest man reports you)."""
    state = make_state(make_char("a", crowns=1500), month=5)
    result = run_month(state, give_orders(state, a="ANYTIME: BRIBE Minister CLASS 3"),
                       dice(influence=faces))
    assert assert_event(result, event, "a").crowns == crowns
    assert len(result.state["characters"]["a"]["favours"]) == favours
    if event == "bribe.reported":
        assert result.state["matters"][0]["kind"] == "crime"
        assert_event(result, "honour.reported", "a", crime="bribery")
    else:
        no_event(result, "honour.reported")


def test_a_favour_too_weak_for_royal_attendance_is_warned_on_the_receipt() -> None:
    """EG §S, Influence table A: royal attendance is the Crown Prince's decision (class 8
    for +1); a lower favour moves nothing but is spent.  Found by mail: Henri used a class 3
    favour ON PARTY FOR himself; the receipt was silent and the favour was spent."""
    from moderator.games.engarde import ENGINE
    from tests.engarde.conftest import _TABLES, make_char, make_state
    state = make_state(make_char("h", sl=10))
    weak = ENGINE.parse_orders("ANYTIME: USE FAVOUR 3 ON PARTY FOR H", state, "h", _TABLES)
    assert any("moves nothing" in e.message and "class 8" in e.message for e in weak.errors)
    strong = ENGINE.parse_orders("ANYTIME: USE FAVOUR 8 ON PARTY FOR H", state, "h", _TABLES)
    assert not any("moves nothing" in e.message for e in strong.errors)
