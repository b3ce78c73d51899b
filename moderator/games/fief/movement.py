"""Phase 5: movement, permission to pass, naval moves and storms (FE 5.0-5.5, 2.5)."""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.fief import cards, relics
from moderator.games.fief.battle import Side, fight
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.format import NUMERAL
from moderator.games.fief.orders.values import (
    Allow,
    Cavalcade,
    LeaveRelic,
    Move,
    PlayFortune,
    Present,
    RoyalAbbeyMove,
    RoyalMove,
    TakeRelic,
    TurnOrders,
)
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble
from moderator.games.fief.state.model import TROOPS

BUILDINGS = {"stronghold": "Stronghold", "fortified": "Fortified City", "abbey": "Abbey",
             "royal": "Royal Stronghold"}


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
    realm.entries = []
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
        for order in realm.orders.get(player, TurnOrders()).orders:
            if isinstance(order, LeaveRelic | TakeRelic):
                relics.set_down_or_take_up(realm, player, order)


def discover(realm: Realm, noble: Noble, city: str) -> None:
    """FE 12.0: a Bishop or Archbishop entering his own district's Cathedral City, or an
    Abbess entering any Cathedral City, reveals its Relic and takes it; a face-up Relic
    left in a city (by a noble who died or was taken) is picked up by any noble."""
    c = realm.city(city)
    if c.relic is None or not noble.free:
        return
    if (c.building in ("stronghold", "fortified", "royal") and c.holder is not None
            and realm.present(city, c.holder) and not realm.inside(city, noble.family)):
        return          # FE 12.0: inside a fortification only with its holder's leave
    if c.relic_up and c.building == "abbey":
        return          # PROPOSED: a Relic left in an Abbey stays for its income (TAKE RELIC)
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


@dataclass
class Journey:
    """One MOVE order under way (FE 5.0-5.4): the group, what it carries, where it is."""
    player: str
    order: Move
    family: str
    group: list[Noble]
    units: dict[str, int]
    start: str
    here: str
    used: int = 0
    naval: bool = False
    sea: int = 0
    previous: str = ""
    trail: list[str] = field(default_factory=list)
    stop: str | None = None


def move(realm: Realm, player: str, order: Move, moved_nobles: set[str]) -> None:
    """FE 5.0: one group of nobles and the troops they take, step by step along its path;
    every step is checked when it is taken (fief-email.md §2.4.5)."""
    group = _movers(realm, player, order, moved_nobles)
    if group is None:
        return
    family, here = group[0].family, group[0].city
    units = _take_troops(realm, player, order, family, here)
    if units is None:
        return
    for unit, n in units.items():
        realm.city(here).add(family, unit, -n)
    for noble in group:
        moved_nobles.add(noble.key)
    j = Journey(player, order, family, group, units, start=here, here=here, previous=here,
                trail=[here])
    path = list(order.path)
    besieger = realm.city(here).besieged_by
    if besieger not in (None, family) and order.if_denied == "cavalcade":
        j.group, j.stop = _break_out(realm, family, group, units, here, besieger or "")
    elif besieger not in (None, family) and not secret_route(realm, j, here):
        # FE 10.2 Escape: a Passage (or the Burgher's routes) slips out of the siege, its
        # first move one that would not be allowed.
        j.stop = "a besieged army needs leave, a Cavalcade or a Passage to go out (FE 7.9)"
    if j.stop:
        path = []
    for i, step in enumerate(path):
        if not _step(realm, j, step, last=i == len(path) - 1):
            break
    _finish(realm, j)


