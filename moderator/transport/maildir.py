"""The embedded mail transport: local Maildirs, no servers needed.

Incoming: every message in the moderator's inbox Maildir goes through intake; a
message is moved to the inbox's ``.processed`` folder only after intake has
committed, so a crash in between means it is read again next time, and the
Message-ID check makes that harmless.

Outgoing: each queued Outbox row is added to the recipient's own Maildir
(``<mailboxes>/<address>/``) and then marked sent.
"""

from __future__ import annotations

import mailbox
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import select

from moderator.config import Config
from moderator.desk.host import panic_reason
from moderator.intake.process import IntakeResult, process_message
from moderator.store.db import session_scope
from moderator.store.models import Outbox


def open_maildir(path: Path) -> mailbox.Maildir:
    path.parent.mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(path), factory=None, create=True)


def process_inbox(db: Engine, config: Config) -> list[IntakeResult]:
    """Run intake over every message waiting in the inbox Maildir (none while the host is
    stopped by `moderator panic`: the mail waits in the inbox)."""
    if panic_reason(db) is not None:
        return []
    inbox = open_maildir(config.maildir_inbox)
    if "processed" in inbox.list_folders():
        processed = inbox.get_folder("processed")
    else:
        processed = inbox.add_folder("processed")
    results = []
    # Maildir names start with the delivery time: sorted keys are oldest first, so a
    # player's later message becomes the later version of his orders.
    for key in sorted(inbox.keys()):
        with inbox.get_file(key) as handle:
            raw = handle.read()
        results.append(process_message(db, config, raw))
        processed.add(raw)
        inbox.discard(key)
    return results


@dataclass(frozen=True)
class Delivery:
    outbox_id: int
    to: str
    subject: str


def deliver_outbox(db: Engine, config: Config) -> list[Delivery]:
    """Deliver every queued mail into its recipient's Maildir (none during a panic)."""
    if panic_reason(db) is not None:
        return []
    delivered = []
    with session_scope(db) as session:
        queued = session.exec(select(Outbox).where(Outbox.status == "queued").order_by(Outbox.id))
        for row in queued:
            open_maildir(config.mailbox_for(row.to_addr)).add(row.raw)
            row.status, row.sent_at, row.attempts = "sent", datetime.now(UTC), row.attempts + 1
            session.add(row)
            delivered.append(Delivery(row.id, row.to_addr, row.subject))  # type: ignore[arg-type]
    return delivered
