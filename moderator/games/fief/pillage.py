"""Pillage (FE 7.10, 2.13): once all battles are over, in player order."""

from __future__ import annotations

from moderator.games.fief.aftermath import ENGINES, exchange
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Pillage
from moderator.games.fief.realm import Realm


def pillage(realm: Realm, player: str, order: Pillage) -> None:
    """FE 7.10, 2.13: a player may destroy a Mill of a city he holds (+2), its Abbey (+10,
    its Relic, and the Heresy marker on the noble who leads the pillage, who must be
    there), or the Trebuchets and Bombards there (`ENGINES`)."""
    c = realm.city(order.city)
    text = f"PILLAGE {order.city} {order.what.upper()}"
    fams = realm.s.players[player].families
    if c.holder not in fams:
        realm.refuse(player, text, f"you do not hold {order.city}")
    elif order.what == "mill":
        _mill(realm, player, order, text)
    elif order.what == "engines":
        engines(realm, player, order.city, text)
    else:
        _abbey(realm, player, order, text)


def _mill(realm: Realm, player: str, order: Pillage, text: str) -> None:
    c = realm.city(order.city)
    if not c.mill:
        realm.refuse(player, text, "no Mill there")
        return
    c.mill = False
    realm.earn(c.holder or "", realm.t.money.scorch_bonus)
    realm.emit(EventId.PILLAGED, {"city": order.city, "what": "mill", "player": player,
                                  "gain": realm.t.money.scorch_bonus}, actor=player)


def _abbey(realm: Realm, player: str, order: Pillage, text: str) -> None:
    s = realm.s
    c = realm.city(order.city)
    fams = s.players[player].families
    leaders = [n for n in realm.nobles_at(order.city) if n.family in fams
               and (order.by is None or n.key == order.by.lower())]
    if c.building != "abbey":
        realm.refuse(player, text, "no Abbey there")
    elif not leaders:
        realm.refuse(player, text, "a free noble of yours must lead the pillage")
    else:
        leader = leaders[0]
        abbey = c.abbey
        c.building, c.abbey = "", None
        realm.earn(leader.family, 10)
        for n in s.living():
            n.heresy = False
        leader.heresy = True
        if c.relic:
            leader.relics.append(c.relic)
            c.relic, c.relic_up = None, False
        realm.emit(EventId.PILLAGED, {"city": order.city, "what": "abbey", "abbey": abbey,
                                      "player": player, "gain": 10, "noble": leader.key},
                   actor=player)


def engines(realm: Realm, player: str, city: str, text: str) -> None:
    """FE 7.10: the Trebuchets and Bombards of either side in the city are destroyed; an
    opponent's are exchanged for the pillager's own markers while he has some (the
    holder's family takes them)."""
    c = realm.city(city)
    fams = realm.s.players[player].families
    holder = c.holder or ""
    found = {(fam, unit): n for fam in sorted(c.troops) for unit in ENGINES
             if (n := c.units_of(fam).get(unit, 0))}
    if not found:
        realm.refuse(player, text, "no Trebuchet or Bombard there")
        return
    taken = 0
    for (fam, unit), n in sorted(found.items()):
        realm.return_units(city, fam, unit, n)
        if fam not in fams:
            taken += exchange(realm, holder, city, unit, n)
    realm.emit(EventId.PILLAGED, {"city": city, "what": "engines", "player": player,
                                  "gain": 0, "destroyed": sum(found.values()) - taken,
                                  "taken": taken}, actor=player)
