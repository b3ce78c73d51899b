"""Raw RFC 5322 bytes -> the order text a human GM would read, plus routing facts.

Modelled on Mailman's ``CommandFinder`` (first ``text/plain`` part, a line cap,
ignored parts reported back to the sender) and Eressea's ``accept-orders.py``
(declared charset first, then fallbacks). :func:`extract_message` never raises:
every player mail must still produce a receipt, so problems become ``notes``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from typing import cast

from moderator.intake.quotes import strip_quotes_and_signature
from moderator.intake.text import cap_lines, decode_bytes, html_to_text, normalise_text, unflow
from moderator.mailpolicy import CACHED

# The text helpers stay importable from here, where intake and its tests look for them.
__all__ = [
    "DEFAULT_MAX_LINES",
    "ExtractedMessage",
    "cap_lines",
    "decode_bytes",
    "extract_message",
    "html_to_text",
    "normalise_text",
    "strip_quotes_and_signature",
    "synthetic_message_id",
    "unflow",
]

DEFAULT_MAX_LINES = 500

# Hard limits applied *before* reply parsing: mail-parser-reply's "On ... wrote:"
# regex is quadratic in line length (5 s for one 20,000-character line). This caps the
# line count; `moderator.intake.quotes` shields each over-long line from the library.
_PARSE_MAX_LINES = 10_000


@dataclass(frozen=True)
class ExtractedMessage:
    """What intake needs from one email, independent of how it arrived."""

    message_id: str
    """Message-ID without ``<>``, or ``sha256-<hex>@moderator.invalid`` when missing."""
    sender: str
    """Lower-cased address from ``From`` (never ``Reply-To``); ``""`` if unusable."""
    sender_name: str
    to_addrs: tuple[str, ...]
    """Lower-cased To, Cc, Delivered-To and X-Original-To addresses, first seen first."""
    subject: str
    date: datetime | None
    """The sender's claimed ``Date`` (aware), not when we received it."""
    in_reply_to: str | None
    references: tuple[str, ...]
    text: str
    """The order text: quotes and signature removed, ASCII quotes, ``\\n`` lines."""
    notes: tuple[str, ...]
    """Human-readable remarks for the receipt (ignored parts, removed quotes ...)."""
    auto_reason: str | None
    """Why this is automated mail we must never answer, else ``None``."""


def extract_message(raw: bytes, max_lines: int = DEFAULT_MAX_LINES) -> ExtractedMessage:
    """Read one raw email; never raises, whatever the bytes are."""
    raw = bytes(raw)
    try:
        return _extract(raw, max_lines)
    except Exception as exc:  # last resort: stdlib parser bugs must not lose a message
        return ExtractedMessage(
            message_id=synthetic_message_id(raw), sender="", sender_name="", to_addrs=(),
            subject="", date=None, in_reply_to=None, references=(), text="",
            notes=(f"could not read this message ({type(exc).__name__})",), auto_reason=None,
        )


def _extract(raw: bytes, max_lines: int) -> ExtractedMessage:
    msg = BytesParser(policy=CACHED).parsebytes(raw)
    notes: list[str] = []
    senders = _addresses(msg, "From")
    if len(senders) > 1:
        notes.append(f"the From line names {len(senders)} addresses; used the first")
    sender_name, sender = senders[0] if senders else ("", "")
    body, body_notes = _body_text(msg)
    notes += body_notes
    text, limit_note = cap_lines(normalise_text(body), _PARSE_MAX_LINES)
    text, reply_notes = strip_quotes_and_signature(text)
    notes += reply_notes
    text, cap_note = cap_lines(text, max_lines)
    notes += [note for note in (limit_note, cap_note) if note]
    return ExtractedMessage(
        message_id=_message_id(_header(msg, "Message-ID")) or synthetic_message_id(raw),
        sender=sender,
        sender_name=sender_name,
        to_addrs=_recipients(msg),
        # Folded or encoded line breaks would make the Subject unusable in a reply.
        subject=" ".join(_scrub(_header(msg, "Subject")).split()),
        date=_parse_date(_header(msg, "Date")),
        in_reply_to=_message_id(_header(msg, "In-Reply-To")) or None,
        references=_message_ids(_header(msg, "References")),
        text=_scrub(text),
        notes=tuple(_scrub(note) for note in notes),
        auto_reason=_scrub_optional(_auto_reason(msg, sender)),
    )


def synthetic_message_id(raw: bytes) -> str:
    """A stable id for mail without Message-ID, so re-fetching it is idempotent."""
    return f"sha256-{hashlib.sha256(raw).hexdigest()}@moderator.invalid"


# --- headers ---------------------------------------------------------------------------

