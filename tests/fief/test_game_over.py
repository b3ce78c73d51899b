"""FE 8.1-8.5: the engine says when a game of Fief: England is over, and who won (the
service stops the game on it: tests/test_game_over.py)."""

from __future__ import annotations

from moderator.games.fief import ENGINE
from tests.fief.conftest import signed_up


def test_a_game_goes_on_until_the_victory_check_ends_it() -> None:
    """FE 8.2 (alone) and 8.3 (two players allied by marriage) name the winners."""
    state = signed_up()
    assert ENGINE.finished(state) is None
    assert ENGINE.finished({**state, "phase": "over", "winners": ["bob"]}) == \
        "Bob has won the game (FE 8)"
    assert ENGINE.finished({**state, "phase": "over", "winners": ["ann", "cid"]}) == \
        "Ann and Cid have won the game as allies (FE 8)"
