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


def _what_happened(player: str, events: list[dict[str, object]]) -> list[str]:
    s = board()
    text = render(ROOT / "templates", "fief/turnsheet.md.j2",
                  game={"name": "England", "title": "Fief: England"},
                  turn={"label": "Round 2"}, next_deadline=None, events=events, dice=[],
                  order_form="", ctx=sheet(s, TABLES, player))
    part = text[text.index("## What happened to you"):text.index("## Your dice")]
    return [" ".join(line.split()) for line in part.splitlines() if line.startswith("- ")]


def test_the_readers_own_deeds_read_you_on_his_sheet() -> None:
    """Found playing by mail: Cid's own sheet read "Cid lays a face-down Disaster on track
    space 1." (FE 2.3) and "PLAGUE, turned up by Cid, falls on ..."; on his sheet he is
    "you", on another's (and in the gazette) he is named."""
    events: list[dict[str, object]] = [
        {"id": "disaster.tracked", "args": {"player": "dave", "slot": 1}},
        {"id": "disaster.placed", "args": {"card": "plague", "region": 3, "drawn_by": "dave",
                                            "dormant": False}},
        {"id": "card.drawn", "args": {"player": "dave", "count": 2, "disasters": 1}},
        {"id": "fortune.played", "args": {"player": "dave", "card": "good harvest",
                                          "region": 3}},
        {"id": "mata", "args": {"player": "dave", "other": "kirsten", "gave": "a card",
                                "took": "Treasure"}},
    ]
    assert _what_happened("dave", events) == [
        "- You lay a face-down Disaster on track space 1.",
        "- PLAGUE, turned up by you, falls on the Marches (Sea III).",
        "- You draw 2 cards and turn up 1 Disaster.",
        "- You play GOOD HARVEST on the Marches (Sea III).",
        "- Mata the spy: you give Kirsten a card and take Treasure."]
    assert _what_happened("kirsten", events)[:2] == [
        "- Dave lays a face-down Disaster on track space 1.",
        "- PLAGUE, turned up by Dave, falls on the Marches (Sea III)."]


def test_the_readers_own_family_and_gifts_read_you_on_his_sheet() -> None:
    """Found playing a game by mail (tests/fief/test_seven_rounds_by_mail.py): Dave's own
    sheet read "Green (Dave) buys 1 knight at York for 3 Shillings." (FE 4.1) and
    Kirsten's "Kirsten gives Dave 2 Shillings by Carrier Pigeon." (FE 2.15)."""
    events: list[dict[str, object]] = [
        {"id": "bought", "args": {"family": "Green", "count": 1, "unit": "knight",
                                  "city": "York", "cost": 3}},
        {"id": "built", "args": {"family": "Green", "building": "mill", "city": "York"}},
        {"id": "gift", "args": {"from": "kirsten", "to": "dave", "amount": 2, "card": None,
                                "pigeon": True, "lost": False}},
    ]
    assert _what_happened("kirsten", events) == [
        "- You buy 1 knight at York for 3 Shillings.",
        "- You build a Mill at York.",
        "- You give Dave 2 Shillings by Carrier Pigeon."]
    assert _what_happened("dave", events) == [
        "- Green (Kirsten) buys 1 knight at York for 3 Shillings.",
        "- Green (Kirsten) builds a Mill at York.",
        "- Kirsten gives you 2 Shillings by Carrier Pigeon."]
