"""What the SMTP outbox reports: one row's outcome and one batch's summary.

Shared by sending (`moderator.transport.smtp`) and crash recovery
(`moderator.transport.sent_copy`), so neither has to import the other's module.
"""

from __future__ import annotations

import smtplib
from dataclasses import dataclass

from moderator.store.models import Outbox


@dataclass(frozen=True)
class SendOutcome:
    """What happened to one Outbox row."""

    outbox_id: int
    to: str
    subject: str
    message_id: str
    status: str  # sent | failed | deferred | requeued (recovery)
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


def outcome(row: Outbox, status: str, detail: str = "") -> SendOutcome:
    assert row.id is not None
    return SendOutcome(row.id, row.to_addr, row.subject, row.message_id, status, detail)


def describe(exc: BaseException) -> str:
    """One line for ``last_error`` and the GM log: an SMTP reply as ``code text``,
    anything else as ``Type: message``."""
    if isinstance(exc, smtplib.SMTPResponseException):
        error = exc.smtp_error
        text = error.decode("utf-8", "replace") if isinstance(error, bytes) else str(error)
        return f"{exc.smtp_code} {' '.join(text.split())}"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
