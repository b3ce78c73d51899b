"""Building outgoing emails (pure: no I/O, no database)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid


def new_message_id(moderator_address: str) -> str:
    """A fresh Message-ID (with <>), fixed when a mail is queued and never changed."""
    domain = moderator_address.rpartition("@")[2] or "moderator.invalid"
    return make_msgid(idstring="moderator", domain=domain)


def _one_line(value: str) -> str:
    """Header values never carry line breaks (they would end the header block)."""
    return " ".join(value.split())


def compose(
    *,
    sender: str,
    sender_name: str,
    to: str,
    subject: str,
    text: str,
    message_id: str,
    date: datetime,
    html: str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str | None = None,
    extra_headers: Sequence[tuple[str, str]] = (),
) -> bytes:
    """One RFC 5322 message; multipart/alternative when there is an HTML part."""
    msg = EmailMessage()
    msg["From"] = formataddr((sender_name, sender))
    msg["To"] = _one_line(to)
    msg["Subject"] = _one_line(subject)
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = " ".join([*references, in_reply_to])
    if auto_submitted:
        # RFC 3834: stops other robots (vacation replies) answering us in a loop.
        msg["Auto-Submitted"] = auto_submitted
    for name, value in extra_headers:
        msg[name] = value
    msg.set_content(text, charset="utf-8")
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8")
    return msg.as_bytes()
