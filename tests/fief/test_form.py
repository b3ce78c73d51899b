"""The example order form in orders/forms/fief.txt parses without an error."""

from __future__ import annotations

from pathlib import Path

from moderator.games.fief import ENGINE
from tests.fief.conftest import TABLES, mustered

FORM = Path(__file__).resolve().parents[2] / "orders" / "forms" / "fief.txt"


def test_the_example_form_parses_cleanly() -> None:
    state = mustered(4)
    me = state["players"]["ann"]
    me["hand"] = ["Noble Isabel", "Good Weather", "Passage"]
    state["players"]["bob"]["name"] = "Dave"
    parsed = ENGINE.parse_orders(FORM.read_text(), state, "ann", TABLES)
    assert parsed.errors == (), parsed.errors
    assert len(parsed.normal_form) == 15


def test_every_players_own_form_is_pre_filled_and_parses() -> None:
    state = mustered(4)
    for key in state["seats"]:
        form = ENGINE.order_form(state, key, TABLES)
        assert "Round 1" in form and state["players"][key]["name"] in form
        assert ENGINE.parse_orders(form, state, key, TABLES).errors == ()
