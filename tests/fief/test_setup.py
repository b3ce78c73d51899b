"""Setup and the muster (FE Setup, 13.7, 13.8; the PROPOSED start of fief-email.md §1.8)."""

from __future__ import annotations

import pytest

from moderator.dice import Dice
from moderator.games.fief import ENGINE
from tests.fief.conftest import TABLES, mustered, run, signed_up


def test_four_families_muster_one_a_region_with_their_start() -> None:
    """Setup: one male and one female noble each, 5 Shillings, a Stronghold, 1 Knight and
    3 Men-at-Arms in one city, one family a region; a START list is honoured in order."""
    state = mustered(4, {"ann": "Durham", "bob": "Berwick"})
    assert state["phase"] == "orders" and state["round"] == 1
    regions = set()
    for colour in ("Red", "Green", "Blue", "Yellow"):
        nobles = [n for n in state["nobles"].values() if n["family"] == colour]
        assert sorted(n["sex"] for n in nobles) == ["f", "m"]
        city = nobles[0]["city"]
        assert state["cities"][city]["troops"][colour] == {"knight": 1, "men_at_arms": 3}
        assert state["cities"][city]["building"] == "stronghold"
        regions.add(TABLES.region_of(city).number)
    assert len(regions) == 4
    assert state["cities"]["Durham"]["holder"] == "Red"
    assert state["cities"]["Berwick"]["holder"] != "Green"   # the Marches were taken
    assert all(p["cash"] == 5 for p in state["players"].values())


def test_setup_removes_three_of_each_sex_unseen() -> None:
    state = mustered(4)
    removed = [c for c in state["removed"] if c.startswith("Noble ")]
    assert len(removed) == 6
    in_play = len(state["nobles"]) + len(removed)
    piles = state["character_deck"] + state["character_discard"]
    in_deck = sum(c.startswith("Noble ") for c in piles
                  + [c for p in state["players"].values() for c in p["hand"]])
    assert in_play + in_deck == 20


def test_the_relics_lie_on_the_four_cathedral_cities() -> None:
    state = mustered(4)
    assert sorted(c for c, v in state["cities"].items() if v["relic"]) == [
        "Canterbury", "Exeter", "Norwich", "York"]


def test_two_players_each_play_two_families() -> None:
    """FE 13.7: two families each, one purse (10 Shillings), hands of 5."""
    state = mustered(2)
    assert [p["families"] for p in state["players"].values()] == [["Red", "Blue"],
                                                                 ["Green", "Yellow"]]
    assert all(p["cash"] == 10 for p in state["players"].values())
    assert len(state["families"]) == 4


def test_three_players_three_families() -> None:
    state = mustered(3)
    assert len(state["families"]) == 3


def test_one_player_cannot_start_and_five_cannot_join() -> None:
    state = signed_up(1)
    result = run(state, {}, Dice.for_turn(1, 1))
    assert result.state["phase"] == "muster"
    state = signed_up(4)
    with pytest.raises(ValueError):
        ENGINE.add_character(state, "eve", "Eve", TABLES, Dice.for_turn(1, 0))


def test_the_muster_reruns_byte_identically() -> None:
    assert mustered(4, seed=9) == mustered(4, seed=9)


def test_setup_a_start_not_granted_is_told_on_the_players_sheet() -> None:
    """FE Setup (one family a Region).  Found playing by mail: Bob wrote START Cardiff
    after Ann, Ann's family took Wales, and Bob's mustered at London with nothing on his
    sheet to say why."""
    state = signed_up(4)
    result = run(state, {"ann": "START Durham", "bob": "START Berwick"}, Dice.for_turn(1, 1))
    refused = [e for e in result.events if e.id == "order.refused"]
    assert [(e.actor, e.public) for e in refused] == [("bob", False)]
    reason = str(refused[0].args["reason"])
    assert reason.startswith("the Region of Berwick was taken by a family before Green in "
                             "the order of play (one family a Region, FE Setup): Green "
                             "musters at ")
