"""jinja2 + Markdown: turning data into the words players read.

Templates named ``*.md.j2`` write Markdown; the HTML part of every newsletter is that
Markdown converted, styled and sanitized (`markdown_to_html`), and the plain-text part
is written from the converted HTML for reading (`html_to_text`: aligned tables, 72
columns), not the Markdown source (`markdown_to_parts` makes both).  ``*.txt.j2``
templates (the mails without HTML) are plain text.  The Markdown converter itself,
trimmed to what the templates write, is `moderator.publish.converter`.

Nothing a player writes becomes markup.  In a Markdown template every ``{{ value }}``
passes `md_escape` (jinja's ``finalize`` hook, so a template cannot forget it): HTML and
Markdown punctuation become numeric character references, which Markdown leaves alone
and every reader shows as the character, so a ``|`` in a name never adds a table column
and a ``*`` never opens emphasis.  Press keeps its paragraphs and emphasis through the
``press`` filter, which escapes the rest.  Whatever the templates produce, the HTML body
then passes the nh3 allowlist (`moderator.publish.sanitize`) as the last step.

Rendering uses no clock and no randomness, so the same inputs always give the same bytes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import css_inline
import jinja2
from markupsafe import Markup

from moderator.games.base import label_in_sentence
from moderator.publish.converter import thread_converter
from moderator.publish.sanitize import MAIL_POLICY, Policy, escape_text, sanitize
from moderator.publish.text import fill_text, html_to_text

__all__ = ["CSS", "environment", "html_to_text", "markdown_to_html", "markdown_to_parts",
           "md_escape", "render"]

# Characters that are markup in HTML or in (Python-)Markdown, as numeric references.
_SPECIAL = {c: f"&#{ord(c)};" for c in "&<>\\`*_[]|{}"}
_SPECIAL_RE = re.compile("[" + re.escape("".join(_SPECIAL)) + "]")
# Only at the start of a value, where it may begin a line: headings, quotes, lists.
_LEADING_RE = re.compile(r"^(\s*)([#>]|[-+](?=\s)|\d+(?=[.)]\s))")
_SPACE_RE = re.compile(r"\s+")
# A value of dashes or equals signs alone (spaces between) is a horizontal rule, or
# underlines the line before it into a heading, wherever it begins a line (a list item's
# "- " before it included).
_RULE_RE = re.compile(r"^[ =-]*[=-][ =-]*$")
# Characters no reader sees that act on what he sees: control characters (after
# `_SPACE_RE`, which makes the ones that break lines a space) and the bidi controls,
# with which a name or a line of press reverses the rest of its paragraph (the
# signature after an announcement, the next cell of a table).
_HIDDEN = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_HIDDEN_RE = re.compile(f"[{_HIDDEN}]")


# Text `md_escape` leaves as it is: no markup character, no whitespace but single
# spaces, no hidden character, nothing at the start that could begin a block.  Most
# values are such (names, numbers, months): one match instead of four substitutions.
_NOT_PLAIN = rf"\s{_HIDDEN}&<>\\`*_\[\]|{{}}"
_PLAIN_RE = re.compile(rf"(?:[^{_NOT_PLAIN}#+=\-0-9][^{_NOT_PLAIN}]*(?: [^{_NOT_PLAIN}]+)*)?")


def md_escape(value: Any) -> str:
    """Text safe to put anywhere in Markdown: one line, every markup character inert."""
    if value is None:
        return ""
    text = str(value)
    if type(value) is int or _PLAIN_RE.fullmatch(text):
        return text
    return escape_markup(text)


def escape_markup(text: str) -> str:
    """`md_escape` the long way: what it does to any text that is not plain."""
    text = _HIDDEN_RE.sub("", _SPACE_RE.sub(" ", text))  # a line break could start a block
    text = _SPECIAL_RE.sub(lambda m: _SPECIAL[m.group()], text)
    if _RULE_RE.match(text):
        return text.replace("-", "&#45;").replace("=", "&#61;")
    return _LEADING_RE.sub(lambda m: m.group(1) + "".join(f"&#{ord(c)};" for c in m.group(2)),
                           text)


def _finalize(value: Any) -> Any:
    """Every expression printed by a Markdown template (jinja's ``finalize``)."""
    if isinstance(value, Markup):  # macro output and our filters: already escaped
        return value
    return Markup(md_escape(value))


_EMPHASIS = (
    (re.compile(r"&#42;&#42;(?=\S)(.+?)(?<=\S)&#42;&#42;"), r"<strong>\1</strong>"),
    (re.compile(r"&#95;&#95;(?=\S)(.+?)(?<=\S)&#95;&#95;"), r"<strong>\1</strong>"),
    (re.compile(r"&#42;(?=\S)(.+?)(?<=\S)&#42;"), r"<em>\1</em>"),
    (re.compile(r"(?<![\w;])&#95;(?=\S)(.+?)(?<=\S)&#95;(?!\w)"), r"<em>\1</em>"),
)


def press(value: Any, html: bool = False) -> Markup:
    """A player's press: paragraphs (blank lines) and *emphasis*/**strong** kept,
    everything else escaped.  Each paragraph is a Markdown paragraph of its own
    (``html``: an HTML ``<p>``, for a raw block such as a letter's ``<blockquote>``)."""
    paragraphs = [p for p in re.split(r"\n\s*\n", str(value or "")) if p.strip()]
    out = []
    for paragraph in paragraphs:
        text = md_escape(paragraph.strip())
        for pattern, replacement in _EMPHASIS:
            text = pattern.sub(replacement, text)
        out.append(text)
    if html:
        return Markup("\n".join(f"<p>{text}</p>" for text in out))
    return Markup("\n\n".join(out))


def code(value: Any) -> Markup:
    """Inline code (an order, a decision key): shown as written, never markup."""
    return Markup(f"<code>{md_escape(value)}</code>")


def codeblock(value: Any) -> Markup:
    """A block shown as written (the order form): lines kept, nothing markup."""
    lines = [_SPECIAL_RE.sub(lambda m: _SPECIAL[m.group()], line)
             for line in str(value or "").splitlines()]
    return Markup("<pre>" + "\n".join(lines) + "</pre>")


def months(n: int) -> str:
    """``1 month``, ``3 months``."""
    return f"{n} month" if n in (1, -1) else f"{n} months"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 week``, ``2 weeks`` (``many`` for irregular plurals)."""
    return f"{n} {word}" if n in (1, -1) else f"{n} {many or word + 's'}"


def tally(items: Iterable[Any]) -> list[tuple[Any, int]]:
    """Each distinct item once, in the order first seen, with how many times it came
    (a gazette tells the month without its weeks: the same line each week is one line)."""
    return list(Counter(items).items())


def who(key: Any, names: Any) -> Markup:
    """A character's name from his key (``names``: key -> name), as the En Garde! event
    lines write it: the key itself if it has no name, "someone" if there is no key.
    A global of the templates, not a macro: a 1,000-character month's lines call it
    13,000 times (and `cr` 26,000), and a macro call costs several times what it does."""
    return Markup(md_escape(names.get(key, key) if key else "someone"))


def cr(n: Any) -> Markup:
    """``1 crown``, ``5 crowns`` (a template global, as `who`)."""
    return Markup(f"{md_escape(n)} crown{'' if n in (1, -1) else 's'}")


def _startswith_any(item: Any, prefixes: Any) -> bool:
    """An event (its id) or a string starting with one of ``prefixes``."""
    key = item.get("id", "") if isinstance(item, dict) else str(item)
    return str(key).startswith(tuple(prefixes))


@lru_cache(maxsize=8)
def environment(templates_dir: Path, markdown: bool = True) -> jinja2.Environment:
    """The Markdown environment (escaping every value) or the plain-text one."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Markup-aware: macro output is Markup and is not escaped twice.  The escaping
        # itself is `_finalize` (Markdown and HTML both), not jinja's HTML-only one.
        autoescape=markdown,
        finalize=_finalize if markdown else None,
    )
    env.filters.update(press=press, code=code, codeblock=codeblock, months=months,
                       plural=plural, tally=tally, fill=fill_text,
                       in_sentence=label_in_sentence)
    env.tests["startswith_any"] = _startswith_any
    env.globals.update(who=who, cr=cr)
    return env


