"""A scripted twelve-month game of eight characters, compared with golden files.

Orders come in as text (``golden/orders/NN.txt``: ``=== key`` sections, and
``=== decisions`` with the GM's ``KEY = VALUE`` decisions for that run); they go
through ``ENGINE.parse_orders`` and ``ENGINE.adjudicate`` with seeded dice
(``Dice.for_turn(SEED, turn)``), and the gazette and every turn sheet are rendered
with the real templates and compared with ``golden/expected/NN/*.md``.

To regenerate after an intended change::

    ENGARDE_GOLDEN_REGEN=1 .venv/bin/python -m pytest tests/engarde/test_golden.py

After every month the invariants hold: SL >= 1; each character's crowns ledger
balances; no lady is kept by two men (nor is a man's mistress his wife); no dead,
imprisoned or absent character acts (EG §D, §R; reference §5); every favour is
spent at most once (EG §S); and `ENGINE.validate_state` finds nothing wrong.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from moderator.dice import Dice
from moderator.games.engarde import ENGINE
from moderator.publish.render import environment
from tests.engarde.conftest import _TABLES, make_char, make_state

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 1625
REGEN = os.environ.get("ENGARDE_GOLDEN_REGEN") == "1"
# The publisher's own environment: every value escaped for Markdown, its filters.
ENV = environment(ROOT / "templates")
# Weeklong actions (EG §D): none at the front, in prison or dead.
WEEK_ACTIONS = {"club.visit", "bawdyhouse.visit", "practice.week", "regiment.duty",
                "mistress.courting", "mistress.visited", "party.held", "party.attended"}


def cast() -> dict[str, Any]:
    """The eight characters, fixed (no birth rolls) so the story is easy to follow."""
    return make_state(
        make_char("athos", "Athos", sl=11, crowns=3000, noble=True, title="baron",
                  military_ability=5),
        make_char("porthos", "Porthos", sl=9, crowns=1500, strength=16),
        make_char("aramis", "Aramis", sl=8, crowns=1200, allowance=50),
        make_char("dartagnan", "D'Artagnan", sl=5, crowns=600, military_ability=6),
        make_char("cyrano", "Cyrano", sl=7, crowns=900, expertise={"rapier": 15, "sabre": 9,
                                                                   "cutlass": 8}),
        make_char("jacques", "Jacques", sl=3, crowns=200, allowance=20),
        make_char("rochefort", "Rochefort", sl=12, crowns=2500, appointment="military_governor"),
        make_char("planchet", "Planchet", sl=2, crowns=60),
        turn=1, month=1)


def read_orders(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    texts: dict[str, list[str]] = defaultdict(list)
    key = None
    for line in path.read_text().splitlines():
        if line.startswith("=== "):
            key = line[4:].strip()
            texts[key]
        elif key is not None:
            texts[key].append(line)
    decisions = {}
    for line in texts.pop("decisions", []):
        if "=" in line and not line.startswith("#"):
            k, _, v = line.partition("=")
            decisions[k.strip()] = v.strip()
    return {k: "\n".join(v) + "\n" for k, v in texts.items()}, decisions


def render(before: dict, result: Any, dice: Dice, number: int) -> dict[str, str]:
    ctx = ENGINE.newsletter_context(before, result.state, result.events,
                                    sorted(result.state["characters"]), _TABLES)
    game = {"name": "Golden 1625", "kind": "engarde", "title": "En Garde!"}
    turn = {"number": number, "label": ENGINE.turn_label(before)}
    events = [e.to_dict() for e in result.events]
    out = {"gazette": ENV.get_template("engarde/gazette.md.j2").render(
        game=game, turn=turn, next_deadline="the first of next month",
        announcement_deadline="the 25th", events=[e for e in events if e["public"]],
        ctx=ctx.gazette)}
    rolls = dice.log_dicts()
    for key in sorted(result.state["characters"]):
        out[key] = ENV.get_template("engarde/turnsheet.md.j2").render(
            game=game, turn=turn, next_deadline=None, character=key,
            events=[e for e in events if e["actor"] == key],
            dice=[r for r in rolls if r.get("actor") == key],
            order_form=ENGINE.order_form(result.state, key, _TABLES), ctx=ctx.sheets[key])
    return out


def check_invariants(before: dict, result: Any, spent: set[str]) -> None:
    after = result.state
    assert ENGINE.validate_state(after, _TABLES) == []
    crowns: dict[str, int] = defaultdict(int)
    acted: set[str] = set()
    for e in result.events:
        if e.actor:
            crowns[e.actor] += e.crowns
            if e.id in WEEK_ACTIONS:
                acted.add(e.actor)
        if e.id == "favour.used":
            assert e.args["id"] not in spent, e  # EG §S: a favour is spent once
            spent.add(e.args["id"])
    kept: list[str] = []
    for key, c in after["characters"].items():
        old = before["characters"][key]
        assert c["sl"] >= 1, key
        assert crowns[key] == c["crowns"] - old["crowns"], key
        assert not {f["id"] for f in c["favours"]} & spent, key
        if not c["dead"]:
            kept += [lady for lady in (c["mistress"], c["wife"]) if lady]
        away = old.get("location") == "front" and c["location"] == "front"
        if old.get("dead") or old.get("prison_until", 0) >= before["turn"] or away:
            assert key not in acted, (key, "acted while dead, in prison or at the front")
        if old.get("dead"):
            assert not [e for e in result.events if e.actor == key], key
    assert len(kept) == len(set(kept)), "a lady kept by two men"


def test_twelve_months() -> None:
    state = cast()
    spent: set[str] = set()
    mismatches = []
    for number in range(1, 13):
        texts, decisions = read_orders(GOLDEN / "orders" / f"{number:02d}.txt")
        state = dict(state, decisions={**state.get("decisions", {}), **decisions})
        orders = {}
        for key, text in sorted(texts.items()):
            parsed = ENGINE.parse_orders(text, state, key, _TABLES)
            # Orders the rules refuse at the time are dropped (as in a real game);
            # the script itself must be readable.
            typos = [e for e in parsed.hard_errors if e.message.startswith(("unknown",
                                                                            "cannot read"))]
            assert not typos, (number, key, typos)
            orders[key] = parsed.orders
        dice = Dice.for_turn(SEED, state["turn"])
        result = ENGINE.adjudicate(state, orders, _TABLES, dice)
        check_invariants(state, result, spent)
        folder = GOLDEN / "expected" / f"{number:02d}"
        for name, text in render(state, result, dice, number).items():
            path = folder / f"{name}.md"
            if REGEN:
                folder.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            elif not path.exists() or path.read_text() != text:
                mismatches.append(str(path.relative_to(GOLDEN)))
        state = result.state
    assert not mismatches, f"golden files differ (ENGARDE_GOLDEN_REGEN=1 to accept): {mismatches}"


def test_an_unsigned_letter_s_place_does_not_tell_its_writer() -> None:
    """Le Sport de Paris (reference §13) prints anonymous press (UNSIGNED, AS alias)
    after the signed letters, by its text: printed in the order the characters acted, an
    unsigned letter's place among the signed ones narrowed down who wrote it.  The same
    section whichever characters wrote the anonymous ones."""
    sections = []
    for first, second in (("athos", "planchet"), ("planchet", "athos")):
        state = cast()
        texts = {first: 'ANYTIME: ANNOUNCE "Zounds, the Cardinal!" UNSIGNED\n',
                 second: 'ANYTIME: ANNOUNCE "All is well." UNSIGNED\n'
                         'ANYTIME: ANNOUNCE "Hear me." AS Nemo\n',
                 "cyrano": 'ANYTIME: ANNOUNCE "Signed and proud."\n'}
        orders = {key: ENGINE.parse_orders(text, state, key, _TABLES).orders
                  for key, text in texts.items()}
        dice = Dice.for_turn(SEED, 1)
        gazette = render(state, ENGINE.adjudicate(state, orders, _TABLES, dice), dice,
                         1)["gazette"]
        sections.append(gazette[gazette.index("## Announcements"):])
    assert sections[0] == sections[1]
    printed = [line for line in sections[0].splitlines() if line.startswith("<p>")]
    assert printed[:4] == ["<p>Signed and proud.</p>", "<p>All is well.</p>", "<p>Hear me.</p>",
                           "<p>Zounds, the Cardinal!</p>"]
