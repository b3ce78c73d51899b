"""Queries over the store, named for what the service asks of it."""

from __future__ import annotations

import difflib
from datetime import datetime

from sqlmodel import Session, col, select

from moderator.clock import as_utc
from moderator.store.models import (
    Game,
    GmLog,
    Newsletter,
    Player,
    PlayerAddress,
    ReceivedMessage,
    ServiceStatus,
    Submission,
    Turn,
    utcnow,
)
from moderator.store.statuses import MessageStatus, PlayerStatus, TurnStatus


class NotFound(LookupError):
    """A game, player or turn the GM named does not exist."""


def game_by_name(session: Session, name: str) -> Game:
    game = session.exec(select(Game).where(Game.name == name.lower())).first()
    if game is None:
        names = sorted(g.name for g in session.exec(select(Game)))
        near = difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.6)
        hint = f": did you mean {near[0]}?" if near else (
            f" (games: {', '.join(names)})" if names else " (no games yet: `game new`)")
        raise NotFound(f"no game {name!r}{hint}")
    return game


def find_game(session: Session, name: str) -> Game | None:
    return session.exec(select(Game).where(Game.name == name.lower())).first()


def games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).order_by(col(Game.name))))


def players(session: Session, game: Game) -> list[Player]:
    query = select(Player).where(Player.game_id == game.id).order_by(col(Player.id))
    return list(session.exec(query))


def members(session: Session, game: Game) -> list[Player]:
    """The players still in the game (not removed): who gets its mail."""
    return [p for p in players(session, game) if p.status != PlayerStatus.REMOVED]


def player_by_address(session: Session, game: Game, address: str) -> Player | None:
    link = session.exec(
        select(PlayerAddress).where(
            PlayerAddress.game_id == game.id, PlayerAddress.email == address.lower()
        )
    ).first()
    return None if link is None else session.get(Player, link.player_id)


def player_by_email(session: Session, game: Game, address: str) -> Player:
    player = player_by_address(session, game, address)
    if player is None:
        raise NotFound(f"no player {address!r} in game {game.name!r}")
    return player


def open_turn(session: Session, game: Game) -> Turn:
    """The turn now taking orders (there is always exactly one per game)."""
    turn = session.exec(
        select(Turn).where(Turn.game_id == game.id, Turn.status == TurnStatus.OPEN)
    ).first()
    if turn is None:
        raise NotFound(f"game {game.name!r} has no open turn")
    return turn


def turn_by_number(session: Session, game: Game, number: int) -> Turn:
    turn = session.exec(
        select(Turn).where(Turn.game_id == game.id, Turn.number == number)
    ).first()
    if turn is None:
        raise NotFound(f"game {game.name!r} has no turn {number}")
    return turn


def last_done_turn(session: Session, game: Game) -> Turn | None:
    return session.exec(
        select(Turn)
        .where(Turn.game_id == game.id, Turn.status == TurnStatus.DONE)
        .order_by(col(Turn.number).desc())
    ).first()


def message_by_message_id(session: Session, message_id: str) -> ReceivedMessage | None:
    return session.exec(
        select(ReceivedMessage).where(ReceivedMessage.message_id == message_id)
    ).first()


def submissions(session: Session, player: Player, turn_number: int) -> list[Submission]:
    return list(
        session.exec(
            select(Submission)
            .where(Submission.player_id == player.id, Submission.turn_number == turn_number)
            .order_by(col(Submission.version))
        )
    )


def written_at(submission: Submission) -> datetime:
    """When the player wrote these orders: the mail's Date, else when it arrived."""
    return as_utc(submission.sent_at or submission.received_at)


def winning_submission(
    session: Session, player: Player, turn_number: int, deadline: datetime | None
) -> Submission | None:
    """The orders that stand: of the versions received before the deadline, the one
    written last (mail can overtake mail), the later version on a tie."""
    query = select(Submission).where(
        Submission.player_id == player.id, Submission.turn_number == turn_number
    )
    if deadline is not None:
        query = query.where(Submission.received_at <= deadline)
    versions = list(session.exec(query))
    return max(versions, key=lambda s: (written_at(s), s.version)) if versions else None


def has_accepted_from(session: Session, player: Player, address: str) -> bool:
    """Whether orders from ``address`` were accepted for this player before."""
    return session.exec(
        select(ReceivedMessage.id).where(
            ReceivedMessage.player_id == player.id,
            ReceivedMessage.sender == address.lower(),
            ReceivedMessage.status == MessageStatus.ACCEPTED,
        )
    ).first() is not None


def newsletters(
    session: Session, game: Game, turn_number: int, player: Player | None = None
) -> list[Newsletter]:
    query = select(Newsletter).where(
        Newsletter.game_id == game.id, Newsletter.turn_number == turn_number
    )
    if player is not None:
        query = query.where(Newsletter.player_id == player.id)
    return list(session.exec(query.order_by(col(Newsletter.id))))


def log_gm(
    session: Session, event: str, detail: str = "", *, game: Game | None = None, level: str = "info"
) -> GmLog:
    entry = GmLog(game_id=game.id if game else None, event=event, detail=detail, level=level)
    session.add(entry)
    return entry


def gm_log(session: Session, game: Game | None = None) -> list[GmLog]:
    query = select(GmLog)
    if game is not None:
        query = query.where(GmLog.game_id == game.id)
    return list(session.exec(query.order_by(col(GmLog.id))))


def set_status(session: Session, key: str, value: str) -> None:
    """Record what the running service last did (shown by `moderator status`)."""
    row = session.get(ServiceStatus, key)
    if row is None:
        row = ServiceStatus(key=key, value=value)
    row.value, row.updated_at = value, utcnow()
    session.add(row)


def service_status(session: Session) -> dict[str, ServiceStatus]:
    return {row.key: row for row in session.exec(select(ServiceStatus))}
