"""Whole games: invariants after every turn, determinism, JSON round trips, templates."""

from __future__ import annotations

import json

import pytest

from moderator.dice import Dice
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.events import ALL_EVENT_IDS, macro_name
from moderator.games.dwtk.invariants import check
from moderator.games.dwtk.state import GameState
from tests.dwtk.conftest import ENV, EVENTS, TABLES, muster

ORDERS = ("DO ASSASSINATE King George WITH 2 CARDS\nDO ASSASSINATE Earl Maxwell\n"
          "DO SCANDAL Earl Maxwell\nDO TITLE PC\nDO DRAW EVENT\nBUY 1 PP\n"
          "ALIGN Prince Alan\nALIGN Jane\n"
          "BID High Minister : PC\nBID Minister Of Justice : PC\nPROBLEM Pirates -\n"
          "DO HENCHMAN {fac}\nDO COUNSELOR {fac}\nDO TRAVEL {fac} TO Epalin\n"
          "IF ANYONE HEARS MINE THEN HIDE\nIF ANYONE TRIES ANYONE THEN PLAY Evidence\n"
          "IF ANYONE HEARS MINE THEN PLAY Alibi\nIF ANYONE JAILS MINE THEN PAY\n"
          "IF ANYONE TRIES ANYONE THEN MODIFY -\nIF ANYONE HUNTS ANYONE THEN OBSTRUCT\n"
          "IF ANYONE BANISHES ANYONE THEN CHOOSE Epalin\n"
          "IF ANYONE INTERROGATES MINE THEN PLAY Prison Guards -\n"
          "IF AN OPPONENT COURTS ANYONE THEN PLAY Treachery\n"
          "IF ANYONE EXPOSES MINE THEN PLAY Informer\n"
          "IF AN OPPONENT DUELS MINE THEN PLAY Treachery -\nIF ANYONE DUELS PC THEN PAY\n"
          "IF AN OPPONENT COUNSELS ANYONE THEN MODIFY -\n"
          "IF AN OPPONENT ASSASSINATES MINE THEN PLAY Personal Guards\n"
          "IF AN OPPONENT ASSASSINATES ANYONE THEN PLAY Palace Guards -\n"
          "COUNSEL Make An Example ON Lawlessness NAMING 32\n"
          "COUNSEL Send Out The Fleet ON Pirates\nCOUNSEL Demand A Hearing ON Scandal\n"
          "COUNSEL Recommend A Title ON Court Ball NAMING PC\n"
          "COUNSEL Sue For Peace ON Foreign War\n"
          "DO ESCAPE PC TO Cronos\nDO INTRIGUE {opponent}\nUNHIDE {fac}\nSUICIDE PC\n"
          "IF AN OPPONENT FREES ANYONE THEN PLAY Prison Guards\n"
          "IF AN OPPONENT FREES ANYONE THEN PLAY Port Guards\n")
SUPPORT = ("clergy", "peasant", "townsmen", "trade_guild", "army", "navy", "merchant")


def _orders(state: dict) -> dict:  # type: ignore[type-arg]
    out = {}
    for key, p in state["players"].items():
        facs = [k for k, c in state["characters"].items() if c["owner"] == key and not c["pc"]]
        others = [p2["name"] for k2, p2 in sorted(state["players"].items()) if k2 != key]
        text = ORDERS.format(fac=facs[0] if facs else "PC", opponent=others[0])
        if state["turn"] % 3 == 0 and facs:
            text += f"HIDE {facs[-1]}\n"  # 24.2; UNHIDE of facs[0] comes first
        supports = [c for c in p["hand"] if c.rsplit("-", 1)[0].removesuffix("_support")
                    in SUPPORT]
        if len(supports) >= 3:
            text += "USURP SUPPORT ALL\nRESTORE PC\nDISSOLVE\nAPPOINT High Minister : PC\n"
        if p["loyalty"]:
            text = f"DO RECRUIT {p['loyalty'][0]}\n" + text
        out[key] = ENGINE.parse_orders(text, state, key, TABLES).orders
    return out


def play(seed: int, players: int, turns: int = 30) -> tuple[dict, list]:  # type: ignore[type-arg]
    state = muster(players)
    seen = []
    for n in range(1, turns + 1):
        result = ENGINE.adjudicate(state, _orders(state), TABLES, Dice.for_turn(seed, n))
        state = result.state
        seen.extend(result.events)
        game = GameState.from_dict(state)
        assert game.to_dict() == state and json.loads(json.dumps(state)) == state
        assert check(game, TABLES) == [], (seed, n)
        if state["phase"] == "over":
            break
    return state, seen


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