_ANGLE_ID = re.compile(r"<([^<>\s]+)>")


def _header(msg: Message, name: str) -> str:
    """Decoded header value; the raw value if the structured parser chokes on it."""
    try:
        value = msg.get(name)
        return "" if value is None else str(value).strip()
    except Exception:  # known stdlib header-parser crashes on hostile input
        for key, value in msg.raw_items():
            if key.lower() == name.lower():
                return _scrub(str(value)).strip()
        return ""


def _addresses(msg: Message, name: str) -> list[tuple[str, str]]:
    """(display name, lower-cased address) pairs from every ``name`` header."""
    pairs: list[tuple[str, str]] = []
    try:
        headers = msg.get_all(name) or []
    except Exception:
        headers = [_header(msg, name)]
    for header in headers:
        try:
            # email.policy.default gives structured header objects, typed as str
            pairs += [(a.display_name, a.addr_spec) for a in header.addresses]  # type: ignore[attr-defined]
        except Exception:  # unstructured (Delivered-To) or unparsable: use the lenient parser
            pairs += getaddresses([str(header)])
    return [(_scrub(n).strip(), _scrub(a).strip().lower()) for n, a in pairs if a.strip()]


def _recipients(msg: Message) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        found.update((addr, None) for _, addr in _addresses(msg, name))
    return tuple(found)


def _message_id(value: str) -> str:
    match = _ANGLE_ID.search(value)
    if match:
        return _scrub(match.group(1))
    words = value.strip().strip("<>").split()
    return _scrub(words[0]) if words else ""


def _message_ids(value: str) -> tuple[str, ...]:
    return tuple(_scrub(v) for v in _ANGLE_ID.findall(value)) or tuple(value.split())


def _parse_date(value: str) -> datetime | None:
    """Aware datetime; ``-0000`` (zone unknown) is read as UTC."""
    if not value:
        return None
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


# --- automated mail --------------------------------------------------------------------

def _is_set(value: str) -> bool:
    return value.strip().lower() not in ("no", "false", "0")


def _present(value: str) -> bool:
    return True


def _suppresses_replies(value: str) -> bool:
    """Microsoft sets DR/AutoReply/All on OOF notices and most bulk mail."""
    tokens = {t.strip().lower() for t in value.split(",")}
    return bool(tokens & {"dr", "autoreply", "all"})


def _null_return_path(value: str) -> bool:
    addr = value.strip().strip("<>").strip().lower()
    return addr == "" or addr.startswith("mailer-daemon")


# (header, predicate on its value) in the order we test them. Sources: RFC 3834,
# RFC 2919, arp242.net/autoreply.html and the multi_mail "Detecting autoresponders" wiki.
_AUTO_HEADERS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("Auto-Submitted", lambda v: v.split(";")[0].strip().lower() not in ("", "no")),
    ("Precedence", lambda v: v.strip().lower() in ("bulk", "list", "junk", "auto_reply")),
    ("X-Precedence", lambda v: v.strip().lower() in ("bulk", "list", "junk", "auto_reply")),
    ("List-Id", _present),
    ("List-Unsubscribe", _present),
    ("X-Autoreply", _is_set),
    ("X-Autorespond", _is_set),
    ("X-Autogenerated", _is_set),
    ("X-AutoReply-From", _present),
    ("X-Mail-Autoreply", _present),
    ("X-FC-MachineGenerated", _is_set),
    ("X-Auto-Response-Suppress", _suppresses_replies),
    ("Feedback-ID", _present),
    ("Return-Path", _null_return_path),
)
_ROBOT_LOCALPARTS = frozenset({"mailer-daemon", "postmaster"})
# Some Exchange set-ups send out-of-office notices without any header at all.
_AUTO_SUBJECT = re.compile(
    r"^\s*(automatic reply|auto(matic)?[- ]?response|autoreply|out of (the )?office"
    r"|abwesenheitsnotiz|r[ée]ponse automatique|respuesta autom[áa]tica)\b",
    re.IGNORECASE,
)


def _auto_reason(msg: Message, sender: str) -> str | None:
    """Why this mail is automated (never answer it: loops), or ``None``."""
    for name, predicate in _AUTO_HEADERS:
        if name in msg and predicate(_header(msg, name)):
            return f"{name}: {_header(msg, name)}".strip()
    if msg.get_content_type() == "multipart/report":
        return "delivery status report (multipart/report)"
    if sender.split("@")[0] in _ROBOT_LOCALPARTS:
        return f"sent by {sender}"
    if _AUTO_SUBJECT.match(_header(msg, "Subject")):
        return f"automatic-reply subject: {_header(msg, 'Subject')}"
    return None


