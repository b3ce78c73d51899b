"""Whole games: invariants after every turn, determinism, JSON round trips, templates."""

from __future__ import annotations

import json

import pytest

from moderator.dice import Dice
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.events import ALL_EVENT_IDS, macro_name
from tests.dwtk.conftest import ENV, EVENTS, TABLES, muster
from tests.dwtk.games import play


@pytest.mark.parametrize("seed", range(24))
def test_invariants_hold_every_turn(seed: int) -> None:
    """IP/PP >= 0 (34.3, 35.3), PP limit (35.4), Support (32.1), offices (16.2),
    no dead office holder (31), 120 Event cards and 24 counters accounted for."""
    play(seed, 2 + seed % 5)


def test_a_game_replays_identically() -> None:
    a, ea = play(7, 4, 12)
    b, eb = play(7, 4, 12)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert [e.to_dict() for e in ea] == [e.to_dict() for e in eb]


def test_every_event_id_has_a_one_line_macro() -> None:
    names = {str(n.id): n.name for n in TABLES.nobles}
    samples = {}
    for seed in range(12):
        for e in play(seed, 3 + seed % 4, 15)[1]:
            samples.setdefault(e.id, e.to_dict())
    assert set(samples) <= set(ALL_EVENT_IDS)
    for event_id in ALL_EVENT_IDS:
        assert hasattr(EVENTS, macro_name(event_id)), event_id
    for event in samples.values():
        text = str(getattr(EVENTS, macro_name(event["id"]))(event, names)).strip()
        assert text and "\n" not in text, event


def test_gazette_and_turnsheet_render() -> None:
    before = muster(4)
    result = ENGINE.adjudicate(before, {}, TABLES, Dice.for_turn(3, 1))
    ctx = ENGINE.newsletter_context(before, result.state, result.events,
                                    sorted(result.state["players"]), TABLES)
    game = {"name": "fandonia", "kind": "dwtk", "title": ENGINE.title}
    turn = {"number": 1, "label": ENGINE.turn_label(result.state)}
    gazette = ENV.get_template("dwtk/gazette.md.j2").render(
        game=game, turn=turn, next_deadline="1 May", ctx=ctx.gazette,
        events=[e.to_dict() for e in result.events if e.public])
    assert "# The Fandonian Courier" in gazette and "Minister Of The Navy" in gazette
    assert "King George" in gazette and "| Ann |" in gazette
    sheet = ENV.get_template("dwtk/turnsheet.md.j2").render(
        game=game, turn=turn, next_deadline=None, character="ann", ctx=ctx.sheets["ann"],
        events=[e.to_dict() for e in result.events if e.actor == "ann"], dice=[],
        order_form=ENGINE.order_form(result.state, "ann", TABLES))
    assert "Event cards (11)" in sheet and "Down With The King" in sheet
    assert "DO TITLE" in sheet
