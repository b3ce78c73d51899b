"""Quoted replies and signatures out of the order text, with mail-parser-reply.

The library finds the newest reply fragment, its signature and disclaimers; the
post-passes here cover what it misses (bare ``>`` lines, bottom-posting, attribution
lines it did not recognise) and keep its quadratic regexes away from very long lines.
"""

from __future__ import annotations

import re

from mailparser_reply import EmailMessage as ReplyMessage
from mailparser_reply import EmailReply

from moderator.intake.text import normalise_text

__all__ = ["strip_quotes_and_signature"]

# Lines longer than this are hidden from mail-parser-reply: its "On ... wrote:" regex
# is quadratic in line length (5 s for one 20,000-character line).
_PARSE_MAX_LINE_CHARS = 1_000

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
