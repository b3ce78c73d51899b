"""jinja2 + Markdown: turning data into the words players read.

Templates write Markdown; the text part of every mail is that Markdown (it reads
well as plain text) and the HTML part is the Markdown converted.  Rendering uses no
clock and no randomness, so the same inputs always give the same bytes.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import markdown as md

_HTML_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 1em auto;
       padding: 0 1em; color: #222; background: #fffdf7; line-height: 1.45; }}
h1 {{ font-variant: small-caps; border-bottom: 3px double #444; text-align: center; }}
h2 {{ border-bottom: 1px solid #999; }}
table {{ border-collapse: collapse; margin: 0.5em 0; }}
th, td {{ border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; }}
th {{ background: #eee8d5; }}
code, pre {{ font-family: 'DejaVu Sans Mono', monospace; font-size: 0.9em; }}
pre {{ background: #f4f1e8; padding: 0.5em; white-space: pre-wrap; }}
</style>
</head>
<body>
{body}
</body>
</html>
"""


@lru_cache(maxsize=8)
def environment(templates_dir: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # Markdown and plain text; HTML escaping happens in markdown_to_html
    )


def render(templates_dir: Path, name: str, **context: Any) -> str:
    return environment(templates_dir.resolve()).get_template(name).render(**context)


_local = threading.local()


def _converter() -> md.Markdown:
    # Building a Markdown instance costs more than converting a turn sheet, so one is
    # reused; one per thread, because an instance is not safe to share (the scheduler
    # may render two games' newsletters at once).
    converter = getattr(_local, "converter", None)
    if converter is None:
        converter = _local.converter = md.Markdown(
            extensions=["tables", "sane_lists", "fenced_code"])
    return converter


def markdown_to_html(text: str, title: str) -> str:
    converter = _converter()
    converter.reset()
    body = converter.convert(text)
    escaped_title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _HTML_PAGE.format(title=escaped_title, body=body)
