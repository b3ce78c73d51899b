"""The order language: parse/format round trips; every error with its line and a hint."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.orders import (
    IllegalOrderError,
    Names,
    OrderSyntaxError,
    ParseProblem,
    TurnOrders,
    UnknownNameError,
    format_orders,
    parse_orders,
)
from moderator.games.dwtk.orders.activity import parse_activity
from moderator.games.dwtk.orders.counsel import parse_counsel
from moderator.games.dwtk.orders.reaction import parse_reaction
from moderator.games.dwtk.orders.social import parse_proposal
from moderator.games.dwtk.orders.usurp import parse_usurp
from tests.dwtk.conftest import ROOT, TABLES, dealt

SAMPLE = """\
GAME: fandonia
PASSWORD: secret
# my orders
DO TITLE PC, Sir Guy
DO OFFICE minister of the navy : 23
DO COUNSELOR 23
DO FAVOR Alan
DO PARDON 12
DO AMNESTY
DO HENCHMAN sir jeffrey
DO RECRUIT 45 and 46
DO TRAVEL PC, 23 TO the city states
DO DRAW opportunity
DO EXTRADITE sir guy with intrigue
DO SCANDAL Earl Maxwell BY 23
BUY 3 PP
ALIGN Princess Anne
DISCARD informer
KEEP Treachery
BID High Minister : PC
BID ambassador to epalin : 23
PROBLEM Pirates FAIL
PROBLEM lawlessness +
DRAW ONLY event
COUNSEL Make An Example ON Lawlessness NAMING Sir Guy BY 23
"""


def test_every_order_round_trips() -> None:
    parsed = parse_orders(SAMPLE, TABLES)
    assert parsed.errors == ()
    orders = TurnOrders.from_dict(parsed.orders)
    assert orders.to_dict() == parsed.orders
    again = parse_orders("\n".join(parsed.normal_form), TABLES)
    assert again.orders == parsed.orders
    assert again.normal_form == parsed.normal_form
    assert format_orders(orders, Names.of(TABLES))[1] == \
        "DO OFFICE Minister Of The Navy : 23"
    assert orders.activities[0].who == ("pc", "12")
    assert "DO EXTRADITE 12 WITH INTRIGUE" in parsed.normal_form
    assert "DO SCANDAL 32 BY 23" in parsed.normal_form
    assert "COUNSEL Make an example ON Lawlessness NAMING 12 BY 23" in parsed.normal_form


def test_the_shipped_order_form_parses() -> None:
    """orders/forms/dwtk.txt: trailing comments and GAME/PLAYER lines are ignored."""
    form = (ROOT / "orders" / "forms" / "dwtk.txt").read_text()
    parsed = parse_orders(form, TABLES)
    assert parsed.errors == ()
    assert parsed.normal_form[0] == "DO RECRUIT 23"


def test_errors_are_all_collected_with_lines_and_hints() -> None:
    text = "DO TITLE Sir Nobody\nBUY lots\nDO SEDUCE 12\nPROPOSE 12\nFROBNICATE\n" \
           "DO DRAW EVENT\nDO DRAW LOYALTY"
    errors = parse_orders(text, TABLES).errors
    assert [e.line for e in errors] == [1, 2, 3, 4, 5, 6]
    assert "no character called 'Sir Nobody'" in errors[0].message
    assert errors[2].message.startswith("DO SEDUCE needs the man and BY the woman")
    assert errors[3].message.startswith("PROPOSE needs who proposes and TO whom")
    assert "appears twice" in errors[5].message and "13.1" in (errors[5].hint or "")
    assert all(e.hint for e in errors[:3])


def test_orders_that_are_not_activities_round_trip() -> None:
    """DWTK 18.4 PROPOSE, 13.4.16 ATTEND WEDDINGS, 13.4.20 SOLICIT BRIBE and BRIBE, and the
    DO lines of 13.4.14-13.4.17: read, written back canonically, read back the same."""
    text = ("DO TREACHERY Sir Guy\nDO SEDUCE 23 BY 61\nDO WEDDING PC AND 61\n"
            "DO PRIVATEER CAPTAIN 23 buy +1\nPROPOSE PC TO 61\nATTEND WEDDINGS\n"
            "SOLICIT BRIBE 3\nBRIBE 24 WITH 2 IP BY 23\n")
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    assert parsed.normal_form[3] == "DO PRESTIGE Privateering CAPTAIN 23 BUY +1"
    assert parsed.normal_form[4:] == ("PROPOSE PC TO 61", "ATTEND WEDDINGS", "SOLICIT BRIBE 3",
                                      "BRIBE 24 WITH 2 IP BY 23")
    again = parse_orders("\n".join(parsed.normal_form), TABLES)
    assert again.orders == parsed.orders
    bad = parse_orders("SOLICIT BRIBE 7\nDO PRESTIGE Carousing CAPTAIN 23\n"
                       "DO PRESTIGE Gardening", TABLES).errors
    assert [e.line for e in bad] == [1, 2, 3]
    assert "1 to 6" in bad[0].message and "CAPTAIN" in bad[1].message


def test_engine_parse_and_order_form() -> None:
    state = dealt(3)
    parsed = ENGINE.parse_orders("DO DRAW EVENT", state, "ann", TABLES)
    assert parsed.normal_form == ("DO DRAW EVENT",)
    form = ENGINE.order_form(state, "ann", TABLES)
    assert "DO TITLE" in form and "BID" in form and "turn 1" in form


def test_each_problem_has_its_type() -> None:
    """Typed parse errors (style rule 5, as En Garde!'s): a line whose words make no order
    is an `OrderSyntaxError`, a name that is no one's an `UnknownNameError` (a syntax
    error too), a well-formed order the rules refuse an `IllegalOrderError`; the receipt
    shows the message and the hint of each, every one in its line."""
    n = Names.of(TABLES)
    cases: list[tuple[type[ParseProblem], Callable[[], object]]] = [
        (OrderSyntaxError, lambda: parse_activity("SEDUCE", n)),
        (UnknownNameError, lambda: parse_activity("TITLE Sir Nobody", n)),
        (OrderSyntaxError, lambda: parse_counsel("Make An Example", n)),
        (UnknownNameError, lambda: parse_counsel("Make An Example ON No Such Table", n)),
        (UnknownNameError, lambda: parse_reaction("IF NOBODY HEARS MINE THEN HIDE", n)),
        (IllegalOrderError, lambda: parse_reaction("IF ANYONE HEARS MINE THEN OBSTRUCT", n)),
        (IllegalOrderError, lambda: parse_proposal("23 TO 23", n)),
        (OrderSyntaxError, lambda: parse_usurp("nonsense", n)),
    ]
    for kind, parse in cases:
        with pytest.raises(ParseProblem) as caught:
            parse()
        assert type(caught.value) is kind, caught.value
        assert caught.value.message == str(caught.value)
    assert issubclass(UnknownNameError, OrderSyntaxError)
    assert not issubclass(IllegalOrderError, OrderSyntaxError)
    parsed = parse_orders("FROBNICATE\nUSURP WITH Prince Alan SUPPORT Army Support\n"
                          "USURP WITH Prince Alan SUPPORT Army Support\nHIDE PC\nUNHIDE PC", TABLES)
    assert [(e.line, e.severity.value) for e in parsed.errors] == [
        (1, "error"), (3, "error"), (5, "error")]
    assert "unknown order" in parsed.errors[0].message and parsed.errors[0].hint
    assert parsed.errors[1].message == "USURP appears twice"
    assert parsed.errors[2].message == "HIDE and UNHIDE of the same character"


@pytest.mark.parametrize(("written", "read"), [
    ("DO DRAW EVENT CARD", "DO DRAW EVENT"),
    ("DO DRAW AN EVENT CARD", "DO DRAW EVENT"),
    ("do draw a loyalty counter", "DO DRAW LOYALTY"),
    ("DO DRAW AN OPPORTUNITY COUNTER", "DO DRAW OPPORTUNITY"),
])
def test_draw_reads_the_counter_or_card_as_a_player_names_it(written: str, read: str) -> None:
    """DWTK 13.4.19 'Draw A Counter Or Card': 'DO DRAW EVENT CARD' was refused with 'DO DRAW
    needs LOYALTY, OPPORTUNITY or EVENT' (it had EVENT) and no hint."""
    parsed = parse_orders(written, TABLES)
    assert parsed.errors == () and parsed.normal_form == (read,)


