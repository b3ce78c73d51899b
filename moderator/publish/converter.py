"""The Python-Markdown converter every newsletter goes through (`moderator.publish.render`
converts with it), trimmed and sped up for what our templates write, giving the same HTML
as the full converter (tests/speed/test_render_speed.py checks both claims).

Python-Markdown is named by the owner and stays; what costs is its generality: inline
patterns for links and images tried on every piece of text (`UNUSED_INLINE`), an HTML
parser over the whole document for its raw blocks (`RawBlocks`), every inline pattern
tried on text none can match (`PlainTextInline`), and a list searched for block-level
tags.  One converter per thread (`thread_converter`): building one costs more than
converting a turn sheet.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import markdown as md
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import InlineProcessor

__all__ = [
    "UNUSED_BLOCKS",
    "UNUSED_INLINE",
    "PlainTextInline",
    "RawBlocks",
    "new_converter",
    "thread_converter",
]

# Inline patterns and block processors for Markdown our templates never write: links,
# images, references and autolinks.  Every ``[``, ``<`` and ``!`` a value brings is a
# character reference (`moderator.publish.render.md_escape`), so only a template's own
# text could start one, and none does (tests/speed/test_render_speed.py checks the
# templates).  Each pattern is tried on every piece of text of every sheet: these were
# most of the inline time.
UNUSED_INLINE = ("reference", "link", "image_link", "image_reference", "short_reference",
                 "short_image_ref", "autolink", "automail")
UNUSED_BLOCKS = ("reference",)


# The raw HTML a document may hold: only what our templates and filters write (every
# ``<`` a player types is ``&lt;``), so tags with plain attribute values, nothing else.
_TAG_RE = re.compile(r'<(/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[A-Za-z-]+="[^"<>]*")*)\s*(/?)>')
_LINE_START_TAG_RE = re.compile(r"^ {0,3}<", re.M)
_BLANK_AFTER_RE = re.compile(r"([ ]*\n){2}")
# The raw blocks written at the start of a line (the masthead and legends, letters, the
# order form); any other block-level tag there goes to Python-Markdown's own parser.
_RAW_BLOCKS = frozenset({"p", "pre", "blockquote"})


class RawBlocks(Preprocessor):
    """Python-Markdown's ``html_block`` step for the HTML our templates write, without
    running an HTML parser over the whole document (a fifth of the conversion).

    It stashes each raw block exactly as `markdown.htmlparser.HTMLExtractor` does: a
    block-level tag at the start of a line up to the end tag that closes it, followed by
    a blank line.  A document holding anything else (a tag it cannot read, a comment, a
    block not followed by a blank line ...) goes to the original step, whole.
    """

    def __init__(self, converter: md.Markdown, original: Preprocessor) -> None:
        super().__init__(converter)
        self.original = original

    def run(self, lines: list[str]) -> list[str]:
        stashed = self._stash("\n".join(lines))
        return self.original.run(lines) if stashed is None else stashed.split("\n")

    def _stash(self, source: str) -> str | None:
        tags = list(_TAG_RE.finditer(source))
        if len(tags) != source.count("<"):
            return None  # a '<' that is no plain tag: comments, declarations, odd markup
        starts = {m.start() for m in _LINE_START_TAG_RE.finditer(source)}
        pieces: list[str] = []
        done = 0
        i = 0
        while i < len(tags):
            tag = tags[i]
            name = tag.group(2).lower()
            line_start = tag.start() in starts or tag.start() - 1 in starts or \
                tag.start() - 2 in starts or tag.start() - 3 in starts
            if not (line_start and self.md.is_block_level(name)):
                i += 1
                continue
            if (tag.start() not in starts or source[tag.start() - 1:tag.start()] == " "
                    or tag.group(1) or name not in _RAW_BLOCKS):
                return None
            end = _closing(tags, i)
            if end is None or not _BLANK_AFTER_RE.match(source, tags[end].end()):
                return None
            stop = tags[end].end()
            pieces += [source[done:tag.start()], "\n",
                       self.md.htmlStash.store(source[tag.start():stop] + "\n"), "\n\n"]
            done = stop
            i = end + 1
        return "".join(pieces) + source[done:]


def _closing(tags: list[re.Match[str]], first: int) -> int | None:
    """The index of the tag that closes the raw block opened by ``tags[first]``, kept
    as `HTMLExtractor` keeps it: every start tag pushed (``<hr>`` and ``<x/>`` excepted),
    an end tag pops back to its own start tag."""
    stack: list[str] = []
    for i in range(first, len(tags)):
        closing, name, self_closing = tags[i].group(1), tags[i].group(2).lower(), tags[i].group(4)
        if not closing:
            if name != "hr" and not self_closing:
                stack.append(name)
        elif name in stack:
            while stack.pop() != name:
                pass
            if not stack:
                return i
    return None


# Where an inline pattern left in the converter could start: a backtick or backslash
# (``backtick``, ``escape``), a tag or an entity (``html``, ``entity``), emphasis, and the
# two spaces of a line break.  Most text of a sheet holds none of them.
_INLINE_START_RE = re.compile(r"[`\\<&*_]|  \n")


class PlainTextInline(InlineProcessor):
    """Python-Markdown's inline step, handing back at once a piece of text that no
    pattern left in the converter can match (what trying each pattern on it gives, the
    text unchanged, without trying them: most of the inline time)."""

    def _InlineProcessor__handleInline(self, data: str, patternIndex: int = 0) -> str:
        if _INLINE_START_RE.search(data) is None:
            return data
        handle = super()._InlineProcessor__handleInline  # type: ignore[misc]
        return handle(data, patternIndex)  # type: ignore[no-any-return]


def new_converter() -> md.Markdown:
    """Python-Markdown with the extensions the templates use and nothing they do not."""
    converter = md.Markdown(extensions=["tables", "sane_lists", "fenced_code"])
    for name in UNUSED_INLINE:
        converter.inlinePatterns.deregister(name)
    for name in UNUSED_BLOCKS:
        converter.parser.blockprocessors.deregister(name)
    converter.treeprocessors.register(PlainTextInline(converter), "inline", 20)
    original = converter.preprocessors["html_block"]
    converter.preprocessors.register(RawBlocks(converter, original), "html_block", 20)
    # Asked for every element several times over (the parser, the prettifier, the raw
    # HTML): a set instead of the list of some 50 tag names the method searches.
    block_level = frozenset(converter.block_level_elements)

    def is_block_level(tag: Any) -> bool:
        return isinstance(tag, str) and tag.lower().rstrip("/") in block_level

    converter.is_block_level = is_block_level  # type: ignore[method-assign]
    return converter


_local = threading.local()


def thread_converter() -> md.Markdown:
    # Building a Markdown instance costs more than converting a turn sheet, so one is
    # reused; one per thread, because an instance is not safe to share (the scheduler
    # may render two games' newsletters at once).
    converter = getattr(_local, "converter", None)
    if converter is None:
        converter = _local.converter = new_converter()
    return converter
