"""Rule cases for Bribery, DWTK 13.4.20 (with 23.3 and 26), scripted dice.

The dealt game (seed 1, three players): Ann's PC Sir Charles (24, Status 1), Bob's
Baroness Eleanor (64), Cid's Knight William (26); NCs: Sir James (22, Status 4) Minister
of Justice, Sir Jeffrey (23) Ambassador to Sandarkan, Sir Robert (14) Minister of Trade,
Earl Maxwell (32).
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import bribery, counseling, problems, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.counsel import CounselOrder
from moderator.games.dwtk.orders.social import BribeOffer
from moderator.games.dwtk.state import OpenProblem, Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import TABLES, checked_court, events, react, with_player

ANN_PC, JAMES, JEFFREY, TRADE, MAXWELL = 24, 22, 23, 14, 32


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10)
    return c


def _orders(**texts: str) -> dict[str, TurnOrders]:
    return {k: TurnOrders.from_dict(parse_orders(t, TABLES).orders) for k, t in texts.items()}


def _counsel(text: str) -> tuple[CounselOrder, ...]:
    return _orders(x=text)["x"].counsels


# -- 13.4.20.1 taking bribes --------------------------------------------------------------


def test_a_solicited_bribe_comes_on_a_die_greater_than_the_amount() -> None:
    """13.4.20.1: an office holder's PC asks 3 IP; a 4 brings them, unseen by others."""
    c = _court(bribery=[4])
    c.offices["trade"] = str(ANN_PC)
    bribery.solicit(c, "ann", 3)
    assert c.players["ann"].ip == 13
    got = events(c, "bribe.solicited")[0]
    assert (got.args["result"], got.public) == ("received", False)
    assert not events(c, "justice.accused")


def test_a_solicited_bribe_at_or_below_the_amount_accuses_him_with_the_amount() -> None:
    """13.4.20.1, 23.3, 26: a 3 on a demand of 3: no IP, accused; +3 on the wrongdoing
    roll (a 6: a hearing) and +3 on the hearing roll too (-1 without Evidence): 1+1+2
    is below his Status 7 (titles and the Counselor card): innocent."""
    c = _court(bribery=[3], justice=[6, 1, 1])
    c.set_char(ANN_PC, counselor="monarchs_counselor-4", titles=4)  # a counselorship
    assert status.status(c, ANN_PC) == 7
    bribery.solicit(c, "ann", 3)
    assert c.players["ann"].ip == 10
    caught = events(c, "bribe.solicited")[0]
    assert (caught.args["result"], caught.public) == ("accused", True)
    wrongdoing, hearing = c.dice.log[1], c.dice.log[2]  # type: ignore[attr-defined]
    assert (wrongdoing.modifier, wrongdoing.total) == (3, 9)
    assert (hearing.modifier, hearing.total) == (2, 4)
    assert events(c, "justice.hearing")[0].args["result"] == "innocent"
    assert c.char(ANN_PC).charge == 0 and not c.char(ANN_PC).wrongdoer


def test_only_an_office_holder_or_counselor_solicits() -> None:
    """13.4.20.1: "A PC who holds an office or counselorship" — no die otherwise."""
    c = _court()
    with pytest.raises(Refused, match="no_office"):
        bribery.solicit(c, "ann", 2)


# -- 13.4.20.2 bribing officeholders -------------------------------------------------------


def test_an_accepted_bribe_is_paid_and_the_nc_is_bribed_once_a_turn() -> None:
    """13.4.20.2: a die at most the amount: accepted, the IP paid; each NC Office Holder
    can only be bribed successfully once per turn (Bob's offer is refused, no die)."""
    c = _court(bribery=[3])
    bribery.offer(c, "ann", BribeOffer(str(JAMES), 3))
    assert c.players["ann"].ip == 7
    assert (c.char(JAMES).bribed_by, c.char(JAMES).bribed_on) == ("ann", c.turn)
    assert not events(c, "bribe.offered")[0].public
    with pytest.raises(Refused, match="already_bribed"):
        bribery.offer(c, "bob", BribeOffer(str(JAMES), 5))


def test_rejected_above_the_amount_and_exposed_on_a_six_both_accused() -> None:
    """13.4.20.2: 4 on 3 IP: rejected, nothing lost; a 6 (even on 5 IP, PROPOSED): the NC
    and the PC who tendered it are accused, +5 on wrongdoing and hearing rolls.  Sir
    James: wrongdoing 1+5, hearing 1+1-1+5 >= 4, interrogation 2: he dies; Ann's PC
    (1+5 >= 1) hides rather than face the hearing (24.2)."""
    c = _court(bribery=[4, 6], justice=[1, 1, 1, 1, 1, 1])
    react(c, "ann", "IF ANYONE HEARS MINE THEN HIDE")
    bribery.offer(c, "ann", BribeOffer(str(JAMES), 3))
    assert events(c, "bribe.offered")[0].args["result"] == "rejected"
    assert c.players["ann"].ip == 10 and c.char(JAMES).bribed_by is None
    bribery.offer(c, "ann", BribeOffer(str(JAMES), 5))
    exposed = events(c, "bribe.offered")[1]
    assert (exposed.args["result"], exposed.public) == ("exposed", True)
    assert c.players["ann"].ip == 10
    accused = [(e.args["character"], e.args["cause"]) for e in events(c, "justice.accused")]
    assert accused == [(str(JAMES), "bribery"), (str(ANN_PC), "bribery")]
    log = c.dice.log  # type: ignore[attr-defined]
    assert [r.modifier for r in log if r.subsystem == "justice"][:2] == [5, 4]
    assert events(c, "justice.executed")[0].args["why"] == "interrogation"
    assert c.char(ANN_PC).situation is Situation.HIDING


