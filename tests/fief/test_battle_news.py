"""Battles and sacks reach the private sheets of the players they touch (FE 7.0-7.10,
6.5-6.6, 4.8), in words, and no one else's: the gazette prints the battle for all, but a
player's losses and what he has left are on his own sheet only."""

from __future__ import annotations

from pathlib import Path

from moderator.games.fief import ENGINE, battle, invaders, movement
from moderator.games.fief.cards import deck
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState, InvaderArmy
from moderator.publish.newsletter import Reader, TurnData, render_turn
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops
from tests.fief.conftest import TABLES

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
READERS = tuple(Reader(i, key, key.title(), f"{key}@example.org")
                for i, key in enumerate(("george", "kirsten", "dave", "lucy"), 1))


def _rendered(before: GameState, r: Realm) -> tuple[str, dict[str, str]]:
    data = TurnData("England", 3, "Round 2", None, before.to_dict(), r.s.to_dict(),
                    r.events, [])
    out = render_turn(TEMPLATES, ENGINE, TABLES, data, READERS, workers=0)
    return out.gazette.markdown, {rd.character: out.sheets[rd.player_id].markdown
                                  for rd in READERS}


def _lincoln() -> GameState:
    """Dave's Philippa (Blue) attacks George's William (Red) at Lincoln; Kirsten and
    Lucy are elsewhere."""
    s = board()
    noble(s, "William", "Red", "Lincoln")
    troops(s, "Lincoln", "Red", men_at_arms=2)
    noble(s, "Philippa", "Blue", "Lincoln")
    troops(s, "Lincoln", "Blue", men_at_arms=3, knight=1)
    s.cities["Lincoln"].holder = "Red"
    noble(s, "Edward", "Green", "York")
    return s


def test_fe_7_0_a_battle_is_on_each_fighters_sheet_and_no_one_elses() -> None:
    """FE 7.0-7.6.  Found playing by mail: a battle was told only in the gazette; the
    attacker's and the defender's own sheets said nothing of their losses, and George
    was not told on his sheet that William was taken."""
    s = _lincoln()
    before = GameState.from_dict(s.to_dict())
    r = realm(s, bd(2) + bd(1))
    give_orders(r, {"dave": "ATTACK Lincoln"})
    battle.battles_phase(r)
    gazette, sheets = _rendered(before, r)
    assert ("Your battle at Lincoln: you attacked Red (George); your side won. "
            "You lost 1 man-at-arms; you have 1 knight, 2 men-at-arms left there. "
            "Your captives: William. Lincoln is now held by you.") in sheets["dave"]
    assert ("Your battle at Lincoln: Blue (Dave) attacked you; your side lost. "
            "You lost 2 men-at-arms; none of your troops is left there. "
            "Taken captive: William (by Philippa). "
            "Lincoln is now held by Blue (Dave).") in sheets["george"]
    assert "William is taken captive at Lincoln by Philippa." in sheets["george"]
    assert "Blue lost" not in sheets["dave"] and "victory for Blue (Dave)" in gazette
    # The others read the battle in the gazette only; its losses by family nowhere.
    for other in ("kirsten", "lucy"):
        assert "Your battle" not in sheets[other]
        assert "Lincoln" not in sheets[other].split("## What happened to you")[1]
    for text in (gazette, sheets["kirsten"], sheets["lucy"]):
        assert "lost 1 man-at-arms" not in text and "left there" not in text
    assert all("men_at_arms" not in t for t in (gazette, *sheets.values()))


def test_fe_6_5_the_invaders_sack_is_on_the_sheet_of_the_city_s_holder() -> None:
    """FE 6.5-6.6: the invaders take Whitby from Kirsten and sack it; she reads her
    battle and the sack on her own sheet, in words (not "stronghold, mill")."""
    s = board()
    noble(s, "Edward", "Green", "Whitby")
    troops(s, "Whitby", "Green", men_at_arms=1)
    c = s.cities["Whitby"]
    c.building, c.mill = "stronghold", True
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "Whitby", foot=5)
    before = GameState.from_dict(s.to_dict())
    r = realm(s, bd(3, 3, 3) + bd(0) + [6] * 40)
    invaders._arrive(r, ["Black Raven"], "Whitby")
    gazette, sheets = _rendered(before, r)
    mine = sheets["kirsten"].split("## What happened to you")[1]
    assert "Your battle at Whitby: the Invaders attacked you; your side lost." in mine
    assert "The invaders sack Whitby: the Stronghold and the Mill destroyed." in mine
    assert "The invaders sack Whitby: the Stronghold and the Mill destroyed." in gazette
    assert "Whitby" not in sheets["dave"].split("## What happened to you")[1]


