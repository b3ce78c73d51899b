"""The gazette's lines read as a reader expects: counts in words ("no cards", "1 hit"),
money in Shillings, the Battle Round named as the rulebook names it (FE 7.1)."""

from __future__ import annotations

from typing import Any

from tests.fief.conftest import EVENTS

NAMES = {"ann": "Ann", "Red": "Red (Ann)", "Blue": "Blue (Bob)"}


def line(macro: str, **args: Any) -> str:
    return str(getattr(EVENTS, macro)({"args": args}, NAMES))


def test_fe_2_0_a_player_who_draws_nothing_draws_no_cards() -> None:
    """FE 2.0, 2.3: the golden game printed "Bob draws 0 cards" (his hand was full) and
    "turns up 1 red card"."""
    assert line("card_drawn", player="ann", count=0, disasters=0) == "Ann draws no cards."
    assert line("card_drawn", player="ann", count=1, disasters=1) \
        == "Ann draws 1 card and turns up 1 Disaster."
    assert line("card_drawn", player="ann", count=2, disasters=2) \
        == "Ann draws 2 cards and turns up 2 Disasters."


def test_fe_4_1_purchases_and_hires_are_priced_in_shillings() -> None:
    """FE 4.1, 11.1: "buys 1 knight for 3" and "hires 1 Crossbowmen for 2"."""
    assert line("bought", family="Red", count=1, unit="knight", city=None, cost=3) \
        == "Red (Ann) buys 1 knight for 3 Shillings."
    assert line("hired", family="Red", count=1, city="York", cost=2) \
        == "Red (Ann) hires 1 crossbowman at York for 2 Shillings."


def test_fe_7_1_a_battle_round_is_called_so_and_its_hits_are_counted_in_words() -> None:
    """FE 7.1-7.3: "Round 1 at Lincoln" read as the game's Round; "(1)" and "for 0"
    were bare numbers; a Bombard's blank (FE 7.2) exploded it unsaid."""
    text = line("battle_round", round=1, city="Lincoln", attacker_faces=[1],
                attacker_hits=1, defender_faces=[0], defender_hits=0,
                projectiles=[{"side": "Red", "kind": "bombard", "faces": [2, 0], "hits": 2,
                              "exploded": 1},
                             {"side": "Blue", "kind": "archer", "faces": [0], "hits": 0}])
    assert text == ("Battle round 1 at Lincoln: Red (Ann)'s bombards roll ff blank for 2 "
                    "hits, a bombard explodes and a man-at-arms with it (FE 7.2); Blue (Bob)'s "
                    "archers roll blank for no hits; melee: the attacker rolls f (1 hit), the "
                    "defender blank (no hits).")
    assert "for 1 hit." in line("rebellion", city="York", cancelled=0, faces=[1], hits=1)
