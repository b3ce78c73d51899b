"""Troops are written by their names, singular or plural by the count (FE 4.1's units:
Knight, Man-at-Arms, Archer, Crossbowman, Bombard, Trebuchet), never by their keys."""

from __future__ import annotations

from pathlib import Path

from moderator.publish.render import environment

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _units(d: dict[str, int]) -> str:
    module = environment(TEMPLATES, False).get_template("fief/events.md.j2").module
    return str(module.units(d))  # type: ignore[attr-defined]


def test_units_are_named_singular_and_plural_by_their_count() -> None:
    """Found playing by mail: the stockpile read "4 archer, 7 knight, 1 men-at-arms" and
    a hired Mercenary "1 crossbow" (the unit's key)."""
    assert _units({"knight": 1, "men_at_arms": 1}) == "1 knight, 1 man-at-arms"
    assert _units({"archer": 4, "knight": 7, "men_at_arms": 3, "bombard": 2,
                   "trebuchet": 0}) == (
        "4 archers, 2 bombards, 7 knights, 3 men-at-arms, no trebuchets")
    assert _units({"crossbow": 1}) == "1 crossbowman"
    assert _units({"crossbow": 2}) == "2 crossbowmen"


def test_a_purchase_names_its_units_by_the_count() -> None:
    module = environment(TEMPLATES, False).get_template("fief/events.md.j2").module
    event = {"args": {"family": "Blue", "count": 2, "unit": "archer", "city": "Exeter",
                      "cost": 4}}
    assert str(module.bought(event)) == "Blue buys 2 archers at Exeter for 4 Shillings."  # type: ignore[attr-defined]


def test_one_troop_one_noble_one_card_are_singular() -> None:
    """Found playing by mail: "rides Cardiff - Harlech with 1 troops", a battle side of
    "1 nobles", "George draws 1 card(s) and turns up 1 red card(s)"."""
    module = environment(TEMPLATES, False).get_template("fief/events.md.j2").module
    moved = {"args": {"nobles": ["Godfrey"], "family": "Blue", "path": ["Cardiff", "Harlech"],
                      "troops": 1}}
    assert str(module.moved(moved)).endswith("with 1 troop.")  # type: ignore[attr-defined]
    assert _units({"archer": 2, "nobles": 1}) == "2 archers, 1 noble"
    drawn = {"args": {"player": "George", "count": 1, "disasters": 1}}
    assert str(module.card_drawn(drawn)) == (  # type: ignore[attr-defined]
        "George draws 1 card and turns up 1 Disaster.")
    drawn = {"args": {"player": "George", "count": 2, "disasters": 0}}
    assert str(module.card_drawn(drawn)) == "George draws 2 cards."  # type: ignore[attr-defined]


def test_an_invading_army_and_a_battles_end_in_words() -> None:
    """FE 6.4, 7.8.  Found in the golden game's Round 7: "the Invaders (4 foot, 1 leaders)"
    and "The battle of York ends: stalled." (the engine's outcome key)."""
    module = environment(TEMPLATES, False).get_template("fief/events.md.j2").module
    assert _units({"foot": 4, "leaders": 1}) == "4 foot, 1 leader"
    ends = {"args": {"city": "York", "winner": "", "outcome": "stalled"}}
    assert str(module.battle_ends(ends)) == (  # type: ignore[attr-defined]
        "The battle of York ends: the attack stalls before the walls.")
    ends = {"args": {"city": "York", "winner": "", "outcome": "deadlock"}}
    assert str(module.battle_ends(ends)) == (  # type: ignore[attr-defined]
        "The battle of York ends: a deadlock (three battle rolls without a loss).")


def test_one_shilling_is_singular() -> None:
    """Found playing by mail: "You pay 1 Shillings for the ransom of Margery"."""
    module = environment(TEMPLATES, False).get_template("fief/events.md.j2").module
    paid = {"args": {"noble": "Margery", "captor": "philippa", "amount": 1, "lower": True}}
    assert str(module.ransom_paid(paid)) == (  # type: ignore[attr-defined]
        "You pay 1 Shilling for the ransom of Margery (the lower ransom agreed).")
    gift = {"args": {"from": "Cid", "to": "Bob", "amount": 1, "lost": False, "card": None,
                     "pigeon": True}}
    assert str(module.gift(gift)) == "Cid gives Bob 1 Shilling by Carrier Pigeon."  # type: ignore[attr-defined]


def test_no_troop_free_to_move_is_said_in_words() -> None:
    """FE 5.0.  Found playing by mail: "only 0 men-at-arms free to move at York"."""
    from moderator.games.fief.movement import movement_phase
    from tests.fief.board import board, give_orders, noble, realm, refusals, troops

    r = realm(board())
    noble(r.s, "Joan", "Blue", "York")
    troops(r.s, "Durham", "Blue", knight=1)
    give_orders(r, {"dave": "MOVE Joan WITH 1 MAN-AT-ARMS: York - Whitby"})
    movement_phase(r)
    assert refusals(r) == ["no Men-at-Arms free to move at York"]


def test_titles_and_regions_read_as_the_rulebook_writes_them() -> None:
    """FE 9.1 Ex ("Lord Lucia - Duchess of the Midlands and Baroness of Wales"), FE 2.13
    Ex ("Abbess of the Autumn").  Found in the golden game: "Duchess of Midlands",
    "County of North", "Tallage on Marches", "Abbess of Autumn"."""
    from moderator.games.fief.state import GameState
    from moderator.games.fief.views.context import names, sheet
    from tests.fief.board import board, noble
    from tests.fief.conftest import TABLES

    s: GameState = board()
    noble(s, "Lucia", "Green", "Norwich", titles=["midlands", "wales"])
    noble(s, "Anabel", "Blue", "Plymouth", abbess=["Autumn"])
    styled = [n["name"] for p in ("kirsten", "dave") for n in sheet(s, TABLES, p)["nobles"]]
    assert styled == ["Lucia, Duchess of the Midlands, Baroness of Wales",
                      "Anabel, Abbess of the Autumn"]
    table = names(s, TABLES)
    assert (table["north"], table["wales"], table["4"]) == ("the North", "Wales",
                                                            "the North (Sea IV)")


def test_a_side_without_a_noble_reads_no_nobles() -> None:
    """FE 7.0: found in the golden game's Round 7, "(1 man-at-arms, 0 nobles)" and a
    stockpile of "0 men-at-arms"; none of a kind reads "no"."""
    assert _units({"men_at_arms": 1, "nobles": 0}) == "1 man-at-arms, no nobles"
    assert _units({"knight": 0}) == "no knights"
