"""The plain-text part of a newsletter, written from its HTML for reading.

Not the Markdown source: headings underlined, paragraphs and list items wrapped at 72
columns with hanging indents, tables with aligned columns (a table too wide for 72
columns is printed one row at a time, ``Header: value``), preformatted blocks as they
are, links as ``text <https://...>``.  Pure: the same HTML always gives the same text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

from moderator.publish.sanitize import DROPPED_WITH_CONTENT

WIDTH = 72
_BLOCKS = {"p", "h1", "h2", "h3", "h4", "ul", "ol", "li", "table", "pre", "blockquote",
           "div", "hr", "tr", "thead", "tbody", "nav", "header", "footer", "section",
           "article", "main", "figure", "figcaption", "dl", "dt", "dd", "html", "body"}
_VOID = {"br", "hr", "img", "meta", "link", "input"}
# Never text: the page's head, and what the sanitizer drops with its content.
_SKIP = {"head", "title"} | DROPPED_WITH_CONTENT


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.stack = [self.root]
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skipping += 1
            return
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
            return
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.stack[-1].children.append(data)


# The HTML our converter and templates write: tags with plain, double-quoted attribute
# values (or none), and every other '<' written as '&lt;'.
_TAG_RE = re.compile(r'<(/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[A-Za-z_:][-A-Za-z0-9_:.]*'
                     r'(?:="[^"<>]*")?)*)\s*(/?)>')
# Elements whose content `HTMLParser` reads as text, never as tags.
_RAW_TEXT = frozenset(HTMLParser.CDATA_CONTENT_ELEMENTS)
_ATTR_RE = re.compile(r'([A-Za-z_:][-A-Za-z0-9_:.]*)(?:="([^"]*)")?')


def _parse(html: str) -> Node:
    """``html`` as `_Tree` reads it.  HTML of the plain kind our converter writes is cut
    at its tags by one pattern, handing each piece to `_Tree` as `HTMLParser` would (a
    pure-Python tokenizer, most of the text part's time); anything else (a comment, a
    declaration, an unquoted attribute, a script) goes to `HTMLParser`, whole."""
    tree = _Tree()
    tags = list(_TAG_RE.finditer(html))
    if len(tags) != html.count("<") or any(t.group(2).lower() in _RAW_TEXT for t in tags):
        tree.feed(html)
        tree.close()
        return tree.root
    done = 0
    for tag in tags:
        if tag.start() > done:
            tree.handle_data(unescape(html[done:tag.start()]))
        done = tag.end()
        closing, name, attributes, self_closing = tag.groups()
        name = name.lower()
        if closing:
            tree.handle_endtag(name)
            continue
        tree.handle_starttag(name, [(k.lower(), unescape(v))
                                    for k, v in _ATTR_RE.findall(attributes)])
        if self_closing:
            tree.handle_endtag(name)
    if done < len(html):
        tree.handle_data(unescape(html[done:]))
    return tree.root


def _inline(node: Node | str, pre: bool = False) -> str:
    if isinstance(node, str):
        if pre:
            return node
        return " " if node and node.isspace() else _spaced(node)
    if node.tag == "br":
        return "\n"
    if node.tag == "img":
        return node.attrs.get("alt", "")
    inner = "".join(_inline(c, pre) for c in node.children)
    if node.tag == "a":
        href = node.attrs.get("href", "")
        if href.startswith(("https:", "mailto:")) and href.removeprefix("mailto:") != inner:
            return f"{inner} <{href}>"
    return inner


def _spaced(text: str) -> str:
    """Whitespace collapsed, keeping one space at either end where there was one."""
    core = " ".join(text.split())
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() else ""
    return lead + core + trail


def _wrap(text: str, first: str = "", rest: str = "") -> list[str]:
    out: list[str] = []
    for k, line in enumerate(text.split("\n")):
        words = line.split()
        if words:
            out += _fill(words, first if k == 0 else rest, rest)
    return out


def _fill(words: list[str], first: str, rest: str, width: int = WIDTH) -> list[str]:
    """``words`` filled greedily into lines of at most ``width`` columns, a word longer
    than a line on a line of its own: what ``textwrap.wrap`` gives for words that hold
    no whitespace (without breaking long words or at hyphens), without its chunking."""
    lines: list[str] = []
    indent, room = first, width - len(first)
    line = [words[0]]
    used = len(words[0])
    for word in words[1:]:
        if used + 1 + len(word) <= room:
            line.append(word)
            used += 1 + len(word)
            continue
        lines.append(indent + " ".join(line))
        indent, room = rest, width - len(rest)
        line = [word]
        used = len(word)
    lines.append(indent + " ".join(line))
    return lines


def _cells(row: Node) -> list[tuple[str, bool]]:
    return [(" ".join(_inline(c).split()), c.tag == "th") for c in row.children
            if isinstance(c, Node) and c.tag in ("td", "th")]


def _rows(node: Node) -> list[Node]:
    rows = []
    for c in node.children:
        if isinstance(c, Node):
            if c.tag == "tr":
                rows.append(c)
            elif c.tag in ("thead", "tbody"):
                rows += _rows(c)
    return rows


def _table(node: Node) -> list[str]:
    rows = [_cells(r) for r in _rows(node)]
    rows = [r for r in rows if r]
    if not rows:
        return []
    header = [t for t, _ in rows[0]] if all(h for _, h in rows[0]) else None
    body = [[t for t, _ in r] for r in (rows[1:] if header else rows)]
    ncols = max(len(r) for r in [header or [], *body])
    grid = [r + [""] * (ncols - len(r)) for r in ([header] if header else []) + body]
    widths = [max(len(r[i]) for r in grid) for i in range(ncols)]
    if sum(widths) + 2 * (ncols - 1) <= WIDTH:
        aligned = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True))
                   .rstrip() for r in grid]
        if header:
            aligned.insert(1, "  ".join("-" * w for w in widths))
        return aligned
    # Too wide for a phone or a 72-column reader: one record a row, its first cell
    # leading, empty cells left out ("SL 12, SP 19, Post: Governor").
    names = header or [""] * ncols
    lines: list[str] = []
    for r in body:
        parts = []
        for name, cell in zip(names[1:], r[1:], strict=False):
            if cell in ("", "—", "-"):
                continue
            parts.append(f"{name} {cell}" if len(name) <= 3 else f"{name}: {cell}")
        lines += _wrap(r[0] + (": " + ", ".join(parts) if parts else ""), "- ", "  ")
    return lines


def _blocks(node: Node, out: list[str], indent: str = "") -> None:
    """Append ``node``'s children as blocks (separated by blank lines) to ``out``."""
    buffer: list[str] = []

    def flush() -> None:
        text = "".join(buffer).strip()
        buffer.clear()
        if text:
            _para(out, _wrap(text, indent, indent))

    for child in node.children:
        if isinstance(child, str) or child.tag not in _BLOCKS:
            buffer.append(_inline(child))
            continue
        flush()
        _block(child, out, indent)
    flush()


