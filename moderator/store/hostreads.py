"""Light reads for the scheduler and `moderator status`: many games at once, each in one
query, without the turns' JSON payload (issue 16, goal 5)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from moderator.store.models import Game, GmLog, Player, Submission, Turn
from moderator.store.repo import NotFound
from moderator.store.statuses import PlayerStatus, TurnStatus

# A turn's JSON columns (whole game states, inputs, events, dice): what a look at its
# deadlines or status does not need, and what made that look cost a state per game.
_TURN_PAYLOAD = ("state_before", "state_after", "inputs_json", "events_json", "dice_json",
                 "render_json")


def _light_turns():  # type: ignore[no-untyped-def]
    return select(Turn).options(*(defer(getattr(Turn, name)) for name in _TURN_PAYLOAD))


def open_turn_light(session: Session, game: Game) -> Turn:
    """`open_turn` without the turn's JSON payload (loaded only if touched)."""
    turn = session.exec(
        _light_turns().where(Turn.game_id == game.id, Turn.status == TurnStatus.OPEN)
    ).first()
    if turn is None:
        raise NotFound(f"game {game.name!r} has no open turn")
    return turn


def open_turns_light(session: Session) -> dict[int, Turn]:
    """Every game's open turn by game id, in one query, without the JSON payload."""
    rows = session.exec(_light_turns().where(Turn.status == TurnStatus.OPEN))
    return {turn.game_id: turn for turn in rows}


def open_turn_orders(session: Session) -> dict[int, tuple[int, int]]:
    """Per game: (how many versions of orders, the newest submission id) for its open
    turn, in one query: what tells the scheduler a game's orders changed."""
    rows = session.exec(
        select(Submission.game_id, func.count(), func.max(Submission.id))
        .join(Turn, (col(Turn.game_id) == col(Submission.game_id))
              & (col(Turn.number) == col(Submission.turn_number)))
        .where(Turn.status == TurnStatus.OPEN)
        .group_by(col(Submission.game_id))
    )
    return {game_id: (count, newest or 0) for game_id, count, newest in rows}


def player_marks(session: Session, game_ids: set[int]) -> dict[int, tuple[object, ...]]:
    """Per game, who plays and who is away: (id, status, absent_until) of each player,
    for the games in ``game_ids`` (one query)."""
    if not game_ids:
        return {}
    rows = session.exec(
        select(Player.game_id, Player.id, Player.status, Player.absent_until)
        .where(col(Player.game_id).in_(game_ids)).order_by(col(Player.id))
    )
    marks: dict[int, list[object]] = {}
    for game_id, player_id, status, absent in rows:
        marks.setdefault(game_id, []).append((player_id, status, absent))
    return {game_id: tuple(rows_) for game_id, rows_ in marks.items()}


def scheduled_jobs(session: Session) -> list[tuple[str, datetime | None]]:
    """The scheduler's job store rows (APScheduler's ``apscheduler_jobs``, kept in this
    database): each job's id and next run time, read without unpickling anything and
    without importing the scheduler (what `moderator status` shows)."""
    try:
        rows = session.execute(text("SELECT id, next_run_time FROM apscheduler_jobs "
                                    "ORDER BY next_run_time")).all()
    except OperationalError:  # no such table: the service has never run
        session.rollback()
        return []
    return [(row[0], datetime.fromtimestamp(row[1], UTC) if row[1] else None) for row in rows]


def order_counts(session: Session) -> dict[int, tuple[int, int]]:
    """Per game: (players still in it, how many of them sent orders for the open turn),
    in two queries (`status` for a host of many games)."""
    members = session.exec(
        select(Player.game_id, func.count()).where(Player.status != PlayerStatus.REMOVED)
        .group_by(col(Player.game_id)))
    sent = dict(session.exec(
        select(Submission.game_id, func.count(func.distinct(Submission.player_id)))
        .join(Turn, (col(Turn.game_id) == col(Submission.game_id))
              & (col(Turn.number) == col(Submission.turn_number)))
        .join(Player, col(Player.id) == col(Submission.player_id))
        .where(Turn.status == TurnStatus.OPEN, Player.status != PlayerStatus.REMOVED)
        .group_by(col(Submission.game_id))).all())
    return {game_id: (count, sent.get(game_id, 0)) for game_id, count in members}


def announced_turns(session: Session) -> set[tuple[int, int]]:
    """(game id, turn number) of every announcements gazette sent, from the GM log's
    ``announcements.sent`` entries ("turn N: ..."), in one query."""
    rows = session.exec(select(GmLog.game_id, GmLog.detail).where(
        GmLog.event == "announcements.sent", col(GmLog.game_id).is_not(None)))
    found: set[tuple[int, int]] = set()
    for game_id, detail in rows:
        head = detail.split(":", 1)[0]
        if game_id is not None and head.startswith("turn ") and head[5:].isdigit():
            found.add((game_id, int(head[5:])))
    return found
