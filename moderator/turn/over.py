"""Whether a game is over, and why, in its engine's words (DWTK 37, FE 8): read from the
state its open turn starts from (the state its last turn ended in)."""

from __future__ import annotations

from sqlmodel import Session

from moderator import jsonio
from moderator.games import find_engine
from moderator.store import repo
from moderator.store.models import Game, Turn


def why_over(session: Session, game: Game, turn: Turn | None = None) -> str | None:
    """Why ``game`` runs no more turns ("Ann has won the game (DWTK 37)"), or None while
    it goes on; ``turn``: its open turn, when the caller has it already."""
    open_turn = turn or repo.open_turn(session, game)
    return find_engine(game.kind).finished(jsonio.loads(open_turn.state_before))


def over_words(session: Session, game: Game, turn: Turn | None = None) -> str:
    """"paris is over: Ann has won the game (DWTK 37)": what a player is told, for a game
    that is over, about his orders and the commands that act on the next turn."""
    why = why_over(session, game, turn)
    return f"{game.name} is over{f': {why}' if why else ''}"
