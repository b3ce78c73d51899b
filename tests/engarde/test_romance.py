"""EG §L liaisons, pregnancy and its answers, proposals, weddings and births."""

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

HOME = {"area": "charonne", "kind": "fine_house", "tenure": "owned"}


def liaison_state(**lady: object) -> dict:
    return make_state(make_char("d", sl=8, crowns=900), make_char("p", sl=8, mistress="rox"),
                      ladies=[make_lady("rox", "Mlle Roxanne de Blois", sl=8, loyalty=4,
                                        since=0, **lady)])


def test_liaison_succeeds_on_loyalty_or_more_and_stays_secret() -> None:
    """EG §L: gift of her SL; 1d6 >= loyalty; the default is not to reveal."""
    state = liaison_state()
    result = run_month(state, give_orders(state, d="WEEKEND 2: LIAISE Roxanne"),
                       dice(mistress=[4, 6, 6]))
    assert assert_event(result, "liaison.gift", "d").crowns == -8
    assert_event(result, "liaison.success", "d", love=False)
    no_event(result, "liaison.revealed")
    assert_event(result, "companionship.lacking", "d")


def test_revealed_liaison_gives_company_and_cause() -> None:
    """EG §L, reference §10.3: revealing counts as company; her lover has cause."""
    state = liaison_state()
    result = run_month(state, give_orders(state, d="WEEKEND 2: LIAISE Roxanne GIFT DOUBLE "
                                                   "REVEAL"), dice(mistress=[3, 6, 6]))
    assert assert_event(result, "liaison.gift", "d").crowns == -16
    assert assert_event(result, "liaison.revealed", "d").public
    assert_event(result, "honour.cause", "p", offender="d", reason="liaison")
    assert_event(result, "companionship.met", "d")
    assert result.state["characters"]["d"]["public_liaisons"] == [1]


def test_fallen_in_love_takes_her_from_her_lover() -> None:
    """EG §L: a 6 may mean they have fallen madly in love (consequences PROPOSED)."""
    state = liaison_state()
    result = run_month(state, give_orders(state, d="WEEKEND 1: LIAISE Roxanne"),
                       dice(mistress=[6, 6, 6]))
    assert_event(result, "liaison.in_love", "d")
    assert_event(result, "mistress.lost", "p", reason="in_love")
    assert result.state["characters"]["d"]["mistress"] == "rox"


def test_failed_liaison_his_mistress_hears_of_it_on_a_six() -> None:
    """EG §L: a failed liaison: 1 in 6 the unsuccessful man's mistress chucks him."""
    state = make_state(make_char("d", sl=8, mistress="cel"), make_char("p", sl=8,
                                                                       mistress="rox"),
                       ladies=[make_lady("rox", sl=8, loyalty=5, since=0),
                               make_lady("cel", sl=5, since=0)])
    result = run_month(state, give_orders(state, d="WEEKEND 3: LIAISE Mlle Rox"),
                       dice(mistress=[2, 6, 6, 6]))
    assert_event(result, "liaison.failed", "d")
    assert_event(result, "mistress.lost", "d", reason="indiscretion")


def test_liaison_fails_when_her_lover_spends_the_weekend_with_her() -> None:
    """EG §L: proposing, marrying or one theatre weekend with her protects her."""
    state = liaison_state()
    orders = give_orders(state, d="WEEKEND 2: LIAISE Roxanne",
                         p="WEEKEND 2: THEATRE WITH MISTRESS")
    result = run_month(state, orders, dice(mistress=[6, 6]))
    assert_event(result, "liaison.guarded", "d")
    no_event(result, "liaison.gift")


def pregnant_state(**lady: object) -> dict:
    return make_state(make_char("d", sl=6, crowns=2000, mistress="rox"), turn=2, month=5,
                      ladies=[make_lady("rox", "Mlle Roxanne de Blois", sl=5, loyalty=4,
                                        since=1, pregnant_by="d", conceived=1, **lady)])


def test_pregnancy_chance_and_private_notice() -> None:
    """EG §L, reference §10.4: 5 % an encounter (PROPOSED); the father is told privately."""
    state = make_state(make_char("d", sl=6, mistress="rox"),
                       ladies=[make_lady("rox", sl=5, since=0)])
    orders = give_orders(state, d="WEEK 1: VISIT MISTRESS\nWEEK 2: VISIT MISTRESS")
    result = run_month(state, orders, dice(mistress=[6, 6], family=[10]))  # 10 <= 2 x 5 %
    notice = assert_event(result, "family.pregnant", "d")
    assert not notice.public and notice.args["due"] == 10
    assert result.state["ladies"]["rox"]["pregnant_by"] == "d"
    none = run_month(state, orders, dice(mistress=[6, 6], family=[11]))
    no_event(none, "family.pregnant")


