"""Helpers for the Fief: England tests: tables, a mustered game, a realm to poke."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2

from moderator.dice import Dice
from moderator.games.base import TurnResult
from moderator.games.fief import ENGINE
from moderator.games.fief.events import macro_name
from moderator.games.fief.tables import Tables
from moderator.games.fief.views import names

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "fief"
PLAYERS = ("ann", "bob", "cid", "dan")


def raw_tables() -> dict[str, dict[str, Any]]:
    return {p.stem: tomllib.loads(p.read_text()) for p in sorted(DATA.glob("*.toml"))}


TABLES: Tables = ENGINE.load_tables(raw_tables())
ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(ROOT / "templates"),
                         undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
EVENTS = ENV.get_template("fief/events.md.j2").module


def signed_up(players: int = 4) -> dict[str, Any]:
    state = ENGINE.new_game("England", TABLES, Dice.for_turn(1, 0))
    for key in PLAYERS[:players]:
        state, _ = ENGINE.add_character(state, key, key.title(), TABLES, Dice.for_turn(1, 0))
    return state


def parsed(state: dict[str, Any], orders: Mapping[str, str]) -> dict[str, Any]:
    out = {}
    for key, text in orders.items():
        p = ENGINE.parse_orders(text, state, key, TABLES)
        assert not p.hard_errors, p.hard_errors
        out[key] = p.orders
    return out


def run(state: dict[str, Any], orders: Mapping[str, str] | None = None,
        dice: Dice | None = None) -> TurnResult:
    """Adjudicate parsed order texts; every event renders with its macro, on one line."""
    result = ENGINE.adjudicate(state, parsed(state, orders or {}), TABLES,
                               dice or Dice.for_turn(5, 5))
    render_all(result)
    return result


def render_all(result: TurnResult) -> None:
    from moderator.games.fief.state import GameState

    table = names(GameState.from_dict(result.state), TABLES)
    for e in result.events:
        text = getattr(EVENTS, macro_name(e.id))(e.to_dict(), table)
        assert text.strip() and "\n" not in text.strip(), (e.id, text)


def told(events: list[dict[str, Any]], event_id: str,
         names: Mapping[str, str]) -> list[tuple[str | None, bool, str]]:
    """Each event of that id as (actor, public, the line its macro writes)."""
    macro = getattr(EVENTS, macro_name(event_id))
    return [(e["actor"], e["public"], str(macro(e, names))) for e in events
            if e["id"] == event_id]


def mustered(players: int = 4, starts: Mapping[str, str] | None = None,
             seed: int = 1) -> dict[str, Any]:
    """The muster played with seeded dice: families founded, Round 1's draws done."""
    state = signed_up(players)
    orders = {k: f"START {c}" for k, c in (starts or {}).items()}
    return run(state, orders, Dice.for_turn(seed, 1)).state
