"""Phase 6: the invaders (FE 6.0-6.9, 2.5 INVADERS, 3.3)."""

from __future__ import annotations

from moderator.games.fief import cards
from moderator.games.fief.battle import Side, fight
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Danegeld, TurnOrders
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import InvaderArmy

ARMY_KEYS = ("Black Raven", "Red Lion", "White Boar", "Golden Wolf")


def invaders_phase(realm: Realm) -> None:
    reinforce(realm)
    land(realm)
    danegeld(realm)
    for key in _in_region_order(realm):
        if key in realm.s.invaders:
            march(realm, key)


def _in_region_order(realm: Realm) -> list[str]:
    """FE 6.3: armies move and battle in Region Number order (then by army name)."""
    armies = realm.s.invaders.values()
    return [a.key for a in sorted(armies, key=lambda a: (realm.t.region_of(a.city).number, a.key))]


def reinforce(realm: Realm) -> None:
    """FE 6.1: each non-captive leader in England recruits 3 of his foot, up to 5."""
    for army in sorted(realm.s.invaders.values(), key=lambda a: a.key):
        if army.leader and army.foot < realm.t.invaders.foot_per_army:
            gain = min(realm.t.invaders.reinforcements, realm.t.invaders.foot_per_army - army.foot)
            army.foot += gain
            realm.emit(EventId.INVADERS_REINFORCED, {"army": army.key, "gain": gain,
                                                     "city": army.city})


def land(realm: Realm) -> None:
    """FE 6.2: one Battle Die per Invasion card; each f is an army at the Region's port;
    Storms delay the card; at most 4 armies on the map; Plague halves the foot and the
    leader dies on 1-3."""
    s, t = realm.s, realm.t
    for region in t.regions:
        sea = s.seas.get(str(region.number), [])
        if "Invasion" not in sea:
            continue
        if "Storms" in sea:
            realm.emit(EventId.INVADERS_DELAYED, {"region": region.number})
            continue
        sea.remove("Invasion")
        s.fortune_discard.append("Invasion")
        count = realm.battle_die("invaders", f"invasion of {region.name}")
        free = [k for k in ARMY_KEYS[:t.invaders.armies] if k not in s.invaders]
        landing = free[:count]
        if not landing:
            realm.emit(EventId.INVADERS_FALSE_ALARM, {"region": region.number, "roll": count})
            continue
        for key in landing:
            army = InvaderArmy(key, region.port, True, t.invaders.foot_per_army)
            s.invaders[key] = army
            if "Plague" in sea:
                army.foot -= army.foot // 2
                if realm.d6("plague", f"plague: the leader of the {key}") <= 3:
                    army.leader = False
        realm.emit(EventId.INVADERS_LAND, {"region": region.number, "city": region.port,
                                           "armies": landing, "roll": count})
        _arrive(realm, [k for k in landing if k in s.invaders], region.port)


def danegeld(realm: Realm) -> None:
    """FE 6.9: a free noble with the invaders pays 5 and the whole army there leaves."""
    s = realm.s
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(Danegeld):
            noble = s.nobles.get(order.noble.lower())
            here = [a for a in s.invaders.values() if a.city == order.city]
            text = f"DANEGELD AT {order.city} BY {order.noble}"
            if noble is None or not noble.free or noble.family not in s.players[player].families:
                realm.refuse(player, text, "needs a free noble of yours")
            elif noble.city != order.city or not here:
                realm.refuse(player, text, f"no invaders with {noble.name} at {order.city}")
            elif s.players[player].cash < realm.t.money.danegeld:
                realm.refuse(player, text, f"costs {realm.t.money.danegeld}")
            else:
                s.players[player].cash -= realm.t.money.danegeld
                realm.emit(EventId.DANEGELD, {"noble": noble.key, "city": order.city,
                                              "armies": [a.key for a in here]})
                for army in here:
                    leave(realm, army.key, "danegeld")
                if noble.is_lord:
                    realm.garter_eligible.append(noble.key)   # FE 13.3