def test_paternity_weighted_by_encounters() -> None:
    """EG §L: the father is chosen by the relative frequency of her meetings."""
    state = make_state(make_char("d", sl=8, crowns=900), make_char("p", sl=8, mistress="rox"),
                       ladies=[make_lady("rox", sl=8, loyalty=1, since=0)])
    orders = give_orders(state, d="WEEKEND 2: LIAISE Mlle Rox",
                         p="WEEK 1: VISIT MISTRESS\nWEEK 3: VISIT MISTRESS")
    result = run_month(state, orders, dice(mistress=[3, 6, 6], family=[1, 1]))
    assert_event(result, "family.pregnant", "d")  # 1d3 in key order: d has 1, p has 2-3
    other = run_month(state, orders, dice(mistress=[3, 6, 6], family=[1, 3]))
    assert_event(other, "family.pregnant", "p")


@pytest.mark.parametrize(("answer", "faces", "event", "crowns", "disgraced", "stays"), [
    ("PAY OFF", [3], "family.paid_off", -500, None, False),
    ("PAY OFF", [4], "family.told_all", 0, "pregnancy_scandal", False),
    ("ASSASSINS", [2], "family.assassinated", -500, None, False),
    ("ASSASSINS", [1], "family.assassin_pity", -500, None, False),
    ("ACKNOWLEDGE", [], "family.acknowledged", 0, None, True),
    ("IGNORE", [], "honour.disgraced", 0, "ignored_pregnancy", False),
])
def test_answers_to_a_pregnancy(answer: str, faces: list[int], event: str, crowns: int,
                                disgraced: str | None, stays: bool) -> None:
    """EG §L: pay off (1d6 < loyalty), assassins (pity 1 in 6), acknowledge, ignore."""
    state = pregnant_state()
    orders = give_orders(state, d=f"ANYTIME: PREGNANCY Roxanne {answer}")
    result = run_month(state, orders, dice(family=faces, mistress=[6, 6]))
    assert assert_event(result, event, "d").crowns == crowns
    assert result.state["characters"]["d"]["disgraced"] == disgraced
    assert ("rox" in result.state["ladies"]) is stays
    if event == "family.assassin_pity":
        assert result.state["matters"][0]["args"]["crime"] == "murder"


def test_the_receipt_warns_of_a_pregnancy_answer_with_no_news_to_answer() -> None:
    """EG §L: a lady with child tells the father, who answers next month.  An answer with no
    such news was accepted silently; the turn then skipped it ('no news of a child')."""
    state = pregnant_state()
    assert not ENGINE.parse_orders("ANYTIME: PREGNANCY Roxanne ACKNOWLEDGE", state, "d",
                                   _TABLES).errors
    state["ladies"]["rox"].update(pregnant_by=None, conceived=None)
    parsed = ENGINE.parse_orders("ANYTIME: PREGNANCY Roxanne ACKNOWLEDGE", state, "d", _TABLES)
    assert [e.message for e in parsed.errors] == [
        "Mlle Roxanne de Blois has sent you no news of a child: there is nothing to answer, "
        "and the answer will not be carried out (EG §L)"]


def test_assassins_pity_one_in_three_if_beautiful() -> None:
    """EG §L: 1 in 3 if she is Beautiful."""
    state = pregnant_state(beautiful=True)
    result = run_month(state, give_orders(state, d="ANYTIME: PREGNANCY Roxanne ASSASSINS"),
                       dice(family=[2]))
    assert_event(result, "family.assassin_pity", "d")


def test_no_answer_is_ignoring_her() -> None:
    """EG §L: "Any cad who ignores a pregnant mistress is automatically disgraced"."""
    result = run_month(pregnant_state(), {}, dice(mistress=[6, 6]))
    assert_event(result, "family.ignored", "d")
    assert result.state["characters"]["d"]["disgraced"] == "ignored_pregnancy"
    assert_event(result, "honour.disgraced", "d", sl_after=5)  # PROPOSED: -1 SL at once


def test_proposal_after_six_months_and_jilt() -> None:
    """EG §L: six months steady; gift 3 x her SL; 1d6 <= loyalty; refused: 1 in 6 jilt."""
    state = make_state(make_char("d", sl=6, crowns=900, mistress="rox"), turn=7, month=10,
                       ladies=[make_lady("rox", sl=5, loyalty=3, since=1)])
    yes = run_month(state, give_orders(state, d="WEEKEND 1: PROPOSE"), dice(mistress=[3, 6, 6]))
    assert assert_event(yes, "proposal.gift", "d").crowns == -15
    assert_event(yes, "proposal.accepted", "d")
    assert yes.state["ladies"]["rox"]["engaged"] == 8
    jilted = run_month(state, give_orders(state, d="WEEKEND 1: PROPOSE"), dice(mistress=[4, 6]))
    assert_event(jilted, "proposal.declined", "d")
    assert_event(jilted, "mistress.lost", "d", reason="jilted")
    early = dict(state, turn=5)
    soon = run_month(early, give_orders(early, d="WEEKEND 1: PROPOSE"), dice(mistress=[6, 6]))
    assert_event(soon, "proposal.refused", "d", reason="too_soon")


