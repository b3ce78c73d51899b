"""Wording defects found by a play-by-mail audit of DWTK sheets (templates/dwtk, views)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from moderator.dice import Roll
from moderator.games.base import Event
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.views import names
from moderator.publish.newsletter import Reader, TurnData, render_turn
from moderator.publish.render import render
from tests.dwtk.conftest import EVENTS, TABLES, dealt, muster

ROOT = Path(__file__).resolve().parents[2]
READERS = tuple(Reader(i, key, key.title(), f"{key}@example.org")
                for i, key in enumerate(("ann", "bob", "cid"), 1))
JAMES = "22"  # an NC, Minister of Justice in the dealt game
MAXWELL = "32"  # an NC


def _line(macro: str, args: dict[str, object], actor: str = "ann") -> str:
    nm = names(GameState.from_dict(dealt(3)), TABLES)
    e = {"id": macro.replace("_", ".", 1), "args": args, "actor": actor}
    return str(getattr(EVENTS, macro)(e, nm)).strip()


def test_a_bribed_counsel_is_named_in_words() -> None:
    """DWTK 13.4.20.2, 15.7: the briber read "modifies the counsel raise taxes by +1",
    the counsel's internal key; the counsel is named as the Counseling Tables name it."""
    line = _line("bribe_used", {"character": JAMES, "player": "ann", "roll": "counsel",
                                "key": "raise_taxes", "sign": 1})
    assert 'the counsel "Raise taxes"' in line and "raise taxes" not in line, line


def test_a_counsel_key_has_one_name_in_every_table() -> None:
    """A counsel found in two tables (Extradite a wrongdoer) has the same name in both, so
    its key alone names it (views.names "counsel:<key>")."""
    found: dict[str, set[str]] = {}
    for counsels in TABLES.counseling.values():
        for c in counsels:
            found.setdefault(c.key, set()).add(c.name)
    assert all(len(v) == 1 for v in found.values()), found


def test_a_bribed_problem_is_named_in_words() -> None:
    """DWTK 13.4.20.2, 7.6: a bribed Minister's modifier on a Political Problem."""
    line = _line("bribe_used", {"character": JAMES, "player": "ann", "roll": "problem",
                                "key": "treasury_crisis", "sign": -1})
    assert "the problem Treasury Crisis by -1" in line, line


def _sheets(state: dict[str, Any], events: list[Event],
            dice: list[dict[str, Any]]) -> dict[str, str]:
    data = TurnData("Fandonia", 2, "Turn 1", None, state, state, events, dice)
    rendered = render_turn(ROOT / "templates", ENGINE, TABLES, data, READERS)
    return {r.character: rendered.sheets[r.player_id].markdown for r in READERS}


def _die(face: int, actor: str, purpose: str = "Dueling (DWTK 19.8)") -> dict[str, Any]:
    return Roll("duel", purpose, "1d6", (face,), actor=actor).to_dict()


def test_an_ncs_duel_die_names_whose_it_is() -> None:
    """DWTK 5, 19.8: the first player rolls an NC's Dueling die; his sheet listed
    "Dueling (DWTK 19.8): 1d6 = 3" with no word of whose die it was (the same words as
    his own PC's die).  Here Cid (first player) fights Earl Maxwell (an NC) with his PC:
    his own die stays as it was, the NC's is named."""
    state = dealt(3)
    state["order"] = ["cid", "ann", "bob"]
    cid_pc = str(state["players"]["cid"]["pc"])
    fought = Event("duel.fought", {"a": cid_pc, "b": MAXWELL, "roll_a": 5, "roll_b": 3,
                                   "rating_a": 4, "rating_b": 4, "killed": []})
    sheet = _sheets(state, [fought], [_die(5, "cid"), _die(3, "cid")])["cid"]
    assert "- Dueling (DWTK 19.8): 1d6 = 5\n" in sheet, sheet
    assert ("- Dueling (DWTK 19.8): 1d6 = 3 (Earl Maxwell's die: the first player rolls "
            "for an NC, DWTK 5)") in sheet, sheet


@pytest.mark.parametrize("macro", ["romance_free_lost", "romance_proposal"])
def test_a_free_proposal_names_its_prestige_table_in_words(macro: str) -> None:
    """DWTK 18.4.5, 13.4.17: Basil read "the proposal automatically accepted (romance
    table) is lost": the source's internal key.  The table is named as the Courier names
    it when consulted ("the Romance Table")."""
    line = _line(macro, {"player": "ann", "source": "romance_table", "free": "romance_table",
                         "suitor": MAXWELL, "beloved": "64", "ip": 0})
    assert "(the Romance Table, DWTK 18.4.5)" in line and "romance table" not in line, line


@pytest.mark.parametrize(("why", "said"), [
    ("captain_dead", "its captain is dead"), ("founders", "the ship founders"),
    ("armed_ship", "an armed ship takes it"), ("confiscated", "the ship is confiscated")])
