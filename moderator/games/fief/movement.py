"""Phase 5: movement, step by step, naval moves and storms (FE 5.0-5.5, 2.5); permission to
pass is in passage.py, what befalls a group on the road (Plague, Cavalcade, Bandits) in
road.py."""

from __future__ import annotations

from moderator.games.fief import cards, relics
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.format import NUMERAL
from moderator.games.fief.orders.values import (
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
from moderator.games.fief.passage import denied, kept_in, leave_anyway, permits, secret_route
from moderator.games.fief.realm import Realm
from moderator.games.fief.road import Journey, bandits, break_out, drop, plague_entry
from moderator.games.fief.state import Noble
from moderator.games.fief.state.model import TROOPS

BUILDINGS = {"stronghold": "Stronghold", "fortified": "Fortified City", "abbey": "Abbey",
             "royal": "Royal Stronghold"}


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
        j.group, j.stop = break_out(realm, family, group, units, here, besieger or "")
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
    gone = [k for k, n in zip(order.nobles, nobles, strict=True) if n is None or not n.alive]
    if gone:
        realm.refuse(player, _text(order), realm.not_living(gone[0]))
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
            kind = realm.t.unit(unit)
            # Found playing by mail: "only 0 men-at-arms free to move at York".
            have = "no" if free <= 0 else f"only {free}"
            realm.refuse(player, _text(order), f"{have} {kind.name if free == 1 else kind.plural}"
                                               f" free to move at {here}")
            return None
        units[unit] = units.get(unit, 0) + n
    return units


def _step(realm: Realm, j: Journey, step: str, last: bool) -> bool:
    """One step of the path; False when the journey ends here."""
    blocker = kept_in(realm, j, step)
    if blocker is not None and not leave_anyway(realm, j, blocker, step):
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
        plague_entry(realm, j)         # landing in a Plague region (PROPOSED: not at sea)
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
        plague_entry(realm, j)
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
            drop(realm, j.family, here, unit, count)
    holder = realm.city(here).holder
    occupied = holder is not None and holder != j.family and realm.present(here, holder)
    if not occupied or last:
        return True
    # FE 5.2: a surprise attack (CAVALCADE) fights whether or not it would be let pass.
    if not isinstance(j.order, Cavalcade) and permits(realm, holder or "", j.player, here):
        return True
    return denied(realm, j, holder or "")


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
            drop(realm, j.family, j.here, unit, n)
    # The ride is told before what it won (found playing by mail: "Green now holds
    # Oxford." read before "Robert of Green rides London - Oxford.").
    realm.emit(EventId.MOVED, {"family": j.family, "nobles": [n.key for n in j.group],
                               "path": j.trail, "troops": sum(n for u, n in j.units.items()
                                                              if u in TROOPS)})
    for city in dict.fromkeys(j.trail):
        if city == j.here or any(c == city for c, _, _ in j.order.leave):
            realm.arrive(city, j.family)
        realm.refresh_control(city)
    if j.stop:
        realm.emit(EventId.MOVE_STOPPED, {"nobles": [n.key for n in j.group], "city": j.here,
                                          "reason": j.stop}, actor=j.player, public=False)


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
            realm.emit(EventId.MOVED, {"family": noble.family, "nobles": [noble.key],
                                       "path": [start, royal.name], "troops": 0})
            realm.refresh_control(start)
            realm.arrive(royal.name, noble.family)