def test_briber_and_bribee_in_the_same_country_and_a_henchman_may_tender() -> None:
    """13.4.20.2: the Ambassador to Sandarkan is abroad; Ann's PC at home may not bribe
    him, her henchman in Sandarkan may; a FAC who is no henchman may not."""
    c = _court(bribery=[2])
    with pytest.raises(Refused, match="not_same_country"):
        bribery.offer(c, "ann", BribeOffer(str(JEFFREY), 2))
    c.set_char(MAXWELL, owner="ann", location="sandarkan")
    with pytest.raises(Refused, match="not_a_henchman"):
        bribery.offer(c, "ann", BribeOffer(str(JEFFREY), 2, str(MAXWELL)))
    c.set_char(MAXWELL, henchman="henchman-3")
    bribery.offer(c, "ann", BribeOffer(str(JEFFREY), 2, str(MAXWELL)))
    assert events(c, "bribe.offered")[0].args["by"] == str(MAXWELL)
    assert c.char(JEFFREY).bribed_by == "ann"


def test_only_an_nc_office_holder_and_only_what_he_can_pay() -> None:
    """13.4.20.2: not a FAC, not an NC without an office; the IP must be there to pay."""
    c = _court()
    c.set_char(JAMES, owner="bob")
    for target in (str(JAMES), str(MAXWELL)):
        with pytest.raises(Refused, match="not_an_nc_office_holder"):
            bribery.offer(c, "ann", BribeOffer(target, 2))
    with pytest.raises(Refused, match="ip"):
        bribery.offer(c, "ann", BribeOffer(str(TRADE), 11))


def test_a_bribed_minister_modifies_the_next_turns_problem_once_as_ordered() -> None:
    """13.4.20.2, 7.6: the Minister of Trade may modify Pirates as a FAC could; bribed by
    Bob, he gives Bob's ``PROBLEM Pirates -`` at the next turn's Political Problems
    (PROPOSED: one roll), then no more; a bribe two turns old has lapsed."""
    c = _court(bribery=[1], problems=[3, 3])
    bribery.offer(c, "bob", BribeOffer(str(TRADE), 2))
    c.turn += 1
    c.problems = [OpenProblem("pirates")]
    orders = _orders(bob="PROBLEM Pirates -")
    problems.problems_phase(c, orders)
    first = [r for r in c.dice.log if r.subsystem == "problems"]  # type: ignore[attr-defined]
    assert first[0].modifier == -1
    used = events(c, "bribe.used")[0]
    assert (used.args["character"], used.args["sign"], used.public) == (str(TRADE), -1, False)
    c.problems = [OpenProblem("pirates")]
    problems.problems_phase(c, orders)
    assert [r for r in c.dice.log if r.subsystem == "problems"][1].modifier == 0  # type: ignore[attr-defined]
    c.set_char(TRADE, bribed_by="bob", bribed_on=c.turn - 2)
    assert bribery.briber(c, str(TRADE), "problem") is None


def test_a_bribed_nc_counsel_modifier_for_his_briber_only() -> None:
    """13.4.20.2, 15.7: Sir James (Minister of Justice) may modify Make An Example; bribed
    by Ann he gives her MODIFY - on Bob's counsel, and is spent; Ann's own counsel then
    gets nothing from him; an unbribed NC's modifier is ignored."""
    c = _court(bribery=[1], counsel=[3, 3, 3, 3, 3, 3])
    c.problems = [OpenProblem("lawlessness")]
    c.crown_event = "court_ball"
    for p in ("ann", "bob"):
        with_player(c, p, free_counsel=True)
    react(c, "ann", "IF AN OPPONENT COUNSELS ANYONE THEN MODIFY -")
    bribery.offer(c, "ann", BribeOffer(str(JAMES), 1))
    counseling.counsel_phase(c, "bob", _counsel("COUNSEL Dismiss The Minister Of Justice "
                                                "ON Lawlessness"))
    counseling.counsel_phase(c, "bob", _counsel("COUNSEL Make An Example ON Lawlessness "
                                                "NAMING Earl Maxwell"))
    counseling.counsel_phase(c, "ann", _counsel("COUNSEL Make An Example ON Lawlessness "
                                                "NAMING Earl Maxwell"))
    made = [e.args["modifier"] for e in events(c, "counsel.made")]
    assert made == [0, -1, 0]
    assert [e.args["player"] for e in events(c, "bribe.used")] == ["ann"]
