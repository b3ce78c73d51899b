"""The press in Down with the King, as En Garde! has it: ANNOUNCE lines signed,
unsigned or under an alias, printed in The Fandonian Courier; in the orders JSON as
``{"kind": "announce"}`` so the service's press filter and moderation apply."""

from __future__ import annotations

from moderator.dice import Dice
from moderator.games.dwtk import ENGINE
from moderator.settings.game import GameSettings
from moderator.turn.press import announcements, filter_orders
from tests.dwtk.conftest import TABLES, dealt, run
from tests.dwtk.golden_game import render

LINES = ('ANNOUNCE "The Duke of Marley cheats at cards."\n'
         'ANNOUNCE "Beware the Ides of March." UNSIGNED\n'
         'ANNOUNCE: "Long live King George!" AS A Loyal Subject\n')


def test_announce_lines_parse_to_the_press_kind_and_read_back() -> None:
    state = dealt(3)
    parsed = ENGINE.parse_orders(LINES, state, "ann", TABLES)
    assert parsed.errors == ()
    found = list(announcements(parsed.orders))
    assert found == [
        {"kind": "announce", "text": "The Duke of Marley cheats at cards.", "unsigned": False,
         "alias": None},
        {"kind": "announce", "text": "Beware the Ides of March.", "unsigned": True,
         "alias": None},
        {"kind": "announce", "text": "Long live King George!", "unsigned": False,
         "alias": "A Loyal Subject"}]
    again = ENGINE.parse_orders("\n".join(parsed.normal_form), state, "ann", TABLES)
    assert again.orders == parsed.orders


def test_an_announcement_without_quotes_is_refused_with_the_form() -> None:
    parsed = ENGINE.parse_orders("ANNOUNCE the king is mad", dealt(3), "ann", TABLES)
    assert [e.message for e in parsed.errors] == ["put the announcement in quotes"]


def test_announcements_are_printed_in_the_courier() -> None:
    state = dealt(6)  # the golden game's six players: its renderer reads all six sheets
    result = run(state, {"ann": LINES}, Dice.for_turn(9, 2))
    press = [e for e in result.events if e.id == "press.announcement"]
    assert [(e.args["signed"], e.args["alias"]) for e in press] == [
        ("ann", None), (None, None), (None, "A Loyal Subject")]
    gazette = render(2, state, result, Dice.for_turn(9, 2))["gazette.md"]
    section = gazette[gazette.index("## Announcements"):gazette.index("## News of the Court")]
    assert '"The Duke of Marley cheats at cards." — Ann' in section
    assert '"Beware the Ides of March." — unsigned' in section
    assert '"Long live King George!" — A Loyal Subject' in section


def test_an_unsigned_announcement_s_place_does_not_tell_its_writer() -> None:
    """Anonymous press stays anonymous: the Courier printed every announcement in seat
    order, so an unsigned one's place among the others narrowed down who wrote it.  The
    unsigned and aliased ones now follow the signed ones, by their text: the same
    section whichever seats wrote them."""
    state = dealt(6)
    sections = []
    for first, second in (("ann", "eve"), ("eve", "ann")):
        orders = {first: 'ANNOUNCE "Zounds, the Duke!" UNSIGNED\n',
                  second: 'ANNOUNCE "All is well." UNSIGNED\nANNOUNCE "Hear me." AS Nemo\n',
                  "cid": 'ANNOUNCE "Signed and proud."\n'}
        result = run(state, orders, Dice.for_turn(9, 2))
        gazette = render(2, state, result, Dice.for_turn(9, 2))["gazette.md"]
        sections.append(gazette[gazette.index("## Announcements"):
                                gazette.index("## News of the Court")])
    assert sections[0] == sections[1]
    lines = [line for line in sections[0].splitlines() if line.startswith("- ")]
    assert [line.split('"')[1] for line in lines] == [
        "Signed and proud.", "All is well.", "Hear me.", "Zounds, the Duke!"]


def test_the_press_settings_apply_to_dwtk_orders() -> None:
    """press = false drops them; no anonymous press signs the unsigned one."""
    parsed = ENGINE.parse_orders(LINES, dealt(3), "ann", TABLES)
    off, changed = filter_orders(None, GameSettings(values={"press": False}), 1,  # type: ignore[arg-type]
                                 parsed.orders)
    assert list(announcements(off)) == [] and changed
    signed, _ = filter_orders(None, GameSettings(values={"anonymous_press": False}), 1,  # type: ignore[arg-type]
                              parsed.orders)
    assert [a["unsigned"] for a in announcements(signed)] == [False, False, False]


def test_an_alias_never_forges_another_signature() -> None:
    """Reference §13 (as in En Garde!): an alias hides the writer; the Courier prints it
    where a signature goes, so one reading as a player's name ("BOB", "Böb"), a noble's
    or a royal's, or looking like one through an invisible character or a letter of
    another script, is refused with the reason; an alias of his own stands."""
    state = dealt(3)
    for alias, why in (("BOB", "is the name of someone"), ("Böb", "is the name of someone"),
                       ("bob", "is the name of someone"), ("B\u043eb", "U+043E"),
                       ("Bob\u202e", "U+202E"), ("x" * 61, "at most 60")):
        parsed = ENGINE.parse_orders(f'ANNOUNCE "Ann cheats." AS {alias}', state, "ann",
                                     TABLES)
        assert len(parsed.errors) == 1 and why in parsed.errors[0].message, (alias, parsed)
        assert not list(announcements(parsed.orders))
    noble = TABLES.nobles[0].name
    parsed = ENGINE.parse_orders(f'ANNOUNCE "x" AS {noble.upper()}', state, "ann", TABLES)
    assert "is the name of someone" in parsed.errors[0].message
    assert ENGINE.parse_orders('ANNOUNCE "x" AS A Loyal Subject', state, "ann",
                               TABLES).errors == ()
