"""Issue 12: nothing a player writes becomes markup, in either game's newsletters.

Hostile text goes in every way a player's words reach a newsletter (announcements and
their aliases, character and player names, lady names, the nobles' players in Down with
the King) through the real parser, engine and publisher; no HTML part may then carry a
script, an event attribute, a ``javascript:``/``data:`` link or a remote image.  And a
``|``, ``*``, ``_``, ``[`` or backtick in a name never moves a table's columns or the
emphasis around it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from moderator.dice import Dice
from moderator.games.dwtk import ENGINE as DWTK
from moderator.games.engarde import ENGINE as ENGARDE
from moderator.publish.newsletter import Reader, RenderedTurn, TurnData, render_turn
from moderator.publish.render import (
    html_to_text,
    markdown_body,
    markdown_to_html,
    markdown_to_parts,
    md_escape,
    press,
)
from moderator.publish.sanitize import MAIL_POLICY, SITE_POLICY, sanitize
from tests.dwtk.conftest import TABLES as DWTK_TABLES
from tests.engarde.conftest import _TABLES as EG_TABLES
from tests.engarde.conftest import make_char, make_lady, make_state
from tests.publish.payloads import PAYLOADS, html_problems

from support import ROOT

TEMPLATES = ROOT / "templates"


def _engarde_turn(payloads: tuple[str, ...]) -> tuple[RenderedTurn, dict[str, Any]]:
    """A month in which three characters named with payloads announce the payloads."""
    names = [payloads[i % len(payloads)] for i in range(3)]
    chars = [make_char(f"c{i}", f"{name} {i}", sl=6 + i, crowns=900) for i, name in
             enumerate(names)]
    ladies = [make_lady(f"l{i}", f"Mlle {p}", sl=8) for i, p in enumerate(payloads[:4])]
    state = make_state(*chars, ladies=ladies)
    orders = {}
    for i, char in enumerate(chars):
        lines = [f'ANNOUNCE "{p}" AS {payloads[(k + i) % len(payloads)].splitlines()[0]}'
                 if k % 3 == 0 else f'ANNOUNCE "{p}"' if k % 3 == 1
                 else f'ANNOUNCE "{p}" UNSIGNED'
                 for k, p in enumerate(payloads)]
        parsed = ENGARDE.parse_orders("\n".join(["ANYTIME:", *lines]), state, char["key"],
                                      EG_TABLES)
        orders[char["key"]] = parsed.orders
    result = ENGARDE.adjudicate(state, orders, EG_TABLES, Dice.for_turn(12, 1))
    readers = [Reader(i + 1, c["key"], f"Player {payloads[i]}", f"p{i}@x.example")
               for i, c in enumerate(chars)]
    data = TurnData("xss", 1, ENGARDE.turn_label(state), "the 1st", state, result.state,
                    result.events, Dice.for_turn(12, 1).log_dicts(),
                    gm_notes=(f"Note: {payloads[0]}",))
    return render_turn(TEMPLATES, ENGARDE, EG_TABLES, data, readers), result.state


def _dwtk_turn(payloads: tuple[str, ...]) -> RenderedTurn:
    """Three players named with payloads take their seats and the court assembles."""
    state = DWTK.new_game("Fandonia", DWTK_TABLES, Dice.for_turn(1, 0))
    for i in range(3):
        state, _ = DWTK.add_character(state, f"p{i}", f"{payloads[i % len(payloads)]} {i}",
                                      DWTK_TABLES, Dice.for_turn(1, 0))
    result = DWTK.adjudicate(state, {}, DWTK_TABLES, Dice.for_turn(3, 1))
    readers = [Reader(i + 1, f"p{i}", f"Player {payloads[i]}", f"p{i}@x.example")
               for i in range(3)]
    data = TurnData("xss", 1, DWTK.turn_label(state), None, state, result.state,
                    result.events, [], gm_notes=(payloads[1],))
    return render_turn(TEMPLATES, DWTK, DWTK_TABLES, data, readers)


def _all_html(rendered: RenderedTurn) -> dict[str, str]:
    out = {"gazette": rendered.gazette.html}
    out.update({f"sheet {pid}": r.html for pid, r in rendered.sheets.items()})
    return out


@pytest.mark.parametrize("start", range(0, len(PAYLOADS), 3))
def test_no_payload_becomes_markup_in_en_garde(start: int) -> None:
    payloads = PAYLOADS[start:] + PAYLOADS[:start]
    rendered, _ = _engarde_turn(payloads)
    gazette = rendered.gazette.markdown
    # The announcements did reach the gazette (so the check below checks something).
    assert gazette.count("Announcements and letters") == 1
    flat = " ".join(rendered.gazette.text.split())
    assert " ".join(payloads[0].split()) in flat
    for name, html in _all_html(rendered).items():
        assert html_problems(html) == [], name
        assert "<img" not in html, name  # no image at all in mail: nothing to fetch
        assert 'name="viewport"' in html


@pytest.mark.parametrize("start", range(0, len(PAYLOADS), 3))
def test_no_payload_becomes_markup_in_down_with_the_king(start: int) -> None:
    payloads = PAYLOADS[start:] + PAYLOADS[:start]
    rendered = _dwtk_turn(payloads)
    # The names did reach the gazette (so the check below checks something).
    flat = " ".join(rendered.gazette.text.split())
    assert " ".join(payloads[0].split()) in flat
    for name, html in _all_html(rendered).items():
        assert html_problems(html) == [], name
        assert "<img" not in html, name


def test_the_player_sees_his_words_as_he_wrote_them() -> None:
    """Escaping is not deleting: the text part and the page show the payload literally."""
    rendered, _ = _engarde_turn(PAYLOADS)
    text = rendered.gazette.text
    assert "<img src=x onerror=alert(document.cookie)>" in text
    assert "[prize](javascript:alert(1))" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text  # entities as typed


def test_the_sanitizer_is_the_last_wall() -> None:
    """Markup a template let through by mistake is still cut down by nh3."""
    raw = ('<p onclick="x()">a</p><script>alert(1)</script><img src="https://t.example/p.png">'
           '<a href="javascript:alert(1)">j</a><a href="data:text/html,x">d</a>'
           '<a href="https://ok.example/">ok</a><a href="mailto:gm@x.example">gm</a>'
           '<a href="//evil.example/">pr</a><a href="other.html">rel</a>'
           '<span style="color:red;background:url(https://t.example/b.png)">s</span>')
    mail = sanitize(raw, MAIL_POLICY)
    assert html_problems(mail) == []
    assert "<img" not in mail and 'href="other.html"' not in mail and "//evil" not in mail
    assert 'href="https://ok.example/"' in mail and 'href="mailto:gm@x.example"' in mail
    assert "url(" not in mail and "color:red" in mail
    site = sanitize(raw + '<img src="charts/pole.svg" alt="c">', SITE_POLICY)
    assert 'href="other.html"' in site and 'src="charts/pole.svg"' in site
    assert "tracker" not in site and "//evil" not in site and html_problems(site) == []


@pytest.mark.parametrize("name", ["A|B", "A*B*", "_A_", "[A]", "A`B", "A \\| B", "# A",
                                  "- A", "1. A", "> A", "A\n\n# B", "<b>A</b>"])
def test_a_name_never_shifts_a_table_or_the_emphasis(name: str) -> None:
    markdown = ("| Name | SL |\n|---|---|\n"
                f"| {md_escape(name)} | 7 |\n| **{md_escape(name)}** | 8 |\n")
    html = markdown_body(markdown)
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    assert [len(re.findall(r"<t[dh]", r)) for r in rows] == [2, 2, 2], html
    assert html.count("<strong>") == 1 and "<em>" not in html, html
    assert "<h1" not in html and "<li" not in html and "<b>" not in html
    body = markdown_to_html(markdown, "t")
    one_line = " ".join(name.split())
    assert one_line in body.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def test_press_keeps_paragraphs_and_emphasis_only() -> None:
    html = markdown_body(str(press("A *bold* claim and **more**.\n\nSecond <b>para</b>"
                                   " [x](https://e.example) snake_case_name")))
    assert html.count("<p>") == 2
    assert "<em>bold</em>" in html and "<strong>more</strong>" in html
    assert "<b>" not in html and "<a" not in html and "snake_case_name" in \
        html.replace("&#95;", "_")


# Raw HTML no template writes but a careless one might: what the sanitizer drops, with or
# without its content.
_STRAY_HTML = ("<svg><text>drawn</text></svg>", "<textarea>typed</textarea>",
               "<form><p>kept</p></form>", "<select><option>o</option></select>",
               "<noscript>n</noscript>", "<math><mi>x</mi></math>")


def test_the_text_part_reads_as_the_text_of_the_html_we_send() -> None:
    """The text is written from the converter's HTML, before the styles go in and the
    sanitizer runs: it must read as the text of the page that is sent."""
    documents = [f"# {md_escape(p)}\n\n- {md_escape(p)}\n\n{press(p)}\n\n"
                 f'<blockquote class="letter">\n{press(p, html=True)}\n</blockquote>\n\n'
                 f"| a | b |\n|---|---|\n| {md_escape(p)} | 1 |\n" for p in PAYLOADS]
    documents += [f"Before.\n\n{raw}\n\nAfter.\n" for raw in _STRAY_HTML]
    for markdown in documents:
        html, text = markdown_to_parts(markdown, "t")
        assert text == html_to_text(html), markdown
        assert html == markdown_to_html(markdown, "t")


@pytest.mark.parametrize("hidden", ["\u202e", "\u2066", "\u200f", "\x1b", "\x9b", "\x00"])
def test_no_hidden_control_reorders_or_reaches_a_newsletter(hidden: str) -> None:
    """A bidi override in a name or a line of press reversed the rest of its paragraph
    (the signature after an announcement: "— Athos" read as written by someone else) and
    of a table row; a control character went into the mail as it was.  Both are left
    out wherever a value enters a Markdown template; the words around them stay."""
    markdown = (f'"I yield{hidden} to no one." — {md_escape("Athos" + hidden)}\n\n'
                f"{press('A *bold*' + hidden + ' claim')}\n\n"
                f"| Name | SL |\n|---|---|\n| {md_escape('Bo' + hidden + 'rgia')} | 7 |\n")
    markdown = markdown.replace(f"I yield{hidden}", md_escape(f"I yield{hidden}"))
    html, text = markdown_to_parts(markdown, "t")
    for part in (html, text):
        assert hidden not in part
    assert "I yield to no one." in text and "Borgia" in text and "— Athos" in text
    assert "<em>bold</em>" in html


@pytest.mark.parametrize("rule", ["---", "- - -", "   ----", "===", "= = ="])
def test_a_value_of_dashes_is_no_horizontal_rule_or_heading(rule: str) -> None:
    """A line of press, a name or a list item of dashes alone was a horizontal rule across
    the gazette ("- ---" too), and equals signs under a line made it a heading; they are
    printed as written."""
    markdown = (f"- {md_escape(rule)}\n- ok\n\nA line\n{md_escape(rule)}\n\n"
                f"{press('Before' + chr(10) * 2 + rule + chr(10) * 2 + 'after')}\n")
    html, text = markdown_to_parts(markdown, "t")
    assert "<hr" not in html and "<h1" not in html and "<h2" not in html, html
    assert text.count(" ".join(rule.split())) == 3, text
