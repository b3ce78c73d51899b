"""Phase 5: movement, permission to pass, naval moves and storms (FE 5.0-5.5, 2.5)."""

from __future__ import annotations

from moderator.games.fief import cards
from moderator.games.fief.battle import Side, fight
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Allow,
    Move,
    PlayFortune,
    Present,
    RoyalAbbeyMove,
    RoyalMove,
    TurnOrders,
)
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble
from moderator.games.fief.state.model import TROOPS


def standing(realm: Realm, player: str) -> list[Allow]:
    out: list[Allow] = []
    for data in realm.s.players[player].standing:
        if data.get("kind") == "allow":
            out.append(Allow(family=data.get("family"), who=data["who"], city=data.get("city")))
    return out


def permits(realm: Realm, holder_family: str, mover: str, city: str) -> bool:
    """FE 5.0: the holder's standing ALLOW lines; with none, permission is denied
    (fief-email.md §2.3 default)."""
    player = realm.account(holder_family)
    if player == mover:
        return True
    mine = realm.s.players[mover].families
    if any(c == city and {a, b} & {holder_family} and {a, b} & set(mine)
           for c, a, b in realm.s.no_battle):
        return True
    return any(a.who in ("ANYONE", mover) and a.city in (None, city)
               for a in standing(realm, player))


def storms(realm: Realm, city: str) -> bool:
    return cards.region_has(realm, realm.t.region_of(city).number, "Storms")


def movement_phase(realm: Realm) -> None:
    """FE 5.0: in player order each player moves all his nobles, line by line."""
    realm.moved_units = {}
    moved_nobles: set[str] = set()
    for player in realm.s.player_order():
        # FE 2.6-2.7, U8: Good Weather is an Opportunity card: played at the start of
        # the player's movement turn (window W9 of fief-email.md §3.2), it ends Storms.
        for fortune in realm.orders.get(player, TurnOrders()).of(PlayFortune):
            if fortune.window == "movement":
                cards.play_fortune(realm, player, fortune)
        for order in realm.orders.get(player, TurnOrders()).orders:
            if isinstance(order, Move):
                move(realm, player, order, moved_nobles)
            elif isinstance(order, RoyalMove):
                royal_move(realm, player, order, moved_nobles)
        for order in realm.orders.get(player, TurnOrders()).of(Present):
            present(realm, player, order)


def discover(realm: Realm, noble: Noble, city: str) -> None:
    """FE 12.0: a Bishop or Archbishop entering his own district's Cathedral City, or an
    Abbess entering any Cathedral City, reveals its Relic and takes it; a face-up Relic
    left in a city (by a noble who died or was taken) is picked up by any noble."""
    c = realm.city(city)
    if c.relic is None or not noble.free:
        return
    if not c.relic_up:
        cathedral = next((d for d in realm.t.districts if d.cathedral == city), None)
        if cathedral is None or not (noble.clergy == cathedral.key or noble.abbess):
            return
    noble.relics.append(c.relic)
    realm.emit(EventId.RELIC_FOUND, {"noble": noble.key, "relic": c.relic, "city": city})
    c.relic, c.relic_up = None, False


def present(realm: Realm, player: str, order: Present) -> None:
    """FE 12.0: a Relic handed to the Sovereign in the same city; the first player to do
    so takes the Relic VP marker for the rest of the game."""
    s = realm.s
    noble = s.nobles.get(order.noble.lower())
    king = s.nobles[s.sovereign] if s.sovereign else None
    text = f"PRESENT {order.relic} BY {order.noble}"
    if noble is None or not noble.free or noble.family not in s.players[player].families:
        realm.refuse(player, text, "needs a free noble of yours")
    elif order.relic not in noble.relics:
        realm.refuse(player, text, f"{noble.name} does not carry the {order.relic}")
    elif king is None or not king.free or king.city != noble.city:
        realm.refuse(player, text, "the Sovereign must be free and in the same city")
    else:
        noble.relics.remove(order.relic)
        king.relics.append(order.relic)
        marker = not s.relic_vp_given
        if marker:
            s.relic_vp_given = True
            s.players[player].relic_vp = True
        realm.emit(EventId.RELIC_PRESENTED, {"noble": noble.key, "relic": order.relic,
                                             "sovereign": king.key, "vp": marker})


def _text(order: Move) -> str:
    return f"MOVE {', '.join(order.nobles)}"


