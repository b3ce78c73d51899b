"""The shortcuts that make a 1,000-character En Garde! month fast (issue 16, goals 1 and 2)
give the same bytes as the long way round: the trimmed Markdown converter, the sheets
rendered by worker processes, a whole turn's order forms in one pass, one parse context
for every message of a state, and a lady's name when the name tables are full."""

from __future__ import annotations

import dataclasses
import random
import re
import textwrap
from pathlib import Path
from typing import Any
from unittest import mock

import markdown as md
import pytest

from moderator.dice import Dice
from moderator.games.engarde import ENGINE, ladies
from moderator.games.engarde.engine import EnGardeEngine
from moderator.games.engarde.month import Month
from moderator.games.engarde.orderset import OrderSet
from moderator.games.engarde.state import GameState
from moderator.publish import pool
from moderator.publish import text as text_part
from moderator.publish.converter import new_converter
from moderator.publish.newsletter import Reader, TurnData, render_turn
from moderator.publish.render import escape_markup, markdown_body, md_escape, press
from tests.engarde.conftest import _TABLES
from tests.engarde.test_golden import GOLDEN, SEED, cast, read_orders
from tests.publish.payloads import PAYLOADS

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
# What the patterns taken out of the converter would start on: links and images
# (``[``), autolinks and mail links (``<https:``, ``<a@b>``).
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_LINKISH = re.compile(r"\[|<(?:https?|ftp|mailto):|<[^>\s]+@[^>\s]+>")


def test_no_template_writes_what_the_trimmed_converter_left_out() -> None:
    found = []
    for path in sorted(TEMPLATES.rglob("*.md.j2")):
        literal = _JINJA.sub("", path.read_text())
        found += [f"{path.name}: {m.group()}" for m in _LINKISH.finditer(literal)]
    assert not found


@pytest.mark.parametrize("game", ["engarde", "dwtk", "fief"])
def test_the_trimmed_converter_gives_the_full_ones_html(game: str) -> None:
    full = md.Markdown(extensions=["tables", "sane_lists", "fenced_code"])
    trimmed = new_converter()
    documents = sorted((ROOT / "tests" / game / "golden" / "expected").rglob("*.md"))
    assert len(documents) > 20
    for path in documents:
        text = path.read_text()
        full.reset()
        trimmed.reset()
        assert trimmed.convert(text) == full.convert(text), path


def _played(months: int) -> tuple[dict[str, Any], list[tuple[dict[str, Any], Any, Dice]]]:
    """The golden game's first ``months``: each month's state before, result and dice."""
    state = cast()
    played = []
    for number in range(1, months + 1):
        texts, decisions = read_orders(GOLDEN / "orders" / f"{number:02d}.txt")
        state = dict(state, decisions={**state.get("decisions", {}), **decisions})
        orders = {k: ENGINE.parse_orders(t, state, k, _TABLES).orders
                  for k, t in sorted(texts.items())}
        dice = Dice.for_turn(SEED, state["turn"])
        result = ENGINE.adjudicate(state, orders, _TABLES, dice)
        played.append((state, result, dice))
        state = result.state
    return state, played


def test_sheets_from_worker_processes_are_the_same_bytes() -> None:
    _, played = _played(3)
    before, result, dice = played[-1]
    keys = sorted(result.state["characters"])
    # Every character three times over: enough sheets to cut into several slices.
    readers = [Reader(i, keys[i % len(keys)], f"Reader {i}", f"r{i}@x.example")
               for i in range(3 * len(keys))]
    data = TurnData("Golden", 3, ENGINE.turn_label(before), "the 1st", before,
                    result.state, result.events, dice.log_dicts(), gm_notes=("a note",))
    alone = render_turn(TEMPLATES, ENGINE, _TABLES, data, readers, workers=1)
    with mock.patch.object(pool.threading, "active_count", return_value=1):
        assert pool.worker_count(len(readers), 2) == 2  # (the suite may have threads)
        shared = render_turn(TEMPLATES, ENGINE, _TABLES, data, readers, workers=2)
    assert shared == alone
    assert list(shared.sheets) == [r.player_id for r in readers]


