"""FE 8.1-8.5: the engine says when a game of Fief: England is over, and who won (the
service stops the game on it: tests/test_game_over.py)."""

from __future__ import annotations

from moderator.games.fief import ENGINE
from moderator.games.fief.state import GameState
from moderator.games.fief.views.context import sheet
from tests.fief.conftest import TABLES, mustered, signed_up


def test_a_game_goes_on_until_the_victory_check_ends_it() -> None:
    """FE 8.2 (alone) and 8.3 (two players allied by marriage) name the winners."""
    state = signed_up()
    assert ENGINE.finished(state) is None
    assert ENGINE.finished({**state, "phase": "over", "winners": ["bob"]}) == \
        "Bob has won the game (FE 8)"
    assert ENGINE.finished({**state, "phase": "over", "winners": ["ann", "cid"]}) == \
        "Ann and Cid have won the game as allies (FE 8)"


def test_the_last_sheets_form_says_the_game_is_over() -> None:
    """FE 8.  Found playing by mail: the sheet of the last round still offered "orders for
    Round 7" and every phase's order lines, and forecast a Phase 3 income to come."""
    state = mustered(4)
    assert "orders for Round 1" in ENGINE.order_form(state, "ann", TABLES)
    over = {**state, "phase": "over", "winners": ["bob"]}
    assert ENGINE.order_form(over, "ann", TABLES) == (
        "# Fief: England (England): the game is over (FE 8); no more orders are read.\n")
    assert sheet(GameState.from_dict(state), TABLES, "ann")["forecast"]
    assert sheet(GameState.from_dict(over), TABLES, "ann")["forecast"] == {}