def test_fe_7_10_a_pillage_is_on_the_pillagers_sheet() -> None:
    """FE 7.10, 2.13: found playing by mail: Dave pillaged Oxford's Mill and Abbey; the
    gazette said so, his own sheet's "What happened to you" did not."""
    s = board()
    noble(s, "William", "Blue", "Oxford")
    troops(s, "Oxford", "Blue", men_at_arms=1)
    s.cities["Oxford"].mill = True
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "abbey", "Autumn"
    before = GameState.from_dict(s.to_dict())
    r = realm(s)
    give_orders(r, {"dave": "PILLAGE Oxford MILL\nPILLAGE Oxford ABBEY BY William"})
    battle.battles_phase(r)
    _, sheets = _rendered(before, r)
    mine = sheets["dave"].split("## What happened to you")[1]
    assert "You pillage Oxford: its Mill is destroyed." in mine
    assert "You pillage Oxford: the Abbey of the Autumn is destroyed" in mine
    assert "pillages" not in sheets["george"]


def test_fe_4_7_a_title_lost_with_its_fortified_city_is_on_the_lords_sheet() -> None:
    """FE 4.7: Blue takes Durham, the Fortified City of the Marches, from George's
    William: the title passes, and George reads it on his own sheet."""
    s = board()
    noble(s, "William", "Red", "York", titles=["marches"])
    s.cities["Durham"].building, s.cities["Durham"].holder = "fortified", "Red"
    noble(s, "Philippa", "Blue", "Durham")
    r = realm(s)
    r.refresh_control("Durham")
    assert s.nobles["philippa"].titles == ["marches"]
    assert [e.actor for e in r.events if e.id == "title.lost"] == ["george"]


def test_fe_7_7_a_ransoms_amount_is_on_the_payers_and_captors_sheets_only() -> None:
    """FE 7.7, fief-email.md §7.1 item 7 ("ransoms paid (who was freed; amount
    private)").  Found playing by mail: the gazette printed "Robert is ransomed for 2
    shillings" for all to read, and neither the payer's nor the captor's sheet said it."""
    from moderator.games.fief import economy

    s = board()
    noble(s, "William", "Red", "London")
    noble(s, "Henri", "Blue", "London", titles=["midlands"], clergy="canterbury",
          status="captive", captor="william")
    s.players["dave"].cash = 10
    before = GameState.from_dict(s.to_dict())
    r = realm(s)
    economy.ransoms(r)
    gazette, sheets = _rendered(before, r)
    assert "Henri is ransomed and goes free." in gazette
    assert "for the ransom" not in gazette and "6 shillings" not in gazette.lower()
    assert "You pay 6 Shillings for the ransom of Henri." in sheets["dave"]
    assert "You receive 6 Shillings for the ransom of Henri." in sheets["george"]
    assert "for the ransom" not in sheets["kirsten"] + sheets["lucy"]


def test_fe_7_6_the_sheets_name_each_captives_captor_and_the_captives_held() -> None:
    """FE 7.6-7.7, fief-email.md §7.2 ("captives held and held by others").  Found
    playing by mail: Dan's sheet read "Hugh ... **captive** (ransom 2)" without saying
    who held him, and Ann's sheet did not list Hugh, her captive, at all."""
    s = board()
    noble(s, "William", "Red", "London")
    noble(s, "Henri", "Blue", "London", titles=["midlands"], status="captive",
          captor="william")
    r = realm(s)
    _, sheets = _rendered(GameState.from_dict(s.to_dict()), r)
    assert "- Henri, Duke of the Midlands (Blue) at London, **captive** of William (Red) " \
           "(ransom 4 Shillings)" in sheets["dave"]
    assert "- Your captive: Henri (Blue) at London, held by William (ransom 4 Shillings)" \
        in sheets["george"]
    assert "Your captive" not in sheets["kirsten"] + sheets["lucy"] + sheets["dave"]


