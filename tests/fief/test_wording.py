"""The gazette's lines read as a reader expects: counts in words ("no cards", "1 hit"),
money in Shillings, the Battle Round named as the rulebook names it (FE 7.1)."""

from __future__ import annotations

from typing import Any

from moderator.games.fief.views.context import gazette
from tests.fief.board import board
from tests.fief.conftest import ENV, EVENTS, TABLES

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


def test_fe_6_3_an_invader_army_marches_by_the_compass_in_words() -> None:
    """FE 6.3: "The Black Raven march S from Whitby to Lincoln": the compass point written
    out; FE 4.2: "builds a mill" -> the rulebook's Mill."""
    assert line("invaders_move", army="Black Raven", direction="S", **{"from": "Whitby"},
                to="Lincoln") == "The Black Raven march south from Whitby to Lincoln."
    assert line("built", family="Red", building="royal stronghold", city="York") \
        == "Red (Ann) builds a Royal Stronghold at York."


def test_fe_4_9_the_gazette_names_each_building_never_its_key() -> None:
    """FE 4.4, 4.9: the gazette's city table showed "royal" for a Royal Stronghold (the
    state's key) and lower-case "fortified city, mill"."""
    s = board()
    s.cities["York"].building = "royal"
    s.cities["Exeter"].building = "fortified"
    s.cities["Exeter"].mill = True
    ctx = gazette(s, TABLES, [])
    rows = {c["city"]: c for c in ctx["cities"]}
    assert rows["York"]["building"] == "Royal Stronghold"
    assert rows["Exeter"]["building"] == "Fortified City"
    text = ENV.get_template("fief/gazette.md.j2").render(
        game={"name": "G", "kind": "fief", "title": "Fief: England"}, turn={"number": 1,
        "label": "Round 1"}, next_deadline=None, events=[], next_label="Round 2", ctx=ctx,
        gm_notes=[], correction=None)
    assert "| Fortified City, Mill |" in text and "| Royal Stronghold |" in text


def test_fe_10_3_the_assassination_names_the_card_and_why_the_sponsor_bears_heresy() -> None:
    """FE 10.3: "Isabel is assassinated; Anabel bears the Heresy marker" did not say that
    Anabel was the sponsor of the ASSASSINATION card."""
    assert line("assassination", target="ann", sponsor="Red") == (
        "ASSASSINATION: Ann is slain; the sponsor, Red (Ann), bears the Heresy marker "
        "(FE 10.3).")


def test_fe_3_0_an_income_lists_only_what_paid_in_shillings() -> None:
    """FE 3.0-3.1: "Income 5: cities 3, mills 2, abbeys 0, tallage 0, tithe 0, queen 0"
    listed every source, "queen" as a key, and no money unit."""
    assert line("income", total=5, cities=3, mills=2, abbeys=0, tallage=0, tithe=0,
                queen=0, halved=False) == "Income 5 Shillings: cities 3, Mills 2."
    assert line("income", total=2, cities=0, mills=0, abbeys=0, tallage=0, tithe=0,
                queen=2, halved=False) == "Income 2 Shillings: Queen 2."
    assert line("income", total=0, cities=0, mills=0, abbeys=0, tallage=0, tithe=0,
                queen=0, halved=True) \
        == "Income 0 Shillings: nothing, halved for the Invaders (FE 3.3)."


def test_fe_2_1_2_5_the_deck_by_its_name_and_a_plague_death_told_once() -> None:
    """FE 2.1: "The character deck is reshuffled"; FE 2.5: "Simon rolls 1 against the
    Plague and dies." was followed by "Simon of Red (Ann) dies at Berwick (plague)."."""
    assert line("deck_reshuffled", deck="character", cards=11) \
        == "The Character deck is reshuffled from its 11 discards (FE 2.1)."
    assert line("deck_reshuffled", deck="fortune", cards=3).startswith(
        "The Fortune & Disaster deck is reshuffled")
    assert line("plague_noble", noble="ann", roll=1, dies=True) \
        == "Ann rolls 1 against the Plague: 1 to 3 is death (FE 2.5)."
