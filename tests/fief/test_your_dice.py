"""The sheet's "Your dice": a Battle Die is shown by its face (FE 7.1: blank, f, f, ff, ff,
fff), a d6 by its number.  Found playing by mail: "melee (Red): 1d6 = 5" where the die
rolled was a Battle Die showing ff."""

from __future__ import annotations

from moderator.games.fief.views.context import sheet
from moderator.publish.render import render
from tests.fief.board import board, noble, realm
from tests.fief.conftest import ROOT, TABLES


def _your_dice(script: list[int]) -> list[str]:
    s = board()
    noble(s, "Lucia", "Green", "York")
    r = realm(s, script)
    r.battle_die("battle", "melee (Green)", "kirsten")
    r.battle_die("battle", "melee (Green)", "kirsten")
    r.d6("plague", "plague: Lucia", "kirsten")
    text = render(ROOT / "templates", "fief/turnsheet.md.j2",
                  game={"name": "England", "title": "Fief: England"},
                  turn={"label": "Round 2"}, next_deadline=None, events=[],
                  dice=r.dice.log_dicts(), order_form="", ctx=sheet(s, TABLES, "kirsten"))
    part = text[text.index("## Your dice"):text.index("## Your order form")]
    return [line for line in part.splitlines() if line.startswith("- ")]


def test_fe_7_1_your_dice_shows_battle_dice_by_their_faces() -> None:
    assert _your_dice([5, 1, 5]) == [
        "- melee (Green): a Battle Die shows ff (2 hits)",
        "- melee (Green): a Battle Die shows blank (0 hits)",
        "- plague: Lucia: 1d6 = 5"]
    assert _your_dice([6, 2, 1])[:2] == [
        "- melee (Green): a Battle Die shows fff (3 hits)",
        "- melee (Green): a Battle Die shows f (1 hit)"]
