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
import tempfile
from pathlib import Path

from moderator.store.models import ReceivedMessage
from moderator.store.passwords import has_subject_password, masked, masked_unread, passwords_in


def forget_password(stored: ReceivedMessage, text: str) -> bytes | None:
    """Mask the password(s) of ``text`` (the message as read) in the stored raw bytes and
    the spool file; the stored row changes in the caller's transaction.  The masked
    bytes, if masking changed them."""
    return _keep(stored, without_password(stored.raw, text))


def forget_password_in_spool(path: Path, raw: bytes, text: str) -> bytes | None:
    """Mask the password(s) of ``text`` in a spool file that no stored row names: the
    copy a redelivered message (the same content under other trace headers) left before
    it was found to be handled already.  The masked bytes, if they differ."""
    edited = without_password(raw, text)
    if edited is not None:
        _rewrite(path, edited)
    return edited


def without_password(raw: bytes, text: str) -> bytes | None:
    """``raw`` with the password(s) of ``text`` (and one in its subject) masked, or
    ``None`` if that is ``raw``."""
    values = passwords_in(text)
    if (values or has_subject_password(raw)) and (edited := masked(raw, values)) != raw:
        return edited
    return None


def forget_password_lines(stored: ReceivedMessage) -> bytes | None:
    """Mask every password line of a message intake does not read (a bounce or a vacation
    reply returning our welcome: ``Your password:`` and ``PASSWORD:`` lines, quoted or
    attached) in the stored bytes and the spool file; the masked bytes, if they differ."""
    raw = masked(stored.raw)
    return _keep(stored, raw if raw != stored.raw else None)


def forget_unread_password_lines(stored: ReceivedMessage) -> bytes | None:
    """Mask what the bytes of a message refused unread (oversized) show of a password
    (`masked_unread`: never parsed) in the stored bytes and the spool file; the masked
    bytes, if they differ."""
    raw = masked_unread(stored.raw)
    return _keep(stored, raw if raw != stored.raw else None)


def _keep(stored: ReceivedMessage, raw: bytes | None) -> bytes | None:
    """The masked bytes ``raw`` (None: nothing to mask) for the stored row and its spool
    file; ``raw`` again."""
    if raw is not None:
        stored.raw = raw
        if stored.spool_path:
            _rewrite(Path(stored.spool_path), raw)
    return raw


def _rewrite(path: Path, raw: bytes) -> None:
    """Replace the spool file atomically (a private temporary file, mode 0600)."""
    if not path.exists():
        return
    handle, tmp_name = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "wb") as tmp:
        tmp.write(raw)
    os.replace(tmp_name, path)