def test_publicised_liaisons_make_a_proposal_harder() -> None:
    """EG §L: the roll is modified upwards once per publicised liaison in six months."""
    state = make_state(make_char("d", sl=6, crowns=900, mistress="rox",
                                 public_liaisons=[5, 6]), turn=7, month=10,
                       ladies=[make_lady("rox", sl=5, loyalty=3, since=1)])
    result = run_month(state, give_orders(state, d="WEEKEND 1: PROPOSE"),
                       dice(mistress=[2, 1, 6, 6]))
    assert_event(result, "proposal.declined", "d", modifier=2)


def test_wedding_cost_sp_sl_and_loyalty() -> None:
    """EG §L: cost >= combined SL, +1 SP per extra multiple; her SL rises to his; loyalty +3."""
    state = make_state(make_char("d", sl=9, crowns=900, mistress="rox", home=HOME), turn=8,
                       month=11, ladies=[make_lady("rox", sl=5, loyalty=3, since=1,
                                                   engaged=8)])
    result = run_month(state, give_orders(state, d="WEEKEND 2: MARRY x3"), dice())
    wedding = assert_event(result, "wedding.held", "d")
    assert (wedding.crowns, wedding.sp) == (-42, 2)
    rox = result.state["ladies"]["rox"]
    assert (rox["married"], rox["sl"], rox["loyalty"]) == (True, 9, 6)
    d = result.state["characters"]["d"]
    assert (d["wife"], d["mistress"]) == ("rox", None)
    assert_event(result, "companionship.met", "d")


def test_wedding_needs_a_house_and_a_missed_wedding_costs_both_an_sl() -> None:
    """EG §L: a house of rank >= her SL / 3; an announced wedding not held: both -1 SL."""
    state = make_state(make_char("d", sl=9, crowns=900, mistress="rox"), turn=8, month=11,
                       ladies=[make_lady("rox", sl=9, loyalty=3, since=1, engaged=8)])
    result = run_month(state, give_orders(state, d="WEEKEND 2: MARRY"), dice(mistress=[6, 6]))
    assert_event(result, "wedding.refused", "d", reason="house")
    assert_event(result, "wedding.missed", "d")
    assert result.state["ladies"]["rox"]["sl"] == 8


@pytest.mark.parametrize(("d100", "faces", "sex", "sp"), [
    (50, [1, 100, 100], "son", 6), (50, [2, 100, 100], "daughter", 3),
    (11, [1, 100, 100], "son", -6)])
def test_births_nine_months_after(d100: int, faces: list[int], sex: str, sp: int) -> None:
    """EG §L: his SL per son, half per daughter, lost if deformed (reference §10.5)."""
    state = make_state(make_char("d", sl=6, mistress="rox"), turn=10, month=1, ladies=[
        make_lady("rox", sl=5, since=1, pregnant_by="d", conceived=1, answered="acknowledge")])
    result = run_month(state, {}, dice(family=[d100, *faces], mistress=[6, 6]))
    birth = assert_event(result, "family.birth", "d", sex=sex)
    assert birth.sp == sp
    assert result.state["characters"]["d"]["children"][0]["sex"] == sex


def test_mother_dies_excuses_company_for_three_months() -> None:
    """EG §L: if the mother dies the father is exempt from company for three months."""
    state = make_state(make_char("d", sl=6, mistress="rox"), turn=10, month=1, ladies=[
        make_lady("rox", sl=5, since=1, pregnant_by="d", conceived=1, answered="acknowledge")])
    result = run_month(state, {}, dice(family=[2, 5]))
    assert_event(result, "family.mother_died", "d")
    assert_event(result, "family.stillbirth", "d")
    assert_event(result, "companionship.met", "d")
    assert result.state["characters"]["d"]["grieving_until"] == 12


def test_a_proposal_before_six_months_together_is_warned_on_the_receipt() -> None:
    """EG §L: "Proposals may be made as soon as the couple have been 'going steady' for at
    least six months".  Found by mail: Henri proposed in his second month with Gabrielle; the
    receipt was silent and the turn refused (too soon)."""
    from moderator.games.engarde import ENGINE
    from tests.engarde.conftest import _TABLES
    early = make_state(make_char("d", sl=8, crowns=900, mistress="rox"), turn=4,
                       ladies=[make_lady("rox", sl=8, since=2)])
    parsed = ENGINE.parse_orders("WEEKEND 1: PROPOSE", early, "d", _TABLES)
    assert any("a proposal needs 6" in e.message for e in parsed.errors)
    assert not parsed.hard_errors
    steady = dict(early, turn=8)
    parsed = ENGINE.parse_orders("WEEKEND 1: PROPOSE", steady, "d", _TABLES)
    assert not any("a proposal needs" in e.message for e in parsed.errors)
