"""Building outgoing emails (pure: no I/O, no database)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid


def new_message_id(moderator_address: str) -> str:
    """A fresh Message-ID (with <>), fixed when a mail is queued and never changed."""
    domain = moderator_address.rpartition("@")[2] or "moderator.invalid"
    return make_msgid(idstring="moderator", domain=domain)


# A msg-id as threading headers may carry it: printable ASCII, no spaces, in <>.
_MSG_ID = re.compile(r"^<[\x21-\x3b\x3d\x3f-\x7e]+>$")
# Header lines may be up to 998 characters (RFC 5322 2.1.1).  Serialising with the
# default 78 makes the email package RFC 2047-encode any msg-id longer than a line
# (Exchange Online ids, our synthetic sha256 ids), and clients cannot thread on that.
_HEADER_LINE_LIMIT = 998


def _threading(in_reply_to: str, references: Sequence[str]) -> tuple[str, str]:
    """In-Reply-To and References: usable ids only, each once, the parent last."""
    chain = [r for r in dict.fromkeys([*references, in_reply_to]) if _MSG_ID.match(r)]
    parent = in_reply_to if _MSG_ID.match(in_reply_to) else ""
    if parent:
        chain = [r for r in chain if r != parent] + [parent]
    return parent, " ".join(chain)


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
    parent, chain = _threading(in_reply_to or "", references)
    if parent:
        msg["In-Reply-To"] = parent
    if chain:
        msg["References"] = chain
    if auto_submitted:
        # RFC 3834: stops other robots (vacation replies) answering us in a loop.
        msg["Auto-Submitted"] = auto_submitted
    for name, value in extra_headers:
        msg[name] = value
    msg.set_content(text, charset="utf-8")
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8")
    return msg.as_bytes(policy=msg.policy.clone(max_line_length=_HEADER_LINE_LIMIT))