def move(realm: Realm, player: str, order: Move, moved_nobles: set[str]) -> None:
    # Long: the FE 5.0-5.4 checks and both steps read in rulebook order; splitting it into
    # validation, troops taken and the step loop is owed (not yet done).
    s, t = realm.s, realm.t
    nobles = [s.nobles.get(k.lower()) for k in order.nobles]
    if any(n is None or not n.alive for n in nobles):
        realm.refuse(player, _text(order), "no such living noble")
        return
    group = [n for n in nobles if n is not None]
    family = group[0].family
    here = group[0].city
    if any(n.family not in s.players[player].families or n.family != family for n in group):
        realm.refuse(player, _text(order), "nobles of one of your families only")
        return
    if any(not n.free for n in group):
        realm.refuse(player, _text(order), "a captive cannot move (FE 7.6)")
        return
    if any(n.city != here for n in group) or (order.start and order.start != here):
        realm.refuse(player, _text(order), f"the nobles are not together at {order.start or here}")
        return
    if any(n.key in moved_nobles for n in group):
        realm.refuse(player, _text(order), "each noble moves once a round (FE 5.0)")
        return
    besieger = realm.city(here).besieged_by
    if besieger not in (None, family) and order.if_denied != "cavalcade":
        realm.refuse(player, _text(order), "a besieged army needs leave to go out (FE 7.9), "
                     "or a Cavalcade (FAQ P5 F19)")
        return
    # The troops taken along: only unmoved ones of the family at the start (FE 5.0).
    units: dict[str, int] = {}
    for unit, n in order.units:
        free = (realm.city(here).units_of(family).get(unit, 0)
                - realm.moved_units.get((family, here), {}).get(unit, 0))
        if unit == "trebuchet":
            realm.refuse(player, _text(order), "Trebuchets never move (FE 7.2)")
            return
        if n > free:
            realm.refuse(player, _text(order),
                         f"only {free} {unit.replace('_', '-')} free to move at {here}")
            return
        units[unit] = units.get(unit, 0) + n
    for unit, n in units.items():
        realm.city(here).add(family, unit, -n)
    for noble in group:
        moved_nobles.add(noble.key)
    start = here
    used = 0
    naval = False
    current_sea = 0
    previous = here
    trail: list[str] = [here]
    stop_reason = None
    path = list(order.path)
    if besieger not in (None, family):
        group, stop_reason = _break_out(realm, family, group, units, here, besieger or "")
        if stop_reason:
            path = []
    i = 0
    while i < len(path):
        step = path[i]
        if step.startswith("sea:"):
            sea = int(step[4:])
            ports = t.ports()
            origin = ports.get(here) if not naval else current_sea
            if not naval and (here != start or used or here not in ports):
                stop_reason = "a naval move starts the round in a port (FE 5.4, Ex 5-6)"
                break
            if origin is None or t.sea_distance(origin, sea) != 1:
                stop_reason = f"Sea {sea} is not next to the last sea (FE 5.4)"
                break
            if used >= t.invaders.moves:
                stop_reason = "two moves a round (FE 5.0)"
                break
            if cards.region_has(realm, sea, "Storms") or cards.region_has(realm, origin, "Storms"):
                stop_reason = "no naval move into or out of Storms (FE 5.5)"
                break
            naval, current_sea = True, sea
            used += 1
            i += 1
            continue
        bandit_path = step.startswith("~")
        step = step.lstrip("~")
        if naval:
            # Landing: the city must be the port of the sea reached (FE 5.4), no extra move.
            if t.ports().get(step) != current_sea:
                stop_reason = f"{step} is not the port of Sea {current_sea} (FE 5.4)"
                break
            naval = False
            here = step
        else:
            if bandit_path and (here not in t.bandit_cities or step == here):
                stop_reason = f"no bandit path from {here} (FE 13.4)"
                break
            if not bandit_path and step not in t.neighbours(here):
                stop_reason = f"no road from {here} to {step}"
                break
            if used >= t.invaders.moves:
                stop_reason = "two moves a round (FE 5.0)"
                break
            if storms(realm, here) or storms(realm, step):
                stop_reason = "no movement into, out of or within Storms (FE 2.5)"
                break
            used += 1
            previous = here
            if bandit_path:
                group = bandits(realm, family, group, units, previous)
                if not group:
                    stop_reason = "taken by the bandits of Sherwood (FE 13.4)"
                    break
            here = step
            _plague_entry(realm, group, previous, here)
        trail.append(here)
        group = [n for n in group if n.alive]
        if not group:
            break
        for noble in group:
            noble.city = here
            discover(realm, noble, here)
        for city, unit, count in order.leave:
            if city == here and units.get(unit, 0) >= count:
                units[unit] -= count
                _drop(realm, family, here, unit, count)
        last = i == len(path) - 1
        holder = realm.city(here).holder
        occupied = holder is not None and holder != family and realm.present(here, holder)
        if occupied and not last and not permits(realm, holder or "", player, here):
            hand = realm.s.players[player].hand
            if order.if_denied == "passage" and "Passage" in hand:
                # FE 10.2 (Avoid a Battle): locals guide the army through, no permission.
                hand.remove("Passage")
                realm.s.fortune_discard.append("Passage")
                realm.emit(EventId.PASSAGE_USED, {"family": family, "city": here})
                i += 1
                continue
            if order.if_denied == "cavalcade":
                passed, why = cavalcade(realm, family, group, units, here, holder or "")
                group = [n for n in group if n.free]
                if passed and group:
                    i += 1
                    continue
                stop_reason = why
                break
            if order.if_denied == "return" and used < t.invaders.moves:
                here = previous
                for noble in group:
                    noble.city = here
                used += 1
                trail.append(here)
                stop_reason = f"denied passage at {step}: went back"
            else:
                stop_reason = f"denied passage at {step} (FE 5.0): on its outskirts"
            break
        i += 1
    if naval:
        # FE 5.4: troops never end at sea: the army goes back to its port.
        here = start
        for noble in group:
            noble.city = here
        stop_reason = "an army may not end at sea (FE 5.4): back in port"
    for unit, n in units.items():
        if n:
            _drop(realm, family, here, unit, n)
    for city in dict.fromkeys(trail):
        if city == here or any(c == city for c, _, _ in order.leave):
            realm.arrive(city, family)
        realm.refresh_control(city)
    realm.emit(EventId.MOVED, {"family": family, "nobles": [n.key for n in group],
                               "path": trail, "troops": sum(n for u, n in units.items()
                                                            if u in TROOPS)})
    if stop_reason:
        realm.emit(EventId.MOVE_STOPPED, {"nobles": [n.key for n in group], "city": here,
                                          "reason": stop_reason}, actor=player, public=False)