def warm(templates_dir: Path, name: str) -> None:
    """Compile template ``name`` and build this thread's converter ahead of use."""
    environment(templates_dir.resolve(), not name.endswith(".txt.j2")).get_template(name)
    thread_converter()


def render(templates_dir: Path, name: str, **context: Any) -> str:
    markdown = not name.endswith(".txt.j2")
    template = environment(templates_dir.resolve(), markdown).get_template(name)
    return str(template.render(**context))


# The stylesheet of every newsletter.  Mail clients that drop <head> still get it:
# css-inline copies each rule into the elements' style attributes.  The media query
# stays in <head> for the clients that keep it.
CSS = """
div.page { max-width: 44em; margin: 0 auto; padding: 0 12px; color: #222222;
  background-color: #fffdf7; font-family: Georgia, 'Times New Roman', serif;
  font-size: 17px; line-height: 1.5; overflow-wrap: break-word; }
h1 { font-variant: small-caps; text-align: center; font-size: 1.9em; line-height: 1.2;
  margin: 0.6em 0 0.2em 0; border-bottom: 3px double #444444; }
h2 { font-size: 1.3em; margin: 1.4em 0 0.4em 0; border-bottom: 1px solid #999999; }
h3 { font-size: 1.05em; margin: 1em 0 0.3em 0; }
p { margin: 0.5em 0; }
ul { padding-left: 1.3em; margin: 0.4em 0; }
li { margin: 0.15em 0; }
blockquote { margin: 0.8em 0; padding: 0.1em 0.8em; border-left: 3px solid #c9b98f; }
p.signature { font-style: italic; text-align: right; }
div.table-wrap { overflow-x: auto; max-width: 100%; margin: 0.5em 0; }
table { border-collapse: collapse; font-size: 0.92em; }
th, td { border: 1px solid #bbbbbb; padding: 0.2em 0.45em; text-align: left;
  vertical-align: top; }
th { background-color: #eee8d5; }
code, pre { font-family: 'DejaVu Sans Mono', Menlo, monospace; font-size: 0.88em; }
pre { background-color: #f4f1e8; padding: 0.5em; white-space: pre-wrap;
  overflow-x: auto; }
p.masthead, p.legend { font-size: 0.9em; color: #555555; text-align: center; }
p.legend { text-align: left; }
"""

