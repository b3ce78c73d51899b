"""EG §L mistresses: the list, courting, rivals, support, SP, boredom, visits."""

from __future__ import annotations

import random

import pytest

from moderator.games.engarde import ladies
from tests.engarde.conftest import (
    assert_event,
    dice,
    give_orders,
    make_char,
    make_lady,
    make_state,
    no_event,
    run_month,
)

ROXANNE = make_lady("roxanne", "Mlle Roxanne de Blois", sl=8, loyalty=4)


def court(sl: int, lady_sl: int, faces: list[int], text: str = "WEEK 1: COURT Roxanne",
          **lady: object):
    state = make_state(make_char("d", sl=sl, crowns=2000),
                       ladies=[make_lady("roxanne", "Mlle Roxanne de Blois", sl=lady_sl,
                                         **lady)])
    return run_month(state, give_orders(state, d=text), dice(mistress=faces))


@pytest.mark.parametrize(("diff", "needed"), [(-6, 6), (-5, 5), (-4, 5), (-3, 4), (-1, 4),
                                              (0, 3), (2, 3), (3, 2), (9, 2)])
def test_courting_table_rows(diff: int, needed: int) -> None:
    """EG §L Courting table: his SL minus hers gives the roll needed on 1d6."""
    lady_sl = 10
    won = court(lady_sl + diff, lady_sl, [needed, 6, 6])  # the court, then boredom 2d6
    assert assert_event(won, "mistress.won", "d").args["needed"] == needed
    assert won.state["characters"]["d"]["mistress"] == "roxanne"
    if needed > 2:
        lost = court(lady_sl + diff, lady_sl, [needed - 1])
        assert_event(lost, "mistress.court_failed", "d", reason="roll")
        assert lost.state["characters"]["d"]["mistress"] is None


def test_courting_costs_three_times_her_sl_and_extra_adds_one() -> None:
    """EG §L: 3 x her SL; each further 3 x her SL adds +1 to the roll."""
    result = court(5, 8, [3, 6, 6], "WEEK 1: COURT Roxanne EXTRA 2")  # needs 4: 3 + 2
    assert assert_event(result, "mistress.courting", "d").crowns == -(24 + 48)
    assert_event(result, "mistress.won", "d", modifier=2)


def test_natural_one_always_fails() -> None:
    """EG §L: "on a roll of 1, regardless of modifiers, the mistress rejects the character"."""
    result = court(5, 8, [1], "WEEK 1: COURT Roxanne EXTRA 5")
    assert_event(result, "mistress.court_failed", "d", reason="natural")


def test_wealthy_lady_cannot_be_bought() -> None:
    """EG §L: courting a Wealthy mistress may not be modified by extra money."""
    result = court(5, 8, [3], "WEEK 1: COURT Roxanne EXTRA 2", wealthy=True)
    courting = assert_event(result, "mistress.courting", "d")
    assert courting.crowns == -24 and courting.args["extra_refused"] == 2
    assert_event(result, "mistress.court_failed", "d", modifier=0, needed=4)


def test_more_than_six_above_always_fails() -> None:
    """EG §L: attempts on mistresses more than 6 levels above always fail (and cost)."""
    result = court(3, 10, [6])
    assert_event(result, "mistress.court_failed", "d", reason="too_high")
    assert assert_event(result, "mistress.courting", "d").crowns == -30


def test_two_suitors_one_withdraws_in_favour_of_a_lower_man() -> None:
    """EG §L: withdrawing in favour of a lower SL costs the difference in SP."""
    state = make_state(make_char("athos", sl=12, crowns=900), make_char("jacques", sl=7),
                       ladies=[ROXANNE])
    orders = give_orders(state, athos="WEEK 1: COURT Roxanne WITHDRAW",
                         jacques="WEEK 1: COURT Roxanne")
    result = run_month(state, orders, dice(mistress=[6, 6, 6]))
    assert assert_event(result, "mistress.withdrew", "athos").sp == -5
    assert assert_event(result, "mistress.courting", "athos").crowns == -24  # spent anyway
    assert_event(result, "mistress.won", "jacques")


