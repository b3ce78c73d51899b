"""The last step of every HTML document we mail or publish: the nh3 (ammonia) allowlist.

Templates already escape what players write (`moderator.publish.render`); this is the
second wall, for whatever a template or a converter lets through.  Only the tags our
newsletters use survive; no scripts, no event attributes, no forms; links only to
``https:`` and ``mailto:`` (and, on the static site, to its own relative pages); images
only on the site and only its own SVG charts (relative paths), so no remote image can
tell anyone who read what and when.  Inline ``style`` attributes (css-inline's work) keep only the
properties our stylesheet sets, so no ``url()`` reaches a mail client.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import nh3

_TAGS = frozenset({
    "a", "p", "br", "hr", "h1", "h2", "h3", "h4", "ul", "ol", "li", "strong", "em", "b",
    "i", "code", "pre", "blockquote", "table", "thead", "tbody", "tr", "th", "td", "div",
    "span", "small", "abbr", "dl", "dt", "dd", "del", "sup", "sub",
})
_SITE_TAGS = _TAGS | {"img", "nav", "header", "footer", "main", "section", "article",
                      "figure", "figcaption", "time"}
STYLE_PROPERTIES = frozenset({
    "max-width", "margin", "padding", "padding-left", "color", "background-color",
    "font-family", "font-size", "font-style", "font-variant", "font-weight", "line-height",
    "overflow-wrap", "overflow-x", "text-align", "vertical-align", "border", "border-bottom",
    "border-left", "border-collapse", "white-space", "width", "height",
})
# Elements the allowlist drops with all they hold (the rest of what it drops, it drops
# keeping the text); the text part leaves them out too (`moderator.publish.text`).
DROPPED_WITH_CONTENT = frozenset({"script", "style", "iframe", "object", "embed",
                                  "template", "noscript", "svg", "math", "textarea",
                                  "select"})
_SAFE_SCHEME = re.compile(r"^(https:|mailto:)", re.I)
# A path inside the site: no scheme, neither protocol-relative nor from the root (a
# static site may be served from any folder; its links are all relative).
_LOCAL_PATH = re.compile(r"^(?![a-z][a-z0-9+.-]*:)(?!//)(?!/)[A-Za-z0-9_./#%-]*$", re.I)
_LOCAL_IMAGE = re.compile(r"^(?!//)(?!/)[A-Za-z0-9_./-]*\.svg$")


@dataclass(frozen=True)
class Policy:
    """What one kind of document may carry."""

    name: str
    tags: frozenset[str]
    relative_links: bool  # links to pages of the same site


MAIL_POLICY = Policy("mail", _TAGS, relative_links=False)
SITE_POLICY = Policy("site", _SITE_TAGS, relative_links=True)

_ATTRIBUTES = {
    "*": {"class", "style", "title", "id", "lang"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "th": {"colspan", "rowspan", "scope"},
    "td": {"colspan", "rowspan"},
    "time": {"datetime"},
    "abbr": set(),
}


def _filter(policy: Policy):  # type: ignore[no-untyped-def]
    def attribute_filter(tag: str, attr: str, value: str) -> str | None:
        if attr == "href":
            href = value.strip()
            if _SAFE_SCHEME.match(href):
                return href
            if policy.relative_links and _LOCAL_PATH.match(href):
                return href
            if href.startswith("#"):
                return href
            return None
        if attr == "src":
            src = value.strip()
            return src if _LOCAL_IMAGE.match(src) else None
        return value

    return attribute_filter


_FILTERS = {p.name: _filter(p) for p in (MAIL_POLICY, SITE_POLICY)}


# After nh3 no attribute holds a script URL or a handler, but the *text* may show what a
# player typed ("javascript:alert(1)", "onerror=").  Writing that ':' and '=' as character
# references changes nothing a reader sees and leaves nothing for a naive filter (a mail
# gateway, a careless later step) to mistake for markup.
_NEUTRAL = re.compile(r"(?i)\b(javascript|vbscript|livescript|data)(:)|\b(on[a-z]+)(\s*=)")


def _neutral(match: re.Match[str]) -> str:
    if match.group(1):
        return match.group(1) + "&#58;"
    return match.group(3) + match.group(4).replace("=", "&#61;")


def escape_text(text: str) -> str:
    """Plain text for an HTML element of our own (the <title>): escaped and neutral."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _NEUTRAL.sub(_neutral, escaped)


def sanitize(html: str, policy: Policy = MAIL_POLICY) -> str:
    """``html`` (a fragment) through the allowlist of ``policy``."""
    return _NEUTRAL.sub(_neutral, _clean(html, policy))


def _clean(html: str, policy: Policy) -> str:
    return nh3.clean(
        html,
        tags=set(policy.tags),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes={k: set(v) for k, v in _ATTRIBUTES.items()
                    if k in policy.tags or k == "*"},
        attribute_filter=_FILTERS[policy.name],
        url_schemes={"https", "mailto"},
        link_rel="noopener noreferrer",
        strip_comments=True,
        filter_style_properties=set(STYLE_PROPERTIES),
    )
