"""The speed-ups change no result: each fast path gives what the plain code gave.

(benchmarks/dwtk_fingerprint.py checks whole games; these pin the single pieces.)
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field, fields, replace
from typing import Any

import pytest

from moderator.games.dwtk.activity_orders import Activity, ActivityKind
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.frozen import fast_init
from moderator.games.dwtk.names import Names
from moderator.games.dwtk.standing import Reaction
from moderator.games.dwtk.state import Character, GameState, Player, Situation, evolve
from tests.dwtk.conftest import TABLES, court, dealt, events, with_player


def test_fast_init_builds_the_same_frozen_values() -> None:
    """Speed (frozen.py): same fields, defaults, equality, hash and repr; still frozen."""
    a = Activity(ActivityKind.TITLE, ("pc",), cards=2)
    assert [getattr(a, f.name) for f in fields(a)] == [
        ActivityKind.TITLE, ("pc",), None, None, None, False, None, 2, None, None, False]
    assert list(a.__dict__) == [f.name for f in fields(a)]  # field order kept
    assert a == replace(a) and hash(a) == hash(replace(a))
    assert repr(a).startswith("Activity(kind=<ActivityKind.TITLE")
    with pytest.raises(FrozenInstanceError):
        a.cards = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Activity()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Activity(ActivityKind.TITLE, bogus=1)  # type: ignore[call-arg]


def test_fast_init_calls_default_factories_once_per_value() -> None:
    """Speed (frozen.py): a default factory gives each new value its own dict."""
    one, two = Player("ann", "Ann", 1), Player("bob", "Bob", 2)
    assert one.prestige_mods == {} and one.prestige_mods is not two.prestige_mods
    assert GameState("x").players == {} and GameState("x").players is not GameState("y").players
    given = {"navy": 1}
    assert Player("ann", "Ann", 1, prestige_mods=given).prestige_mods is given


def test_fast_init_leaves_a_class_with_post_init_alone() -> None:
    """Speed (frozen.py): an __init__ that does more than store its fields is kept."""

    @fast_init
    @dataclass(frozen=True)
    class Checked:
        n: int
        seen: list[int] = field(default_factory=list)

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    with pytest.raises(ValueError):
        Checked(-1)
    assert Checked(1).seen == []


def test_evolve_is_replace() -> None:
    """Speed (state.py `evolve`, the court's set_char/set_player): as dataclasses.replace."""
    c = Character(23, owner="ann", hunted=("epalin",))
    changed = evolve(c, {"owner": "bob", "situation": Situation.HIDING})
    assert changed == replace(c, owner="bob", situation=Situation.HIDING)
    assert list(changed.__dict__) == list(replace(c, owner="bob").__dict__)
    assert c.owner == "ann"  # the old value is untouched
    with pytest.raises(TypeError):
        evolve(c, {"bogus": 1})


def test_state_round_trips_in_field_order() -> None:
    """Speed (state.py `_to_dict`): the JSON form lists fields in declaration order."""
    state = dealt(4)
    game = GameState.from_dict(state)
    again = game.to_dict()
    assert again == state
    c = next(iter(game.characters.values()))
    assert list(c.to_dict()) == [f.name for f in fields(c)]
    assert list(again["characters"]) == sorted(again["characters"])  # keys sorted as text


def test_reactions_read_back_equal_and_shared() -> None:
    """Speed (standing.py `Reaction.from_dict` memo): equal dicts give one equal value."""
    r = Reaction.from_dict({"trigger": "hears", "act": "hide", "target": "mine", "n": 2})
    data = r.to_dict()
    assert Reaction.from_dict(data) == r and Reaction.from_dict(dict(data)) is \
        Reaction.from_dict(data)
    assert Reaction.from_dict({**data, "n": 3}).n == 3
    with pytest.raises(ValueError):
        Reaction.from_dict({**data, "trigger": "sings"})


def test_names_are_kept_per_tables_and_players() -> None:
    """Speed (names.py `Names.of`): one value per (tables, players); others differ."""
    one = Names.of(TABLES, {"ann": "Ann", "bob": "Bob"})
    assert Names.of(TABLES, {"ann": "Ann", "bob": "Bob"}) is one
    other = Names.of(TABLES, {"ann": "Ann", "bob": "Robert"})
    assert other is not one and other.read_player("Robert") == "bob"
    assert one.read_player("robert") is None and one.read_player(" BOB ") == "bob"


def _first(items: Any, word: str, forms: Any) -> str | None:
    return next((i.key for i in items if word in forms(i)), None)


def test_name_indexes_match_the_loops_they_replace() -> None:
    """Speed (names.py): every written form reads as the old first-match loops read it."""
    n = Names.of(TABLES)
    for o in TABLES.offices:
        for word in (o.key, o.name, o.name.replace("Minister of the ", "")):
            w = " ".join(word.lower().split())
            assert n.read_office(word) == _first(TABLES.offices, w, lambda x: (
                x.key, x.name.lower(), x.name.lower().replace("minister of the ", ""),
                x.name.lower().replace("minister of ", "")))
    for c in TABLES.cards:
        assert n.read_card(c.name.upper()) == _first(
            TABLES.cards, c.name.lower(), lambda x: (x.key.replace("_", " "), x.name.lower()))
    for p in TABLES.problems:
        assert n.read_problem(p.key) == p.key
    assert n.read_place("Fandonia") == "fandonia"
    assert n.read_place("the city states") == n.read_place("City States") is not None
    assert n.read_card("no such card") is None and n.read_office("") is None


def test_enforce_all_still_sees_a_change_after_a_quiet_call() -> None:
    """DWTK 35.5 (and the speed-up in faction.py `enforce_all`): after a call that found
    every faction within its PP, a later loss of PP still costs FACs."""
    c = court(dealt(3))
    nc = next(ch for ch in c.characters.values() if ch.owner is None and ch.alive)
    c.set_char(nc.id, owner="ann")  # a FAC of Ann's, within her PP
    with_player(c, "ann", pp=c.status(nc.id) + 5)
    c.enforce_all()
    c.enforce_all()  # nothing changed: nothing to do
    assert events(c, EventId.FACTION_LOST.value) == [] and c.char(nc.id).owner == "ann"
    with_player(c, "ann", pp=0)
    c.enforce_all()
    assert [e.args["member"] for e in events(c, EventId.FACTION_LOST.value)] == [nc.key]
    assert c.char(nc.id).owner is None and c.faction_load("ann") == 0
