"""`turn preview`: the open turn run as a dry run (DPjudge's PREVIEW, njudge's PREDICT).

The same code path as a real run (orders as the run would take them, the engine, the
next deadlines, the GM notes waiting, the templates), in a read-only session that is
rolled back: nothing is stored, nothing is queued, no archive is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine
from sqlmodel import Session

from moderator import jsonio
from moderator.games import find_engine
from moderator.games.capabilities import decisions_due
from moderator.publish.newsletter import Reader, RenderedTurn
from moderator.settings.config import Config, game_tables
from moderator.store import audit, repo
from moderator.store.statuses import GameStatus
from moderator.turn import run as turns
from moderator.turn.deadlines import next_deadlines, now_utc
from moderator.turn.inputs import turn_inputs
from moderator.turn.nmr import nmr_outcomes, sheet_notices


@dataclass(frozen=True)
class Preview:
    number: int
    label: str
    orders_from: tuple[str, ...]
    rendered: RenderedTurn
    people: list[Reader]
    rolled_back: bool = False
    decisions_due: tuple[str, ...] = ()  # GM decisions this run looks for


def preview(db: Engine, config: Config, game_name: str) -> Preview:
    """Run the open turn without keeping anything (also while the game is rolled back)."""

    with Session(db) as session:
        try:
            game = repo.game_by_name(session, game_name)
            # A rolled-back game previews too: the GM checks a correction (state amend,
            # decide, act-as) before `turn rollforward` reissues it.
            turn = repo.open_turn(session, game)
            engine = find_engine(game.kind)
            tables = game_tables(config, game.name, game.kind)
            inputs, _changes = turn_inputs(session, config, game, turn)
            orders = {key: value["orders"] for key, value in inputs.items()}
            state = jsonio.loads(turn.state_before)
            result = turns.adjudicate(engine, tables, turn.seed, turn.number, state, orders)
            following = turns.per_game_deadlines(
                config, game, next_deadlines(game, turn, now=now_utc()))
            people = turns.readers(session, game)
            notes = audit.peek_notes(session, game, turn.number)
            notices = sheet_notices(nmr_outcomes(session, config, game, turn, inputs))
            rendered = turns.render_done_turn(config, engine, tables, game, turn,
                                              following.deadline, result, people, inputs,
                                              notes, notices=notices)
            return Preview(turn.number, turn.label, tuple(sorted(inputs)), rendered, people,
                           game.status == GameStatus.ROLLBACK,
                           decisions_due(engine, state))
        finally:
            session.rollback()
