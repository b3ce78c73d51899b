"""The speed-ups change no result: each fast path gives what the plain code gave.

(benchmarks/dwtk_fingerprint.py checks whole games; these pin the single pieces.)
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, dataclass, field, fields, replace
from typing import Any

import pytest

from moderator.games.base import Event
from moderator.games.capabilities import StateTurn
from moderator.games.dwtk import faction, player, status
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.frozen import fast_init, fast_new
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.activity import (
    Activity,
    ActivityKind,
    format_activity,
    parse_activity,
)
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.orders.reaction import Reaction
from moderator.games.dwtk.state import Character, GameState, Player, Situation, evolve
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import TABLES, court, dealt, events, with_player
from tests.dwtk.games import play


def test_fast_init_builds_the_same_frozen_values() -> None:
    """Speed (frozen.py): same fields, defaults, equality, hash and repr; still frozen."""
    a = Activity(ActivityKind.TITLE, ("pc",), cards=2)
    assert [getattr(a, f.name) for f in fields(a)] == [
        ActivityKind.TITLE, ("pc",), None, None, None, False, None, 2, None, None, False, ()]
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
    """Speed (state/serial.py `evolve`, the court's set_char/set_player): as dataclasses.replace."""
    c = Character(23, owner="ann", hunted=("epalin",))
    changed = evolve(c, {"owner": "bob", "situation": Situation.HIDING})
    assert changed == replace(c, owner="bob", situation=Situation.HIDING)
    assert list(changed.__dict__) == list(replace(c, owner="bob").__dict__)
    assert c.owner == "ann"  # the old value is untouched
    with pytest.raises(TypeError):
        evolve(c, {"bogus": 1})


def test_state_round_trips_in_field_order() -> None:
    """Speed (state/serial.py `fields_dict`): the JSON form lists fields in declaration order."""
    state = dealt(4)
    game = GameState.from_dict(state)
    again = game.to_dict()
    assert again == state
    c = next(iter(game.characters.values()))
    assert list(c.to_dict()) == [f.name for f in fields(c)]
    assert list(again["characters"]) == sorted(again["characters"])  # keys sorted as text


def test_reactions_read_back_equal_and_shared() -> None:
    """Speed (orders/reaction.py `Reaction.from_dict` memo): equal dicts give one equal value."""
    r = Reaction.from_dict({"trigger": "hears", "act": "hide", "target": "mine", "n": 2})
    data = r.to_dict()
    assert Reaction.from_dict(data) == r and Reaction.from_dict(dict(data)) is \
        Reaction.from_dict(data)
    assert Reaction.from_dict({**data, "n": 3}).n == 3
    with pytest.raises(ValueError):
        Reaction.from_dict({**data, "trigger": "sings"})


def test_names_are_kept_per_tables_and_players() -> None:
    """Speed (orders/names.py `Names.of`): one value per (tables, players); others differ."""
    one = Names.of(TABLES, {"ann": "Ann", "bob": "Bob"})
    assert Names.of(TABLES, {"ann": "Ann", "bob": "Bob"}) is one
    other = Names.of(TABLES, {"ann": "Ann", "bob": "Robert"})
    assert other is not one and other.read_player("Robert") == "bob"
    assert one.read_player("robert") is None and one.read_player(" BOB ") == "bob"


def _first(items: Any, word: str, forms: Any) -> str | None:
    return next((i.key for i in items if word in forms(i)), None)


def test_name_indexes_match_the_loops_they_replace() -> None:
    """Speed (orders/names.py): every written form reads as the old first-match loops read it."""
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
    with_player(c, "ann", pp=status.status(c, nc.id) + 5)
    faction.enforce_all(c)
    faction.enforce_all(c)  # nothing changed: nothing to do
    assert events(c, EventId.FACTION_LOST.value) == [] and c.char(nc.id).owner == "ann"
    with_player(c, "ann", pp=0)
    faction.enforce_all(c)
    assert [e.args["member"] for e in events(c, EventId.FACTION_LOST.value)] == [nc.key]
    assert c.char(nc.id).owner is None and status.faction_load(c, "ann") == 0


def test_fast_new_builds_what_the_constructor_builds() -> None:
    """Speed (frozen.py `fast_new`, the court's events): equal to `Event(...)`, frozen, and
    the class itself is left alone."""
    build = fast_new(Event)
    made, plain = build("x.y", {"a": 1}, "ann", False), Event("x.y", {"a": 1}, "ann", False)
    assert made == plain and repr(made) == repr(plain) and type(made) is Event
    assert list(made.__dict__) == list(plain.__dict__)
    assert build("x.y") == Event("x.y") and build("x.y").args is not build("x.y").args
    with pytest.raises(FrozenInstanceError):
        made.actor = "bob"  # type: ignore[misc]
    with pytest.raises(TypeError):
        build()
    assert Event.__init__ is not build and fast_new(int) is int  # no dataclass: as it was


def _plain_load(c: Court, key: str) -> int:
    """`faction_load` as it was written before the one-pass `_loads` (35.4-35.6)."""
    pc = c.pc_of(key)
    spouse = pc.spouse if pc is not None else None
    total = sum(status.status(c, m.id) for m in c.faction(key) if m.key != spouse)
    return total + sum(status.royal_status(c, r.key) for r in c.farcs(key)
                       if r.key != spouse and c.monarch() != r.key)


def test_loads_match_the_plain_faction_load_every_turn() -> None:
    """Speed (faction.py `_loads`): the one-pass loads of every player are each player's
    `faction_load`, turn after turn of a seeded game (offices, spouses, FARCs, crises)."""
    seen = 0

    def compare(n: int, before: GameState, result: StateTurn[GameState]) -> None:
        nonlocal seen
        c = court(result.state)
        loads = status.loads(c, c.seats)
        assert loads == {k: status.faction_load(c, k) for k in c.seats} == {
            k: _plain_load(c, k) for k in c.seats}, f"turn {n}"
        seen += sum(1 for v in loads.values() if v)

    play(3, 5, 20, shuffle=True, resend=False, checked=False, after_turn=compare)
    assert seen  # the game did give them factions


def test_enforce_all_sees_an_office_after_a_quiet_call() -> None:
    """DWTK 16.3, 35.5 (and the speed-up in faction.py `enforce_all`, whose record of the
    inputs keeps of a player only his PC and PP): a Status raised by an office after a
    quiet call still costs the FAC; an IP change alone needs no new look."""
    c = court(dealt(3))
    nc = next(ch for ch in c.characters.values() if ch.owner is None and ch.alive
              and c.t.noble(ch.id).office_holder and c.office_of(ch.key) is None)
    c.set_char(nc.id, owner="ann")
    with_player(c, "ann", pp=status.faction_load(c, "ann"))  # just within
    faction.enforce_all(c)
    with_player(c, "ann", ip=c.players["ann"].ip + 7)  # no Status moves
    faction.enforce_all(c)
    assert events(c, EventId.FACTION_LOST.value) == []
    office = next(o.key for o in c.t.offices if o.status > 0 and o.key != "monarch")
    c.offices[office] = nc.key  # his Status rises over Ann's PP
    faction.enforce_all(c)
    assert [e.args["member"] for e in events(c, EventId.FACTION_LOST.value)] == [nc.key]


def test_activities_left_over_are_skipped_in_order() -> None:
    """13.1 (and the speed-up in player.py `activities`: once no activity and no Extra
    Activity card is left, the rest is skipped without looking again): every later line
    is skipped, a repeated kind as such."""
    c = court(dealt(3))
    with_player(c, "ann", ip=30, hand=("dwtk-1",))
    text = ("DO DRAW EVENT\nDO TITLE PC\nDO AMNESTY\nDO DRAW LOYALTY\nDO TRAVEL PC TO Epalin\n"
            "DO HENCHMAN PC")
    orders = parse_orders(text, TABLES)
    player.activities(c, "ann", TurnOrders.from_dict(orders.orders))
    skipped = [(e.args["what"], e.args["reason"])
               for e in events(c, EventId.ACTIVITY_SKIPPED.value)]
    assert skipped[-3:] == [("draw", "same_activity_twice"), ("travel", "no_activities_left"),
                            ("henchman", "no_activities_left")]


def test_activity_lines_read_and_write_by_their_tables() -> None:
    """Speed (orders/activity.py `_PARSERS` / `_FORMATS`): every kind reads its canonical
    line back to the same value."""
    n = Names.of(TABLES, {"ann": "Ann", "bob": "Bob"})
    lines = ["DO TITLE PC, 23", "DO OFFICE Minister of the Navy : PC", "DO COUNSELOR 23",
             "DO FAVOR Prince Alan BY 23", "DO PARDON PC", "DO AMNESTY", "DO HENCHMAN 23",
             "DO RECRUIT 23", "DO EXTRADITE 23 WITH INTRIGUE", "DO EXTRADITE 23",
             "DO SCANDAL 32 BY 23", "DO ASSASSINATE 32 WITH 2 CARDS", "DO TRAVEL PC TO Epalin",
             "DO ESCAPE PC TO Cronos WITH PORT GUARDS", "DO DRAW LOYALTY", "DO INTRIGUE Bob",
             "DO TREACHERY 32", "DO SEDUCE 32 BY PC", "DO WEDDING 23 AND 61",
             "DO PRESTIGE Privateering CAPTAIN 23 BUY +1"]
    kinds = set()
    for line in lines:
        a = parse_activity(line.removeprefix("DO "), n)
        again = format_activity(a, n)
        assert parse_activity(again.removeprefix("DO "), n) == a, line
        assert format_activity(parse_activity(again.removeprefix("DO "), n), n) == again
        kinds.add(a.kind)
    assert kinds == set(ActivityKind)


def test_the_counsel_index_survives_a_copy_of_the_tables() -> None:
    """The cached counsel index is keyed by (table, counsel key), not by object identity:
    a copied or unpickled Tables reads the same counsels."""


    line = "COUNSEL Recommend A Title ON Court Ball NAMING PC"
    assert parse_orders(line, TABLES).errors == ()
    for tables in (copy.deepcopy(TABLES), pickle.loads(pickle.dumps(TABLES))):
        assert parse_orders(line, tables).errors == ()
