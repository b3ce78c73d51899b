"""Hostile text a player might write, and a checker for the HTML we produce from it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

PAYLOADS = (
    "<script>alert(document.cookie)</script>",
    "<img src=x onerror=alert(document.cookie)>",
    "<svg onload=alert(1)><circle r=9></svg>",
    "<iframe src=https://evil.example/></iframe>",
    '<a href="javascript:alert(1)">prize</a>',
    "[prize](javascript:alert(1))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![pixel](https://tracker.example/read.png)",
    '<img src="https://tracker.example/read.png">',
    "<https://tracker.example/autolink>",
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    '"><script>alert(1)</script><"',
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#60;script&#62;alert(1)&#60;/script&#62;",
    "<p onmouseover='alert(1)'>hover me",
    "<div style=\"background:url('https://tracker.example/bg.png')\">styled</div>",
    "<!--<script>alert(1)//-->",
    "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
    "`<script>alert(1)</script>`",
    "[a]: javascript:alert(1)",
    "**bold** | a pipe | _under_ [bracket] `tick` \\ back",
)

_URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "background", "poster"}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "iframe", "object", "embed", "svg", "math", "form", "base"):
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            v = (value or "").strip().lower()
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=>")
            if name in _URL_ATTRS and re.match(r"^\s*(javascript|data|vbscript):", v):
                self.problems.append(f"<{tag} {name}={v[:30]}>")
            if name == "style" and ("url(" in v or "expression(" in v):
                self.problems.append(f"<{tag} style=url()>")
        if tag == "img":
            src = dict(attrs).get("src") or ""
            if re.match(r"^\s*([a-z][a-z0-9+.-]*:|//)", src, re.I):
                self.problems.append(f"remote image {src}")


def html_problems(html: str) -> list[str]:
    """What in ``html`` could run a script or fetch something remote (empty: nothing)."""
    parser = _Tags()
    parser.feed(html)
    parser.close()
    problems = list(parser.problems)
    if re.search(r"<\s*script", html, re.I):
        problems.append("'<script' in the source")
    # Stricter than the browser: not even the text may spell these out (it is written
    # with character references, which show the same).
    if re.search(r"javascript:|vbscript:", html, re.I):
        problems.append("'javascript:' in the source")
    if re.search(r"\son[a-z]+\s*=", html, re.I):
        problems.append("an 'on...=' in the source")
    return problems
