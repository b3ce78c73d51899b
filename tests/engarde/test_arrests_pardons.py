"""EG §R arrests (the watch, the commanding general, a disguise), unpaid fines, and the
ends of disgrace (reference §9 PROPOSED: a royal pardon, beating the accuser)."""

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

FAVOUR = {"id": "x.1", "cls": 9, "source": "npc", "expires": None, "lady": None}
FRONT = {"location": "front", "front_reason": "volunteer", "front_until": 9}


def _charged(*others: dict, **accused: object) -> dict:
    """Month one: the Military Governor (a PC) charges b with a riot; month two's state."""
    state = make_state(make_char("g", sl=12, appointment="military_governor"),
                       make_char("b", sl=5, crowns=500, **accused), *others)
    result = run_month(state, give_orders(state, g="ANYTIME: CHARGE B WITH causing a riot"))
    assert_event(result, "trial.charged", "b", by="g")
    return result.state


def _at_front(state: dict, key: str = "b", **extra: object) -> dict:
    chars = dict(state["characters"])
    chars[key] = {**chars[key], **FRONT, **extra}
    return {**state, "characters": chars}


def _rest(state: dict, **texts: str) -> dict:
    return give_orders(state, **{k: "WEEK 4: REST" for k in state["characters"]} | texts)


def test_npc_general_arrests_at_the_front_and_he_is_tried() -> None:
    """EG §R: an NPC commanding general always makes the requested arrest."""
    state = _at_front(_charged())
    result = run_month(state, _rest(state), dice(trials=[3, 3, 2]))
    assert_event(result, "trial.arrested", "b", general=None)
    assert_event(result, "trial.verdict", "b")
    assert result.state["characters"]["b"]["location"] == "paris"


def test_influence_keeps_the_npc_general_from_arresting() -> None:
    """EG §R: '... unless influenced to the contrary': ON ARREST AGAINST <accused>."""
    state = _at_front(_charged(favours=[FAVOUR]))
    orders = _rest(state, b="ANYTIME: USE FAVOUR 9 ON ARREST AGAINST B")
    result = run_month(state, orders, dice(trials=[1]))
    assert_event(result, "trial.arrest_refused", "b", reason="influence")
    no_event(result, "trial.verdict")
    assert [c["accused"] for c in result.state["charges"]] == ["b"]  # tried when arrested


def test_pc_general_decides_the_arrest() -> None:
    """EG §R: a PC commanding general decides (``arrest:<id>:<accused>``, default yes)."""
    general = make_char("gen", sl=14, regiment="km", rank="lieutenant_general", **FRONT)
    state = _at_front(_charged(general, regiment="km", rank="private"))
    state = {**state, "decisions": {"arrest:1:b": "no"}}
    result = run_month(state, _rest(state), dice(offices=[1] * 10))
    assert_event(result, "decision.applied", "gen", key="arrest:1:b", value="no")
    assert_event(result, "trial.arrest_refused", "b", reason="general", general="gen")
    no_event(result, "trial.verdict")


def test_disguised_as_a_frontier_private_he_cannot_be_arrested() -> None:
    """EG §R: forsaking his command, disguised as a private in a frontier regiment."""
    state = make_state(make_char("b", regiment="km", rank="captain", **FRONT))
    result = run_month(state, give_orders(state, b="ANYTIME: DISGUISE AS PRIVATE"))
    assert_event(result, "front.disguised", "b", regiment="King's Musketeers")
    b = result.state["characters"]["b"]
    assert (b["regiment"], b["rank"], b["disguised"]) == ("fr", "private", True)
    charged = _at_front(_charged(), regiment="fr", rank="private", disguised=True,
                        front_reason="frontier", front_until=None)
    hidden = run_month(charged, _rest(charged))
    assert_event(hidden, "trial.arrest_refused", "b", reason="disguised")
    no_event(hidden, "trial.verdict")


def test_the_watch_arrests_a_crime_seen_in_the_act() -> None:
    """EG §R: the GM records what the watch saw (``watch:<accused>``): charged at once."""
    state = make_state(make_char("b"), make_char("c"))
    state["decisions"] = {"watch:b": "Causing a Riot"}
    result = run_month(state, _rest(state))
    assert_event(result, "trial.caught", "b", crime="causing a riot", gm=True)
    assert_event(result, "trial.charged", "b", authority="watch")
    assert result.state["decisions"] == {}


def test_a_killing_without_cause_is_murder_before_the_watch() -> None:
    """Reference §6 + EG §R: to the death, with no cause (the GM's default), is murder."""
    start = make_state(make_char("a"), make_char("b", endurance=8))
    state = run_month(start, give_orders(start, a="ANYTIME: CHALLENGE B TO THE DEATH")).state
    result = run_month(state, _rest(state), dice(duels=[6, 1, 3, 6, 1, 6]))
    assert_event(result, "duel.killed", "b", by="a")
    assert_event(result, "trial.caught", "a", victim="b")
    assert_event(result, "trial.charged", "a", crime="murder", authority="watch")


def test_an_unpaid_fine_becomes_a_debt_to_the_court() -> None:
    """EG §R: 'Bad debtors must still pay': what he cannot pay is owed to the court."""
    state = _charged()
    state["characters"]["b"]["crowns"] = 50
    result = run_month(state, _rest(state), dice(trials=[6, 6, 2]))
    sentence = assert_event(result, "trial.sentence", "b", fine=200, costs=100)
    owed = 300 - sentence.args["paid"]
    assert owed > 0 and result.state["characters"]["b"]["crowns"] == 0
    assert_event(result, "trial.fine_debt", "b", amount=owed)
    loan = result.state["loans"][0]
    assert (loan["lender"], loan["amount"], loan["borrower"]) == ("court", owed, "b")
    parsed = ENGINE.parse_orders("ANYTIME: REPAY ALL TO COURT", result.state, "b", _TABLES)
    assert parsed.normal_form == ("ANYTIME: REPAY ALL TO COURT",)


def test_royal_pardon_with_influence_ends_a_disgrace_but_not_a_debts() -> None:
    """Reference §9 (c), PROPOSED: the King pardons on 7 on 1d6: only with favours."""
    state = make_state(make_char("a", sl=6, disgraced="ignored_pregnancy", favours=[FAVOUR]),
                       make_char("d", disgraced="debt"))
    orders = give_orders(state, a="ANYTIME: USE FAVOUR 9 ON PARDON FOR A\n"
                                  "ANYTIME: PETITION FOR PARDON",
                         d="ANYTIME: PETITION FOR PARDON")
    result = run_month(state, orders, dice(offices=[6]))
    assert_event(result, "honour.restored", "a", how="pardon")
    assert result.state["characters"]["a"]["disgraced"] is None
    assert_event(result, "honour.pardon_refused", "d", reason="debt")


def test_beating_the_accuser_in_a_duel_ends_the_disgrace() -> None:
    """Reference §9 (e), PROPOSED: not for a conviction."""
    start = make_state(make_char("a", disgraced="divorced", accuser="b"), make_char("b"))
    state = run_month(start, give_orders(start, a="ANYTIME: CHALLENGE B")).state
    result = run_month(state, _rest(state), dice(duels=[5, 2, 4]))
    assert_event(result, "duel.fought", "a", winner="a")
    assert_event(result, "honour.restored", "a", how="duel")
    assert result.state["characters"]["a"]["accuser"] is None
