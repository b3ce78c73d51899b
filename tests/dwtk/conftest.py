"""Helpers for the Down with the King rule tests: tables, a dealt game, a court to poke."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from moderator.dice import Dice, ScriptedDice
from moderator.games.base import Event, TurnResult
from moderator.games.dwtk import ENGINE, faction
from moderator.games.dwtk.events import macro_name
from moderator.games.dwtk.orders import TurnOrders
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.orders.reaction import parse_reaction
from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import Tables
from moderator.games.dwtk.views import names
from moderator.publish.render import environment
from tests.dwtk.checked import COURTS

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "dwtk"
PLAYERS = ("ann", "bob", "cid", "dan", "eve", "fay")


def raw_tables() -> dict[str, dict[str, Any]]:
    return {p.stem: tomllib.loads(p.read_text()) for p in sorted(DATA.glob("*.toml"))}


TABLES: Tables = ENGINE.load_tables(raw_tables())
# The publisher's own environment: every value escaped for Markdown, its filters.
ENV = environment(ROOT / "templates")
EVENTS = ENV.get_template("dwtk/events.md.j2").module


def muster(players: int = 3) -> dict[str, Any]:
    state = ENGINE.new_game("Fandonia", TABLES, Dice.for_turn(1, 0))
    for key in PLAYERS[:players]:
        state, _ = ENGINE.add_character(state, key, key.title(), TABLES, Dice.for_turn(1, 0))
    return state


def dealt(players: int = 3, seed: int = 1) -> dict[str, Any]:
    """A game dealt (DWTK 3) and turn 1 begun, from seeded dice."""
    return run(muster(players), dice=Dice.for_turn(seed, 1)).state


def run(state: dict[str, Any], orders: Mapping[str, str] | None = None,
        dice: Dice | None = None) -> TurnResult:
    """Adjudicate with parsed order texts; every event renders with its macro (one line)."""
    parsed = {}
    for key, text in (orders or {}).items():
        p = ENGINE.parse_orders(text, state, key, TABLES)
        assert not p.hard_errors, p.hard_errors
        parsed[key] = p.orders
    result = ENGINE.adjudicate(state, parsed, TABLES, dice or Dice.for_turn(5, 5))
    names = {**{str(n.id): n.name for n in TABLES.nobles}, **{r.key: r.name for r in TABLES.royals}}
    for e in result.events:
        text = str(getattr(EVENTS, macro_name(e.id))(e.to_dict(), names)).strip()
        assert text and "\n" not in text, e
    return result


def court(state: dict[str, Any] | GameState, script: Iterable[int] | Mapping[str, Iterable[int]]
          = (), orders: Mapping[str, str] | None = None) -> Court:
    """A court over ``state`` with scripted dice, for calling one rule directly."""
    game = state if isinstance(state, GameState) else GameState.from_dict(state)
    c = Court(game, TABLES, ScriptedDice(script), pp_limit=faction.enforce_limit)
    c.orders = {}
    for key, text in (orders or {}).items():
        c.orders[key] = TurnOrders.from_dict(ENGINE.parse_orders(text, {}, key, TABLES).orders)
    return c


def with_player(c: Court, key: str, **changes: Any) -> None:
    c.players[key] = replace(c.players[key], **changes)


def give_card(c: Court, key: str, card: str) -> None:
    """Move Event card instance ``card`` into ``key``'s hand from wherever it is (the deck,
    the discards or another hand), so the 120 cards stay accounted for."""
    for pile in (c.deck, c.discards):
        if card in pile:
            pile.remove(card)
    for p in c.players.values():
        if card in p.hand:
            with_player(c, p.key, hand=tuple(x for x in p.hand if x != card))
    with_player(c, key, hand=(*c.players[key].hand, card))


def events(c: Court | TurnResult, event_id: str) -> list[Event]:
    return [e for e in c.events if e.id == event_id]


def react(c: Court, player_key: str, *lines: str) -> None:
    """Store reaction orders for ``player_key`` as `reactions.install` would."""

    names = Names.of(TABLES, {k: p.name for k, p in c.players.items()})
    p = c.players[player_key]
    new = tuple(parse_reaction(line, names) for line in lines)
    numbered = tuple(replace(r, n=p.reaction_seq + i) for i, r in enumerate(new, 1))
    with_player(c, player_key, reactions=p.reactions + numbered,
                reaction_seq=p.reaction_seq + len(new))


def assert_renders(c: Court) -> None:
    """Every event of a rule case renders on one line with its macro."""

    nm = names(c.freeze(), TABLES)
    for e in c.events:
        text = str(getattr(EVENTS, macro_name(e.id))(e.to_dict(), nm)).strip()
        assert text and "\n" not in text, e




@pytest.fixture(autouse=True)
def _checked_courts_render_and_use_all_their_dice() -> Iterator[None]:
    """After each test, every court made with `checked_court` must render each event it
    emitted through its macro and must have used every scripted die."""
    COURTS.clear()
    yield
    for c in COURTS:
        assert_renders(c)
        assert c.dice.remaining() == {}, "scripted dice left over"  # type: ignore[attr-defined]


def checked_court(script: Iterable[int] | Mapping[str, Iterable[int]]) -> Court:
    """A dealt three-player court (ann, bob, cid in that order) checked after the test."""
    c = court(dealt(3), script)
    COURTS.append(c)
    c.order = ("ann", "bob", "cid")
    return c
