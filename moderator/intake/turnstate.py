"""The parse context of a game's open turn, decoded once per turn (issue 16, goal 3).

Every order email of a turn is read against the same state (the open turn's
``state_before``); decoding it for each message made intake O(world) per message.  The
decoded state, and the engine's index for its forecasts (`PreparedForecasting`), are kept
per game and used again while the key they were made from still holds: the game, the
turn's row and number, and the very bytes stored for the state (compressed, as the row
holds them).  A new turn (another row), an amendment (other bytes) and a rollback (the
row of an earlier turn open again, or the same row with its old bytes back) all change
the key, so a context is never stale: it is made again from what is stored.

The state is decoded from the very bytes the key holds (one read: an amendment that
commits between two reads cannot pair its bytes with the old state).  The contexts of the
most recently read games are kept, at most `KEPT_GAMES` (a host with a thousand games does
not hold every world in memory).  The state is shared by every message that reads it:
nothing may change it (parsers, forecasts and receipts only read a state).

Intake finds the open turn and the bytes of its state in one statement
(`open_turn_context`): the turn's row comes back without its payload, as a transient
`Turn` that intake only reads (number, label, deadlines), never adds to the session.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import LargeBinary, bindparam, type_coerce
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from moderator import jsonio
from moderator.games import find_engine
from moderator.games.base import JSON
from moderator.games.capabilities import PreparedForecasting, forecaster
from moderator.store.models import Game, Turn, uncompressed
from moderator.store.repo import NotFound
from moderator.store.statuses import TurnStatus


@dataclass(frozen=True)
class TurnContext:
    """What intake reads a turn's orders against: its state, decoded, and the engine's
    forecast index of it (None for an engine without one)."""

    key: tuple[int, int, int, bytes]
    state: JSON
    prepared: Any


KEPT_GAMES = 64
log = logging.getLogger(__name__)
# game id -> the context of its open turn, the most recently used last
_contexts: OrderedDict[int, TurnContext] = OrderedDict()
_lock = threading.Lock()


def turn_context(session: Session, game: Game, turn: Turn) -> TurnContext:
    """The context of ``turn`` (the game's open turn), made again only when its stored
    state is not the one the kept context was made from."""
    assert game.id is not None and turn.id is not None
    stored = session.exec(select(type_coerce(col(Turn.state_before), LargeBinary))
                          .where(col(Turn.id) == turn.id)).one()
    return _context(game, (game.id, turn.id, turn.number, bytes(stored)))


# The open turn's row as intake reads it: every column but the JSON payload.
_LIGHT_COLUMNS = ("id", "game_id", "number", "label", "seed", "status", "deadline",
                  "announcement_deadline", "reminded_at", "adjudicated_at", "correction")
_TURNS = Turn.__table__  # type: ignore[attr-defined]
_OPEN_TURN = (sa_select(*(_TURNS.c[name] for name in _LIGHT_COLUMNS),
                        type_coerce(_TURNS.c.state_before, LargeBinary))
              .where(_TURNS.c.game_id == bindparam("game_id"),
                     _TURNS.c.status == TurnStatus.OPEN))


def open_turn_context(session: Session, game: Game) -> tuple[Turn, TurnContext]:
    """The game's open turn (transient, without its payload: read it, never add it) and
    its context, found with one statement: its row and its stored state's bytes."""
    assert game.id is not None
    row = session.execute(_OPEN_TURN, {"game_id": game.id}).first()
    if row is None:
        raise NotFound(f"game {game.name!r} has no open turn")
    *light, stored = row
    turn = Turn(**dict(zip(_LIGHT_COLUMNS, light, strict=True)))
    assert turn.id is not None
    return turn, _context(game, (game.id, turn.id, turn.number, bytes(stored)))


def _context(game: Game, key: tuple[int, int, int, bytes]) -> TurnContext:
    """The kept context for ``key``, or a new one made from the bytes it holds."""
    assert game.id is not None
    with _lock:
        kept = _contexts.get(game.id)
        if kept is not None and kept.key == key:
            _contexts.move_to_end(game.id)
            return kept
    state = jsonio.loads(uncompressed(key[3]))
    made = TurnContext(key, state, _prepared(game, state))
    with _lock:
        _contexts[game.id] = made
        _contexts.move_to_end(game.id)
        while len(_contexts) > KEPT_GAMES:
            _contexts.popitem(last=False)
    return made


def _prepared(game: Game, state: JSON) -> Any:
    """The engine's forecast index, or None: without one the forecast runs on the whole
    state, and a failure there is the forecast's (a courtesy), never the message's."""
    engine = forecaster(find_engine(game.kind))
    if not isinstance(engine, PreparedForecasting):
        return None
    try:
        return engine.prepare_forecast(state)
    except Exception:
        log.exception("forecast index failed for %s; forecasts use the whole state",
                      game.name)
        return None
