"""The store's tables (sqlmodel).

JSON payloads (state snapshots, orders, events, dice logs) are kept as text with
sorted keys so that byte-for-byte comparisons of reruns are meaningful; a turn's are
stored zlib-compressed (`Compressed`: what reads them gets the same text back).  Raw
email bytes are kept verbatim: nothing a player sent is ever lost.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, DateTime, Dialect, Index, LargeBinary, Text, UniqueConstraint
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from moderator.store.statuses import (
    GameStatus,
    MessageStatus,
    OutboxStatus,
    PlayerStatus,
    PressStatus,
    RollbackStatus,
    TurnStatus,
)


def utcnow() -> datetime:
    return datetime.now(UTC)


def _when(nullable: bool = False) -> Column[datetime]:
    return Column(DateTime(timezone=True), nullable=nullable)


# zlib's default level: a 1,000-character turn's state, events and dice shrink 20-25
# times at 30-80 ms a column; level 9 is 10-15% smaller at twice the time (BENCHMARKS.md,
# issue 16, goal 6).
ZLIB_LEVEL = 6


class Compressed(TypeDecorator[str]):
    """Text stored zlib-compressed (a turn's JSON shrinks 10 to 20 times); reads give
    back the very string written, so reruns still compare byte for byte."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Dialect) -> bytes | None:
        return None if value is None else zlib.compress(value.encode("utf-8"), ZLIB_LEVEL)

    def process_result_value(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else uncompressed(value)


def uncompressed(stored: bytes) -> str:
    """The text of a `Compressed` column's stored bytes (read raw, e.g. to key a cache)."""
    return zlib.decompress(stored).decode("utf-8")


def pack_texts(parts: Sequence[str]) -> bytes:
    """Several texts in one zlib stream (a first line of their lengths, then the texts):
    the three forms of a newsletter say the same thing, so together they compress about
    twice as well as each alone."""
    lengths = ",".join(str(len(part)) for part in parts)
    return zlib.compress(f"{lengths}\n{''.join(parts)}".encode(), ZLIB_LEVEL)


def unpack_texts(blob: bytes) -> list[str]:
    """The texts `pack_texts` packed, in their order."""
    lengths, _, joined = zlib.decompress(blob).decode("utf-8").partition("\n")
    parts, start = [], 0
    for length in (int(n) for n in lengths.split(",")):
        parts.append(joined[start:start + length])
        start += length
    return parts


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    kind: str
    seed: int
    status: str = GameStatus.ACTIVE.value
    time_zone: str = "Europe/Paris"
    # Recurring deadlines (JSON: see moderator.runners.schedule); None = set by hand per turn.
    schedule_json: str | None = Field(default=None, sa_column=Column(Text))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_when())


class Player(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "character_key"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    name: str
    character_key: str
    email: str  # the address receipts and newsletters go to
    password_hash: str
    created_at: datetime = Field(default_factory=utcnow, sa_column=_when())
    status: str = Field(default=PlayerStatus.ACTIVE.value,
                        sa_column_kwargs={"server_default": PlayerStatus.ACTIVE.value})
    absent_until: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    # Turns missed in a row (absences excused); the NMR policy acts on it.
    missed_turns: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # The player's own time zone (``TIME ZONE`` by mail): deadlines told to him show it
    # beside the game's.  None: the game's zone only.
    time_zone: str | None = None


class PlayerAddress(SQLModel, table=True):
    """Every address a player may send orders from (the first is ``Player.email``)."""

    __table_args__ = (UniqueConstraint("game_id", "email"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    email: str = Field(index=True)


class ReceivedMessage(SQLModel, table=True):
    """An email as it arrived, stored before anything else is done with it.

    One row per distinct message: ``digest`` (of its content, trace headers left out; see
    `moderator.intake.spool.content_digest`) is the key, so the same mail read twice is one
    row while two different mails reusing one Message-ID (clients do) are two.  ``status``
    and ``detail`` are its fate: every row ends accepted, refused, ignored or failed
    (quarantined), with the reason in ``detail``.
    """

    # has_accepted_from: a player's accepted mail from one address.
    __table_args__ = (Index("ix_receivedmessage_player_sender", "player_id", "sender", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True)
    digest: str | None = Field(default=None, index=True, unique=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    spool_path: str | None = None
    received_at: datetime = Field(default_factory=utcnow, sa_column=_when())
    sender: str | None = None
    subject: str | None = None
    game_id: int | None = Field(default=None, foreign_key="game.id")
    player_id: int | None = Field(default=None, foreign_key="player.id")
    status: str = MessageStatus.RECEIVED.value
    detail: str | None = Field(default=None, sa_column=Column(Text))
    # When an answer (receipt, refusal) was queued; None: the fate was silence.
    answered_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))


class Submission(SQLModel, table=True):
    """One version of a player's orders for one turn; every version is kept."""

    # The unique key serves the per-player reads; the game index serves `status` and the
    # scheduler's one-query look at every open turn's orders.
    __table_args__ = (UniqueConstraint("player_id", "turn_number", "version"),
                      Index("ix_submission_game_turn", "game_id", "turn_number"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    turn_number: int
    version: int
    message_id: int | None = Field(default=None, foreign_key="receivedmessage.id")
    sent_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    received_at: datetime = Field(default_factory=utcnow, sa_column=_when())
    text: str = Field(sa_column=Column(Text, nullable=False))
    orders_json: str = Field(sa_column=Column(Text, nullable=False))
    normal_form_json: str = Field(sa_column=Column(Text, nullable=False))
    errors_json: str = Field(sa_column=Column(Text, nullable=False))


class Turn(SQLModel, table=True):
    """One turn of one game: its inputs, its result, and how it was reached."""

    # open_turn and the scheduler's sync look turns up by status.
    __table_args__ = (UniqueConstraint("game_id", "number"),
                      Index("ix_turn_status_game", "status", "game_id"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    number: int
    label: str
    seed: int
    status: str = TurnStatus.OPEN.value
    deadline: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    # En Garde! has a first deadline for announcements and challenges (then a gazette).
    announcement_deadline: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    reminded_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    state_before: str = Field(sa_column=Column(Compressed, nullable=False))
    state_after: str | None = Field(default=None, sa_column=Column(Compressed))
    inputs_json: str | None = Field(default=None, sa_column=Column(Compressed))
    events_json: str | None = Field(default=None, sa_column=Column(Compressed))
    dice_json: str | None = Field(default=None, sa_column=Column(Compressed))
    # What the newsletters were rendered for (readers, the next deadline as printed), so
    # a rerun compares like with like even after players or deadlines changed.
    render_json: str | None = Field(default=None, sa_column=Column(Compressed))
    adjudicated_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    # Set when the turn was replayed after a rollback with a different result: the note
    # printed on its reissued newsletters (their subject says CORRECTION).
    correction: str | None = Field(default=None, sa_column=Column(Text))


class Newsletter(SQLModel, table=True):
    """A rendered gazette (player_id None) or one player's turn sheet.

    Its Markdown, HTML and text are kept together in ``content`` (`pack_texts`) and read
    as ``markdown``, ``html`` and ``text``; ``Newsletter(markdown=..., html=...,
    text=...)`` packs them.  The mails that carry it refer to it (`Outbox.newsletter_id`)
    instead of holding a copy each.
    """

    __table_args__ = (Index("ix_newsletter_game_turn", "game_id", "turn_number"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    turn_number: int
    player_id: int | None = Field(default=None, foreign_key="player.id")
    kind: str  # gazette | turnsheet | announcements
    subject: str
    content: bytes = Field(sa_column=Column(LargeBinary, nullable=False))

    def __init__(self, *, markdown: str = "", html: str = "", text: str = "",
                 **data: Any) -> None:
        if "content" not in data:
            data["content"] = pack_texts((markdown, html, text))
        super().__init__(**data)

    @property
    def markdown(self) -> str:
        return unpack_texts(self.content)[0]

    @property
    def html(self) -> str:
        return unpack_texts(self.content)[1]

    @property
    def text(self) -> str:
        return unpack_texts(self.content)[2]

    def parts(self) -> tuple[str, str, str]:
        """(markdown, html, text) with one decompression."""
        markdown, html, text = unpack_texts(self.content)
        return markdown, html, text


class Outbox(SQLModel, table=True):
    """One email to send; its Message-ID is fixed when it is queued."""

    # The outgoing loop polls queued rows in order (every second); `status` counts rows
    # per game and status; bounces look up the last mail sent to an address.
    __table_args__ = (Index("ix_outbox_status_created", "status", "created_at", "id"),
                      Index("ix_outbox_game_status", "game_id", "status"),
                      Index("ix_outbox_status_sent", "status", "sent_at"),
                      Index("ix_outbox_kind_status", "kind", "status", "masked_at"))

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True)
    game_id: int | None = Field(default=None, foreign_key="game.id")
    kind: str  # receipt | refusal | gazette | turnsheet | gm-notice
    to_addr: str
    subject: str
    # The whole mail; for a newsletter (``newsletter_id`` set) only its header block, the
    # body being written again from the newsletter when it is sent (publish.compose).
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    newsletter_id: int | None = Field(default=None, foreign_key="newsletter.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_when())
    status: str = OutboxStatus.QUEUED.value
    attempts: int = 0
    next_attempt_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    sent_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    last_error: str | None = None
    # Once sent, a welcome's password is masked in ``raw`` (the player has it; we need not)
    # and, after ``service.outbox_compact_days``, the body is dropped (headers kept).
    masked_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    compacted_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))


class GmLog(SQLModel, table=True):
    """The GM's log: refusals, failures and everything else a GM should see."""

    # announcements_sent looks up one event of one game; `status` the latest problems.
    __table_args__ = (Index("ix_gmlog_game_event", "game_id", "event"),
                      Index("ix_gmlog_level", "level", "id"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id")
    at: datetime = Field(default_factory=utcnow, sa_column=_when())
    level: str = "info"  # info | warning | error
    event: str
    detail: str = Field(default="", sa_column=Column(Text, nullable=False))


class ServiceStatus(SQLModel, table=True):
    """What the running service reports about itself (last poll, last send ...)."""

    key: str = Field(primary_key=True)
    value: str = Field(sa_column=Column(Text, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_when())


class AuditEntry(SQLModel, table=True):
    """One GM action from the desk: who, when, why, and what changed.

    ``note`` is the public GM note the next gazette prints (results-changing actions);
    ``noted_in_turn`` is the turn whose gazette printed it (None: not printed yet).
    """

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id", index=True)
    at: datetime = Field(default_factory=utcnow, sa_column=_when())
    who: str
    action: str = Field(index=True)
    reason: str = Field(sa_column=Column(Text, nullable=False))
    detail: str = Field(default="", sa_column=Column(Text, nullable=False))
    player_id: int | None = Field(default=None, foreign_key="player.id")
    turn_number: int | None = None
    note: str | None = Field(default=None, sa_column=Column(Text))
    noted_in_turn: int | None = None


class PressItem(SQLModel, table=True):
    """An announcement held for the GM (press moderation): pending -> approved |
    rejected, or expired when the turn ran before the GM decided."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    turn_number: int
    player_id: int = Field(foreign_key="player.id")
    submission_id: int = Field(foreign_key="submission.id")
    ordinal: int  # the n-th announcement of that submission (0-based, walk order)
    text: str = Field(sa_column=Column(Text, nullable=False))
    signed: str  # how it would be signed: the character, "unsigned" or "as <alias>"
    status: str = PressStatus.PENDING.value
    decided_by: str | None = None
    decided_at: datetime | None = Field(default=None, sa_column=_when(nullable=True))
    reason: str | None = Field(default=None, sa_column=Column(Text))


class RolledBackTurn(SQLModel, table=True):
    """A turn undone by `turn rollback`, kept so `turn rollforward` can replay it: the
    turn row and its newsletters as JSON.  pending -> replayed."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    number: int
    rollback_id: int = Field(foreign_key="auditentry.id")
    status: str = RollbackStatus.PENDING.value
    turn_json: str = Field(sa_column=Column(Text, nullable=False))
    newsletters_json: str = Field(sa_column=Column(Text, nullable=False))
