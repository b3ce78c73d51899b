"""Lines of the sheet and the gazette found wanting playing by mail.  "Your dice": a
Battle Die is shown by its face (FE 7.1: blank, f, f, ff, ff, fff), a d6 by its number
(it read "melee (Red): 1d6 = 5" for a Battle Die showing ff).  The Royal Guard and the
Prince Consort are named (FE 13.1, 9.0)."""

from __future__ import annotations

from moderator.games.fief.views.context import gazette, sheet
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
        "- melee (Green): a Battle Die shows blank (no hits)",
        "- plague: Lucia: 1d6 = 5"]
    assert _your_dice([6, 2, 1])[:2] == [
        "- melee (Green): a Battle Die shows fff (3 hits)",
        "- melee (Green): a Battle Die shows f (1 hit)"]


def test_fe_13_1_the_royal_guard_is_on_its_lords_sheet_and_the_consort_in_the_gazette() -> None:
    """FE 13.1, 9.0.  Found playing by mail: Philippa, elected Sovereign Queen, then wed
    to Simon: neither player's sheet named the Royal Guard, and the gazette's Crown did
    not name the Prince Consort."""
    s = board()
    noble(s, "Philippa", "Blue", "Whitby", titles=["north"], spouse="simon",
          royal_knights=2)
    noble(s, "Simon", "Green", "Harlech", spouse="philippa", royal_men_at_arms=2)
    s.sovereign = "philippa"
    assert gazette(s, TABLES, [])["consort"] == "Simon"
    mine = {p: [n["royal"] for n in sheet(s, TABLES, p)["nobles"]] for p in ("dave", "kirsten")}
    assert mine == {"dave": ["2 Royal Knights"], "kirsten": ["2 Royal Men-at-Arms"]}
    text = render(ROOT / "templates", "fief/turnsheet.md.j2",
                  game={"name": "England", "title": "Fief: England"},
                  turn={"label": "Round 2"}, next_deadline=None, events=[], dice=[],
                  order_form="", ctx=sheet(s, TABLES, "dave"))
    assert "; Royal Guard: 2 Royal Knights (FE 13.1)" in " ".join(text.split())
    s.nobles["philippa"].spouse = s.nobles["simon"].spouse = None
    assert gazette(s, TABLES, [])["consort"] is None