def _movers(realm: Realm, player: str, order: Move,
            moved_nobles: set[str]) -> list[Noble] | None:
    """The order's nobles if they may set out together (FE 5.0, 7.6, 7.9), else refused."""
    s = realm.s
    nobles = [s.nobles.get(k.lower()) for k in order.nobles]
    if any(n is None or not n.alive for n in nobles):
        realm.refuse(player, _text(order), "no such living noble")
        return None
    group = [n for n in nobles if n is not None]
    family, here = group[0].family, group[0].city
    why = None
    if any(n.family not in s.players[player].families or n.family != family for n in group):
        why = "nobles of one of your families only"
    elif any(not n.free for n in group):
        why = "a captive cannot move (FE 7.6)"
    elif any(n.city != here for n in group) or (order.start and order.start != here):
        why = f"the nobles are not together at {order.start or here}"
    elif any(n.key in moved_nobles for n in group):
        why = "each noble moves once a round (FE 5.0)"
    elif (realm.city(here).besieged_by not in (None, family)
          and order.if_denied not in ("cavalcade", "passage", "burgher")):
        why = ("a besieged army needs leave to go out (FE 7.9), or a Cavalcade "
               "(FAQ P5 F19)")
    if why:
        realm.refuse(player, _text(order), why)
        return None
    return group


def _take_troops(realm: Realm, player: str, order: Move, family: str,
                 here: str) -> dict[str, int] | None:
    """The troops taken along: only unmoved ones of the family at the start (FE 5.0)."""
    units: dict[str, int] = {}
    for unit, n in order.units:
        free = (realm.city(here).units_of(family).get(unit, 0)
                - realm.moved_units.get((family, here), {}).get(unit, 0))
        if unit == "trebuchet":
            realm.refuse(player, _text(order), "Trebuchets never move (FE 7.2)")
            return None
        if n > free:
            realm.refuse(player, _text(order),
                         f"only {free} {unit.replace('_', '-')} free to move at {here}")
            return None
        units[unit] = units.get(unit, 0) + n
    return units


def _step(realm: Realm, j: Journey, step: str, last: bool) -> bool:
    """One step of the path; False when the journey ends here."""
    blocker = _kept_in(realm, j, step)
    if blocker is not None and not _leave_anyway(realm, j, blocker, step):
        return False
    if step.startswith("sea:"):
        return _sea_step(realm, j, int(step[4:]))
    if not _land_step(realm, j, step):
        return False
    return _arrived(realm, j, last)


def _sea_step(realm: Realm, j: Journey, sea: int) -> bool:
    """FE 5.4-5.5: out of the starting port or on to the next sea, one move a sea."""
    t = realm.t
    ports = t.ports()
    origin = ports.get(j.here) if not j.naval else j.sea
    if not j.naval and (j.here != j.start or j.used or j.here not in ports):
        j.stop = "a naval move starts the round in a port (FE 5.4, Ex 5-6)"
    elif origin is None or t.sea_distance(origin, sea) != 1:
        j.stop = f"Sea {sea} is not next to the last sea (FE 5.4)"
    elif j.used >= t.invaders.moves:
        j.stop = "two moves a round (FE 5.0)"
    elif ((cards.region_has(realm, sea, "Storms") or cards.region_has(realm, origin, "Storms"))
          and not secret_route(realm, j, f"Sea {NUMERAL[sea]}")):
        # FE 10.2: a Passage (or the Burgher's routes) lets one move through the Storms.
        j.stop = "no naval move into or out of Storms (FE 5.5)"
    else:
        j.naval, j.sea = True, sea
        j.used += 1
        return True
    return False


def _land_step(realm: Realm, j: Journey, step: str) -> bool:
    """A landing from the sea (no extra move) or a road or bandit path (one move)."""
    t = realm.t
    bandit_path = step.startswith("~")
    step = step.lstrip("~")
    if j.naval:
        # Landing: the city must be the port of the sea reached (FE 5.4), no extra move.
        if t.ports().get(step) != j.sea:
            j.stop = f"{step} is not the port of Sea {j.sea} (FE 5.4)"
            return False
        j.naval = False
        j.here = step
        realm.entries.append((step, j.family, f"sea:{j.sea}"))
        _plague_entry(realm, j)         # landing in a Plague region (PROPOSED: not at sea)
    else:
        if bandit_path and (j.here not in t.bandit_cities or step == j.here):
            j.stop = f"no bandit path from {j.here} (FE 13.4)"
        elif not bandit_path and step not in t.neighbours(j.here):
            j.stop = f"no road from {j.here} to {step}"
        elif j.used >= t.invaders.moves:
            j.stop = "two moves a round (FE 5.0)"
        elif ((storms(realm, j.here) or storms(realm, step))
              and not secret_route(realm, j, step)):
            j.stop = "no movement into, out of or within Storms (FE 2.5)"
        if j.stop:
            return False
        j.used += 1
        j.previous = j.here
        if bandit_path:
            j.group = bandits(realm, j.family, j.group, j.units, j.previous)
            if not j.group:
                j.stop = "taken by the bandits of Sherwood (FE 13.4)"
                return False
        j.here = step
        realm.entries.append((step, j.family, j.previous))
        _plague_entry(realm, j)
    j.trail.append(j.here)
    j.group = [n for n in j.group if n.alive]
    return bool(j.group)


