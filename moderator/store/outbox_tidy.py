"""What the outbox keeps once a mail is sent: a password-bearing mail masked, old bodies
dropped (issue 16, goals 4 and 6)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from moderator.store.models import Outbox, utcnow
from moderator.store.passwords import masked
from moderator.store.statuses import OutboxStatus

# Mail that carries a password: masked in the stored copy as soon as it is sent.
SECRET_KINDS = ("welcome", "notice")  # notice: a GM's password reset among others
# Where a mail's sending ends: sent, or never to be sent again (refused for good by the
# next hop, or bounced, which can happen before the tidy masked it).  A password left in
# such a row would stay in clear for good: failed and bounced rows are never compacted.
SENDING_ENDED = (OutboxStatus.SENT, OutboxStatus.FAILED, OutboxStatus.BOUNCED)
COMPACTED_NOTE = (b"\r\n[The body of this mail was dropped from the outbox after it was "
                  b"sent; the archive keeps every issue.]\r\n")


# Rows rewritten in one transaction at most: a backlog is worked off over several rounds
# instead of holding the database's write lock for long.
TIDY_BATCH = 500


def mask_sent_secrets(session: Session, now: datetime | None = None,
                      limit: int = TIDY_BATCH) -> int:
    """Mask the password in welcomes (and notices) sent, failed or bounced, not masked
    yet (at most ``limit``); how many."""
    rows = session.exec(select(Outbox).where(
        col(Outbox.kind).in_(SECRET_KINDS), col(Outbox.status).in_(SENDING_ENDED),
        col(Outbox.masked_at).is_(None)).limit(limit))
    count = 0
    for row in rows:
        mask_secret(row, now or utcnow())
        session.add(row)
        count += 1
    return count


def mask_secret(row: Outbox, now: datetime) -> None:
    """A mail that carries a password, once its sending has ended (sent, failed for good,
    bounced): its stored copy without it.  Done where the row gets that status;
    `mask_sent_secrets` catches up rows an older version left."""
    if row.kind in SECRET_KINDS and row.masked_at is None:
        row.raw, row.masked_at = masked(row.raw), now


def compact_outbox(session: Session, sent_before: datetime, now: datetime | None = None,
                   limit: int | None = TIDY_BATCH) -> int:
    """Drop the body of mail sent before ``sent_before`` (at most ``limit`` rows; their
    headers stay, for bounces and the GM; a newsletter's mail, only headers and a
    reference already, is left whole); how many were compacted."""
    query = select(Outbox).where(
        Outbox.status == OutboxStatus.SENT, col(Outbox.sent_at) < sent_before,
        col(Outbox.compacted_at).is_(None))
    rows = session.exec(query.limit(limit) if limit is not None else query)
    count = 0
    for row in rows:
        if row.newsletter_id is None:
            head = row.raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in row.raw \
                else row.raw.split(b"\n\n", 1)[0]
            row.raw = head + b"\r\n" + COMPACTED_NOTE
        row.compacted_at = now or utcnow()
        session.add(row)
        count += 1
    return count
