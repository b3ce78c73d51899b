"""`rerun_turn`: a finished turn recomputed from exactly what was stored (state before,
inputs, seed), and whether its events, state, dice and newsletters come out
byte-identical (`moderator turn rerun`; the run itself is `moderator.turn.run`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine
from sqlmodel import Session

from moderator import jsonio
from moderator.games import find_engine
from moderator.publish.newsletter import Reader, Rendered, RenderedTurn
from moderator.settings.config import Config, game_tables
from moderator.store import audit, repo
from moderator.store.models import Game, Turn
from moderator.store.statuses import TurnStatus
from moderator.turn.run import Adjudication, TurnError, adjudicate, readers, render_done_turn


@dataclass(frozen=True)
class RerunReport:
    number: int
    identical: bool
    differences: tuple[str, ...]


def rerun_turn(db: Engine, config: Config, game_name: str, number: int) -> RerunReport:
    """Recompute a finished turn from its stored inputs and compare with what was stored."""
    with Session(db) as session:
        game = repo.game_by_name(session, game_name)
        turn = repo.turn_by_number(session, game, number)
        if turn.status != TurnStatus.DONE:
            raise TurnError(f"turn {number} of {game.name} has not been run")
        engine = find_engine(game.kind)
        tables = game_tables(config, game.name, game.kind)
        inputs = jsonio.loads(turn.inputs_json)
        orders = {key: value["orders"] for key, value in inputs.items()}
        result = adjudicate(
            engine, tables, turn.seed, turn.number, jsonio.loads(turn.state_before), orders
        )
        next_deadline, people = _rendered_for(session, game, turn)
        notices = {int(pid): text for pid, text in
                   (jsonio.loads(turn.render_json) or {}).get("notices", {}).items()}
        notes = tuple(e.note for e in audit.notes_of_turn(session, game, number) if e.note)
        rendered = render_done_turn(
            config, engine, tables, game, turn, next_deadline, result, people,
            inputs, notes, turn.correction, notices,
        )
        differences = _compare(session, game, turn, result, rendered, people)
    return RerunReport(number, not differences, tuple(differences))


def _rendered_for(
    session: Session, game: Game, turn: Turn
) -> tuple[datetime | None, list[Reader]]:
    """The next deadline and readers a done turn's newsletters were rendered for (turns
    run before this was recorded: as they are now)."""
    stored = jsonio.loads(turn.render_json)
    if stored is None:
        following = repo.turn_by_number(session, game, turn.number + 1)
        return following.deadline, readers(session, game)
    deadline = datetime.fromisoformat(stored["next_deadline"]) if stored["next_deadline"] else None
    return deadline, [Reader(*row) for row in stored["readers"]]


def _compare(
    session: Session, game: Game, turn: Turn, result: Adjudication,
    rendered: RenderedTurn, people: list[Reader],
) -> list[str]:
    """What differs between a recomputed turn and what was stored (empty: identical)."""
    differences = []
    if jsonio.dumps([e.to_dict() for e in result.events]) != turn.events_json:
        differences.append("events")
    if jsonio.dumps(result.state) != turn.state_after:
        differences.append("state after")
    if jsonio.dumps(result.dice) != turn.dice_json:
        differences.append("dice log")
    stored = {(n.kind, n.player_id): n for n in repo.newsletters(session, game, turn.number)}
    fresh: dict[tuple[str, int | None], Rendered] = {("gazette", None): rendered.gazette}
    fresh.update({("turnsheet", r.player_id): rendered.sheets[r.player_id] for r in people})
    for key, new in fresh.items():
        old = stored.get(key)
        if old is None or (old.markdown, old.html, old.text) != (new.markdown, new.html, new.text):
            differences.append(f"{key[0]} {key[1] or ''}".strip())
    return differences