def test_two_suitors_neither_withdraws_cause_for_a_duel() -> None:
    """EG §L: neither withdraws: a duel is required (interim: nobody wins her);
    a rival who keeps a mistress is automatically indiscreet."""
    state = make_state(make_char("athos", sl=9, mistress="celestine"),
                       make_char("porthos", sl=9), ladies=[
                           ROXANNE, make_lady("celestine", "Mme Celestine Dupré", sl=5)])
    orders = give_orders(state, athos="WEEK 2: COURT Roxanne", porthos="WEEK 2: COURT Roxanne")
    result = run_month(state, orders, dice())
    assert_event(result, "honour.cause", "athos", offender="porthos", reason="rival_suitors")
    assert_event(result, "mistress.lost", "athos", reason="indiscretion")
    no_event(result, "mistress.won")
    matters = result.state["matters"]
    assert matters == [{"kind": "duel_cause", "turn": 1, "parties": ["athos", "porthos"],
                        "args": {"lady": "Mlle Roxanne de Blois", "reason": "rival_suitors"}}]


def test_failed_court_while_kept_indiscretion_on_six() -> None:
    """EG §L: unsuccessful courting while kept: 1d6, on a 6 his mistress tosses him out."""
    state = make_state(make_char("d", sl=5, mistress="celestine"), ladies=[
        ROXANNE, make_lady("celestine", "Mme Celestine Dupré", sl=5)])
    result = run_month(state, give_orders(state, d="WEEK 1: COURT Roxanne"),
                       dice(mistress=[2, 6]))
    assert_event(result, "mistress.lost", "d", reason="indiscretion")
    assert result.state["characters"]["d"]["mistress"] is None
    assert "celestine" not in result.state["ladies"]


def test_winning_dumps_the_old_mistress() -> None:
    """EG §L: one mistress at a time; a successful court dumps the first."""
    state = make_state(make_char("d", sl=8, mistress="celestine"), ladies=[
        ROXANNE, make_lady("celestine", "Mme Celestine Dupré", sl=5)])
    result = run_month(state, give_orders(state, d="WEEK 1: COURT Roxanne"),
                       dice(mistress=[5, 6, 6]))
    assert_event(result, "mistress.lost", "d", reason="dumped")
    assert result.state["characters"]["d"]["mistress"] == "roxanne"


def test_courting_another_players_mistress_minus_one_and_caught_with_her() -> None:
    """EG §L: -1 to court another player's mistress; caught if he is with her that week."""
    state = make_state(make_char("d", sl=8), make_char("p", sl=8, mistress="roxanne"),
                       ladies=[ROXANNE])
    orders = give_orders(state, d="WEEK 1: COURT Roxanne\nWEEK 2: COURT Roxanne",
                         p="WEEK 2: VISIT MISTRESS")
    result = run_month(state, orders, dice(mistress=[3, 6, 6]))
    assert_event(result, "mistress.court_failed", "d", modifier=-1, reason="roll")
    assert_event(result, "mistress.court_failed", "d", reason="caught")
    assert_event(result, "honour.cause", "p", offender="d", reason="courting_caught")


def test_support_three_times_her_sl_and_sp_for_a_higher_beautiful_mistress() -> None:
    """EG §L: support 3 x her SL; 1 SP + the SL difference if higher, +1 if Beautiful."""
    state = make_state(make_char("d", sl=5, mistress="roxanne"), ladies=[
        make_lady("roxanne", "Mlle Roxanne de Blois", sl=8, beautiful=True, since=0)])
    result = run_month(state, {}, dice(mistress=[6, 6]))
    assert assert_event(result, "mistress.support", "d").crowns == -24
    assert assert_event(result, "mistress.sp", "d").sp == 1 + 3 + 1


def test_wealthy_mistress_pays_him() -> None:
    """EG §L: no support for a Wealthy mistress; she pays 2 x (her SL - his) if higher."""
    state = make_state(make_char("d", sl=5, mistress="roxanne"), ladies=[
        make_lady("roxanne", sl=9, wealthy=True, since=0)])
    result = run_month(state, {}, dice(mistress=[6, 6]))
    assert assert_event(result, "mistress.gift", "d").crowns == 8
    no_event(result, "mistress.support")


def test_boredom_two_on_2d6_modified_by_sl_and_loyalty() -> None:
    """EG §L: bored on 2 on 2d6, -1 per SL she is above him; PROPOSED + (loyalty - 3)."""
    state = make_state(make_char("d", sl=5, mistress="roxanne"), ladies=[
        make_lady("roxanne", sl=7, loyalty=3, since=0)])
    bored = run_month(state, {}, dice(mistress=[2, 2]))  # 4 - 2 = 2: she leaves
    assert_event(bored, "mistress.lost", "d", reason="bored")
    stays = run_month(state, {}, dice(mistress=[2, 3]))
    no_event(stays, "mistress.lost")


