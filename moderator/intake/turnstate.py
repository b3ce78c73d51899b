"""The parse context of a game's open turn, decoded once per turn (issue 16, goal 3).

Every order email of a turn is read against the same state (the open turn's
``state_before``); decoding it for each message made intake O(world) per message.  The
decoded state, and the engine's index for its forecasts (`PreparedForecasting`), are kept
per game and used again while the key they were made from still holds: the game, the
turn's row and number, and the very bytes stored for the state (compressed, as the row
holds them).  A new turn (another row), an amendment (other bytes) and a rollback (the
row of an earlier turn open again, or the same row with its old bytes back) all change
the key, so a context is never stale: it is made again from what is stored.

The state is shared by every message that reads it: nothing may change it (parsers,
forecasts and receipts only read a state).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from sqlalchemy import LargeBinary, type_coerce
from sqlmodel import Session, col, select

from moderator import jsonio
from moderator.games import find_engine
from moderator.games.base import JSON, PreparedForecasting, forecaster
from moderator.store.models import Game, Turn


@dataclass(frozen=True)
class TurnContext:
    """What intake reads a turn's orders against: its state, decoded, and the engine's
    forecast index of it (None for an engine without one)."""

    key: tuple[int, int, int, bytes]
    state: JSON
    prepared: Any


_contexts: dict[int, TurnContext] = {}  # game id -> the context of its open turn
_lock = threading.Lock()


def turn_context(session: Session, game: Game, turn: Turn) -> TurnContext:
    """The context of ``turn`` (the game's open turn), made again only when its stored
    state is not the one the kept context was made from."""
    assert game.id is not None and turn.id is not None
    stored = session.exec(select(type_coerce(col(Turn.state_before), LargeBinary))
                          .where(col(Turn.id) == turn.id)).one()
    key = (game.id, turn.id, turn.number, bytes(stored))
    with _lock:
        kept = _contexts.get(game.id)
    if kept is not None and kept.key == key:
        return kept
    state = jsonio.loads(turn.state_before)
    engine = forecaster(find_engine(game.kind))
    prepared = engine.prepare_forecast(state) \
        if isinstance(engine, PreparedForecasting) else None
    made = TurnContext(key, state, prepared)
    with _lock:
        _contexts[game.id] = made
    return made


def forget_contexts() -> None:
    """Drop every kept context (tests; a process that wants its memory back)."""
    with _lock:
        _contexts.clear()
