"""Queries over the store, named for what the service asks of it."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime
from email.parser import BytesHeaderParser

from sqlalchemy import bindparam
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from moderator.clock import as_utc
from moderator.store.models import (
    Game,
    GmLog,
    Newsletter,
    Outbox,
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


# Made once, the statements intake runs for every message: building one costs as much
# again as running it.
_GAME_NAMED = select(Game).where(Game.name == bindparam("name"))
_GAME_NAMES = select(Game.name).order_by(col(Game.name))
_PLAYER_AT = (select(Player)
              .join(PlayerAddress, col(PlayerAddress.player_id) == col(Player.id))
              .where(PlayerAddress.game_id == bindparam("game_id"),
                     PlayerAddress.email == bindparam("address")))
_VERSIONS = (select(Submission)
             .where(Submission.player_id == bindparam("player_id"),
                    Submission.turn_number == bindparam("turn_number"))
             .order_by(col(Submission.version)))


def find_game(session: Session, name: str) -> Game | None:
    return session.exec(_GAME_NAMED, params={"name": name.lower()}).first()


def games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).order_by(col(Game.name))))


def game_names(session: Session) -> list[str]:
    """The games' names (what intake routes a message by: no rows loaded)."""
    return list(session.exec(_GAME_NAMES))


def players(session: Session, game: Game) -> list[Player]:
    query = select(Player).where(Player.game_id == game.id).order_by(col(Player.id))
    return list(session.exec(query))


def members(session: Session, game: Game) -> list[Player]:
    """The players still in the game (not removed): who gets its mail."""
    return [p for p in players(session, game) if p.status != PlayerStatus.REMOVED]


def player_by_address(session: Session, game: Game, address: str) -> Player | None:
    # One statement (intake asks it of every message): the address is unique in a game.
    return session.exec(_PLAYER_AT,
                        params={"game_id": game.id, "address": address.lower()}).first()


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


def done_turn_labels(session: Session, game: Game) -> list[tuple[int, str]]:
    """Each turn run so far, as (number, label) in order: the label is the name its
    gazette and turn sheets were printed under (only the two columns are read)."""
    return [(number, label) for number, label in session.exec(
        select(Turn.number, Turn.label)
        .where(Turn.game_id == game.id, Turn.status == TurnStatus.DONE)
        .order_by(col(Turn.number)))]


def last_done_turn_label(session: Session, game: Game) -> str | None:
    """The label of the last turn run (its row's states are not read)."""
    return session.exec(
        select(Turn.label)
        .where(Turn.game_id == game.id, Turn.status == TurnStatus.DONE)
        .order_by(col(Turn.number).desc())
    ).first()


def message_by_message_id(session: Session, message_id: str) -> ReceivedMessage | None:
    return session.exec(
        select(ReceivedMessage).where(ReceivedMessage.message_id == message_id)
    ).first()


def submissions(session: Session, player: Player, turn_number: int) -> list[Submission]:
    return list(session.exec(_VERSIONS,
                             params={"player_id": player.id, "turn_number": turn_number}))


def written_at(submission: Submission) -> datetime:
    """When the orders count as written: ``min(Date, received)``.

    The sender's Date still orders two messages that overtook each other in transit,
    but a clock running fast (or a forged Date) can never put a message after mail
    that reached us later.
    """
    received = as_utc(submission.received_at)
    if submission.sent_at is None:
        return received
    return min(as_utc(submission.sent_at), received)


# The header a receipt carries naming the submission it reads back (see
# `moderator.publish.receipts`): a reply to that receipt supersedes that version.
RECEIPT_HEADER = "X-Moderator-Submission"


@dataclass(frozen=True)
class Standing:
    """The version of a player's orders that stands, and why (receipts and the GM say it)."""

    submission: Submission
    reason: str

    @property
    def version(self) -> int:
        return self.submission.version


