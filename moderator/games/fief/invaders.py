"""Phase 6: the invaders (FE 6.0-6.9, 2.5 INVADERS, 3.3)."""

from __future__ import annotations

from moderator.games.fief import cards, tactics
from moderator.games.fief.battle import Side, fight, melee_dice
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Danegeld, Intervene, StrikeLeader, TurnOrders
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import InvaderArmy

ARMY_KEYS = ("Black Raven", "Red Lion", "White Boar", "Golden Wolf")


def invaders_phase(realm: Realm) -> None:
    reinforce(realm)
    land(realm)
    danegeld(realm)
    interventions(realm)
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
        # FE 6.2, 6.10-6.12: at most four armies, fewer once some have left the game.
        room = max(0, t.invaders.armies - s.invaders_gone - len(s.invaders))
        free = [k for k in ARMY_KEYS[:t.invaders.armies] if k not in s.invaders][:room]
        landing = free[:count]
        if not landing:
            realm.emit(EventId.INVADERS_FALSE_ALARM, {"region": region.number, "roll": count})
            continue
        for key in landing:
            army = InvaderArmy(key, region.port, True, t.invaders.foot_per_army)
            s.invaders[key] = army
            if "Plague" in sea:
                _plague(realm, army)
        realm.emit(EventId.INVADERS_LAND, {"region": region.number, "city": region.port,
                                           "armies": landing, "roll": count})
        _arrive(realm, [k for k in landing if k in s.invaders], region.port)


def _plague(realm: Realm, army: InvaderArmy) -> None:
    """FE 2.5, 6.2: the Plague halves an army's Foot (rounded down) and its Leader dies on
    1-3."""
    army.foot -= army.foot // 2
    if realm.d6("plague", f"plague: the leader of the {army.key}") <= 3:
        army.leader = False


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


def _bribed(realm: Realm, city: str) -> bool:
    """Standing reactions `IF INVADERS ENTER <city> THEN DANEGELD BY <noble>`, in player
    order: the first that can pay sends every army there home (FE 6.9)."""
    s = realm.s
    for player in s.player_order():
        for data in s.players[player].standing:
            if data.get("kind") != "danegeld_reaction" or data.get("city") != city:
                continue
            noble = s.nobles.get(str(data.get("noble", "")).lower())
            here = [a for a in s.invaders.values() if a.city == city]
            if (noble is None or not noble.free or noble.city != city or not here
                    or noble.family not in s.players[player].families
                    or s.players[player].cash < realm.t.money.danegeld):
                continue
            s.players[player].cash -= realm.t.money.danegeld
            realm.emit(EventId.DANEGELD, {"noble": noble.key, "city": city,
                                          "armies": [a.key for a in here]})
            for army in here:
                leave(realm, army.key, "danegeld")
            if noble.is_lord:
                realm.garter_eligible.append(noble.key)
            return True
    return False


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
    been = {t.region_of(army.city).number}
    for _ in range(t.invaders.moves):
        here = army.city
        stormy = cards.region_has(realm, t.region_of(here).number, "Storms")
        roads = [c for c in t.neighbours(here)
                 if not cards.region_has(realm, t.region_of(c).number, "Storms")]
        if (stormy or not roads) and tactics.help_invaders(realm, key, here):
            roads = list(t.neighbours(here))     # FE 10.2: a Passage through the Storms
        elif stormy:
            return
        if not roads:
            return
        to = realm.pick(roads, "compass", f"compass for the {key} at {here}")
        army.city = to
        realm.emit(EventId.INVADERS_MOVE, {"army": key, "from": here, "to": to,
                                           "direction": t.direction(here, to)})
        _plague_entry(realm, army, here, been)
        been.add(t.region_of(to).number)
        inland = here not in t.ports()
        if to in t.ports() and inland and not _player_troops(realm, to):
            leave(realm, key, "sailed home")
            return
        stopped = _arrive(realm, [key], to)
        if key not in s.invaders:
            return
        if to in t.ports() and inland and not _player_troops(realm, to):
            # FE 6.9: "If the Invaders destroy all of the Port Troops, they will then also
            # leave England."
            leave(realm, key, "sailed home")
            return
        if stopped or not army.leader:     # FE 6.3: Foot without a Leader do not march
            return


def _plague_entry(realm: Realm, army: InvaderArmy, before: str, been: set[int]) -> None:
    """FE 2.5: Invaders entering a Plague region roll at once (halved, the Leader rolls),
    not from another Plague region nor back into a region they were in this phase."""
    t = realm.t
    after = t.region_of(army.city).number
    if (after in been or not cards.region_has(realm, after, "Plague")
            or cards.region_has(realm, t.region_of(before).number, "Plague")):
        return
    lost = army.foot // 2
    _plague(realm, army)
    realm.emit(EventId.PLAGUE_TROOPS, {"city": army.city, "family": None,
                                       "lost": {"foot": lost}})


def _player_troops(realm: Realm, city: str) -> int:
    c = realm.city(city)
    return sum(c.troop_count(f) for f in c.troops)


