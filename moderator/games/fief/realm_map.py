"""`RealmMap`: the cities of a Realm: who is present, who controls, who is inside the walls,
the units on the map and their way back to the stockpile, and troops left without a noble.
"""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.realm_core import RealmCore
from moderator.games.fief.state import City, Noble
from moderator.games.fief.state.model import UNITS


class RealmMap(RealmCore):
    def city(self, name: str) -> City:
        return self.s.cities[name]

    def present(self, city: str, family: str) -> bool:
        c = self.city(city)
        return bool(c.units_of(family)) or any(n.city == city and n.family == family
                                                and n.free for n in self.s.living())

    def refresh_control(self, city: str) -> None:
        """FE 5.1: the first family to arrive controls a city; an empty city without a
        building is Independent again (Ex 5-1 note); a building keeps its holder until
        someone else occupies it (fief-email.md A86)."""
        c = self.city(city)
        c.occupants = [f for f in c.occupants if self.present(city, f)]
        before = c.holder
        if c.occupants:
            if c.holder not in c.occupants:
                c.holder = c.occupants[0]
        elif not c.building or c.building == "abbey":
            c.holder = None
        if c.holder != before and c.holder is not None:
            royals = {self.s.nobles[k].family for k in self.royal_family()}
            if c.building == "royal" and c.holder not in royals:
                c.building = "stronghold"      # FE 4.9: conquered, a normal Stronghold
            self.emit(EventId.CITY_TAKEN, {"city": city, "family": c.holder, "from": before})
            self.check_fortified(city)

    def besieged(self, noble: Noble) -> bool:
        """FE 7.9, 9.1-9.2: a noble shut in a city another player besieges (the besiegers
        on its outskirts are not besieged)."""
        return self.s.besieged(noble)

    def inside(self, city: str, family: str) -> bool:
        """FE 5.0: a family inside the city's Stronghold, Fortified City or Abbey: its
        holder (and an Abbey's Abbess), a family of the same player, and those the holder
        lets in by a standing `ALLOW ... TO ENTER`; the others are on its outskirts.  A
        city without a building keeps no one out."""
        c = self.city(city)
        if not c.building or c.holder is None or c.holder == family:
            return True
        if c.building == "abbey" and any(c.abbey in n.abbess and n.family == family
                                         for n in self.s.living()):
            return True
        holder, mover = self.account(c.holder), self.account(family)
        return holder == mover or any(
            d.get("kind") == "allow_enter" and d.get("who") in ("ANYONE", mover)
            and d.get("city") in (None, city) for d in self.s.players[holder].standing)

    def arrive(self, city: str, family: str) -> None:
        c = self.city(city)
        if family not in c.occupants:
            c.occupants.append(family)
        self.refresh_control(city)

    def check_fortified(self, city: str) -> None:
        """FE 4.7: a family that takes a Fiefdom's Fortified City takes its Title."""
        c = self.city(city)
        if c.building != "fortified" or c.holder is None:
            return
        region = self.t.region_of(city)
        lord = self.lord_of(region.key)
        if lord is None or lord.family == c.holder:
            return
        heirs = [n for n in self.s.living(c.holder) if n.free] or self.s.living(c.holder)
        lord.titles.remove(region.key)
        if heirs:
            heirs[0].titles.append(region.key)
            self.emit(EventId.TITLE_LOST, {"region": region.key, "from": lord.key,
                                           "to": heirs[0].key, "city": city},
                      actor=self.owner(lord.family))
        else:
            self.emit(EventId.TITLE_LOST, {"region": region.key, "from": lord.key, "to": None,
                                           "city": city}, actor=self.owner(lord.family))

    def walls(self, city: str) -> int:
        """The attacker's melee penalty of the city's building (FE 7.4, 4.9)."""
        b = self.t.battle
        return {"stronghold": b.stronghold_penalty, "royal": b.stronghold_penalty,
                "fortified": b.fortified_penalty}.get(self.city(city).building, 0)

    def royal_family(self) -> set[str]:
        """FE Definitions: the King, the Queen and the Prince of Wales (the Sovereign and
        the royal spouse)."""
        s = self.s
        return {k for k in (s.sovereign, s.queen, s.prince) if k}

    def region_has(self, region: int, card: str) -> bool:
        """A card (a disaster, a fortune card, a Tax) lies on the Region's sea."""
        return card in self.s.seas.get(str(region), [])

    def lord_of(self, region: str) -> Noble | None:
        return next((n for n in self.s.living() if region in n.titles), None)

    def stock(self, family: str, unit: str) -> int:
        return self.s.families[family].stock.get(unit, 0)

    def return_units(self, city: str, family: str, unit: str, n: int) -> None:
        """Units off the map go back to their family's stockpile (FE 7.5)."""
        self.city(city).add(family, unit, -n)
        self.off_map[city, family, unit] = self.off_map.get((city, family, unit), 0) + n
        if unit != "crossbow":
            stock = self.s.families[family].stock
            stock[unit] = stock.get(unit, 0) + n

    def exchange_troops(self, city: str, old: str, new: str) -> dict[str, int]:
        """Units of ``old`` in the city replaced by the same units of ``new`` from its
        stockpile, as many as it has (FE 4.8, 4.9); the engines go with the troops, as the
        Bombard does in Ex 10-5 (PROPOSED), hired Crossbowmen stay.  What was exchanged."""
        c = self.city(city)
        done: dict[str, int] = {}
        for unit in UNITS:
            n = min(c.units_of(old).get(unit, 0), self.stock(new, unit))
            if n:
                self.return_units(city, old, unit, n)
                c.add(new, unit, n)
                self.s.families[new].stock[unit] -= n
                done[unit] = n
        if done:
            self.emit(EventId.TROOPS_EXCHANGED, {"city": city, "from": old, "to": new,
                                                 "units": done})
        return done

    def distances(self, start: str) -> dict[str, int]:
        """Road distances from a city (breadth first, neighbours sorted)."""
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for city in frontier:
                for near in self.t.neighbours(city):
                    if near not in seen:
                        seen[near] = seen[city] + 1
                        nxt.append(near)
            frontier = nxt
        return seen

    def disperse(self, family: str, city: str) -> None:
        """FE 10.3-10.5: troops left with no noble of their family go in groups of 4 to
        the nearest family nobles, else its Fortified Cities, Strongholds, controlled
        cities (nearest first, each next group to the next place, PROPOSED); engines stay
        (Ex 10-5)."""
        c = self.city(city)
        if self.nobles_at(city, family):
            return
        troops = [u for u in ("knight", "crossbow", "archer", "men_at_arms")
                  for _ in range(c.units_of(family).get(u, 0))]
        if not troops:
            return
        far = self.distances(city)
        kin = sorted({n.city for n in self.s.living(family) if n.free and n.city != city},
                     key=lambda x: (far.get(x, 99), x))
        rank = {"fortified": 0, "stronghold": 1}
        held = sorted((x.name for x in self.s.cities.values()
                       if x.holder == family and x.name != city),
                      key=lambda x: (rank.get(self.city(x).building, 2), far.get(x, 99), x))
        places = kin or held
        if not places:
            return
        moved: dict[str, dict[str, int]] = {}
        for i in range(0, len(troops), 4):
            to = places[(i // 4) % len(places)]
            for unit in troops[i:i + 4]:
                c.add(family, unit, -1)
                self.city(to).add(family, unit, 1)
                moved.setdefault(to, {}).setdefault(unit, 0)
                moved[to][unit] += 1
        for to in moved:
            self.arrive(to, family)
        self.refresh_control(city)
        self.emit(EventId.DISPERSED, {"family": family, "city": city,
                                      "to": sorted(moved)}, actor=self.account(family),
                  public=False)
