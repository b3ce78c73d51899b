"""Raw RFC 5322 bytes -> the order text a human GM would read, plus routing facts.

Modelled on Mailman's ``CommandFinder`` (first ``text/plain`` part, a line cap,
ignored parts reported back to the sender) and Eressea's ``accept-orders.py``
(declared charset first, then fallbacks). :func:`extract_message` never raises:
every player mail must still produce a receipt, so problems become ``notes``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime

import html2text
from mailparser_reply import EmailMessage as ReplyMessage
from mailparser_reply import EmailReply

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
# regex is quadratic in line length (5 s for one 20,000-character line).
_PARSE_MAX_LINES = 10_000
_PARSE_MAX_LINE_CHARS = 1_000


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
    msg = BytesParser(policy=policy.default).parsebytes(raw)
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
        subject=_scrub(_header(msg, "Subject")),
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
            pairs += [(a.display_name, a.addr_spec) for a in header.addresses]
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
            yield from _leaves(sub, in_alternative or alternative, depth + 1)
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
            if leaf.attachment:
                notes.insert(0, f"read the orders from the attachment {leaf.filename!r}")
            return text, notes + _ignored([lf for lf in leaves if lf not in blank], leaf)
    if not msg.is_multipart() and msg.get_content_maintype() == "multipart":
        text, notes = _decode_payload(msg)  # multipart without boundary: read it raw
        if text.strip():
            return text, ["could not understand the MIME structure; read the raw body", *notes]
    return "", ["found no text in the message", *_ignored(leaves, None)]


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


# --- text ------------------------------------------------------------------------------

_SINGLE_BYTE_LATIN = frozenset(
    {"us-ascii", "ascii", "iso-8859-1", "latin-1", "latin1", "iso-8859-15",
     "windows-1252", "cp1252"}
)


def decode_bytes(data: bytes, declared: str | None) -> tuple[str, list[str]]:
    """Declared charset, then utf-8, then windows-1252 (a superset of latin-1 text).

    Mail that declares a Latin charset but carries valid non-ASCII UTF-8 is read as
    UTF-8: such byte pairs almost never occur in real Latin-1 text.
    """
    declared = (declared or "").strip().lower() or None
    if declared in _SINGLE_BYTE_LATIN and not data.isascii():
        try:
            return data.decode("utf-8"), [f"the message said {declared} but was utf-8"]
        except UnicodeDecodeError:
            pass
    problem = None
    if declared:
        try:
            return data.decode(declared), []
        except LookupError:
            problem = f"unknown charset {declared!r}"
        except (UnicodeError, ValueError):
            problem = f"the text was not valid {declared}"
    for fallback in ("utf-8", "windows-1252"):
        try:
            text = data.decode(fallback)
        except UnicodeDecodeError:
            continue
        if problem:
            return text, [f"{problem}; read it as {fallback}"]
        return text, [] if fallback == "utf-8" else ["read the text as windows-1252"]
    text = data.decode("windows-1252", errors="replace")
    return text, [f"{problem or 'the text was not valid utf-8'}; read it as windows-1252"
                  " and replaced unreadable bytes"]


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: join soft breaks, drop space-stuffing.

    Quoted lines come back as ``"> " * depth``-style prefixes so the quote
    stripper still recognises them.
    """
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        content = content[1:] if content.startswith(" ") else content
        flowed = content.endswith(" ") and content != "-- "
        if flowed and delsp:
            content = content[:-1]
        if pending is not None and depth == pending_depth:
            content = pending + content
        elif pending is not None:
            out.append(_quote_prefix(pending_depth) + pending)
        pending, pending_depth = (content, depth) if flowed else (None, 0)
        if not flowed:
            out.append(_quote_prefix(depth) + content)
    if pending is not None:
        out.append(_quote_prefix(pending_depth) + pending)
    return "\n".join(out)


def _quote_prefix(depth: int) -> str:
    return "> " * depth


_MD_NUMBER_ESCAPE = re.compile(r"^((?:> ?)*[ \t]*\d+)\\\.", re.MULTILINE)
_MD_BULLET_ESCAPE = re.compile(r"^((?:> ?)*[ \t]*)\\([-+])", re.MULTILINE)


def html_to_text(html: str) -> str:
    """HTML body -> plain lines, one ``<div>``/``<p>``/``<br>`` line per text line.

    ``single_line_break`` keeps paragraphs one newline apart (mail clients use
    ``<div>`` or ``<p>`` per typed line). html2text escapes Markdown
    (``1\\.``, ``\\-``) with no switch to turn that off, so we undo it; and
    ``<div><br></div>`` yields two blank lines, which we collapse to one.
    """
    converter = html2text.HTML2Text()
    converter.body_width = 0
    converter.ignore_links = True
    converter.ignore_images = True
    converter.ignore_emphasis = True
    converter.ignore_tables = True
    converter.unicode_snob = True
    converter.single_line_break = True
    text = converter.handle(html)
    text = _MD_BULLET_ESCAPE.sub(r"\1\2", _MD_NUMBER_ESCAPE.sub(r"\1.", text))
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(line for i, line in enumerate(lines) if line or i == 0 or lines[i - 1])


