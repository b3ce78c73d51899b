"""Order lines read once per distinct line (`Names.read_line`) and canonical lines written
once per value (`Names.written`): speed only, the same results as reading every line.

Also the forms of frozen values remembered (`frozen.remembered_dict`, `remembered_forms`).
(benchmarks/dwtk_fingerprint.py checks whole games; these pin the memo itself.)
"""

from __future__ import annotations

from typing import Any

import pytest

from moderator.games.base import ParsedOrders
from moderator.games.dwtk.frozen import remembered_dict, remembered_forms
from moderator.games.dwtk.orders import names as names_module
from moderator.games.dwtk.orders import parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind, format_activity
from moderator.games.dwtk.orders.errors import IllegalOrderError, UnknownNameError
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.orders.reaction import Reaction, parse_reaction
from moderator.games.dwtk.state.people import Player
from moderator.games.dwtk.state.serial import _plain as plain_value
from tests.dwtk.conftest import TABLES

PLAYERS = {"ann": "Ann", "bob": "Bob"}
SHEET = ("DO ASSASSINATE King George WITH 2 CARDS\nDO TITLE PC\nDO TRAVEL 23 TO Epalin\n"
         "DO TITLE Nobody At All\nCOUNSEL Send Out The Fleet ON Pirates\n"
         "COUNSEL Nothing ON Nowhere\nPROPOSE PC TO Princess Anne\n"
         "IF ANYONE HEARS MINE THEN HIDE\nIF AN OPPONENT DUELS MINE THEN PLAY Treachery -\n"
         "IF SOMEONE FROWNS\nDO INTRIGUE Bob\nDO SCANDAL Earl Maxwell IF MONARCH IS Alan\n"
         "BUY 1 PP\nDO TITLE PC\n")


def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line read anew, every canonical line written anew (the code before)."""
    monkeypatch.setattr(Names, "recall", lambda self, line: None)
    monkeypatch.setattr(Names, "read_line", lambda self, line, read: read())
    monkeypatch.setattr(Names, "written", lambda self, value, write: write(value, self))


def _same(a: ParsedOrders, b: ParsedOrders) -> None:
    assert (a.orders, a.normal_form, a.errors) == (b.orders, b.normal_form, b.errors)


def test_a_sheet_reads_as_it_did_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    first = parse_orders(SHEET, TABLES, PLAYERS)
    again = parse_orders(SHEET, TABLES, PLAYERS)  # every line remembered now
    with monkeypatch.context() as m:
        _plain(m)
        plain = parse_orders(SHEET, TABLES, PLAYERS)
    _same(first, plain)
    _same(again, plain)
    assert len(plain.errors) >= 4  # the memo keeps the problems too (a test that can fail)
    assert [e.line for e in again.errors] == [e.line for e in plain.errors]


def test_a_remembered_problem_is_raised_anew_of_its_class() -> None:
    n = Names(TABLES)
    calls: list[int] = []

    def read() -> Any:
        calls.append(1)
        raise UnknownNameError("no such noble", "write PC")

    raised = []
    for _ in range(2):
        with pytest.raises(UnknownNameError) as info:
            n.read_line("DO TITLE Nobody", read)
        raised.append(info.value)
    assert calls == [1]  # read once
    assert raised[0] is not raised[1]  # a fresh exception: no traceback piling up
    assert [(e.message, e.hint) for e in raised] == [("no such noble", "write PC")] * 2
    with pytest.raises(IllegalOrderError):  # another line, another class
        n.read_line("DO X", lambda: (_ for _ in ()).throw(IllegalOrderError("twice")))


def test_the_line_memo_is_per_names_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(names_module, "_LINES_KEPT", 8)
    n, other = Names(TABLES), Names(TABLES, players={"ann": "Ann"})
    for i in range(20):
        assert n.read_line(f"line {i}", lambda i=i: i) == i  # type: ignore[misc]
    assert len(n._lines) <= 8
    assert other.read_line("line 3", lambda: "other") == "other"  # not shared


def test_written_is_the_format_of_that_value() -> None:
    n = Names(TABLES)
    a, b = Activity(ActivityKind.TITLE, ("pc",)), Activity(ActivityKind.TITLE, ("23",))
    writes: list[Activity] = []

    def write(value: Activity, names: Names) -> str:
        writes.append(value)
        return format_activity(value, names)

    lines = [n.written(v, write) for v in (a, b, a, Activity(ActivityKind.TITLE, ("pc",)))]
    assert lines == [format_activity(v, n) for v in (a, b, a, a)]
    assert len(writes) == 3  # a once, b once, the equal copy of a (another object) once


def test_engine_results_do_not_depend_on_what_was_parsed_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same sheet parsed after others, and parsed first, reads the same."""
    def fresh() -> ParsedOrders:
        return parse_orders(SHEET, TABLES, {"x": "Xena"})

    for line in SHEET.splitlines():
        parse_orders(line.replace("PC", "23") + "\n", TABLES, {"x": "Xena"})
    _same(fresh(), fresh())
    with monkeypatch.context() as m:
        _plain(m)
        plain = fresh()
    _same(fresh(), plain)


