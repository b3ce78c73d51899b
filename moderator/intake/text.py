"""Body text as the order parser wants it: decoded, unflowed, plain, normalised, capped.

Everything here works on one part's bytes or text and knows nothing of headers or
MIME structure (that is :mod:`moderator.intake.extract`). Charsets follow Eressea's
``accept-orders.py`` (declared charset first, then fallbacks); the line cap is
Mailman's ``email_commands_max_lines``.
"""

from __future__ import annotations

import re
import unicodedata

from inscriptis import Inscriptis
from inscriptis.css_profiles import STRICT_CSS_PROFILE
from inscriptis.html_properties import Display
from inscriptis.model.config import ParserConfig
from inscriptis.model.html_element import HtmlElement
from lxml import html as lxml_html
from lxml.etree import ParserError

__all__ = ["cap_lines", "decode_bytes", "html_to_text", "normalise_text", "unflow"]

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
        if pending is not None and depth == pending_depth and _glues(pending, content, delsp):
            content = pending + content
        elif pending is not None:
            out.append(_quote_prefix(pending_depth) + pending)
        pending, pending_depth = (content, depth) if flowed else (None, 0)
        if not flowed:
            out.append(_quote_prefix(depth) + content)
    if pending is not None:
        out.append(_quote_prefix(pending_depth) + pending)
    return "\n".join(out)


# Lines a soft break must never glue to the next: directives, section headers
# ("WEEK 2:", "PREMONTH:") and lines opening with an upper-case order keyword.  A
# player's stray trailing space (mutt keeps it with text_flowed) is a soft break too.
_DIRECTIVE_LINE = re.compile(r"^\s*(?:GAME|PASSWORD|PW|CHARACTER|PLAYER|TURN)\b", re.IGNORECASE)
_SECTION_LINE = re.compile(r"^\s*[A-Za-z]+(?:\s+\d+)?\s*:")
_KEYWORD_LINE = re.compile(r"^\s*[A-Z]{2,}\b")


# A client wraps at 72-78 columns: the line before its soft break is long, however the
# next one starts.  A shorter line ends in a space the player typed.
_WRAPPED = 60


def _glues(pending: str, following: str, delsp: bool) -> bool:
    """Whether a soft break after ``pending`` joins ``following`` to it (RFC 3676 says
    always; real mail says not when either is a line of orders).  With ``delsp`` the
    client broke a word in two: only directive lines stay whole."""
    if _DIRECTIVE_LINE.match(pending) or _DIRECTIVE_LINE.match(following):
        return False
    if delsp or len(pending) >= _WRAPPED:
        return True
    return not (_SECTION_LINE.match(following) or _KEYWORD_LINE.match(following))


def _quote_prefix(depth: int) -> str:
    return "> " * depth


# Mail clients write one typed line per <div> or <p> (Outlook: <p class=MsoNormal>), so a
# paragraph has no blank lines around it here, unlike a browser's; the rest is the
# browser's (Firefox's) layout.  Links and images are left out (their text stays).
_MAIL_CSS = {**STRICT_CSS_PROFILE,
             "p": HtmlElement(display=Display.block, margin_before=0, margin_after=0)}
_MAIL_CONFIG = ParserConfig(css=_MAIL_CSS, display_images=False, display_links=False)
# A non-breaking space survives conversion as this private-use character (inscriptis folds
# it into the spaces around it); normalise_text turns the restored \xa0 into a space, so
# "x;&nbsp; y" keeps both spaces, as typed.
_NBSP_KEEP = "\ue000"


def html_to_text(html: str) -> str:
    """HTML body -> plain lines, one ``<div>``/``<p>``/``<br>`` line per text line.

    Converted by inscriptis (Apache-2.0), laid out as `_MAIL_CSS`; a ``<blockquote>``
    (a quoted earlier mail) comes back with ``"> "`` before each of its lines, so the
    quote stripper sees it as quoted text; runs of blank lines become one.
    """
    source = html.replace("&nbsp;", _NBSP_KEEP).replace("\xa0", _NBSP_KEEP)
    try:
        tree = lxml_html.document_fromstring(source)
    except (ParserError, ValueError):  # nothing parseable (empty, or only a comment)
        return ""
    _quote_blockquotes(tree)
    text = Inscriptis(tree, _MAIL_CONFIG).get_text().replace(_NBSP_KEEP, "\xa0")
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(line for i, line in enumerate(lines) if line or i == 0 or lines[i - 1])


def _quote_blockquotes(tree: lxml_html.HtmlElement) -> None:
    """Replace each outermost ``<blockquote>`` by a ``<pre>`` of its text with ``"> "``
    before every line (nested quotes get one more ``"> "`` each, from the recursion)."""
    for quote in tree.xpath("//blockquote[not(ancestor::blockquote)]"):
        inner = lxml_html.fromstring("<div></div>")
        inner.text = quote.text
        inner.extend(list(quote))
        _quote_blockquotes(inner)
        body = Inscriptis(inner, _MAIL_CONFIG).get_text().strip("\n")
        pre = lxml_html.fromstring("<pre></pre>")
        pre.text = "\n".join(_quote_prefix(1) + line for line in body.split("\n")) + "\n"
        pre.tail = quote.tail
        quote.getparent().replace(quote, pre)


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