def _arrived(realm: Realm, j: Journey, last: bool) -> bool:
    """In a city: relics found, troops dropped, and the holder's leave to pass (FE 5.0)."""
    here = j.here
    for noble in j.group:
        noble.city = here
        discover(realm, noble, here)
    for city, unit, count in j.order.leave:
        if city == here and j.units.get(unit, 0) >= count:
            j.units[unit] -= count
            _drop(realm, j.family, here, unit, count)
    holder = realm.city(here).holder
    occupied = holder is not None and holder != j.family and realm.present(here, holder)
    if not occupied or last:
        return True
    # FE 5.2: a surprise attack (CAVALCADE) fights whether or not it would be let pass.
    if not isinstance(j.order, Cavalcade) and permits(realm, holder or "", j.player, here):
        return True
    return _denied(realm, j, holder or "")


def _denied(realm: Realm, j: Journey, holder: str) -> bool:
    """FE 5.0, 5.2, 10.2: refused passage, the order's IF DENIED branch; True if it goes on."""
    here, t = j.here, realm.t
    forced = _force_the_way(realm, j, holder)     # FE 10.2 Avoid a Battle, or 5.2
    if forced is not None:
        return forced
    if j.order.if_denied == "return" and j.used < t.invaders.moves:
        j.here = j.previous
        for noble in j.group:
            noble.city = j.here
        j.used += 1
        j.trail.append(j.here)
        realm.entries.append((j.here, j.family, here))
        j.stop = f"denied passage at {here}: went back"
    else:
        j.stop = f"denied passage at {here} (FE 5.0): on its outskirts"
    return False


def secret_route(realm: Realm, j: Journey, city: str) -> bool:
    """FE 10.2, 11.2: the order's `IF DENIED PASSAGE` spends a Passage card from the hand,
    `IF DENIED BURGHER` a Treasure on the Burgher card (its Secret Routes, "just like a
    PASSAGE Card"; the card serves only a family with a titled Lord); True if the army is
    guided on."""
    p = realm.s.players[j.player]
    if j.order.if_denied == "passage" and "Passage" in p.hand:
        p.hand.remove("Passage")
        realm.s.fortune_discard.append("Passage")
    elif (j.order.if_denied == "burgher" and (p.slot or "").startswith("Burgher")
          and p.treasures >= 1 and any(n.is_lord for f in p.families
                                       for n in realm.s.living(f))):
        p.treasures -= 1            # FE 11.3: a Treasure for each Burgher action
    else:
        return False
    realm.emit(EventId.PASSAGE_USED, {"family": j.family, "city": city})
    return True


def _force_the_way(realm: Realm, j: Journey, against: str) -> bool | None:
    """Refused at ``j.here``: a Passage or the Burgher's routes guide the group on (FE
    10.2, 11.2), or its Knights cavalcade through ``against`` (FE 5.2): True if it goes
    on, False if it is stopped, None if the order has no such branch."""
    if secret_route(realm, j, j.here):
        return True
    if j.order.if_denied != "cavalcade":
        return None
    passed, why = cavalcade(realm, j.family, j.group, j.units, j.here, against)
    j.group = [n for n in j.group if n.free]
    if passed and j.group:
        return True
    j.stop = why
    return False


