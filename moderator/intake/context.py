"""What intake keeps of a message once its password has been checked: everything but the
password (issue 16, goal 4).

The raw message is stored and spooled before anything is done with it (nothing a player
sent is lost), so until the check its ``PASSWORD:`` line is there in clear.  Right after
the check, whatever its outcome, `forget_password` rewrites the stored bytes and the spool
file with the value masked: on every ``PASSWORD:`` line (quoted ones too) and wherever
else the same value appears.  Bytes are edited in place when the password is readable in
them (plain, 8bit, short quoted-printable lines), so the rest of the message stays byte
for byte; a part that hides it in an encoding (base64, long quoted-printable lines) is
decoded, masked and encoded again.
"""

from __future__ import annotations

import os
import re
import tempfile
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from moderator.store.models import ReceivedMessage

MASK = "[removed after the check]"
_LINE = re.compile(r"^([\s>]*PASSWORD\s*:[ \t]*)(\S.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
_LINE_BYTES = re.compile(rb"^([ \t>]*PASSWORD[ \t]*:[ \t]*)(\S[^\r\n]*?)[ \t]*(?=\r?$)",
                         re.IGNORECASE | re.MULTILINE)
# Shorter values are only masked on PASSWORD: lines (a short word may be an order too).
_ANYWHERE = 8


def passwords_in(text: str) -> list[str]:
    """The values given on ``PASSWORD:`` lines (quoted ones too), longest first."""
    return sorted({m.group(2) for m in _LINE.finditer(text)}, key=len, reverse=True)


def forget_password(stored: ReceivedMessage, text: str) -> None:
    """Mask the password(s) of ``text`` (the message as read) in the stored raw bytes and
    the spool file; the stored row changes in the caller's transaction."""
    values = passwords_in(text)
    if not values:
        return
    raw = masked(stored.raw, values)
    if raw == stored.raw:
        return
    stored.raw = raw
    if stored.spool_path:
        _rewrite(Path(stored.spool_path), raw)


def masked(raw: bytes, values: list[str]) -> bytes:
    """``raw`` with ``values`` masked, edited as bytes when that suffices."""
    edited = _LINE_BYTES.sub(lambda m: m.group(1) + MASK.encode(), raw)
    for value in values:
        if len(value) >= _ANYWHERE:
            edited = edited.replace(value.encode(), MASK.encode())
    if not _still_readable(edited, values):
        return edited
    return _reencoded(edited, values)


def _text_parts(message: EmailMessage) -> list[EmailMessage]:
    return [part for part in message.walk()
            if part.get_content_maintype() == "text" and not part.is_multipart()]


def _still_readable(raw: bytes, values: list[str]) -> bool:
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return any(_mask_text(_content(part), values) != _content(part)
               for part in _text_parts(message))


def _content(part: EmailMessage) -> str:
    try:
        return str(part.get_content())
    except (LookupError, ValueError):
        return ""


def _mask_text(text: str, values: list[str]) -> str:
    text = _LINE.sub(lambda m: m.group(1) + MASK, text)
    for value in values:
        if len(value) >= _ANYWHERE:
            text = text.replace(value, MASK)
    return text


def _reencoded(raw: bytes, values: list[str]) -> bytes:
    """Decode each text part that still shows a password, mask it, encode it again."""
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    for part in _text_parts(message):
        text = _content(part)
        clean = _mask_text(text, values)
        if clean != text:
            cte = part.get("Content-Transfer-Encoding", "").lower() or None
            part.set_content(clean, subtype=part.get_content_subtype(),
                             charset=part.get_content_charset() or "utf-8",
                             cte=cte if cte in ("base64", "quoted-printable") else None)
    return message.as_bytes()


def _rewrite(path: Path, raw: bytes) -> None:
    """Replace the spool file atomically (a private temporary file, mode 0600)."""
    if not path.exists():
        return
    handle, tmp_name = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "wb") as tmp:
        tmp.write(raw)
    os.replace(tmp_name, path)
