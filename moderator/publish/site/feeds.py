"""The Atom feed of a game's issues and the iCalendar file of its deadlines.

Both are written from stored times only (the turn's adjudication, the deadlines), never
from the clock, so a rebuild gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from xml.sax.saxutils import escape

_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class FeedEntry:
    key: str  # unique within the game: issue-003, issue-003-superseded-1
    title: str
    href: str  # relative to the feed
    published: datetime | None
    summary: str


def _iso(moment: datetime | None) -> str:
    return (moment or _EPOCH).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def atom(game: str, title: str, entries: Sequence[FeedEntry]) -> str:
    """An Atom 1.0 feed, newest entry first; links relative to the feed's own address."""
    newest = max((e.published or _EPOCH for e in entries), default=_EPOCH)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"  <title>{escape(title)}</title>",
        f"  <id>tag:moderator,2026:{escape(game)}</id>",
        f"  <updated>{_iso(newest)}</updated>",
        '  <link rel="alternate" href="index.html"/>',
        '  <link rel="self" href="feed.atom"/>',
        "  <author><name>The moderator</name></author>",
    ]
    ordered = sorted(entries, key=lambda e: (e.published or _EPOCH, e.key), reverse=True)
    for e in ordered:
        lines += [
            "  <entry>",
            f"    <title>{escape(e.title)}</title>",
            f"    <id>tag:moderator,2026:{escape(game)}/{escape(e.key)}</id>",
            f"    <updated>{_iso(e.published)}</updated>",
            f'    <link rel="alternate" href="{escape(e.href, {chr(34): "&quot;"})}"/>',
            f"    <summary>{escape(e.summary)}</summary>",
            "  </entry>",
        ]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Deadline:
    key: str  # unique within the game: turn-4-orders
    summary: str
    at: datetime


def _ics_text(text: str) -> str:
    """RFC 5545 TEXT: backslash, semicolon, comma and line breaks escaped (a bare CR too:
    no text may end a line and start a field of its own)."""
    return (text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n"))


def _fold(line: str) -> list[str]:
    """Lines of at most 75 octets, continued with a leading space (RFC 5545 3.1)."""
    out: list[str] = []
    current = ""
    for ch in line:
        if len((current + ch).encode("utf-8")) > (75 if not out else 74):
            out.append(current)
            current = ""
        current += ch
    out.append(current)
    return [out[0], *(" " + part for part in out[1:])]


def ics(game: str, title: str, deadlines: Sequence[Deadline]) -> str:
    """An iCalendar file of every deadline (each a 30-minute event ending at it)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//moderator//site build//EN",
             "CALSCALE:GREGORIAN", f"X-WR-CALNAME:{_ics_text(title)}"]
    for d in sorted(deadlines, key=lambda d: (d.at, d.key)):
        at = d.at.astimezone(UTC)
        stamp = at.strftime("%Y%m%dT%H%M%SZ")
        lines += ["BEGIN:VEVENT", f"UID:{d.key}.{game}@moderator", f"DTSTAMP:{stamp}",
                  f"DTSTART:{(at.replace(second=0) - _HALF_HOUR).strftime('%Y%m%dT%H%M%SZ')}",
                  f"DTEND:{stamp}", f"SUMMARY:{_ics_text(d.summary)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(part + "\r\n" for line in lines for part in _fold(line))


_HALF_HOUR = datetime(2000, 1, 1, 0, 30, tzinfo=UTC) - datetime(2000, 1, 1, tzinfo=UTC)
