"""Templates render every event; the engine imports nothing impure.

Speed is measured in benchmarks/bench_month.py, not in timed tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

from moderator.dice import Dice
from moderator.games.base import NewsletterContext, TurnResult
from moderator.games.engarde import ENGINE
from moderator.games.engarde.events import ALL_EVENT_IDS, macro_name
from moderator.publish.render import environment
from tests.engarde.conftest import _TABLES
from tests.engarde.test_month import _busy_state

ROOT = Path(__file__).resolve().parents[2]
# The publisher's own environment (every value escaped; its filters).
ENV = environment(ROOT / "templates")


def _run() -> tuple[dict, object]:
    state, orders = _busy_state()
    return state, ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(7, 1))


def test_every_event_id_has_a_macro_that_renders() -> None:
    """Each id the engine can emit renders with sample args collected from real runs."""
    module = ENV.get_template("engarde/events.md.j2").module
    samples: dict[str, dict] = {}
    for seed in range(30):
        state, orders = _busy_state()
        for e in ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(seed, 1)).events:
            samples.setdefault(e.id, e.to_dict())
    emitted = set(samples)
    assert emitted <= set(ALL_EVENT_IDS), emitted - set(ALL_EVENT_IDS)
    for event_id in ALL_EVENT_IDS:
        assert hasattr(module, macro_name(event_id)), event_id
    names = {"cyrano": "Cyrano", "jacques": "Jacques"}
    for event in samples.values():
        text = str(getattr(module, macro_name(event["id"]))(event, names))
        assert text.strip() and "\n" not in text.strip(), event


def _contexts(state: dict, result: TurnResult) -> NewsletterContext:
    return ENGINE.newsletter_context(state, result.state, result.events,
                                     sorted(result.state["characters"]), _TABLES)


def test_gazette_and_turnsheet_render() -> None:
    state, result = _run()
    game = {"name": "Paris 1625", "kind": "engarde", "title": "En Garde!"}
    turn = {"number": 1, "label": ENGINE.turn_label(state)}
    gazette = ENV.get_template("engarde/gazette.md.j2").render(
        game=game, turn=turn, next_deadline="1 May 1625",
        events=[e.to_dict() for e in result.events if e.public],
        ctx=_contexts(state, result).gazette)
    assert "# Le Sport de Paris" in gazette and "The Greasy Pole" in gazette
    assert gazette.index("| Cyrano") < gazette.index("| Jacques")
    sheet = ENV.get_template("engarde/turnsheet.md.j2").render(
        game=game, turn=turn, next_deadline=None, character="jacques",
        events=[e.to_dict() for e in result.events if e.actor == "jacques"],
        dice=[], order_form=ENGINE.order_form(result.state, "jacques", _TABLES),
        ctx=_contexts(state, result).sheets["jacques"])
    assert "Opening balance" in sheet and "Closing balance" in sheet
    assert "Toadies to Cyrano" not in sheet and "You toady to Cyrano" in sheet


def test_sheet_accounts_run_from_opening_to_closing_balance() -> None:
    state, result = _run()
    ctx = _contexts(state, result).sheets["cyrano"]
    lines = ctx["accounts"]["lines"]
    assert lines[-1]["balance"] == ctx["accounts"]["closing"]
    assert ctx["sp_ledger"]["total"] == result.state["characters"]["cyrano"]["sp_month"]


FORBIDDEN = {"sqlmodel", "sqlalchemy", "jinja2", "email", "smtplib", "imaplib", "imapclient",
             "apscheduler", "random", "socket", "requests", "click", "rich", "markdown"}


_SHARED = ("moderator.dice", "moderator.games.aliases", "moderator.games.base",
           "moderator.games.table_reader")


def test_engine_is_pure() -> None:
    """The engine imports only the standard library, moderator.dice and the shared
    modules of moderator.games (the contract, the table reader, the press aliases): never
    another game."""
    for path in (ROOT / "moderator" / "games" / "engarde").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, (path.name, name)
                if name.startswith("moderator"):
                    assert name in _SHARED or \
                        name.startswith("moderator.games.engarde"), (path.name, name)
