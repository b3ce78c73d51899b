"""Player passwords: generated tokens kept as keyed HMACs, chosen ones as slow hashes.

A password the moderator generates is a high-entropy token a player can type (five
groups of four letters and digits from Crockford's base-32 alphabet: 100 bits, e.g.
``k7m2-9xqp-d4hw-tr6e-b3nc``).  Guessing one is hopeless, so it needs no slow hash: it is
stored as HMAC-SHA256 under the server's key (`ServerKey`), a file kept outside the
database (mode 0600, created on first use), so a copy of the database alone does not let
anyone test guesses.  Checking one costs microseconds, not the 55 ms scrypt took, which is
what lets intake keep up with a thousand orders.

A password a GM chose by hand (``player add --password``) may be weak, so it is hashed
with scrypt at today's parameters (OWASP's N=2^14, r=8, p=5).  Hashes stored with older
parameters still verify: each stored hash names its scheme and parameters.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Sequence
from email import message_from_bytes, policy
from email.message import EmailMessage
from functools import lru_cache
from pathlib import Path

# Crockford's base 32: no I, L, O, U, so nothing is misread; typing is forgiving (below).
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
GROUPS, GROUP_LENGTH = 5, 4  # 20 symbols x 5 bits = 100 bits
_READ_AS = str.maketrans({"i": "1", "l": "1", "o": "0", "u": "v"})

# scrypt for chosen passwords (OWASP Password Storage Cheat Sheet: N=2^14, r=8, p=5).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 5
_MAXMEM = 64 * 1024 * 1024
HMAC_SCHEME = "hmac-sha256"
KEY_BYTES = 32


class ServerKey:
    """The server's secret for password HMACs, read from (or first written to) a file.

    The file holds 64 hex digits and is created with mode 0600 (its folder 0700 when
    made here), never inside the database, so that the database and its backups alone
    cannot be used to test guesses.  Losing the file invalidates every generated password
    (players get new ones from the GM); it is read once per process.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._key: bytes | None = None

    def key(self) -> bytes:
        if self._key is None:
            self._key = self._load()
        return self._key

    def _load(self) -> bytes:
        try:
            return bytes.fromhex(self.path.read_text(encoding="ascii").strip())
        except FileNotFoundError:
            pass
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first: use that one
            return bytes.fromhex(self.path.read_text(encoding="ascii").strip())
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(secrets.token_hex(KEY_BYTES) + "\n")
            out.flush()
            os.fsync(out.fileno())
        return bytes.fromhex(self.path.read_text(encoding="ascii").strip())


_KEYS: dict[Path, ServerKey] = {}


def server_key(path: Path) -> ServerKey:
    """The (cached) key of the file at ``path``."""
    resolved = path.resolve()
    if resolved not in _KEYS:
        _KEYS[resolved] = ServerKey(resolved)
    return _KEYS[resolved]


def forget_key(path: Path) -> None:
    """Read the key at ``path`` afresh next time (a restore has just written it)."""
    _KEYS.pop(path.resolve(), None)


def new_password() -> str:
    """A generated password: five groups of four, e.g. ``k7m2-9xqp-d4hw-tr6e-b3nc``."""
    symbols = "".join(secrets.choice(ALPHABET) for _ in range(GROUPS * GROUP_LENGTH))
    return "-".join(symbols[i:i + GROUP_LENGTH] for i in range(0, len(symbols), GROUP_LENGTH))


def normal_token(typed: str) -> str:
    """A token as typed, read the forgiving way: case, spaces and dashes do not matter,
    and I/L read as 1, O as 0, U as V (Crockford)."""
    return "".join(typed.lower().split()).replace("-", "").translate(_READ_AS)


def hash_token(token: str, key: ServerKey) -> str:
    digest = hmac.new(key.key(), normal_token(token).encode(), hashlib.sha256).hexdigest()
    return f"{HMAC_SCHEME}${digest}"


def hash_password(password: str) -> str:
    """A password the GM chose, hashed with scrypt at today's parameters."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                            maxmem=_MAXMEM)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def stored_form(password: str | None, key: ServerKey) -> tuple[str, str]:
    """The password to mail and its stored form: a new generated token (``password``
    None) kept as its HMAC, or the GM's choice kept as a slow hash."""
    if password is None:
        token = new_password()
        return token, hash_token(token, key)
    return password, hash_password(password)


# Punctuation a player's sentence puts after a password ("NEW PASSWORD epee2."): not part
# of the password a player writes (docs/players-guide.md, Sending orders).
SENTENCE_END = ".,;:!?"


def as_written(value: str) -> str:
    """A password a player wrote, without the sentence punctuation after it."""
    return value.rstrip(SENTENCE_END)


def verify_written(password: str, stored: str, key: ServerKey | None = None) -> bool:
    """Whether a password a player wrote matches: as written, else without the sentence
    punctuation after it (`as_written`).  The first check keeps a password the GM chose
    with a final full stop working; the second costs only a wrong or punctuated one."""
    if verify_password(password, stored, key):
        return True
    bare = as_written(password)
    return bool(bare) and bare != password and verify_password(bare, stored, key)


