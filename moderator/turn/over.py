"""Whether a game is over, and why: in its engine's words (DWTK 37, FE 8), read from the
state its open turn starts from (the state its last turn ended in), or in the GM's, when
the GM ended it (`moderator game end`, recorded in the audit trail)."""

from __future__ import annotations

from sqlmodel import Session, col, select

from moderator import jsonio
from moderator.games import find_engine
from moderator.store import repo
from moderator.store.models import AuditEntry, Game, Turn
from moderator.store.statuses import GameStatus

# The audit action of `moderator game end`; its detail is the GM's word to the players.
GM_ENDED = "game.end"


def why_over(session: Session, game: Game, turn: Turn | None = None) -> str | None:
    """Why ``game`` runs no more turns ("Ann has won the game (DWTK 37)", "the GM ended
    it: ..."), or None while it goes on; ``turn``: its open turn, when the caller has it."""
    by_rules = rules_ended(session, game, turn)
    if by_rules is not None or game.status != GameStatus.FINISHED:
        return by_rules
    words = session.exec(
        select(AuditEntry.detail).where(AuditEntry.game_id == game.id,
                                        AuditEntry.action == GM_ENDED)
        .order_by(col(AuditEntry.id).desc()).limit(1)).first()
    words = (words or "").rstrip(". ")  # the callers end the sentence themselves
    return f"the GM ended it{': ' + words if words else ''}"


def rules_ended(session: Session, game: Game, turn: Turn | None = None) -> str | None:
    """Why the game's own rules ended it, or None (its engine's `finished`)."""
    open_turn = turn or repo.open_turn(session, game)
    return find_engine(game.kind).finished(jsonio.loads(open_turn.state_before))


def over_words(session: Session, game: Game, turn: Turn | None = None) -> str:
    """"paris is over: Ann has won the game (DWTK 37)": what a player is told, for a game
    that is over, about his orders and the commands that act on the next turn."""
    why = why_over(session, game, turn)
    return f"{game.name} is over{f': {why}' if why else ''}"