def test_a_pool_that_does_not_answer_is_stopped_and_the_sheets_rendered_here() -> None:
    """A hung worker never holds a turn: past RESULT_TIMEOUT the sheets render here."""
    class Job:
        readers = ("a", "b", "c")

        def warm(self) -> None: ...

        def sheet(self, reader: str) -> str:
            return reader.upper()

    class Hung:
        def get(self, timeout: float) -> list[list[str]]:
            raise pool.PoolTimeout

    sheets = pool.SheetPool(Job(), 3, workers=1)
    sheets._pending = Hung()  # type: ignore[assignment]
    assert sheets.results() == ["A", "B", "C"]


def test_worker_count_and_slices() -> None:
    assert pool.worker_count(10, None) == 1  # a small turn stays in this process
    with mock.patch.object(pool.threading, "active_count", return_value=1):
        assert pool.worker_count(pool.PARALLEL_FROM, 2) == 2
    with mock.patch.object(pool.threading, "active_count", return_value=3):
        assert pool.worker_count(pool.PARALLEL_FROM, 2) == 1  # serve's threads: no fork
    assert pool.worker_count(1, 4) == 1
    cuts = pool.slices(10, 4)
    assert cuts == [(0, 2), (2, 5), (5, 7), (7, 10)]
    assert pool.slices(3, 8) == [(0, 1), (1, 2), (2, 3)]


def test_a_turns_order_forms_in_one_pass_are_each_readers_form() -> None:
    state, _ = _played(12)  # a year in: ladies with child, challenges, loans, regiments
    keys = sorted(state["characters"])
    forms = ENGINE.order_forms(state, keys, _TABLES)
    assert forms == {key: ENGINE.order_form(state, key, _TABLES) for key in keys}


def test_one_parse_context_serves_every_message_of_a_state() -> None:
    _, played = _played(6)
    state = played[-1][0]
    texts, _ = read_orders(GOLDEN / "orders" / "06.txt")
    shared = EnGardeEngine()
    for key, text in sorted(texts.items()):
        # A fresh engine each time: no context kept from any earlier message.
        assert shared.parse_orders(text, state, key, _TABLES) == \
            EnGardeEngine().parse_orders(text, state, key, _TABLES)
    # A new state is a new context: a renamed character is found by his new name.
    renamed = dict(state, characters={**state["characters"], "porthos": {
        **state["characters"]["porthos"], "name": "Du Vallon"}})
    parsed = shared.parse_orders("WEEK 1: CLUB; TOADY Du Vallon\n", renamed, "athos", _TABLES)
    assert not [e for e in parsed.errors if "Du Vallon" in e.message]
    assert "porthos" in str(parsed.orders)


def test_a_lady_named_when_every_name_is_taken() -> None:
    society = dataclasses.replace(_TABLES.society, given_names=_TABLES.society.given_names[:2],
                                  family_names=_TABLES.society.family_names[:2])
    tables = dataclasses.replace(_TABLES, society=society)
    taken = {f"{h} {g} {f}" for h in society.honorifics for g in society.given_names
             for f in society.family_names}
    game = GameState.from_dict(cast())
    m = Month(game, tables, Dice.for_turn(SEED, 1),
              {k: (OrderSet(), False) for k in game.characters})
    free = ladies.FreeNames(society.given_names, society.family_names, society.honorifics,
                            taken)
    assert ladies._name(m, "lady7", free).endswith("(7)")


def test_plain_values_skip_the_escaping_but_come_out_the_same() -> None:
    rng = random.Random(16)
    alphabet = "ab Z1-+#>.)\n\t\xa0&<>\\`*_[]|{}é'"
    texts = ["", "Chevalier 0001", "a - b", "1. x", "-5", "- x", "  > q", "a  b", "x "]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
              for _ in range(5000)]
    assert [md_escape(t) for t in texts] == [escape_markup(t) for t in texts]
    assert [md_escape(n) for n in (0, -5, 12, 10**6)] == ["0", "-5", "12", "1000000"]


