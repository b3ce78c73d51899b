"""Sieges (FE 7.9): declared in Phase 7, a Trebuchet built in Phase 4, lifted when the
besieging noble has gone or the besieger says so."""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import BuildTrebuchet, LiftSiege, Siege, TurnOrders
from moderator.games.fief.realm import Realm

FORTS = ("stronghold", "fortified", "royal")


def declare(realm: Realm) -> None:
    """`SIEGE <city>` after the attacks: a free noble of yours with troops before a
    Stronghold or Fortified City that another family holds and defends; a Trebuchet from
    your stockpile goes up, 'under construction'."""
    s = realm.s
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(Siege):
            c = realm.city(order.city)
            text = f"SIEGE {order.city}"
            mine = [f for f in s.players[player].families
                    if realm.nobles_at(order.city, f) and c.troop_count(f)]
            if not mine:
                realm.refuse(player, text, "a siege needs a free noble of yours with troops there")
            elif c.building not in FORTS or c.holder in s.players[player].families \
                    or c.holder is None or not c.troop_count(c.holder):
                realm.refuse(player, text, "only a defended Stronghold or Fortified City (FE 7.9)")
            elif c.besieged_by is not None:
                realm.refuse(player, text, f"{order.city} is besieged already")
            elif realm.stock(mine[0], "trebuchet") < 1 and not _take_down(realm, mine[0]):
                realm.refuse(player, text, "no Trebuchet left in your stockpile or on the map "
                             "away from your sieges (FE 7.9)")
            else:
                s.families[mine[0]].stock["trebuchet"] -= 1
                c.besieged_by, c.siege_engines = mine[0], 1
                realm.emit(EventId.SIEGE_BEGINS, {"city": order.city, "besieger": mine[0],
                                                  "besieged": c.holder})


def build(realm: Realm) -> None:
    """Phase 4 (after ransoms): the besieger pays 5 a Trebuchet, one or two; without an
    order he builds one if he can pay (fief-email.md §2.3 default); unpaid, the Trebuchet
    goes home and the siege is lifted."""
    s = realm.s
    cost = realm.t.unit("trebuchet").cost
    for city in realm.t.city_names:
        c = realm.city(city)
        if c.besieged_by is None or not c.siege_engines:
            continue
        family = c.besieged_by
        player = realm.account(family)
        written = [o for o in realm.orders.get(player, TurnOrders()).of(BuildTrebuchet)
                   if o.city == city]
        want = max(1, min(2, written[-1].count)) if written else 1
        built = 0
        for n in range(want):
            spare = realm.stock(family, "trebuchet") > 0 or n == 0
            if realm.cash(family) >= cost and spare:
                realm.pay(family, cost)
                if n > 0:
                    s.families[family].stock["trebuchet"] -= 1
                c.add(family, "trebuchet", 1)
                built += 1
        c.siege_engines = 0
        if built:
            realm.emit(EventId.SIEGE_ENGINES, {"city": city, "besieger": family, "built": built,
                                               "cost": built * cost})
        else:
            s.families[family].stock["trebuchet"] += 1
            lift(realm, city, "no Trebuchet built")


def lift(realm: Realm, city: str, why: str) -> None:
    """The siege ends; the besieger's Trebuchets there go back to his stockpile."""
    c = realm.city(city)
    family = c.besieged_by
    if family is None:
        return
    if c.siege_engines:
        realm.s.families[family].stock["trebuchet"] += c.siege_engines
    engines = c.units_of(family).get("trebuchet", 0)
    if engines:
        realm.return_units(city, family, "trebuchet", engines)
    c.besieged_by, c.siege_engines = None, 0
    # Public, and on the besieger's sheet: his Trebuchets leave the map (found playing
    # by mail: Bob's report left "1 trebuchet" at Cardiff, his sheet then none, unsaid).
    realm.emit(EventId.SIEGE_LIFTED, {"city": city, "besieger": family, "why": why,
                                      "engines": engines},
               actor=realm.owner(family))


def check(realm: Realm) -> None:
    """No besieging noble left, or no defender: the siege is lifted (FE 7.9); and each
    `LIFT SIEGE AT <city>` of the besieger."""
    s = realm.s
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(LiftSiege):
            if realm.city(order.city).besieged_by in s.players[player].families:
                lift(realm, order.city, "the besieger withdraws")
    for city in realm.t.city_names:
        c = realm.city(city)
        if c.besieged_by is None:
            continue
        if not realm.nobles_at(city, c.besieged_by):
            lift(realm, city, "no besieging noble is left")
        elif c.holder is None or c.holder == c.besieged_by or not c.troop_count(c.holder):
            lift(realm, city, "the defenders are gone")


def _take_down(realm: Realm, family: str) -> bool:
    """FE 7.9: with none in the stockpile, the besieger destroys one of his Trebuchets on
    the map to place it at the new siege: the first in map order that stands before no
    siege of his (PROPOSED: never weakening a siege he keeps)."""
    for city in realm.t.city_names:
        c = realm.city(city)
        if c.units_of(family).get("trebuchet", 0) and c.besieged_by != family:
            realm.return_units(city, family, "trebuchet", 1)
            realm.emit(EventId.ENGINES_DESTROYED, {"city": city, "family": family,
                                                   "units": {"trebuchet": 1}})
            return True
    return False

