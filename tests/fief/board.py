"""A board to set up a worked example by hand, and a realm with scripted dice.

Battle dice in scripts are d6 faces read through rules.battle.die_faces: 1 blank, 2 f,
4 ff, 6 fff (`bd(0, 1, 2, 3)` writes them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from moderator.dice import ScriptedDice
from moderator.games.fief.orders import parse_orders
from moderator.games.fief.orders.values import TurnOrders
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import City, Family, GameState, Noble, Phase, Player
from tests.fief.conftest import TABLES

NAMES = {"Red": "george", "Green": "kirsten", "Blue": "dave", "Yellow": "lucy"}
FACE = {0: 1, 1: 2, 2: 4, 3: 6}


def bd(*hits: int) -> list[int]:
    """d6 faces that read as these battle-die results."""
    return [FACE[h] for h in hits]


def board(colours: Iterable[str] = ("Red", "Green", "Blue", "Yellow"), round_: int = 2,
          pairs: Mapping[str, Iterable[str]] | None = None) -> GameState:
    """An empty England with one player a colour (or the given player -> colours)."""
    s = GameState(name="England", phase=Phase.ORDERS, round=round_)
    s.cities = {c: City(c) for c in TABLES.city_names}
    owners = pairs or {NAMES[c]: [c] for c in colours}
    for player, fams in owners.items():
        s.seats.append(player)
        s.players[player] = Player(player, player.title(), families=list(fams))
        for colour in fams:
            s.families[colour] = Family(colour, player, {u.key: u.stock for u in TABLES.units
                                                         if u.stock})
    return s


def noble(s: GameState, name: str, family: str, city: str, **extra: object) -> Noble:
    card = TABLES.noble_card(name)
    n = Noble(card.key, card.name, card.sex, family, city, **extra)  # type: ignore[arg-type]
    s.nobles[card.key] = n
    _occupy(s, city, family)
    return n


def troops(s: GameState, city: str, family: str, **units: int) -> None:
    for unit, count in units.items():
        s.cities[city].add(family, unit, count)
        s.families[family].stock[unit] = s.families[family].stock.get(unit, 0) - count
    _occupy(s, city, family)


def _occupy(s: GameState, city: str, family: str) -> None:
    c = s.cities[city]
    if family not in c.occupants:
        c.occupants.append(family)
    if c.holder is None:
        c.holder = family


def realm(s: GameState, script: Iterable[int] | Mapping[str, Iterable[int]] = ()) -> Realm:
    return Realm(s, TABLES, ScriptedDice(script))


def give_orders(r: Realm, orders: Mapping[str, str]) -> None:
    """Parse each player's text against the realm's state, as the service would."""
    data = r.s.to_dict()
    for player, text in orders.items():
        parsed = parse_orders(text, data, player, TABLES)
        assert not parsed.hard_errors, parsed.hard_errors
        r.orders[player] = TurnOrders.from_dict(parsed.orders)


def refusals(r: Realm) -> list[str]:
    return [str(e.args["reason"]) for e in r.events if e.id == "order.refused"]
