"""Raw first: the message's bytes go to the spool folder and into the store, committed,
before anything can go wrong with them.

A message is known by its content digest (`content_digest`), not by its Message-ID alone:
clients and gateways reuse Message-IDs ("edit and resend" keeps the id, some gateways
stamp one id on everything), and a message that reuses one must still get its own row and
its own fate.  The same mail read twice (a re-fetch, a second delivery with other trace
headers) has the same digest and is one row.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from datetime import datetime
from pathlib import Path

from sqlalchemy import Engine, bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from moderator.intake.extract import ExtractedMessage
from moderator.intake.sender import split_head
from moderator.settings.config import Config
from moderator.store.models import ReceivedMessage
from moderator.store.statuses import MessageStatus

_MESSAGES = ReceivedMessage.__table__  # type: ignore[attr-defined]
# Made once: a statement built per message costs as much again as running it.
_BY_DIGEST = select(_MESSAGES.c.id, _MESSAGES.c.status).where(
    _MESSAGES.c.digest == bindparam("digest"))
_INSERT = insert(_MESSAGES)

# The headers that make a message what it is; trace headers (Received, Delivered-To,
# Return-Path, Authentication-Results ...) differ between two deliveries of one mail.
_CONTENT_HEADERS = (
    b"from", b"sender", b"to", b"cc", b"subject", b"date", b"message-id", b"in-reply-to",
    b"references", b"mime-version", b"content-type", b"content-transfer-encoding",
)
# A usable Message-ID: one addr-spec-like token, local part @ domain, no spaces.
_USABLE_ID = re.compile(r"^[^\s<>@]+@[^\s<>@]+$")


def content_digest(raw: bytes) -> str:
    """sha256 of the content headers (unfolded, whitespace collapsed, sorted) and the body
    (line ends and trailing blanks normalised).  Migration 0006 holds a copy: keep both."""
    head, body = split_head(raw)
    kept = []
    for line in re.sub(rb"\r?\n[ \t]+", b" ", head).splitlines():
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() in _CONTENT_HEADERS:
            kept.append(name.strip().lower() + b":" + b" ".join(value.split()))
    lines = [line.rstrip() for line in body.replace(b"\r\n", b"\n").split(b"\n")]
    text = b"\n".join(sorted(kept)) + b"\n\n" + b"\n".join(lines).rstrip(b"\n")
    return hashlib.sha256(text).hexdigest()


def usable_message_id(message_id: str, digest: str) -> str:
    """The message's own id when it is one; else one derived from its content, so a
    missing or malformed id (``Message-ID: no-brackets``) still threads and dedups."""
    if _USABLE_ID.match(message_id) and len(message_id) <= 250:
        return message_id
    return f"sha256-{digest}@moderator.invalid"


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
    db: Engine, message: ExtractedMessage, raw: bytes, spool_path: Path, now: datetime,
    digest: str | None = None,
) -> int | None:
    """Commit the raw message; None when this message (same content) was handled before.

    A row still marked "received" was stored by a run that died before handling it
    (handling commits the status with its results): it is handled now, not dropped.
    """
    digest = digest or content_digest(raw)
    # Core statements (issue 16, goal 3): the ORM's row, read back after the commit to
    # give its id, cost a second select of the whole raw message.
    try:
        with db.begin() as connection:
            existing = connection.execute(_BY_DIGEST, {"digest": digest}).first()
            if existing is not None:
                return existing.id if existing.status == MessageStatus.RECEIVED else None
            inserted = connection.execute(_INSERT, dict(
                message_id=message.message_id,
                digest=digest,
                raw=raw,
                spool_path=str(spool_path),
                received_at=now,
                sender=message.sender,
                subject=message.subject,
                status=MessageStatus.RECEIVED.value,
            ))
            key = inserted.inserted_primary_key
            assert key is not None
            return int(key[0])
    except IntegrityError:  # another worker stored it a moment ago
        return None
