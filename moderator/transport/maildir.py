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
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from moderator.intake.process import IntakeResult, process_message
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.host import panic_reason
from moderator.store.models import Outbox

_KEY = re.compile(r"^(\d+)\.M(\d+)P(\d+)Q(\d+)")


def delivery_order(key: str) -> tuple[int, ...]:
    """Sort key putting Maildir messages in delivery order.

    Python's Maildir names are ``SECONDS.M<usec>P<pid>Q<n>.host`` with the microseconds
    not zero-padded, so plain string order is wrong within one second.
    """
    match = _KEY.match(key)
    return tuple(int(g) for g in match.groups()) if match else (0,)


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
    # Oldest first, so a player's later message becomes the later version of his orders.
    for key in sorted(inbox.keys(), key=delivery_order):
        with inbox.get_file(key) as handle:
            raw = handle.read()
        try:
            results.append(process_message(db, config, raw))
        except OperationalError:  # the database is busy or gone: read it again next time
            break
        processed.add(raw)
        inbox.discard(key)
    return results


@dataclass(frozen=True)
class Delivery:
    outbox_id: int
    to: str
    subject: str


def deliver_outbox(db: Engine, config: Config) -> list[Delivery]:
    """Deliver every queued mail into its recipient's Maildir (none during a panic).

    Each row is delivered and marked sent in its own transaction, so a failure or a
    crash part-way never sends the rows before it again; a row that cannot be
    delivered (e.g. an address that is no usable folder name) is marked failed and
    the GM is told, and the others go on.
    """
    if panic_reason(db) is not None:
        return []
    with Session(db) as session:
        ids = list(session.exec(
            select(Outbox.id).where(Outbox.status == "queued").order_by(Outbox.id)))
    delivered = []
    for outbox_id in ids:
        with session_scope(db) as session:
            row = session.get(Outbox, outbox_id)
            if row is None or row.status != "queued":
                continue
            row.attempts += 1
            try:
                open_maildir(config.mailbox_for(row.to_addr)).add(row.raw)
            except (OSError, ValueError) as exc:
                row.status, row.last_error = "failed", repr(exc)
                repo.log_gm(session, "mail.failed", f"{row.to_addr}: {row.subject}: {exc!r}",
                            level="error")
                continue
            row.status, row.sent_at = "sent", datetime.now(UTC)
            delivered.append(Delivery(outbox_id, row.to_addr, row.subject))
    return delivered