def test_a_failed_voyage_says_why_in_words(why: str, said: str) -> None:
    """DWTK 13.4.17.1: "Ann's voyage ends in failure (founders)" read as a key."""
    line = _line("privateer_lost", {"player": "ann", "why": why, "cargo": 0,
                                    "captain_died": False, "captain": None})
    assert f"ends in failure ({said}, DWTK 13.4.17.1)" in line, line


def test_the_prestige_modifiers_on_the_sheet_name_their_tables() -> None:
    """DWTK 13.4.17: Basil's sheet read "Court Ball modifier +0; romance +1" (the table's
    key) and Cora's "; socializing +0" (a modifier of nothing).  The table by its name,
    and only the modifiers that count."""
    state = dealt(3)
    state["players"]["ann"]["prestige_mods"] = {"romance": 1, "socializing": 0}
    sheet = _sheets(state, [], [])["ann"]
    line = next(x for x in sheet.splitlines() if "Court Ball modifier" in x)
    assert line == "- Court Ball modifier +0; Romance Table modifier +1", line


def test_the_couriers_legend_does_not_call_every_noble_him() -> None:
    """The Courier's legend under The Nobles read "the royals who favour him" above a
    table of Duchess Rosamund and Countess Beatrice (PCs 56-66 are women, DWTK 3)."""
    state = dealt(3)
    data = TurnData("Fandonia", 2, "Turn 1", None, state, state, [], [])
    gazette = render_turn(ROOT / "templates", ENGINE, TABLES, data, ()).gazette.markdown
    assert "the royals who favour that noble." in gazette and "favour him" not in gazette


def test_the_order_form_fits_78_columns_in_the_text_part() -> None:
    """RFC 5322 2.1.1: the order form is preformatted (never re-wrapped), and its lines
    ran to 92 columns ("#   DO ASSASSINATE 32 [BY 42] [WITH 2 CARDS] 13.4.8 Intrigue
    counter + Assassination card(s)") in every sheet's text part and the welcome."""
    state = dealt(3)
    data = TurnData("Fandonia", 2, "Turn 1", None, state, state, [], [])
    rendered = render_turn(ROOT / "templates", ENGINE, TABLES, data, READERS)
    for sheet in rendered.sheets.values():
        assert "#   DO ASSASSINATE 32 [BY 42] [WITH 2 CARDS]" in sheet.text
        long = [x for x in sheet.text.splitlines() if len(x) > 78]
        assert not long, long
    welcome = ENGINE.order_form(muster(3), "ann", TABLES)
    assert not [x for x in welcome.splitlines() if len(x) > 78]


def test_the_welcome_to_the_court_fits_78_columns() -> None:
    """RFC 5322 2.1.1: the welcome's paragraph on the deal (DWTK 3) had lines of 79 and
    80 columns (the mail is sent as written)."""
    game = SimpleNamespace(name="fandonia", kind="dwtk")
    text = render(ROOT / "templates", "mail/welcome.txt.j2", game=game,
                  player=SimpleNamespace(name="Anne"), password="pw", address="m@x.example",
                  order_form=ENGINE.order_form(muster(3), "ann", TABLES),
                  turn_label="The court assembles", deadline="Saturday 12 December 2026")
    assert "You have a seat at the court of Fandonia." in text
    assert not [x for x in text.splitlines() if len(x) > 78], text


def test_gout_with_no_ip_says_there_was_none_to_lose() -> None:
    """DWTK 12.3.8: a player with no IP read "Gout: +0 IP." (a gain of nothing, no
    reason); Gout takes One IP, and he had none to take."""
    line = _line("opportunity_ip", {"counter": "gout", "ip": 0})
    assert line == "Gout: you had no IP to lose (DWTK 12.3.8).", line
    assert _line("opportunity_ip", {"counter": "gout", "ip": -1}) == "Gout: -1 IP."


def test_a_solicit_not_done_is_named_as_written() -> None:
    """DWTK 13.4.20.1: the order "SOLICIT BRIBE 2" came back as "Not done: SOLICIT (your
    PC holds no office nor counselorship ...)", half the order's words."""
    line = _line("activity_skipped", {"what": "solicit", "reason": "no_office"})
    assert line.startswith("Not done: SOLICIT BRIBE ("), line


def test_the_forecast_names_a_solicit_as_written() -> None:
    """DWTK 13.4.20.1: the receipt's forecast said "- SOLICIT: your PC holds no office"
    of the order "SOLICIT BRIBE 2"."""
    state = dealt(3)
    parsed = ENGINE.parse_orders("SOLICIT BRIBE 2\n", state, "ann", TABLES)
    lines = ENGINE.forecast(state, {"ann": parsed.orders}, TABLES)["ann"]
    assert any(x.startswith("  - SOLICIT BRIBE: ") for x in lines), lines
