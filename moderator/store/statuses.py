"""Every status a stored row can have, as StrEnums.

The columns stay plain strings (the values below are what is stored, unchanged since the
first schema), so a StrEnum member compares equal to what a row holds; code writes and
tests statuses only through these names.
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    ROLLBACK = "rollback"  # a turn was rolled back; `turn rollforward` reissues it
    FINISHED = "finished"


class PlayerStatus(StrEnum):
    ACTIVE = "active"
    CIVIL_DISORDER = "civil-disorder"  # marked by the NMR policy; plays on as without orders
    REMOVED = "removed"  # ejected: no mail, orders refused


class MessageStatus(StrEnum):
    """A received message: received -> handling -> one of the fates."""

    RECEIVED = "received"
    HANDLING = "handling"
    ACCEPTED = "accepted"
    REFUSED = "refused"
    IGNORED = "ignored"
    FAILED = "failed"


class IntakeFate(StrEnum):
    """What one read of a message ended in (an `IntakeResult`; not stored as such)."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    IGNORED = "ignored"
    FAILED = "failed"
    DUPLICATE = "duplicate"


class TurnStatus(StrEnum):
    OPEN = "open"
    RUNNING = "running"  # claimed by one turn run
    DONE = "done"


class OutboxStatus(StrEnum):
    QUEUED = "queued"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"
    BOUNCED = "bounced"


class PressStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    EXPIRED = "expired"  # the turn ran before the GM decided


class RollbackStatus(StrEnum):
    PENDING = "pending"
    REPLAYED = "replayed"


class LogLevel(StrEnum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"