def _raw_blocks_both_ways(text: str) -> tuple[Any, Any, bool]:
    """``text`` through the fast raw-HTML step and through Python-Markdown's own (lines
    and stashed blocks each), and whether the fast one had to hand it over."""
    converter = new_converter()
    fast = converter.preprocessors["html_block"]
    lines = converter.preprocessors["normalize_whitespace"].run(text.split("\n"))
    out = []
    for step in (fast, fast.original):  # type: ignore[attr-defined]
        converter.reset()
        out.append((step.run(lines), list(converter.htmlStash.rawHtmlBlocks)))
    return out[0], out[1], fast._stash("\n".join(lines)) is None  # type: ignore[attr-defined]


def test_raw_html_blocks_are_stashed_as_python_markdown_stashes_them() -> None:
    documents = [p.read_text() for game in ("engarde", "dwtk", "fief")
                 for p in sorted((ROOT / "tests" / game / "golden" / "expected").rglob("*.md"))]
    handed_over = 0
    for text in documents:
        fast, original, fell_back = _raw_blocks_both_ways(text)
        assert fast == original
        handed_over += fell_back
    assert handed_over == 0  # the templates' own HTML never needs the slow step
    # Hostile text as the templates place it: escaped values, press, letters, odd markup.
    for payload in PAYLOADS:
        safe = md_escape(payload)
        for text in (f'# {safe}\n\n<p class="masthead">{safe}</p>\n\n',
                     f'<blockquote class="letter">\n{press(payload, html=True)}\n</blockquote>\n\n'
                     f"{press(payload)}\n", f"x\n<p>{payload}</p>\n", payload,
                     f"<pre>\n{payload}\n</pre>\nafter\n", "  <p>indented</p>\n\nx"):
            fast, original, _ = _raw_blocks_both_ways(text)
            assert fast == original, text


def test_text_no_inline_pattern_can_match_is_left_as_the_full_converter_leaves_it() -> None:
    full = md.Markdown(extensions=["tables", "sane_lists", "fenced_code"])
    trimmed = new_converter()
    texts = ["plain text (+1 SP, total 3)", "a  \nline break", "*em* **strong** _u_ __uu__",
             "`code` and \\*escaped\\*", "x &amp; y &#42; <code>z</code>", "- a\n- *b*\n\nc_d_e",
             "| a | b |\n|---|---|\n| *1* | 2  |\n", "> quote *x*\n\n    indented `y`"]
    texts += [press(p) for p in PAYLOADS] + [md_escape(p) for p in PAYLOADS]
    for text in texts:
        full.reset()
        trimmed.reset()
        assert trimmed.convert(text) == full.convert(text), text


def test_the_text_parts_filling_is_textwraps() -> None:
    rng = random.Random(16)
    for _ in range(3000):
        words = ["".join(rng.choice("ab-é") for _ in range(rng.choice([1, 3, 8, 20, 70, 73])))
                 for _ in range(rng.randint(1, 25))]
        first, rest = rng.choice([("", ""), ("- ", "  "), ("1. ", "   "), ("> ", "> ")])
        expected = textwrap.wrap(" ".join(words), text_part.WIDTH, initial_indent=first,
                                 subsequent_indent=rest, break_long_words=False,
                                 break_on_hyphens=False)
        assert text_part._fill(words, first, rest) == expected, (words, first, rest)


def _parsed_by_htmlparser(html: str) -> text_part.Node:
    tree = text_part._Tree()
    tree.feed(html)
    tree.close()
    return tree.root


def test_the_text_parts_tag_cutter_reads_html_as_htmlparser_does() -> None:
    documents = [markdown_body(p.read_text()) for game in ("engarde", "dwtk", "fief")
                 for p in sorted((ROOT / "tests" / game / "golden" / "expected").rglob("*.md"))]
    documents += [markdown_body(f"# {md_escape(p)}\n\n{press(p)}\n\n<p>{press(p, html=True)}</p>")
                  for p in PAYLOADS]
    documents += [*PAYLOADS, '<p class="a" title="x &amp; y">a<br/>b<br>c</p>', "<P ID=x>u</P>",
                             "<script>a<b>c</b></script>d", "<!-- c --><p>x</p>", "a < b",
                             '<a href="https://e.example/?a=1&amp;b=2">l</a>&amp;&#42;&x',
                             "<ul><li>a<li>b</ul></p></div>", "<pre>\n  x\n</pre>tail &"]
    for html in documents:
        assert text_part._parse(html) == _parsed_by_htmlparser(html), html