def verify_password(password: str, stored: str, key: ServerKey | None = None) -> bool:
    """Whether ``password`` matches the stored form (either scheme, any parameters)."""
    scheme = stored.split("$", 1)[0]
    if scheme == HMAC_SCHEME:
        return key is not None and hmac.compare_digest(hash_token(password, key), stored)
    if scheme != "scrypt":
        return False
    try:
        _scheme, n, r, p, salt, digest = stored.split("$")
        candidate = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n),
                                   r=int(r), p=int(p), maxmem=_MAXMEM)
    except ValueError:
        return False
    return hmac.compare_digest(candidate.hex(), digest)


# --- masking a password in a stored message ---------------------------------------------

MASK = "[removed after the check]"
# The blanks within a line that intake reads around a password (`moderator.intake.route`
# matches ``\s``): beside spaces and tabs, the ideographic space of a Japanese or Chinese
# input method and the typographic spaces (em, thin ...) that editors put.  A password
# line masked only after ASCII blanks kept "PASSWORD:\u3000secret" in clear, accepted.
_UNICODE_BLANKS = ("\xa0", "\u1680", *map(chr, range(0x2000, 0x200B)), "\u202f", "\u205f",
                   "\u3000")
_BLANK = "[ \t" + "".join(_UNICODE_BLANKS) + "]"
_UNICODE_BLANK_BYTES = b"|".join(re.escape(c.encode()) for c in _UNICODE_BLANKS)
_BLANK_BYTES = rb"(?:[ \t]|" + _UNICODE_BLANK_BYTES + rb")"
# A password line (quoted too): ``PASSWORD: x``, ``PW = x``, ``PASSWORD x`` (one word), the
# ``SET``/``NEW PASSWORD x`` command, and the welcome mail's ``Your password:`` line.
_LINE = re.compile(rf"^([\s>]*(?:(?:YOUR|SET|NEW){_BLANK}+)?(?:PASSWORD|PW)"
                   rf"(?:{_BLANK}*[:=]{_BLANK}*|{_BLANK}+(?=\S+{_BLANK}*$)))(\S.*?){_BLANK}*$",
                   re.IGNORECASE | re.MULTILINE)
_LINE_BYTES = re.compile(rb"^((?:>|" + _BLANK_BYTES + rb")*(?:(?:YOUR|SET|NEW)"
                         + _BLANK_BYTES + rb"+)?(?:PASSWORD|PW)(?:" + _BLANK_BYTES
                         + rb"*[:=]" + _BLANK_BYTES + rb"*|" + _BLANK_BYTES
                         + rb"+(?=\S+[ \t]*\r?$)))(\S[^\r\n]*?)[ \t]*(?=\r?$)",
                         re.IGNORECASE | re.MULTILINE)
# A part whose bytes may hide a password (anything else is readable as it stands).
_ENCODED = re.compile(rb"^content-transfer-encoding:[ \t]*(base64|quoted-printable)",
                      re.IGNORECASE | re.MULTILINE)
# A password in the subject (``[paris] PASSWORD: x``): intake reads it from the body only,
# so the mail is refused, and the subject is echoed (the refusal's own subject, logs).
# Only ``PASSWORD:``/``PW=`` forms: "[paris] password reset, please" names none.
_SUBJECT = re.compile(r"(\b(?:PASSWORD|PW)[ \t]*[:=][ \t]*)\S+", re.IGNORECASE)
_SUBJECT_BYTES = re.compile(rb"^(Subject:[^\r\n]*?\b(?:PASSWORD|PW)[ \t]*[:=][ \t]*)[^\s]+",
                            re.IGNORECASE | re.MULTILINE)
# Shorter values are only masked after the PASSWORD keyword (a short word may be an order
# too): on PASSWORD: lines, and where a mail's HTML part writes one inside its markup.
_ANYWHERE = 8
# What may stand between the keyword and the value in an HTML part: spaces, ``:``/``=``,
# a non-breaking space, a tag (``<div>PASSWORD: <b>panache</b>``).
_KEYWORD_GAP = r"(?:[\s:=]|&nbsp;|&#160;|<[^<>]{0,200}>){1,12}"
# The same in bytes, where ``\s`` is ASCII only: the UTF-8 of the other blanks too.
_KEYWORD_GAP_BYTES = (rb"(?:[\s:=]|&nbsp;|&#160;|<[^<>]{0,200}>|"
                      + _UNICODE_BLANK_BYTES + rb"){1,12}")


def masked_subject(subject: str) -> str:
    """A subject with a password written in it masked (``PASSWORD: x``, ``PW=x``)."""
    return _SUBJECT.sub(lambda m: m.group(1) + MASK, subject)