_MEDIA = """
body { margin: 0; background-color: #fffdf7; }
@media (max-width: 480px) {
  div.page { font-size: 16px; padding: 0 8px; }
  h1 { font-size: 1.5em; }
}
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}{media}</style>
</head>
<body>
{body}
</body>
</html>
"""

_TABLE_RE = re.compile(r"<table>(.*?)</table>", re.S)


def markdown_body(text: str) -> str:
    """Markdown to an HTML fragment, each table in a box that scrolls on its own."""
    converter = thread_converter()
    converter.reset()
    body = converter.convert(text)
    return _TABLE_RE.sub(r'<div class="table-wrap"><table>\1</table></div>', body)


def inline_styles(fragment: str) -> str:
    """`CSS` copied into the style attributes of ``fragment``'s elements."""
    return str(css_inline.inline_fragment(fragment, CSS, load_remote_stylesheets=False))


def page(body: str, title: str, policy: Policy = MAIL_POLICY) -> str:
    """A whole HTML document around ``body``: styles inlined, then sanitized (the last
    step that touches the body), then put in our own <head>."""
    clean = sanitize(inline_styles(f'<div class="page">\n{body}\n</div>'), policy)
    return _PAGE.format(title=escape_text(title), css=CSS, media=_MEDIA, body=clean)


def markdown_to_html(text: str, title: str, policy: Policy = MAIL_POLICY) -> str:
    return page(markdown_body(text), title, policy)


def markdown_to_parts(text: str, title: str) -> tuple[str, str]:
    """A newsletter's HTML page and its plain-text part.  The text is written from the
    converter's HTML, not from the page: the page adds only style attributes, which the
    text does not read, and what the sanitizer takes out (tags our templates never
    write; `html_to_text` leaves out every element whose content it drops) would not
    reach the text either.  The same text, for a third of the HTML to read."""
    body = markdown_body(text)
    return page(body, title), html_to_text(body)