def _arrive(realm: Realm, keys: list[str], city: str) -> bool:
    """The invaders at ``city`` attack each family there they outnumber, in turn order
    (FE 6.4); an undefended city is pillaged (6.5). True if they stop here."""
    s = realm.s
    c = realm.city(city)
    if _bribed(realm, city):
        return True
    if cards.region_has(realm, realm.t.region_of(city).number, "Storms"):
        # FE 2.5 "No battles are allowed in the Region": invaders a Passage helped into
        # a Storms region (10.2) stop there and fight, capture and pillage nothing
        # (PROPOSED: a pillage is the fruit of a battle, fief-by-email.md).
        return True
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
        fort = realm.walls(city)
        defender = Side(realm, city, family, fortified=fort if c.holder == family else 0)
        side.tunnels = bool(defender.fortified) and cards.aid_invaders(realm, city, family)
        if not melee_dice(realm, side, defender)[0]:
            # FE 6.4: before walls they must also be able to roll a die, else move on.
            realm.emit(EventId.INVADERS_PASS, {"armies": side.armies, "city": city,
                                               "family": family})
            continue
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
                                            "to": None, "city": city},
                       actor=realm.owner(lord.family))
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
    holder, c.holder = c.holder, None
    c.occupants = []
    if lost:   # public, and on the sheet of the player whose city it was
        realm.emit(EventId.INVADERS_PILLAGE, {"city": city, "lost": lost},
                   actor=realm.owner(holder))


def interventions(realm: Realm) -> None:
    """FE 6.10-6.12, after the landings and bribes, in player order: a cleric's Church
    Intervention (d6 1-3 the army leaves England and its markers leave the game; 4-6 the
    cleric is slain), an Ambush by a noble of yours in the Leader's city, or an
    Assassination with no sponsor: the Leader leaves the game, his Foot join another
    Leader there or stay where they are (and never move without one)."""
    s = realm.s
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).orders:
            if isinstance(order, Intervene):
                _intervene(realm, player, order)
            elif isinstance(order, StrikeLeader):
                _strike(realm, player, order)


def _intervene(realm: Realm, player: str, order: Intervene) -> None:
    s = realm.s
    cleric = s.nobles.get(order.cleric.lower())
    text = f"INTERVENE AT {order.city} BY {order.cleric}"
    here = sorted(a.key for a in s.invaders.values() if a.city == order.city and a.leader)
    if cleric is None or not cleric.free or cleric.family not in s.players[player].families:
        realm.refuse(player, text, "needs a free noble of yours")
    elif not cleric.is_clergy:
        realm.refuse(player, text, "only a Bishop, Archbishop or Abbess (FE 6.10)")
    elif cleric.city != order.city or not here:
        realm.refuse(player, text, f"no invader Leader with {cleric.name} at {order.city}")
    else:
        roll = realm.d6("intervention", f"{cleric.name} before the {here[0]}", player)
        realm.emit(EventId.INTERVENTION, {"cleric": cleric.key, "army": here[0],
                                          "city": order.city, "roll": roll,
                                          "success": roll <= 3})
        if roll <= 3:
            leave(realm, here[0], "Church Intervention")
            s.invaders_gone += 1
            if cleric.is_lord:
                realm.garter_eligible.append(cleric.key)   # FE 13.3
        else:
            realm.kill(cleric, "invaders")


def _strike(realm: Realm, player: str, order: StrikeLeader) -> None:
    s = realm.s
    text = (f"AMBUSH LEADER AT {order.city}" if order.card == "Ambush"
            else f"ASSASSINATE LEADER AT {order.city}")
    here = sorted(a.key for a in s.invaders.values() if a.city == order.city and a.leader)
    by = s.nobles.get(order.by.lower()) if order.by else None
    if order.card not in s.players[player].hand:
        realm.refuse(player, text, f"no {order.card} card in your hand")
    elif not here:
        realm.refuse(player, text, f"no invader Leader at {order.city}")
    elif order.card == "Ambush" and (by is None or not by.free or by.city != order.city
                                     or by.family not in s.players[player].families):
        realm.refuse(player, text, "the ambusher must be a free noble of yours in that city")
    else:
        s.players[player].hand.remove(order.card)
        s.fortune_discard.append(order.card)
        army = s.invaders[here[0]]
        army.leader = False
        s.invaders_gone += 1
        realm.emit(EventId.LEADER_STRUCK, {"army": army.key, "city": order.city,
                                           "card": order.card, "player": player})
        for captive in list(army.captives):
            n = s.nobles[captive]
            if n.alive and n.status == "captive":
                realm.release(n, "their captor fell")
        army.captives = []
        others = [a for a in s.invaders.values() if a.city == order.city and a.leader]
        if others:                                # the Foot join another Leader there
            room = realm.t.invaders.foot_per_army - others[0].foot
            moved = min(room, army.foot)
            others[0].foot += moved
            army.foot -= moved
        if not army.foot:
            del s.invaders[army.key]
