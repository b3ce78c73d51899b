"""Raw first: the message's bytes go to the spool folder and into the store, committed,
before anything can go wrong with them."""

from __future__ import annotations

import hashlib
import os
import tempfile
from datetime import datetime
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from moderator.intake.extract import ExtractedMessage
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import ReceivedMessage
from moderator.store.statuses import MessageStatus


def spool_raw(config: Config, raw: bytes, now: datetime) -> Path:
    """Write the raw message to the spool (named by content, so rewriting is harmless)."""
    folder = config.spool_dir / now.strftime("%Y-%m")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(raw).hexdigest()[:24]}.eml"
    if not path.exists():
        # A private temporary name per writer: two intakes may spool the same message at once.
        handle, tmp_name = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(handle, "wb") as tmp:
            tmp.write(raw)
        os.replace(tmp_name, path)
    return path


def store_raw(
    db: Engine, message: ExtractedMessage, raw: bytes, spool_path: Path, now: datetime
) -> int | None:
    """Commit the raw message; None when this Message-ID was handled before.

    A row still marked "received" was stored by a run that died before handling it
    (handling commits the status with its results): it is handled now, not dropped.
    """
    with Session(db) as session:
        existing = repo.message_by_message_id(session, message.message_id)
        if existing is not None:
            return existing.id if existing.status == MessageStatus.RECEIVED else None
        row = ReceivedMessage(
            message_id=message.message_id,
            raw=raw,
            spool_path=str(spool_path),
            received_at=now,
            sender=message.sender,
            subject=message.subject,
        )
        session.add(row)
        try:
            session.commit()
        except IntegrityError:  # another worker stored it a moment ago
            session.rollback()
            return None
        return row.id
