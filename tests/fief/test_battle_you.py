"""A player reads his own battles, sieges, pillages and captures as "you" on his sheet
(FE 7.0-7.10, 13.4); the gazette still names every family.  Found playing by mail: Dave's
own battle report read "Blue lost 1 man-at-arms; Blue has 1 knight ... left there", Blue
being his own family."""

from __future__ import annotations

from typing import Any

from moderator.games.fief import movement
from moderator.games.fief.state import GameState
from tests.fief.board import board, give_orders, noble, realm
from tests.fief.conftest import EVENTS
from tests.fief.test_battle_news import _rendered


def _news(sheet: str) -> str:
    return sheet.split("## What happened to you")[1].split("## Your dice")[0]


def test_fe_7_6_two_of_the_readers_families_in_one_battle_are_told_apart() -> None:
    """Two families of one player (FE 13.8, three players) fought at Lincoln: "you"
    alone would not say which lost what."""
    report = {"id": "battle.report", "actor": "dave", "public": False, "args": {
        "city": "Lincoln", "role": "attacker", "foes": ["Red"], "outcome": "withdrawal",
        "won": True, "lost": {"Blue": {"knight": 1}, "Yellow": {"archer": 2}},
        "left": {"Yellow": {"men_at_arms": 1}}, "slain": [], "captured": [], "taken": [],
        "holder": "Yellow", "idle": False}}
    names = {"Red": "Red (George)", "Yellow": "Yellow (Dave)"}
    text = str(EVENTS.battle_report(report, names, ["dave", "Blue", "Yellow"]))
    assert ("Your Blue family lost 1 knight; your Yellow family lost 2 archers; your Yellow "
            "family has 1 man-at-arms left there. Lincoln is now held by you.") in text


def test_fe_13_4_the_bandits_take_your_noble_on_your_sheet() -> None:
    s = board()
    noble(s, "Hugh", "Green", "York", titles=["north"])
    noble(s, "Lucia", "Green", "York")
    noble(s, "Simon", "Green", "York")
    s.players["kirsten"].cash = 6
    before = GameState.from_dict(s.to_dict())
    r = realm(s, {"bandits": [2, 1]})
    give_orders(r, {"kirsten": "MOVE Hugh, Lucia: York ~ Lincoln\nMOVE Simon: York ~ Lincoln"})
    movement.movement_phase(r)
    gazette, sheets = _rendered(before, r)
    mine = _news(sheets["kirsten"])
    assert ("BANDITS in Sherwood (rolled 2): you pay the outlaws 6 Shillings for Hugh and "
            "Lucia.") in mine
    assert ("BANDITS in Sherwood (rolled 1): you lose Simon to the outlaws, held for "
            "ransom (FE 13.4).") in mine
    assert "Green (Kirsten) pays the outlaws 6 Shillings" in gazette


def test_fe_7_5_your_noble_slain_and_the_gazettes_line() -> None:
    event: dict[str, Any] = {"id": "noble.slain", "actor": "george", "public": True,
                             "args": {"noble": "william", "family": "Red",
                                      "city": "Lincoln", "cause": "battle"}}
    names = {"william": "William", "Red": "Red (George)"}
    assert str(EVENTS.noble_slain(event, names, ["george", "Red"])) \
        == "Your William dies at Lincoln (battle)."
    assert str(EVENTS.noble_slain(event, names)) \
        == "William of Red (George) dies at Lincoln (battle)."
