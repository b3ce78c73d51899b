"""Helpers for the En Garde! rule tests: make_state, give_orders, run_month, assert_event."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from moderator.dice import ScriptedDice
from moderator.games.base import TurnResult
from moderator.games.engarde import ENGINE
from moderator.games.engarde.events import EnGardeEvent as Event
from moderator.games.engarde.events import macro_name
from moderator.games.engarde.tables import Tables
from moderator.publish.render import environment

DATA = Path(__file__).resolve().parents[2] / "data" / "engarde"


def raw_tables() -> dict[str, dict[str, Any]]:
    return {p.stem: tomllib.loads(p.read_text()) for p in sorted(DATA.glob("*.toml"))}


_TABLES = ENGINE.load_tables(raw_tables())


@pytest.fixture(scope="session")
def tables() -> Tables:
    return _TABLES


def make_char(key: str, name: str | None = None, *, sl: int = 5, crowns: int = 500,
              club: str | None = None, home: Mapping[str, str] | None = None,
              noble: bool = False, **extra: Any) -> dict[str, Any]:
    """A character dict with plain defaults (second son of a well-to-do gentleman)."""
    data: dict[str, Any] = {
        "key": key, "name": name or key.capitalize(),
        "social_class": "noble" if noble else "gentleman", "sibling": "second",
        "orphan": False, "father": "well_to_do", "title": None, "sl": sl, "strength": 10,
        "constitution": 10, "endurance": 100, "military_ability": 3,
        "expertise": {"rapier": 10, "sabre": 10, "cutlass": 10}, "crowns": crowns,
        "allowance": 0, "club": club, "home": dict(home) if home else None,
    }
    data.update(extra)
    return data


def make_lady(key: str, name: str | None = None, *, sl: int = 8, loyalty: int = 3,
              **extra: Any) -> dict[str, Any]:
    """An NPC lady (EG §L) for ``make_state(..., ladies=[...])``."""
    data: dict[str, Any] = {"key": key, "name": name or f"Mlle {key.capitalize()}", "sl": sl,
                            "beautiful": False, "influential": False, "wealthy": False,
                            "loyalty": loyalty, "listed": 1}
    data.update(extra)
    return data


def make_state(*characters: dict[str, Any], turn: int = 1, month: int = 4,
               theatre: dict[str, Any] | None = None,
               ladies: Iterable[dict[str, Any]] = (),
               loans: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    return {
        "game": "engarde", "name": "Test game", "month": month, "year": 1625, "turn": turn,
        "characters": {c["key"]: c for c in characters}, "theatre": theatre or {},
        "ladies": {lady["key"]: lady for lady in ladies}, "loans": list(loans),
    }


def give_orders(state: dict[str, Any], **texts: str) -> dict[str, dict[str, Any]]:
    """Parse each character's orders with the real parser; fail on any hard error."""
    orders = {}
    for key, text in texts.items():
        parsed = ENGINE.parse_orders(text, state, key, _TABLES)
        assert not parsed.hard_errors, parsed.hard_errors
        orders[key] = parsed.orders
    return orders


def dice(**streams: Iterable[int]) -> ScriptedDice:
    """Scripted dice; the theatre's first-night roll defaults to an average 3.

    Next month's list of ladies (EG §L) is drawn from 4s unless a test scripts
    ``ladies``: SL 12, no attributes, loyalty 4.  No lady conceives (d100 = 100)
    unless a test scripts ``family``.  In June no brigade but the frontier marches
    (``front`` 6s) unless a test scripts ``front``.
    """
    script = {"theatre": [3], "ladies": [4] * 400, "family": [100] * 50, "front": [6] * 50}
    script.update({k: list(v) for k, v in streams.items()})
    return ScriptedDice(script)


# The newsletters' own environment: the event macros use its globals (who, cr).
_EVENTS = environment(DATA.parents[1] / "templates").get_template("engarde/events.md.j2").module


def run_month(state: dict[str, Any], orders: Mapping[str, dict[str, Any]] | None = None,
              rolls: ScriptedDice | None = None) -> TurnResult:
    """Adjudicate one month; every event emitted must render with its macro (one line)."""
    result = ENGINE.adjudicate(state, orders or {}, _TABLES, rolls or dice())
    names = {k: c["name"] for k, c in result.state["characters"].items()}
    for e in result.events:
        text = str(getattr(_EVENTS, macro_name(e.id))(e.to_dict(), names)).strip()
        assert text and "\n" not in text, e
    return result


def events_for(result: TurnResult, actor: str, week: int | str | None = "any") -> list[Event]:
    return [e for e in result.events if e.actor == actor and (week == "any" or e.week == week)]


def assert_event(result: TurnResult | Iterable[Event], event_id: str,
                 actor: str | None = None, **args: Any) -> Event:
    """The one event with this id (and actor and args); fails with the list otherwise."""
    events = result.events if isinstance(result, TurnResult) else list(result)
    found = [e for e in events if e.id == event_id and (actor is None or e.actor == actor)
             and all(e.args.get(k) == v for k, v in args.items())]
    assert len(found) == 1, f"{event_id} {actor} {args}: {[e.to_dict() for e in events]}"
    return found[0]


def no_event(result: TurnResult, event_id: str, actor: str | None = None) -> None:
    assert not [e for e in result.events if e.id == event_id
                and (actor is None or e.actor == actor)]


def sp_of(events: Iterable[Event]) -> int:
    return sum(e.sp for e in events)