def test_draw_of_nothing_known_is_refused_with_an_example() -> None:
    [error] = parse_orders("DO DRAW A CROWN", TABLES).errors
    assert error.hint is not None and "DO DRAW EVENT" in error.hint and "13.4.19" in error.hint


@pytest.mark.parametrize(("written", "read"), [
    ("BUY 2 PPs", "BUY 2 PP"), ("buy 3 PP's", "BUY 3 PP"), ("BUY 1 Power Point", "BUY 1 PP"),
    ("BUY 2 power points", "BUY 2 PP")])
def test_buy_reads_pp_as_a_player_writes_them(written: str, read: str) -> None:
    """DWTK 35.8: 'BUY 2 PPs' was refused with 'BUY needs a number of PP' (it had one)."""
    parsed = parse_orders(written, TABLES)
    assert parsed.errors == () and parsed.normal_form == (read,)


def test_a_line_ended_like_a_sentence_is_read_as_without_its_full_stop() -> None:
    """A player writing sentences ends them: 'DO RECRUIT Sir Drew.' was refused as 'no
    character called 'Sir Drew.'', 'PLAY Alibi.' as a card that cannot be played.  A line
    that does not read as written is read again without one closing . ; or !; a line
    that reads as written is kept as it is (a player's name may end in a full stop)."""
    parsed = parse_orders("DO RECRUIT Sir Drew.\nDO DRAW EVENT;\nBUY 1 PP.\n"
                          "IF ANYONE HEARS MINE THEN PLAY Alibi.\nALIGN Prince Alan!\n"
                          "DO INTRIGUE Bob Jr.\n", TABLES, {"bob": "Bob Jr."})
    assert parsed.errors == ()
    assert parsed.normal_form == ("DO RECRUIT 11", "DO DRAW EVENT", "DO INTRIGUE Bob Jr.",
                                  "BUY 1 PP", "ALIGN Prince Alan",
                                  "IF ANYONE HEARS MINE THEN PLAY Alibi")
    [error] = parse_orders("DO RECRUIT Nobody.", TABLES).errors
    assert error.text == "DO RECRUIT Nobody." and "'Nobody.'" in error.message