def leave(realm: Realm, key: str, why: str) -> None:
    """FE 6.9: the army leaves England; its captives are released at the port."""
    army = realm.s.invaders.pop(key)
    realm.emit(EventId.INVADERS_LEAVE, {"army": key, "city": army.city, "why": why})
    for captive in army.captives:
        noble = realm.s.nobles[captive]
        if noble.alive and noble.status == "captive":
            noble.city = army.city
            realm.release(noble, "invaders left")


def march(realm: Realm, key: str) -> None:
    """FE 6.3: two moves, each along a random road (the compass draw with redraws is a
    uniform choice among the city's roads, fief-map.md §6); the army stops to fight
    whoever it outnumbers (6.4); an army reaching an empty port from inland leaves (6.9)."""
    s, t = realm.s, realm.t
    army = s.invaders[key]
    if army.garrison or not army.leader:
        return
    for _ in range(t.invaders.moves):
        here = army.city
        if cards.region_has(realm, t.region_of(here).number, "Storms"):
            return
        roads = [c for c in t.neighbours(here)
                 if not cards.region_has(realm, t.region_of(c).number, "Storms")]
        if not roads:
            return
        to = realm.pick(roads, "compass", f"compass for the {key} at {here}")
        army.city = to
        realm.emit(EventId.INVADERS_MOVE, {"army": key, "from": here, "to": to,
                                           "direction": t.direction(here, to)})
        inland = here not in t.ports()
        if to in t.ports() and inland and not _player_troops(realm, to):
            leave(realm, key, "sailed home")
            return
        stopped = _arrive(realm, [key], to)
        if key not in s.invaders:
            return
        if stopped:
            return


def _player_troops(realm: Realm, city: str) -> int:
    c = realm.city(city)
    return sum(c.troop_count(f) for f in c.troops)


def _arrive(realm: Realm, keys: list[str], city: str) -> bool:
    """The invaders at ``city`` attack each family there they outnumber, in turn order
    (FE 6.4); an undefended city is pillaged (6.5). True if they stop here."""
    s = realm.s
    c = realm.city(city)
    armies = [a.key for a in s.invaders.values() if a.city == city]
    fought = False
    for family in s.family_order():
        troops = c.troop_count(family)
        side = Side(realm, city, armies=[a for a in armies if a in s.invaders])
        if not side.armies:
            return True
        if not troops:
            continue
        if side.troops() <= troops:
            realm.emit(EventId.INVADERS_PASS, {"armies": side.armies, "city": city,
                                               "family": family})
            continue
        fort = {"stronghold": realm.t.battle.stronghold_penalty,
                "fortified": realm.t.battle.fortified_penalty}.get(c.building, 0)
        defender = Side(realm, city, family, fortified=fort if c.holder == family else 0)
        fought = True
        winner = fight(realm, side, defender, "invaders")
        if winner != "invaders":
            return True
    side = Side(realm, city, armies=[a for a in armies if a in s.invaders])
    if side.armies and not _player_troops(realm, city):
        for noble in realm.nobles_at(city):
            realm.capture(noble, f"invaders:{side.armies[0]}", city)
            s.invaders[side.armies[0]].captives.append(noble.key)
        _pillage(realm, city, side.armies)
    return fought


def _pillage(realm: Realm, city: str, armies: list[str]) -> None:
    """FE 6.5-6.6: Mills, Abbeys, Strongholds and Relics destroyed; a Fortified City is
    kept as a garrison and its Fiefdom Title returns to the deck."""
    c = realm.city(city)
    lost = []
    if c.building == "fortified":
        region = realm.t.region_of(city)
        lord = realm.lord_of(region.key)
        if lord is not None:
            lord.titles.remove(region.key)
            realm.emit(EventId.TITLE_LOST, {"region": region.key, "from": lord.key,
                                            "to": None, "city": city})
        realm.s.invaders[armies[0]].garrison = True
    elif c.building:
        lost.append(c.building)
        c.building = ""
        c.abbey = None
    if c.mill:
        lost.append("mill")
        c.mill = False
    if c.relic:
        lost.append("relic")
        realm.s.removed.append(f"Relic {c.relic}")
        c.relic, c.relic_up = None, False
    c.holder = None
    c.occupants = []
    if lost:
        realm.emit(EventId.INVADERS_PILLAGE, {"city": city, "lost": lost})
