"""Building outgoing emails (pure: no I/O, no database).

A newsletter mail is stored as its header block only (``compose(..., head_only=True)``),
with a reference to the newsletter; `assemble` writes the body again at send time from
the newsletter's text and HTML.  For that to give the very bytes `compose` gives, the
multipart boundary (the one part of a body the email package would pick at random) is
derived from the parts themselves (`boundary_for`) and read back from the stored
Content-Type.  So every reader's copy of a gazette has the same body, written once for
a run of mails (`_body` keeps the last few).
"""

from __future__ import annotations

import base64
import hashlib
import re
import sys
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import Policy
from email.policy import default as default_policy
from email.utils import format_datetime, formataddr, make_msgid
from functools import lru_cache

from moderator.mailpolicy import CACHED


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


def _usable_id(value: str) -> bool:
    """A msg-id we may echo: its shape, and no "=?" (the email package would read an
    encoded word there, and write what it decodes to raw: see `_literal`)."""
    return _MSG_ID.match(value) is not None and "=?" not in value


def _threading(in_reply_to: str, references: Sequence[str]) -> tuple[str, str]:
    """In-Reply-To and References: usable ids only, each once, the parent last."""
    chain = [r for r in dict.fromkeys([*references, in_reply_to]) if _usable_id(r)]
    parent = in_reply_to if _usable_id(in_reply_to) else ""
    if parent:
        chain = [r for r in chain if r != parent] + [parent]
    return parent, " ".join(chain)


# The shape of the email package's own boundaries: 15 '=', 19 digits, '=='.
_BOUNDARY_DIGITS = len(repr(sys.maxsize - 1))


def boundary_for(text: str, html: str) -> str:
    """The multipart boundary of a text and HTML pair: a function of the two, so
    composing the mail again gives the same bytes; never a string the parts contain."""
    digest = hashlib.sha256(f"{text}\0{html}".encode(errors="surrogatepass")).digest()
    token = int.from_bytes(digest[:8]) % sys.maxsize
    boundary = f"{'=' * 15}{token:0{_BOUNDARY_DIGITS}d}=="
    candidate, counter = boundary, 0
    while candidate in text or candidate in html:
        candidate, counter = f"{boundary}.{counter}", counter + 1
    return candidate


# Characters a header shows nobody: C0 and C1 controls (a terminal escape in a subject a
# mail client or the GM's console prints), and the invisible ones that reorder or hide text.
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e"
                        "\u2060-\u2064\u2066-\u2069\ufeff]")


def _one_line(value: str) -> str:
    """Header values never carry line breaks (they would end the header block), nor
    control or invisible characters."""
    return " ".join(_INVISIBLE.sub("", " ".join(value.split())).split())


class _Literal(str):
    """A header value that already is its RFC 2047 encoded words (`_literal`); the
    email package writes such a value as it is (``name`` and ``fold`` are what it looks
    for in a header object)."""

    name: str

    def fold(self, *, policy: Policy) -> str:
        return f"{self.name}: {self.replace(chr(10), policy.linesep)}{policy.linesep}"


# Bytes of UTF-8 in one encoded word: 60 characters of base64, 72 with "=?utf-8?b?...?=".
_WORD_BYTES = 45


def _literal(name: str, value: str) -> str:
    """``value`` for header ``name`` so that a reader sees exactly ``value``.

    The email package reads any "=?charset?q?...?=" in a value it is given as an encoded
    word and, in Python 3.11, writes what that decodes to back raw: "=?utf-8?q?=0D=0A...?="
    in a player's Subject (echoed in the subject of his refusal) or in his name (in his
    receipt's) would begin a header of his own.  Such a value is written as base64
    encoded words of its own, which readers decode back to the very text."""
    if "=?" not in value:
        return value
    words, chunk = [], ""
    for char in value:
        if len((chunk + char).encode()) > _WORD_BYTES:
            words.append(chunk)
            chunk = ""
        chunk += char
    words.append(chunk)
    encoded = _Literal("\n ".join(
        f"=?utf-8?b?{base64.b64encode(w.encode()).decode()}?=" for w in words))
    encoded.name = name
    return encoded


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
    head_only: bool = False,
) -> bytes:
    """One RFC 5322 message; multipart/alternative when there is an HTML part.

    ``head_only``: just its header block (what a newsletter's outbox row keeps); with an
    HTML part the headers do not depend on the parts' encoding, so they are not encoded.
    """
    msg = EmailMessage(policy=CACHED)
    msg["From"] = formataddr((sender_name, sender))
    msg["To"] = _one_line(to)
    msg["Subject"] = _literal("Subject", _one_line(subject))
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
    if html is None:
        whole = _serialised(_with_content(msg, text, None, None))
        return head(whole) if head_only else whole
    boundary = boundary_for(text, html)
    if head_only:
        return head(_serialised(_with_content(msg, "", "", boundary)))
    return _serialised(_with_content(msg, text, html, boundary))


def _with_content(msg: EmailMessage, text: str, html: str | None,
                  boundary: str | None) -> EmailMessage:
    msg.set_content(text, charset="utf-8")
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8")
        if boundary is not None:
            msg.set_boundary(boundary)
    return msg


def _serialised(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=msg.policy.clone(max_line_length=_HEADER_LINE_LIMIT))


def head(raw: bytes) -> bytes:
    """A composed mail's header block (without the blank line that ends it)."""
    return raw.split(b"\n\n", 1)[0]


def assemble(header_block: bytes, text: str, html: str | None) -> bytes:
    """The whole mail again from its stored `head` and the newsletter's parts: the
    same bytes `compose` gave when it was queued."""
    headers = BytesHeaderParser(policy=default_policy).parsebytes(header_block + b"\n\n")
    boundary = headers.get_boundary() if html is not None else None
    return header_block + b"\n\n" + _body(text, html, boundary)


@lru_cache(maxsize=8)
def _body(text: str, html: str | None, boundary: str | None) -> bytes:
    """The body `compose` writes for these parts: a gazette's, mailed to every reader
    between their turn sheets, is encoded once for the run."""
    return _serialised(_with_content(EmailMessage(), text, html, boundary)).split(b"\n\n", 1)[1]