def _drop(realm: Realm, family: str, city: str, unit: str, n: int) -> None:
    realm.city(city).add(family, unit, n)
    moved = realm.moved_units.setdefault((family, city), {})
    moved[unit] = moved.get(unit, 0) + n


def _plague_entry(realm: Realm, group: list[Noble], before: str, after: str) -> None:
    """FE 2.5: nobles entering a Plague region roll for their lives, unless they come from
    another Plague region (the troops' entry roll is not yet modelled)."""
    a = realm.t.region_of(before).number
    b = realm.t.region_of(after).number
    if a == b or not cards.region_has(realm, b, "Plague") or cards.region_has(realm, a, "Plague"):
        return
    for noble in group:
        cards.plague_roll(realm, noble)


def _break_out(realm: Realm, family: str, group: list[Noble], units: dict[str, int],
               city: str, besieger: str) -> tuple[list[Noble], str | None]:
    """FAQ P5 F19: a Cavalcade out of a besieged city fights the besiegers at once (the
    garrison fighting with it, PROPOSED); if it wins it must go on along its path."""
    passed, why = cavalcade(realm, family, group, units, city, besieger)
    group = [n for n in group if n.free]
    return group, None if passed and group else (why or "the Cavalcade did not break out")


def cavalcade(realm: Realm, family: str, group: list[Noble], units: dict[str, int],
              city: str, holder: str) -> tuple[bool, str]:
    """FE 5.2-5.3: refused passage, nobles and Knights only force their way through: the
    battle is fought at once, melee only, the defender +1 hit for each die he rolls; a
    defended Stronghold is passed without a fight (its holder's default, fief-email.md
    §2.3).  A winning Cavalcade must go on (FAQ P5); True if it may."""
    c = realm.city(city)
    if any(u != "knight" and n for u, n in units.items()):
        return False, "a Cavalcade is of nobles and Knights only (FE 5.2): on the outskirts"
    if c.building in ("stronghold", "fortified", "royal") and c.holder == holder:
        realm.emit(EventId.CAVALCADE, {"family": family, "city": city, "passed": True,
                                       "winner": None})
        return True, ""
    knights = units.get("knight", 0)
    before = c.units_of(family).get("knight", 0)
    if knights:
        c.add(family, "knight", knights)
    attacker = Side(realm, city, family)
    defender = Side(realm, city, holder, per_die=realm.t.battle.cavalcade_defender_bonus)
    winner = fight(realm, attacker, defender, "cavalcade")
    left = c.units_of(family).get("knight", 0)
    back = min(knights, max(0, left - before))
    if back:
        c.add(family, "knight", -back)
    units["knight"] = back
    realm.emit(EventId.CAVALCADE, {"family": family, "city": city, "passed": winner == family,
                                   "winner": winner or None})
    if winner == family:
        return True, ""
    if back:
        c.add(family, "knight", back)       # the survivors stay where they fought
        units["knight"] = 0
    return False, f"the Cavalcade at {city} did not break through"