_PLAIN = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
        "\xa0": " ", "\u2007": " ", "\u2009": " ", "\u202f": " ",
        "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None,
        "\ufeff": None, "\xad": None,
    }
)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def normalise_text(text: str) -> str:
    """``\\n`` lines, no trailing spaces or edge blank lines, ASCII quotes and spaces.

    Smart quotes and non-breaking spaces come from autocorrect and HTML
    ``&nbsp;``; the order parser must see ``Bothwell's`` either way.
    """
    text = unicodedata.normalize("NFC", text).translate(_PLAIN)
    lines = [_CONTROL.sub("", line).rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def cap_lines(text: str, max_lines: int) -> tuple[str, str | None]:
    """Keep the first ``max_lines`` lines (Mailman's ``email_commands_max_lines``)."""
    lines = text.split("\n")
    if len(lines) <= max_lines:
        return text, None
    note = f"read only the first {max_lines} lines; ignored {len(lines) - max_lines} more"
    return "\n".join(lines[:max_lines]).rstrip(), note


def _scrub(text: str) -> str:
    """Replace lone surrogates (from undecodable 8-bit headers) so the text can be stored."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _scrub_optional(text: str | None) -> str | None:
    return None if text is None else _scrub(text)


# --- quoted replies and signatures -----------------------------------------------------

# mail-parser-reply languages whose reply headers we recognise. Danish, Swedish and
# Polish are left out: their patterns cut at any line starting "Tak"/"Kh"/"/word"
# (no word boundary), or treat a single "Do:"/"Data:" line as a reply header.
_REPLY_LANGUAGES = ("en", "de", "fr", "es", "it", "nl")
_QUOTED_LINE = re.compile(r"^\s*>")
# Attribution lines the library missed (wrapped oddly); only dropped right above a quote.
_ATTRIBUTION = re.compile(
    r"(wrote|schrieb|a [ée]crit|escribi[óo]|ha scritto|schreef)\s*:$|@\S*>?\s*:$", re.IGNORECASE
)


def strip_quotes_and_signature(text: str) -> tuple[str, tuple[str, ...]]:
    """Keep only what the player wrote now, using mail-parser-reply.

    Post-passes the library lacks: ``>`` lines with no "On ... wrote:" header
    stay in its first reply, so we drop them; when nothing precedes the first
    quote (bottom-posting) we drop the quoted lines and parse again.
    """
    reply = _first_reply(text)
    body = _drop_quoted(reply.body)
    if not body.strip():
        reply = _first_reply(_drop_quoted(text))
        body = _drop_quoted(reply.body)
    body = normalise_text(body)
    signature = reply.signatures if re.search(r"[^\s_-]", reply.signatures or "") else ""
    extra = sum(_count_lines(d) for d in reply.disclaimers or [])
    quoted = _count_lines(text) - _count_lines(body) - _count_lines(signature) - extra
    notes = [f"removed {quoted} quoted line{'s' if quoted != 1 else ''}"] if quoted > 0 else []
    notes += ["removed a signature"] if signature else []
    notes += ["removed a disclaimer"] if extra else []
    return body, tuple(notes)


def _first_reply(text: str) -> EmailReply:
    """The library's newest fragment, with over-long lines shielded from its regexes."""
    lines = text.split("\n")
    long_lines = {f"\x00{i}\x00": line for i, line in enumerate(lines)
                  if len(line) > _PARSE_MAX_LINE_CHARS}
    shielded = "\n".join(
        f"\x00{i}\x00" if len(line) > _PARSE_MAX_LINE_CHARS else line
        for i, line in enumerate(lines)
    )
    message = ReplyMessage(
        text=shielded, languages=list(_REPLY_LANGUAGES), keep_hyphen_lists=True
    ).read()
    reply = message.replies[0] if message.replies else EmailReply(content="")
    if long_lines:
        reply = EmailReply(
            content=_unshield(reply.body, long_lines),
            signatures=_unshield(reply.signatures or "", long_lines),
        )
    return reply


def _unshield(text: str, long_lines: dict[str, str]) -> str:
    return re.sub(r"\x00\d+\x00", lambda m: long_lines[m.group()], text)


def _drop_quoted(text: str) -> str:
    """Remove ``>`` lines and an attribution line sitting right above them."""
    kept: list[str] = []
    for line in text.split("\n"):
        if not _QUOTED_LINE.match(line):
            kept.append(line)
            continue
        last = len(kept) - 1
        while last >= 0 and not kept[last].strip():
            last -= 1
        if last >= 0 and _ATTRIBUTION.search(kept[last].strip()):
            del kept[last:]
    return "\n".join(kept)


def _count_lines(text: str) -> int:
    """Lines with content; a bare ``>`` (an empty quoted line) does not count."""
    return sum(1 for line in text.split("\n") if line.strip(" \t>"))