def has_subject_password(raw: bytes) -> bool:
    """Whether a message's Subject line (its own, or a returned one's) names a password."""
    return _SUBJECT_BYTES.search(raw) is not None


def passwords_in(text: str) -> list[str]:
    """The values given on ``PASSWORD:`` lines (quoted ones too), each also without the
    sentence punctuation after it (`as_written`: the password it is read as), longest
    first."""
    given = {m.group(2) for m in _LINE.finditer(text)}
    return sorted(given | {b for v in given if (b := as_written(v))}, key=len, reverse=True)


def masked(raw: bytes, values: Sequence[str] = ()) -> bytes:
    """A raw message with its password lines and ``values`` masked, edited as bytes when
    that suffices (the rest of the message stays byte for byte), else the text parts
    that hide one in an encoding decoded, masked and encoded again."""
    edited = _masked_bytes(raw, values)
    # Parsing costs ~50 ms a message with the default policy: only when a part is encoded.
    if _ENCODED.search(edited) is None or not _still_readable(edited, values):
        return edited
    return _reencoded(edited, values)


# A password as an HTML part writes it: the keyword after a tag, the value alone before
# the next one (``<div>PASSWORD: x</div>``), for a message intake never parses.
_HTML_VALUE_BYTES = re.compile(rb">[ \t]*(?:PASSWORD|PW)" + _KEYWORD_GAP_BYTES
                               + rb"([^\s<>&]+)(?=(?:\s|&nbsp;)*<)", re.IGNORECASE)


def masked_unread(raw: bytes) -> bytes:
    """A message intake refuses unread (oversized: it is never parsed) with what its
    bytes show of a password masked: the password lines and the HTML that writes one,
    and their values wherever else they stand, nothing decoded."""
    given = {m.group(2).decode("utf-8", "replace") for m in _LINE_BYTES.finditer(raw)}
    given |= {m.group(1).decode("utf-8", "replace") for m in _HTML_VALUE_BYTES.finditer(raw)}
    values = sorted(given | {b for v in given if (b := as_written(v))}, key=len, reverse=True)
    return _masked_bytes(raw, values)


def _masked_bytes(raw: bytes, values: Sequence[str]) -> bytes:
    """`masked`'s edit of the bytes as they stand."""
    edited = _LINE_BYTES.sub(lambda m: m.group(1) + MASK.encode(), raw)
    edited = _SUBJECT_BYTES.sub(lambda m: m.group(1) + MASK.encode(), edited)
    for value in values:
        if len(value) >= _ANYWHERE:
            edited = edited.replace(value.encode(), MASK.encode())
        else:
            edited = _after_keyword_bytes(value).sub(
                lambda m: m.group(1) + MASK.encode(), edited)
    return edited


def _text_parts(message: EmailMessage) -> list[EmailMessage]:
    return [part for part in message.walk()
            if part.get_content_maintype() == "text" and not part.is_multipart()]


def _still_readable(raw: bytes, values: Sequence[str]) -> bool:
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return any(masked_text(_content(part), values) != _content(part)
               for part in _text_parts(message))


def _content(part: EmailMessage) -> str:
    try:
        return str(part.get_content())
    except (LookupError, ValueError):
        return ""


def masked_text(text: str, values: Sequence[str]) -> str:
    """``text`` with its password lines and ``values`` masked (as `masked` does in a
    message's parts): what intake keeps of the text it reads."""
    text = _LINE.sub(lambda m: m.group(1) + MASK, text)
    for value in values:
        if len(value) >= _ANYWHERE:
            text = text.replace(value, MASK)
        else:
            text = _after_keyword(value).sub(lambda m: m.group(1) + MASK, text)
    return text


@lru_cache(maxsize=64)
def _after_keyword(value: str) -> re.Pattern[str]:
    """``value`` where it follows the PASSWORD keyword, in text or HTML (group 1: all
    before it); a short password is masked there, not everywhere."""
    return re.compile(rf"((?:PASSWORD|PW){_KEYWORD_GAP}){re.escape(value)}(?![^\W_])",
                      re.IGNORECASE)


@lru_cache(maxsize=64)
def _after_keyword_bytes(value: str) -> re.Pattern[bytes]:
    return re.compile(rb"((?:PASSWORD|PW)" + _KEYWORD_GAP_BYTES + rb")"
                      + re.escape(value.encode()) + rb"(?![^\W_])", re.IGNORECASE)


def _reencoded(raw: bytes, values: Sequence[str]) -> bytes:
    """Decode each text part that still shows a password, mask it, encode it again."""
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    for part in _text_parts(message):
        text = _content(part)
        clean = masked_text(text, values)
        if clean != text:
            cte = part.get("Content-Transfer-Encoding", "").lower() or None
            part.set_content(clean, subtype=part.get_content_subtype(),
                             charset=part.get_content_charset() or "utf-8",
                             cte=cte if cte in ("base64", "quoted-printable") else None)
    return message.as_bytes()