def _para(out: list[str], lines: list[str]) -> None:
    if not lines:
        return
    if out and out[-1] != "":
        out.append("")
    out.extend(lines)


def _block(node: Node, out: list[str], indent: str) -> None:
    tag = node.tag
    if tag in ("h1", "h2", "h3", "h4"):
        text = " ".join(_inline(node).split())
        if tag == "h1":
            _para(out, [text.upper().center(WIDTH).rstrip(), ("=" * min(len(text), WIDTH))
                        .center(WIDTH).rstrip()])
        else:
            _para(out, [indent + text, indent + ("-" if tag == "h2" else "~") * len(text)])
    elif tag in ("ul", "ol"):
        items: list[str] = []
        for k, li in enumerate(c for c in node.children if isinstance(c, Node)):
            mark = f"{k + 1}. " if tag == "ol" else "- "
            sub: list[str] = []
            _blocks(li, sub, "")
            lines = [s for s in sub if s != ""]
            text = "\n".join(lines)
            items += _wrap(text.replace("\n", " "), indent + mark, indent + " " * len(mark))
        _para(out, items)
    elif tag == "table":
        _para(out, [indent + line for line in _table(node)])
    elif tag == "pre":
        text = "".join(_inline(c, pre=True) for c in node.children).strip("\n")
        _para(out, [indent + line for line in text.split("\n")])
    elif tag == "blockquote":
        sub = []
        _blocks(node, sub, "")
        _para(out, [indent + ("> " + s if s else ">") for s in sub])
    elif tag == "hr":
        _para(out, [indent + "-" * (WIDTH - len(indent))])
    else:
        _blocks(node, out, indent)


def html_to_text(html: str) -> str:
    """The text a reader without HTML gets, ending in one newline."""
    out: list[str] = []
    _blocks(_parse(html), out)
    return "\n".join(out).strip("\n") + "\n"


REPLY_COLUMNS = 78  # RFC 5322 2.1.1: lines of a mail SHOULD be at most 78 characters


def fit_lines(text: str, width: int = REPLY_COLUMNS) -> str:
    """Plain text with every line of prose at most ``width`` columns, for the replies we
    write.  A longer line is wrapped at spaces, its continuation indented as the line
    was (under a list item's text); a ``#`` comment line (an order form's) goes on as a
    comment.  Lines indented four spaces or more (orders read back, commands to type)
    and words longer than the width are left whole: breaking them would change them;
    but an indented ``- `` item is prose (a receipt's forecast lists its refusals so:
    DWTK's ran to 150 columns), never an order nor a command."""
    return "\n".join(_fit(line, width) for line in text.split("\n"))


def fill_text(text: str, indent: str, width: int = REPLY_COLUMNS) -> str:
    """``text`` as one paragraph filled to ``width`` columns, every line indented by
    ``indent`` (a template's ``fill`` filter: prose under an indented line, which
    `fit_lines` leaves whole)."""
    words = str(text).split()
    return "\n".join(_fill(words, indent, indent, width)) if words else ""


_LEAD_RE = re.compile(r"^(#\s*|\s*(?:[-*]|\d+\.)\s+|\s*)")
_ITEM_RE = re.compile(r"^\s+- ")


def _fit(line: str, width: int) -> str:
    if len(line) <= width or (line.startswith("    ") and not _ITEM_RE.match(line)):
        return line
    lead = _LEAD_RE.match(line).group(1)  # type: ignore[union-attr]
    follow = "#" + " " * (len(lead) - 1) if lead.startswith("#") else " " * len(lead)
    words = line[len(lead):].split()
    return "\n".join(_fill(words, lead, follow, width)) if words else line