def standing_submission(
    session: Session, player: Player, turn_number: int, deadline: datetime | None
) -> Standing | None:
    """The orders that stand, the one rule every reader uses (orders show, game show,
    status, receipts, preview and the turn run).

    Of the versions received by ``deadline``, taken in the order they arrived, each
    gets a rank ``(time, version)``: its `written_at`; a reply to the receipt of an
    earlier version ranks after that version whatever its Date; a version the GM
    entered (`player act-as`) ranks after every earlier one.  The highest rank stands.
    """
    versions = [s for s in submissions(session, player, turn_number)
                if deadline is None or as_utc(s.received_at) <= as_utc(deadline)]
    if not versions:
        return None
    answers = _answered_receipts(session, versions)
    ranks: dict[int, tuple[datetime, int]] = {}
    reasons: dict[int, str] = {}
    for sub in versions:
        rank, why = (written_at(sub), sub.version), ""
        if sub.message_id is None:
            top = max(ranks.values(), default=rank)
            rank, why = (max(rank[0], top[0]), sub.version), "the GM entered it (act-as)"
        elif answers.get(sub.version) in ranks:
            answered = answers[sub.version]
            rank = max(rank, (ranks[answered][0], sub.version))
            why = f"it answers the receipt for v{answered}"
        ranks[sub.version], reasons[sub.version] = rank, why
    best = max(versions, key=lambda s: ranks[s.version])
    reason = reasons[best.version] or _time_reason(best, versions)
    return Standing(best, reason)


def _time_reason(best: Submission, versions: list[Submission]) -> str:
    if best is versions[-1]:
        return "it is the latest version" if len(versions) > 1 else "it is the only version"
    later = ", ".join(f"v{s.version}" for s in versions if s.version > best.version)
    return f"it was written after {later}, which reached the moderator first"


def _answered_receipts(session: Session, versions: list[Submission]) -> dict[int, int]:
    """version -> the earlier version whose receipt this version's mail replies to."""
    by_id = {s.id: s.version for s in versions}
    found: dict[int, int] = {}
    for sub in versions:
        if sub.message_id is None:
            continue
        message = session.get(ReceivedMessage, sub.message_id)
        if message is None:
            continue
        for ref in _replied_ids(message.raw):
            receipt = session.exec(select(Outbox).where(
                col(Outbox.message_id).in_((ref, f"<{ref}>")))).first()
            answered = by_id.get(_receipt_submission(receipt.raw)) if receipt else None
            if answered is not None and answered < sub.version:
                found[sub.version] = max(answered, found.get(sub.version, 0))
    return found


def _replied_ids(raw: bytes) -> list[str]:
    headers = BytesHeaderParser().parsebytes(raw)
    found: list[str] = []
    for name in ("In-Reply-To", "References"):
        for value in headers.get_all(name) or []:
            found += [m.strip("<>") for m in str(value).split() if m.strip("<>")]
    return found


def _receipt_submission(raw: bytes) -> int | None:
    value = BytesHeaderParser().parsebytes(raw).get(RECEIPT_HEADER)
    try:
        return int(str(value).strip()) if value is not None else None
    except ValueError:
        return None


def winning_submission(
    session: Session, player: Player, turn_number: int, deadline: datetime | None
) -> Submission | None:
    """The submission of `standing_submission`, without the reason."""
    standing = standing_submission(session, player, turn_number, deadline)
    return None if standing is None else standing.submission


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
    """Record what the running service last did (shown by `moderator status`).

    One upsert (INSERT ... ON CONFLICT DO UPDATE, on SQLite and PostgreSQL alike): workers
    starting at once all write ``service.started``, and a read-then-insert would let the
    second fail on the key the first just inserted.
    """
    now = utcnow()
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(ServiceStatus).values(key=key, value=value, updated_at=now)
    session.execute(statement.on_conflict_do_update(
        index_elements=["key"], set_={"value": value, "updated_at": now}))
    loaded = session.identity_map.get(session.identity_key(ServiceStatus, key))  # type: ignore[arg-type]
    if loaded is not None:
        session.expire(loaded)  # read again from the row just written


def service_status(session: Session) -> dict[str, ServiceStatus]:
    return {row.key: row for row in session.exec(select(ServiceStatus))}
