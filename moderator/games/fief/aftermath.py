"""The end of a battle (FE 7.5-7.8, 7.2 Winner's Spoils, 13.3): surrender, captives,
the loser's engines, the nobles left alone."""

from __future__ import annotations

from moderator.games.fief.army import LOSS_ORDER, Side
from moderator.games.fief.events import EventId
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble

ENGINES = ("bombard", "trebuchet")


def surrenders(realm: Realm, side: Side) -> bool:
    """The standing plan `SURRENDER IF TROOPS BELOW n` (fief-email.md §5.1), read at the
    end of each battle roll (FE 7.8)."""
    if side.family is None:
        return False
    limit = next((d["below"] for d in reversed(realm.s.players[realm.account(side.family)].standing)
                  if d.get("kind") == "surrender" and d.get("family") in (None, side.family)), 0)
    return 0 < side.troops() < limit


def surrender(realm: Realm, side: Side) -> None:
    """FE 7.8 Surrender: the remaining troops leave the map; the nobles are taken."""
    assert side.family is not None
    realm.emit(EventId.SURRENDER, {"city": side.city, "family": side.family})
    for unit, n in sorted(side.units().items()):
        if unit in LOSS_ORDER and n:
            side.remove(unit, n)


def shown(side: Side) -> dict[str, int]:
    """FE 7.0: once a battle is declared both sides reveal their troops."""
    if side.family is None:
        return {"foot": side.foot(), "leaders": side.leaders()}
    units = {k: v for k, v in sorted(side.units().items()) if v}
    units["nobles"] = len(side.nobles())
    return units


def slay_spare(realm: Realm, side: Side, hits: int) -> None:
    if side.family is None or side.troops() or hits <= 0:
        return
    for noble in side.nobles()[:hits]:
        realm.kill(noble, "battle")


def take_captives(realm: Realm, winner: Side, loser: Side) -> None:
    """FE 7.6, 7.8: the loser's nobles are taken by the winner's noble, or slain by troops
    without one; the loser's engines are the Winner's Spoils (7.2)."""
    city = winner.city
    if loser.family is not None:
        spoils(realm, winner, loser)
        captor: str | None = None
        if winner.family is not None:
            keepers = winner.nobles()
            captor = keepers[0].key if keepers else None
        elif winner.armies:
            captor = f"invaders:{winner.armies[0]}"
            realm.s.invaders[winner.armies[0]].captives.extend(n.key for n in loser.nobles())
        for noble in loser.nobles():
            if captor is None:
                realm.kill(noble, "battle")
            else:
                realm.capture(noble, captor, city)
    else:
        # FE 13.3: the Lord heading the winning army has earned the Garter.
        lords = [n.key for n in winner.nobles() if n.is_lord]
        realm.garter_eligible.extend(lords[:1])
        for key in list(loser.armies):
            army = realm.s.invaders[key]
            if not army.foot and not army.leader:
                for captive in army.captives:
                    held = realm.s.nobles[captive]
                    if held.alive and held.status == "captive":
                        realm.release(held, "invaders defeated")
                del realm.s.invaders[key]   # its markers go back to the box, to land again


def spoils(realm: Realm, winner: Side, loser: Side) -> None:
    """FE 7.2 Winner's Spoils: the loser's Bombards and Trebuchets are destroyed, or taken
    by the winning family, its own markers replacing them while its stockpile has some
    (standing `SPOILS TAKE`, the default, or `SPOILS DESTROY`).  Invaders take none."""
    taker = winner.family
    take = taker is not None and spoils_plan(realm, taker) == "take"
    for fam in loser.families:
        for unit in ENGINES:
            n = realm.city(loser.city).units_of(fam).get(unit, 0)
            if not n:
                continue
            realm.return_units(loser.city, fam, unit, n)
            if take and taker is not None:
                exchange(realm, taker, loser.city, unit, n)


def exchange(realm: Realm, taker: str, city: str, unit: str, n: int) -> int:
    """Put up to ``n`` of the taker's own markers of an engine in the city (FE 7.2, 7.10:
    "if available"); returns how many."""
    k = min(n, realm.stock(taker, unit))
    if k:
        realm.s.families[taker].stock[unit] -= k
        realm.city(city).add(taker, unit, k)
        realm.emit(EventId.ENGINES_TAKEN, {"city": city, "family": taker, "unit": unit,
                                           "count": k})
    return k


def spoils_plan(realm: Realm, family: str) -> str:
    return next((d["how"] for d in reversed(realm.s.players[realm.account(family)].standing)
                 if d.get("kind") == "spoils" and d.get("family") in (None, family)), "take")


def escape(realm: Realm, noble: Noble) -> None:
    """FE 7.6, 10.2 Escape by a PASSAGE (whoever plays it): the captive goes to one of his
    family's cities, failing that to an Independent City or an ally's; the nearest by
    road, a fortification first among the family's, then by name (PROPOSED: the rulebook
    lets the player choose; by email the engine places him safe and near)."""
    start = noble.city
    far = realm.distances(start)
    forts = ("stronghold", "fortified", "royal")

    def rank(city: str) -> tuple[int, int, str]:
        return (far.get(city, 99), 0 if realm.city(city).building in forts else 1, city)

    own = [c for c in realm.t.city_names if realm.city(c).holder == noble.family]
    other = [c for c in realm.t.city_names if realm.city(c).holder is None
             or realm.allied(realm.city(c).holder or "", noble.family)]
    places = sorted(own, key=rank) or sorted(other, key=rank)
    noble.status, noble.captor = "free", None
    noble.city = places[0] if places else start
    realm.emit(EventId.NOBLE_RELEASED, {"noble": noble.key, "city": noble.city, "why": "escape"})
    realm.arrive(noble.city, noble.family)
    if start != noble.city:
        realm.refresh_control(start)


def lone_nobles(realm: Realm) -> None:
    """FE 7.0, 7.5, FAQ P7: nobles, Trebuchets and Bombards with no troops of their family
    in a city where an opposing army with a noble stands are captured at the start of
    Phase 7 (the engines exchanged for the captor's markers while he has some, 7.2)."""
    s = realm.s
    for city in realm.t.city_names:
        c = s.cities[city]
        for family in s.family_order():
            here = realm.nobles_at(city, family)
            guarded = any(n.royal_knights or n.royal_men_at_arms for n in here)
            if c.troop_count(family) or guarded:
                continue
            engines = {u: n for u in ENGINES if (n := c.units_of(family).get(u, 0))}
            if not here and not engines:
                continue
            for other in s.family_order():
                if other == family or realm.allied(other, family) or not c.troop_count(other):
                    continue
                keepers = realm.nobles_at(city, other)
                if keepers:
                    for noble in here:
                        realm.capture(noble, keepers[0].key, city)
                    for unit, n in engines.items():
                        realm.return_units(city, family, unit, n)
                        exchange(realm, other, city, unit, n)
                    break