def bandits(realm: Realm, family: str, group: list[Noble], units: dict[str, int],
            city: str) -> list[Noble]:
    """FE 13.4: each passage through Sherwood rolls the d6; on 1-2 the Bandits take every
    noble who cannot pay at once (titled nobles pay first, PROPOSED); the others go on.
    With every noble held, Men-at-Arms and Archers desert and the Knights stay with their
    nobles (left at the city they set out from, PROPOSED)."""
    roll = realm.d6("bandits", "the road through Sherwood", realm.account(family))
    if roll not in realm.t.bandit_capture_on:
        return group
    free: list[Noble] = []
    held: list[Noble] = []
    for noble in sorted(group, key=lambda n: (-realm.bandit_ransom(n), n.key)):
        price = realm.bandit_ransom(noble)
        if realm.cash(family) >= price:
            realm.pay(family, price)
            free.append(noble)
        else:
            held.append(noble)
    for noble in held:
        noble.city = city
        realm.capture(noble, "bandits", city)
    realm.emit(EventId.BANDITS, {"family": family, "city": city, "roll": roll,
                                 "paid": [n.key for n in free], "held": [n.key for n in held]})
    if not free:
        for unit in ("men_at_arms", "archer", "crossbow"):
            n = units.pop(unit, 0)
            if n and unit != "crossbow":
                realm.s.families[family].stock[unit] += n
        if units.get("knight"):
            _drop(realm, family, city, "knight", units.pop("knight"))
    return [n for n in group if n in free]


def royal_move(realm: Realm, player: str, order: RoyalMove, moved: set[str]) -> None:
    """FE 5.0, 4.9: the Royal Family and the nobles of its families, with no troops, go to
    the Royal Stronghold from any city for their whole movement."""
    s = realm.s
    royal = next((c for c in s.cities.values() if c.building == "royal"), None)
    if isinstance(order, RoyalAbbeyMove):     # FE 2.13: the same move to the Royal Abbey
        where = cards.royal_abbey(realm)
        royal = realm.city(where) if where else None
    text = f"ROYAL MOVE {', '.join(order.nobles)}"
    royals = realm.royal_family()
    families = {s.nobles[k].family for k in royals}
    if royal is None:
        realm.refuse(player, text, "there is no Royal " + (
            "Abbey" if isinstance(order, RoyalAbbeyMove) else "Stronghold"))
        return
    for name in order.nobles:
        noble = s.nobles.get(name.lower())
        if noble is None or not noble.free or noble.family not in s.players[player].families:
            realm.refuse(player, text, f"{name} is not a free noble of yours")
        elif noble.family not in families:
            realm.refuse(player, text, "only the Royal Family and their families (FE 5.0)")
        elif noble.key in moved:
            realm.refuse(player, text, f"{noble.name} has moved this round")
        elif realm.city(noble.city).besieged_by not in (None, noble.family):
            realm.refuse(player, text, "a besieged noble needs leave to go out (FE 7.9)")
        else:
            start = noble.city
            noble.city = royal.name
            moved.add(noble.key)
            realm.refresh_control(start)
            realm.arrive(royal.name, noble.family)
            realm.emit(EventId.MOVED, {"family": noble.family, "nobles": [noble.key],
                                       "path": [start, royal.name], "troops": 0})