# --- MIME parts ------------------------------------------------------------------------

@dataclass(frozen=True)
class _Leaf:
    part: Message
    content_type: str
    attachment: bool
    filename: str | None
    in_alternative: bool


def _leaves(part: Message, in_alternative: bool = False, depth: int = 0) -> Iterator[_Leaf]:
    """Non-multipart parts; forwarded messages are leaves (we never read inside them)."""
    content_type = part.get_content_type()
    # message/rfc822 and message/delivery-status parse as "multipart"; keep them whole.
    if part.is_multipart() and part.get_content_maintype() != "message" and depth < 20:
        alternative = content_type == "multipart/alternative"
        for sub in part.get_payload():
            yield from _leaves(cast(Message, sub), in_alternative or alternative, depth + 1)
        return
    filename = _filename(part)
    attachment = part.get_content_disposition() == "attachment" or filename is not None
    yield _Leaf(part, content_type, attachment, filename, in_alternative)


def _filename(part: Message) -> str | None:
    try:
        return part.get_filename()
    except Exception:
        return "unnamed"


def _body_text(msg: Message) -> tuple[str, list[str]]:
    """Pick the part a GM would read: inline plain, else inline HTML, else attached plain."""
    leaves = list(_leaves(msg))
    ranked = (
        [lf for lf in leaves if lf.content_type == "text/plain" and not lf.attachment],
        [lf for lf in leaves if lf.content_type == "text/html" and not lf.attachment],
        [lf for lf in leaves if lf.content_type == "text/plain" and lf.attachment],
    )
    blank: list[_Leaf] = []  # empty parts are not worth a note
    for candidates in ranked:
        for leaf in candidates:
            text, notes = _leaf_text(leaf)
            if not text.strip():
                blank.append(leaf)
                continue
            if not leaf.attachment:
                attached = _orders_attached(text, ranked[2])
                if attached is not None:
                    leaf, (text, notes) = attached, _leaf_text(attached)
            if leaf.attachment:
                notes.insert(0, f"read the orders from the attachment {leaf.filename!r}")
            return text, notes + _ignored([lf for lf in leaves if lf not in blank], leaf)
    if not msg.is_multipart() and msg.get_content_maintype() == "multipart":
        text, notes = _decode_payload(msg)  # multipart without boundary: read it raw
        if text.strip():
            return text, ["could not understand the MIME structure; read the raw body", *notes]
    return "", ["found no text in the message", *_ignored(leaves, None)]


# A password line: what makes a part the player's orders.
_PASSWORD_LINE = re.compile(r"^[ \t]*(?:PASSWORD|PW)\b", re.IGNORECASE | re.MULTILINE)


def _orders_attached(body: str, attached: list[_Leaf]) -> _Leaf | None:
    """The text attachment holding the orders when the body holds none ("orders
    attached, Jacques"): the body has no password line and the attachment has one."""
    if _PASSWORD_LINE.search(body):
        return None
    for leaf in attached:
        if _PASSWORD_LINE.search(_leaf_text(leaf)[0]):
            return leaf
    return None


def _ignored(leaves: list[_Leaf], used: _Leaf | None) -> list[str]:
    """One note per part we skipped, except the other half of an alternative."""
    notes = []
    for leaf in leaves:
        if leaf is used:
            continue
        if leaf.attachment:
            notes.append(f"ignored an attachment {leaf.filename or leaf.content_type!r}")
        elif leaf.content_type == "message/rfc822":
            notes.append("ignored a forwarded message")
        elif not (leaf.in_alternative and leaf.content_type in ("text/plain", "text/html")):
            notes.append(f"ignored a {leaf.content_type} part")
    return notes


def _leaf_text(leaf: _Leaf) -> tuple[str, list[str]]:
    text, notes = _decode_payload(leaf.part)
    if leaf.content_type == "text/html":
        return html_to_text(text), [*notes, "converted HTML to text"]
    if str(leaf.part.get_param("format") or "").lower() == "flowed":
        delsp = str(leaf.part.get_param("delsp") or "").lower() == "yes"
        text = unflow(text, delsp)
    return text, notes


def _decode_payload(part: Message) -> tuple[str, list[str]]:
    """Undo quoted-printable/base64, then the charset."""
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if not isinstance(data, bytes):
        payload = part.get_payload()
        data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
    try:
        declared = part.get_content_charset()
    except Exception:
        declared = None
    return decode_bytes(data, declared)


# --- storable text ---------------------------------------------------------------------

def _scrub(text: str) -> str:
    """Replace lone surrogates (from undecodable 8-bit headers) so the text can be stored."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _scrub_optional(text: str | None) -> str | None:
    return None if text is None else _scrub(text)