def test_visit_meets_companionship_and_club_visit_with_her_is_free() -> None:
    """EG §L: visiting is a week's action unless combined with a club; she satisfies company."""
    state = make_state(make_char("d", sl=5, mistress="roxanne", club="frog_and_peach",
                                 lonely_months=2), ladies=[make_lady("roxanne", since=0)])
    result = run_month(state, give_orders(state, d="WEEK 1: CLUB; WITH MISTRESS"),
                       dice(mistress=[6, 6]))
    assert assert_event(result, "mistress.escorted", "d").crowns == -5
    assert_event(result, "companionship.met", "d")
    alone = run_month(state, {}, dice(mistress=[6, 6]))
    assert_event(alone, "companionship.lacking", "d", months=3)


def test_ladies_of_paris_list_is_drawn_one_per_character() -> None:
    """EG §L, reference §10.1: SL 3d6, B/I/W on 1-2 on 1d6, secret loyalty; names from data."""
    state = make_state(make_char("a"), make_char("b"))
    faces = [3, 4, 5, 1, 3, 6, 2, 38, 12, 6, 6, 6, 3, 4, 5, 4, 1, 1]
    result = run_month(state, {}, dice(ladies=faces))
    ladies = result.state["ladies"]
    assert list(ladies) == ["lady1", "lady2"]
    first = ladies["lady1"]
    assert (first["sl"], first["beautiful"], first["influential"], first["wealthy"],
            first["loyalty"]) == (12, True, False, False, 2)
    assert "Roxanne" in first["name"]
    assert ladies["lady2"]["sl"] == 18 and ladies["lady2"]["loyalty"] == 4
    second = run_month(result.state, {}, dice())
    assert list(second.state["ladies"]) == ["lady3", "lady4"]  # the unclaimed leave


def _probed(given: tuple[str, ...], family: tuple[str, ...], hon: tuple[str, ...],
            taken: set[str], g: int, f: int, key: str) -> str:
    """EG §L's name search as it was written first: step by step from the rolled pair."""
    total = len(given) * len(family)
    for step in range(total * len(hon)):
        index = (g * len(family) + f + step) % total
        title = hon[(g + f + step // total) % len(hon)]
        name = f"{title} {given[index // len(family)]} {family[index % len(family)]}"
        if name not in taken:
            return name
    return f"{hon[0]} {given[g]} {family[f]} ({key[4:]})"


@pytest.mark.parametrize("seed", range(6))
def test_free_names_give_the_names_the_step_by_step_search_gives(seed: int) -> None:
    """`FreeNames` (a "next free" forest, issue 16 goal 2: the step-by-step search made a
    5,000-character month's new ladies cost 35x a 1,000-character month's) gives, claim
    after claim, the name the plain search gives on the same rolls: from an empty list,
    a part-taken one (names taken before, some outside the tables), until every name is
    gone and the fallback names follow."""
    rng = random.Random(seed)
    given = tuple(f"G{i}" for i in range(rng.randint(1, 7)))
    family = tuple(f"F{i}" for i in range(rng.randint(1, 7)))
    hon = tuple(f"H{i}" for i in range(rng.randint(1, 3)))
    every = [f"{h} {g} {f}" for h in hon for g in given for f in family]
    taken = set(rng.sample(every, rng.randint(0, len(every)))) | {"Dame Nobody"}
    free = ladies.FreeNames(given, family, hon, taken)
    for serial in range(len(every) + 5):
        g, f, key = rng.randrange(len(given)), rng.randrange(len(family)), f"lady{serial}"
        expected = _probed(given, family, hon, taken, g, f, key)
        assert free.claim(g, f, key) == expected
        taken.add(expected)


@pytest.mark.parametrize(("given", "family", "hon"), [
    (("Anne", "Anne", "Marie"), ("Blois", "Tours"), ("Dame",)),  # one name spelled twice
    (("Anne",), ("Blois",), ("Dame", "Mme")),  # one pair
    (("Anne",), ("Blois",), ("Dame",)),  # one name in all
])
def test_free_names_on_tables_that_spell_a_name_twice_or_have_one_pair(
        given: tuple[str, ...], family: tuple[str, ...], hon: tuple[str, ...]) -> None:
    """EG §L on odd name tables (a GM may override them): a name the tables spell twice is
    taken at both places, and a single pair already taken is never given again."""
    every = [f"{h} {g} {f}" for h in hon for g in given for f in family]
    for taken_first in (set(), {every[0]}):
        taken = set(taken_first)
        free = ladies.FreeNames(given, family, hon, taken)
        for serial in range(len(every) + 3):
            g, f, key = serial % len(given), serial % len(family), f"lady{serial}"
            expected = _probed(given, family, hon, taken, g, f, key)
            assert free.claim(g, f, key) == expected
            taken.add(expected)