def test_remembered_forms_are_fresh_copies_equal_to_the_plain_form() -> None:
    """`frozen.remembered_dict` (activities, reactions): each to_dict a new dict and new
    lists, equal to the form worked out anew; changing one changes no later one."""
    travel = Activity(ActivityKind.TRAVEL, ("pc", "23"), place="epalin")
    first = travel.to_dict()
    assert first == Activity._plain(travel) and list(first) == list(Activity._plain(travel))
    first["who"].append("24")
    first["place"] = "cronos"
    again = travel.to_dict()
    assert again == Activity._plain(travel) and again["who"] == ["pc", "23"]
    assert again is not travel.to_dict() and again["who"] is not travel.to_dict()["who"]
    reaction = parse_reaction("IF ANYONE HEARS MINE THEN HIDE", Names(TABLES))
    form = reaction.to_dict()
    form["act"] = "pay"
    assert reaction.to_dict() == Reaction._plain(reaction) and reaction.to_dict()["act"] == "hide"


def test_only_flat_forms_are_remembered() -> None:
    """A form holding a dict or a list of dicts is built anew every time (a copy of it
    would share the inner values)."""
    calls: list[int] = []

    def build(value: object) -> dict[str, Any]:
        calls.append(1)
        return {"inner": [{"a": 1}], "n": 2}

    value = object()
    forms = [remembered_dict(value, build) for _ in range(2)]
    assert calls == [1, 1] and forms[0] == forms[1] and forms[0]["inner"] is not forms[1]["inner"]


def test_remembered_forms_of_a_tuple_are_fresh_copies_of_the_plain_forms() -> None:
    """`frozen.remembered_forms` (a player's standing reactions): each call new dicts equal
    to the forms worked out anew; changing one changes no later one; another tuple of the
    same values in the same order is served the same, other values or order are not."""
    names = Names(TABLES)
    hide = parse_reaction("IF ANYONE HEARS MINE THEN HIDE", names)
    pay = parse_reaction("IF ANYONE JAILS MINE THEN PAY", names)
    first = remembered_forms((hide, pay))
    assert first == [Reaction._plain(hide), Reaction._plain(pay)]
    first[0]["act"] = "pay"
    again = remembered_forms((hide, pay))
    assert again == [Reaction._plain(hide), Reaction._plain(pay)] and again[0]["act"] == "hide"
    assert again[0] is not remembered_forms((hide, pay))[0]
    assert remembered_forms((pay, hide)) == [Reaction._plain(pay), Reaction._plain(hide)]
    assert remembered_forms(()) == []


def test_player_form_is_the_plain_form_with_reactions() -> None:
    """`Player.to_dict` (reactions by `remembered_forms`) is what `fields_dict` gives
    with every field made plain, key order included, turn after turn."""
    names = Names(TABLES)
    reactions = (parse_reaction("IF ANYONE HEARS MINE THEN HIDE", names),
                 parse_reaction("IF ANYONE JAILS MINE THEN PAY", names))
    player = Player("x", "Xena", 0, reactions=reactions, hand=("dwtk-1",))
    for _ in range(2):
        form = player.to_dict()
        plain = {k: plain_value(v) for k, v in vars(player).items()}
        assert form == plain and list(form) == list(plain)
        assert Player.from_dict(form) == player
