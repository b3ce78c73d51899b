"""What a batch of outgoing mail did, row by row (`moderator.runners.outgoing`).

Each Outbox row a batch handles ends ``sent``, ``failed``, ``deferred`` or, after a crash,
``requeued`` (`SendFate`); `SendOutcome` is one row's, `SendReport` a whole batch's (the
service logs every mail in it; `summary` is the status line), tallied as the batch goes
in a `BatchTally`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from moderator.store.models import Outbox


class SendFate(StrEnum):
    """What one batch did to one row (`SendOutcome.status`; not stored as such)."""

    SENT = "sent"
    FAILED = "failed"
    DEFERRED = "deferred"
    REQUEUED = "requeued"  # recovery: interrupted by a crash, to be sent again


@dataclass(frozen=True)
class SendOutcome:
    """What happened to one Outbox row."""

    outbox_id: int
    to: str
    subject: str
    message_id: str
    status: SendFate
    detail: str = ""


@dataclass(frozen=True)
class SendReport:
    """One batch: what was sent, given up, put off; and rows recovered after a crash."""

    sent: tuple[SendOutcome, ...] = ()
    failed: tuple[SendOutcome, ...] = ()
    deferred: tuple[SendOutcome, ...] = ()
    recovered: tuple[SendOutcome, ...] = ()
    error: str | None = None  # the connection-level failure that ended the batch

    def summary(self) -> str:
        text = f"sent {len(self.sent)}, failed {len(self.failed)}, deferred {len(self.deferred)}"
        if self.recovered:
            text += f", recovered {len(self.recovered)}"
        return text + (f"; error: {self.error}" if self.error else "")


def outcome(row: Outbox, status: SendFate, detail: str = "") -> SendOutcome:
    assert row.id is not None
    return SendOutcome(row.id, row.to_addr, row.subject, row.message_id, status, detail)


@dataclass
class BatchTally:
    """What one batch has done so far, row by row (`SendReport` is made from it)."""

    sent: list[SendOutcome] = field(default_factory=list)
    failed: list[SendOutcome] = field(default_factory=list)
    deferred: list[SendOutcome] = field(default_factory=list)
    error: str | None = None