def _kept_in(realm: Realm, j: Journey, step: str) -> str | None:
    """The opposing family whose arrival this round keeps the group in its starting city
    without its leave: it came in by the road the group would take (FE 5.0), or the city
    is a port it has reached (FE 5.4; any way out, fief-email.md A66)."""
    if j.used or j.here != j.start or j.naval:
        return None
    port = j.here in realm.t.ports()
    for city, family, came in realm.entries:
        if (city == j.here and (port or came == step.lstrip("~"))
                and realm.account(family) != j.player and realm.present(city, family)
                and not permits(realm, family, j.player, city)):
            return family
    return None


def _leave_anyway(realm: Realm, j: Journey, blocker: str, step: str) -> bool:
    """Kept in: a Passage or the Burgher's routes lead the group out (FE 10.2, 11.2), a
    Cavalcade fights the newcomers at once (FE 5.3 note); else it stays."""
    here = j.here
    forced = _force_the_way(realm, j, blocker)
    if forced is not None:
        return forced
    way = "out of the port" if here in realm.t.ports() else f"by the road to {step.lstrip('~')}"
    j.stop = f"{blocker} came into {here} this round: no leaving {way} without leave (FE 5.0, 5.4)"
    return False


def _finish(realm: Realm, j: Journey) -> None:
    """Troops set down where the group ends, control of every city on the way (FE 5.1)."""
    if j.naval:
        # FE 5.4: troops never end at sea: the army goes back to its port.
        j.here = j.start
        for noble in j.group:
            noble.city = j.here
        j.stop = "an army may not end at sea (FE 5.4): back in port"
    holder = realm.city(j.here).holder
    if (j.stop is None and holder not in (None, j.family) and realm.present(j.here, holder or "")
            and not realm.inside(j.here, j.family)):
        j.stop = (f"not let into the {BUILDINGS[realm.city(j.here).building]} of {j.here} "
                  "(FE 5.0): on its outskirts")
    for unit, n in j.units.items():
        if n:
            _drop(realm, j.family, j.here, unit, n)
    for city in dict.fromkeys(j.trail):
        if city == j.here or any(c == city for c, _, _ in j.order.leave):
            realm.arrive(city, j.family)
        realm.refresh_control(city)
    realm.emit(EventId.MOVED, {"family": j.family, "nobles": [n.key for n in j.group],
                               "path": j.trail, "troops": sum(n for u, n in j.units.items()
                                                              if u in TROOPS)})
    if j.stop:
        realm.emit(EventId.MOVE_STOPPED, {"nobles": [n.key for n in j.group], "city": j.here,
                                          "reason": j.stop}, actor=j.player, public=False)


def _drop(realm: Realm, family: str, city: str, unit: str, n: int) -> None:
    realm.city(city).add(family, unit, n)
    moved = realm.moved_units.setdefault((family, city), {})
    moved[unit] = moved.get(unit, 0) + n


def _plague_entry(realm: Realm, j: Journey) -> None:
    """FE 2.5: a group entering a Plague region rolls at once, as on the card's arrival
    (fief-email.md A26): its troops are halved, rounded down, by its owner's LOSSES order
    (cheapest first), and each noble rolls the d6; not when it comes from another Plague
    region, nor when it comes back into a region it has already been in this move."""
    t = realm.t
    before = t.region_of(j.previous).number
    after = t.region_of(j.here).number
    been = {t.region_of(c).number for c in j.trail}
    if (after in been or not cards.region_has(realm, after, "Plague")
            or cards.region_has(realm, before, "Plague")):
        return
    lose = sum(n for u, n in j.units.items() if u in TROOPS) // 2
    lost: dict[str, int] = {}
    for unit in realm.loss_order(j.family):
        take = min(lose, j.units.get(unit, 0))
        if take:
            j.units[unit] -= take
            lost[unit] = take
            lose -= take
            if unit != "crossbow":      # Crossbowmen go back to the common stock (FE 11.1)
                stock = realm.s.families[j.family].stock
                stock[unit] = stock.get(unit, 0) + take
    if lost:
        realm.emit(EventId.PLAGUE_TROOPS, {"city": j.here, "family": j.family, "lost": lost})
    for noble in j.group:
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
