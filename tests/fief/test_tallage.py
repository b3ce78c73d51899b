"""FE 2.8: "Tallage can be played by" the Lord of the fiefdom (even a captive one), or
by the Sovereign on a region no Lord holds.  Found playing by mail: Lucy's `PLAY TAX ON
Midlands`, holding no title, was read back on the receipt with no word, then refused on
her sheet as "only its Lord, or the Sovereign on an ungoverned region", no rule cited."""

from __future__ import annotations

from moderator.games.base import Severity
from moderator.games.fief.cards import play_phase
from moderator.games.fief.orders import parse_orders
from moderator.games.fief.state import GameState
from tests.fief.board import board, give_orders, noble, realm, refusals
from tests.fief.conftest import TABLES


def _england() -> GameState:
    s = board()
    noble(s, "Richard", "Yellow", "Norwich")
    noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
    for player in ("lucy", "kirsten"):
        s.players[player].hand = ["Tax"]
    return s


def test_fe_2_8_a_tallage_by_no_lord_is_warned_on_the_receipt() -> None:
    s = _england()
    parsed = parse_orders("PLAY TAX ON Midlands\n", s.to_dict(), "lucy", TABLES)
    assert [(e.line, e.severity) for e in parsed.errors] == [(1, Severity.WARNING)]
    assert parsed.errors[0].message == (
        "as things stand, you are not the Lord of Midlands nor a Sovereign on a region with "
        "no Lord; a Tallage is played by the Lord of that fiefdom, or by the Sovereign on a "
        "region no Lord holds (FE 2.8)")
    assert parsed.normal_form == ("PLAY TAX ON Midlands",)
    # The Lord of Wales is not warned; nor is the Sovereign on an ungoverned region.
    assert parse_orders("PLAY TAX ON Wales\n", s.to_dict(), "kirsten", TABLES).errors == ()
    s.sovereign = "anabel"
    assert parse_orders("PLAY TAX ON Midlands\n", s.to_dict(), "kirsten", TABLES).errors == ()


def test_fe_2_8_the_refusal_on_the_sheet_cites_the_rule() -> None:
    s = _england()
    r = realm(s)
    give_orders(r, {"lucy": "PLAY TAX ON Midlands", "kirsten": "PLAY TAX ON Wales"})
    play_phase(r)
    assert refusals(r) == ["a Tallage is played by the Lord of that fiefdom, or by the "
                           "Sovereign on a region no Lord holds (FE 2.8)"]
    assert s.players["lucy"].hand == ["Tax"] and s.players["kirsten"].hand == []


def test_fe_4_3_a_title_the_family_may_not_buy_is_warned_on_the_receipt() -> None:
    """FE 4.3.  Found playing by mail: `BUY TITLE North FOR Philippa`, her family holding
    York and Whitby but not Lincoln, was read back with no word and refused on the sheet."""
    s = _england()
    s.cities["Cardiff"].building = "stronghold"
    s.cities["Harlech"].holder = "Green"
    parsed = parse_orders("BUY TITLE Midlands FOR Richard\n", s.to_dict(), "lucy", TABLES)
    assert [(e.severity, e.message) for e in parsed.errors] == [
        (Severity.WARNING,
         "as things stand, your family must control every city of the region (FE 4.3)")]
    assert parsed.normal_form == ("BUY TITLE Midlands FOR Richard",)
    s.nobles["anabel"].titles = []
    assert parse_orders("BUY TITLE Wales FOR Anabel\n", s.to_dict(), "kirsten",
                        TABLES).errors == ()
    s.cities["Cardiff"].building = None
    text = "BUILD STRONGHOLD AT Harlech\nBUY TITLE Wales FOR Anabel\n"
    assert parse_orders(text, s.to_dict(), "kirsten", TABLES).errors == ()
    assert [e.message for e in parse_orders("BUY TITLE Wales FOR Anabel\n", s.to_dict(),
                                            "kirsten", TABLES).errors] == [
        "as things stand, one of its cities must have a Stronghold (FE 4.3)"]