def test_fe_7_2_engines_without_a_man_at_arms_are_told_why_they_did_not_fire() -> None:
    """FE 7.2.  Found playing by mail: Bob attacked Cardiff with 2 Knights and a
    Trebuchet; "the attack stalls before the walls", and nothing said his Trebuchet
    needs a Man-at-Arms to fire."""
    s = board()
    noble(s, "Margery", "Red", "Cardiff")
    troops(s, "Cardiff", "Red", men_at_arms=1)
    s.cities["Cardiff"].building = "fortified"
    noble(s, "Philippa", "Green", "Cardiff")
    troops(s, "Cardiff", "Green", knight=2, trebuchet=1)
    before = GameState.from_dict(s.to_dict())
    r = realm(s)
    give_orders(r, {"kirsten": "ATTACK Cardiff"})
    battle.battles_phase(r)
    _, sheets = _rendered(before, r)
    note = "Your engines did not fire: a Trebuchet or Bombard needs a Man-at-Arms"
    assert note in sheets["kirsten"] and note not in sheets["george"]


def test_fe_7_9_the_besieger_reads_his_trebuchets_leave_with_the_siege() -> None:
    """FE 7.9.  Found playing by mail: Bob took Cardiff after a siege; his battle report
    left "1 trebuchet" there, the siege was lifted, and his sheet then showed none, with
    nothing on his sheet to say where it went."""
    from moderator.games.fief import siege

    s = board()
    noble(s, "Philippa", "Green", "Cardiff")
    troops(s, "Cardiff", "Green", knight=2, trebuchet=1)
    s.cities["Cardiff"].besieged_by = "Green"
    r = realm(s)
    siege.lift(r, "Cardiff", "the defenders are gone")
    (lifted,) = [e for e in r.events if e.id == "siege.lifted"]
    assert lifted.actor == "kirsten" and lifted.public
    gazette, sheets = _rendered(GameState.from_dict(s.to_dict()), r)
    assert "Green (Kirsten)'s 1 trebuchet there goes back" in gazette
    assert ("The siege of Cardiff is lifted (the defenders are gone); your "
            "1 trebuchet there goes back to the stockpile.") in sheets["kirsten"]


def test_fe_7_2_a_target_whose_archers_never_aimed_is_told_with_why() -> None:
    """FE 7.2.  Found playing a game by mail (test_seven_rounds_by_mail.py): George wrote
    `TARGET Simon AT Bristol` with no archers in the battle, and his sheet said nothing
    of it.  Now each TARGET that did not aim is a "Not done" line with its reason."""
    s = _lincoln()
    r = realm(s, bd(2) + bd(1))
    give_orders(r, {"dave": "ATTACK Lincoln\nTARGET William AT Lincoln\nTARGET Edward AT York"})
    battle.battles_phase(r)
    refused = [e.args for e in r.events if e.id == "order.refused" and e.actor == "dave"]
    assert [a["order"] for a in refused] == ["TARGET William AT Lincoln",
                                              "TARGET Edward AT York"]
    assert "archers did not aim at William" in refused[0]["reason"]
    assert refused[1]["reason"] == "no battle was fought at York"


def test_fe_2_11_a_noble_not_in_play_or_dead_is_named_as_such() -> None:
    """FE 2.11.  Found playing a game by mail: Dave's `PLAY NOBLE Hugh` was refused (a
    family has at most 3 nobles), and his `MOVE Hugh` then read only "no such living
    noble", as if Hugh had died."""
    s = _lincoln()
    s.nobles["philippa"].status = "dead"
    r = realm(s)
    give_orders(r, {"dave": "MOVE Hugh: Lincoln - Whitby\nMOVE Philippa: Lincoln - Whitby"})
    movement.movement_phase(r)
    assert refusals(r) == ["Hugh is not in play: a noble enters it when his card is played "
                       "(FE 2.11)", "Philippa is dead"]


def test_fe_2_0_a_draw_into_a_full_hand_says_what_makes_room() -> None:
    """FE 2.0: a hand holds 3 cards.  Found playing a game by mail: Kirsten's draws were
    refused round after round with "your hand is full (3 cards)", never told that a
    DISCARD line (Phase 2A, before the draws) makes room."""
    s = board()
    s.players["kirsten"].hand = ["Tax", "Abbess", "Passage"]
    r = realm(s)
    give_orders(r, {"kirsten": "DRAW FORTUNE"})
    deck.draw_phase(r)
    assert refusals(r) == [
        "your hand is full (3 cards, the most it holds, FE 2.0): a DISCARD line in the "
        "same orders makes room"]
