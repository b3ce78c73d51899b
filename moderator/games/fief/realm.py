"""`Realm`: one adjudication's working state, tables, dice and events.

The rules modules are functions of a Realm; it owns the few shared helpers (events, dice,
the battle die, card draws, city control, deaths) so that no rule reaches for randomness or
state another way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from moderator.dice import Dice
from moderator.games.base import Event
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import TurnOrders
from moderator.games.fief.state import City, GameState, Noble
from moderator.games.fief.state.model import UNITS
from moderator.games.fief.tables import Tables

T = TypeVar("T")
# The dice log's mark of a Battle Die (a d6 read through its faces, FE 7.1); the sheet
# template reads it (templates/fief/turnsheet.md.j2 "Your dice").
BATTLE_DIE = "Battle Die: "


class Realm:
    def __init__(self, state: GameState, tables: Tables, dice: Dice) -> None:
        self.s = state
        self.t = tables
        self.dice = dice
        self.events: list[Event] = []
        self.orders: dict[str, TurnOrders] = {}
        self.moved_units: dict[tuple[str, str], dict[str, int]] = {}   # (family, city) -> moved
        self.battles: list[dict[str, Any]] = []
        self.garter_eligible: list[str] = []        # Lords who beat invaders this round
        self.loans: list[tuple[str, str, str, int]] = []   # Crossbowmen lent (FE 11.1)
        # FE 5.0, 5.4: this movement phase's arrivals: (city, family, came from).
        self.entries: list[tuple[str, str, str]] = []
        # Units taken off the map this phase, by (city, family, unit): a battle report
        # reads its losses here (FE 7.5; battle_report.py).
        self.off_map: dict[tuple[str, str, str], int] = {}

    # -- events and dice ---------------------------------------------------------------
    def emit(self, event: EventId, args: Mapping[str, Any] | None = None,
             actor: str | None = None, public: bool = True) -> None:
        self.events.append(Event(event.value, dict(args or {}), actor=actor, public=public,
                                 week=self.s.round))

    def refuse(self, player: str, order: str, reason: str) -> None:
        """An order that could not run when its turn came: told on the sheet (§2.2)."""
        self.emit(EventId.ORDER_REFUSED, {"order": order, "reason": reason}, actor=player,
                  public=False)

    def d6(self, subsystem: str, purpose: str, actor: str | None = None) -> int:
        return self.dice.roll(subsystem, "1d6", purpose, actor=actor).total

    def battle_die(self, subsystem: str, purpose: str, actor: str | None = None) -> int:
        """One Battle Die: a d6 read through rules.battle.die_faces (FE 7.1).  Its purpose
        in the dice log starts with `BATTLE_DIE`, so the sheet shows its face ("ff"), not
        the d6 behind it (templates/fief/turnsheet.md.j2)."""
        face = self.d6(subsystem, BATTLE_DIE + purpose, actor)
        return self.t.battle.die_faces[face - 1]

    def pick(self, items: Sequence[T], subsystem: str, purpose: str) -> T:
        """A uniform choice from a sorted list, by dice (never module-level random)."""
        if len(items) == 1:
            return items[0]
        roll = self.dice.roll(subsystem, f"1d{len(items)}", purpose)
        return items[roll.total - 1]

    def shuffle(self, items: Sequence[T], subsystem: str, purpose: str) -> list[T]:
        """Fisher-Yates with dice: the same seed always shuffles the same way."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.dice.roll(subsystem, f"1d{i + 1}", purpose).total - 1
            out[i], out[j] = out[j], out[i]
        return out

    # -- players, families, nobles -----------------------------------------------------
    def player_count(self) -> int:
        return len(self.s.seats)

    def account(self, family: str) -> str:
        """The player whose purse and hand a family uses (a pot for two, FE 13.7)."""
        return self.s.families[family].player

    def owner(self, family: str | None) -> str | None:
        """The player of a family, if it is one (None: Independent, the invaders)."""
        return self.account(family) if family in self.s.families else None

    def cash(self, family: str) -> int:
        return self.s.players[self.account(family)].cash

    def pay(self, family: str, amount: int) -> None:
        player = self.s.players[self.account(family)]
        if amount > player.cash:
            raise AssertionError(f"{family} cannot pay {amount}")
        player.cash -= amount

    def earn(self, family: str, amount: int) -> None:
        self.s.players[self.account(family)].cash += amount

    def noble(self, key: str) -> Noble:
        return self.s.nobles[key]

    def nobles_at(self, city: str, family: str | None = None,
                  free_only: bool = True) -> list[Noble]:
        return [n for n in self.s.living(family) if n.city == city
                and (n.free or not free_only)]

    def allied(self, a: str, b: str) -> bool:
        """Families allied through marriage (FE 9.0) or of one player (FE 13.7)."""
        if a == b or self.account(a) == self.account(b):
            return True
        return any(n.spouse and self.s.nobles[n.spouse].family == b
                   for n in self.s.living(a))

    # -- cities and control ------------------------------------------------------------
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

    # -- deaths and titles -------------------------------------------------------------
    def drop_candidacy(self, key: str) -> None:
        """FE 9.1: a candidate is a living Lord; his standing `CANDIDATE` lines go."""
        if key in self.s.candidates:
            self.s.candidates.remove(key)
        for player in self.s.players.values():
            player.standing[:] = [d for d in player.standing
                                  if not (d["kind"] == "candidate"
                                          and str(d.get("lord", "")).lower() == key)]

    def kill(self, noble: Noble, cause: str) -> None:
        """FE 4.8: the noble, card and retainer leave the game; titles pass on."""
        if not noble.alive or self._skull(noble, cause):
            return
        noble.status = "dead"
        noble.garter = False          # FE 13.3: the Title is lost if the Lord dies
        noble.royal_knights = noble.royal_men_at_arms = 0     # FE 13.1
        # Public news, and on the sheet of the player who lost him (FE 4.8).
        self.emit(EventId.NOBLE_SLAIN, {"noble": noble.key, "family": noble.family,
                                        "city": noble.city, "cause": cause},
                  actor=self.s.player_of(noble.family))
        self.s.removed.append(f"Noble {noble.name}")
        self.drop_candidacy(noble.key)
        if noble.retainer:
            self.s.removed.append(f"Retainer {noble.retainer}")
            noble.retainer = None
        for captive in [n for n in self.s.living() if n.captor == noble.key]:
            self.release(captive, "captor died")
        if noble.spouse:
            spouse = self.s.nobles[noble.spouse]
            spouse.spouse = None
            self.s.families[spouse.family].ring = None
            self.s.families[noble.family].ring = None
            self.emit(EventId.MARRIAGE_ENDS, {"noble": noble.key, "spouse": spouse.key})
        self._discard_holy_orders(noble)
        self.drop_excalibur(noble)
        if self.s.prince == noble.key:
            self.s.prince = None
        if self.s.sovereign == noble.key:
            self.s.sovereign = None
            self._prince_succeeds()
        if self.s.queen == noble.key:
            self.s.queen = None
        for region in list(noble.titles):
            noble.titles.remove(region)
            heirs = [n for n in self.s.living(noble.family)]
            partner = self.s.nobles[noble.spouse] if noble.spouse else None
            heir = heirs[0] if heirs else partner if partner and partner.alive else None
            if heir is not None:
                heir.titles.append(region)
            self.emit(EventId.TITLE_PASSED, {"region": region, "from": noble.key,
                                             "to": heir.key if heir else None})
            if heir is not None and heir is partner:
                self._spouse_takes_the_fortified_city(region, noble.family, heir.family)
        noble.spouse = None
        self.drop_relics(noble)
        self.refresh_control(noble.city)

    def _discard_holy_orders(self, noble: Noble) -> None:
        """FE 4.8: "A Bishop, Archbishop, or Abbess Title is discarded. Then all cards in
        the Character Deck are reshuffled" (the Abbey stays): the draw pile and its
        discards shuffled together into a new pile (fief-email.md A72)."""
        s = self.s
        cards = ["Abbess" for _ in noble.abbess]
        if noble.clergy:
            district = self.t.district(noble.clergy)
            cards.append(f"{district.rank.title()} of {district.cathedral}")
        noble.abbess, noble.clergy = [], None
        if not cards:
            return
        pile = sorted([*s.character_deck, *s.character_discard, *cards])
        s.character_deck = self.shuffle(pile, "deck", "reshuffle the Character deck (FE 4.8)")
        s.character_discard = []
        self.emit(EventId.DECK_RESHUFFLED, {"deck": "character", "cards": len(pile)})

    def _spouse_takes_the_fortified_city(self, region: str, old: str, new: str) -> None:
        """FE 4.8: a title given to the spouse brings the spouse's family into the
        fiefdom's Fortified City: the troops there are exchanged for the spouse family's
        own, unit for unit, as far as its stockpile goes."""
        forts = [c for c in self.t.region(region).cities
                 if self.city(c).building == "fortified"]
        for city in forts:
            if self.exchange_troops(city, old, new):
                self.arrive(city, new)

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

    def _skull(self, noble: Noble, cause: str) -> bool:
        """FE 12.3, A77: once a game, the Skull of Saint Caradoc raises a noble who has just
        died in its city: its holder's standing `SKULL` uses it on the first death there of
        one of his own families' nobles, `SKULL ANY` on anyone's, `SKULL FOR <noble>` on
        that noble's."""
        skull = "Skull of Saint Caradoc"
        holder = next((n for n in self.s.living() if skull in n.relics and n.free
                       and n.city == noble.city and n.key != noble.key), None)
        if holder is None or self.s.skull_used:
            return False
        player = self.account(holder.family)
        mine = self.account(noble.family) == player
        standing = self.s.players[player].standing
        if not any(d.get("kind") == "skull" and (
                d.get("whom", "mine") == "any" or (d.get("whom", "mine") == "mine" and mine)
                or str(d.get("whom", "")).lower() == noble.key) for d in standing):
            return False
        self.s.skull_used = True
        self.emit(EventId.RELIC_USED, {"relic": skull, "player": self.account(holder.family),
                                       "noble": noble.key, "cause": cause})
        return True

    def crown(self, key: str) -> None:
        """A new King or Sovereign Queen (FE 9.1, 13.1): two Royal Knights for the
        Sovereign, two Royal Men-at-Arms for the spouse, who is Queen if the King's wife."""
        s = self.s
        for n in s.nobles.values():
            n.royal_knights = 0
        king = s.nobles[key]
        s.sovereign = key
        king.royal_knights = 2
        self.drop_candidacy(key)    # "standing until elected" (fief-email.md §3, 1B)
        if king.spouse:
            self.royal_spouse(king.spouse)
        self._royal_stronghold_changes_sides(king.family)

    def _royal_stronghold_changes_sides(self, family: str) -> None:
        """FE 4.9: with a new Sovereign the troops in the Royal Stronghold change sides,
        replaced by the new Sovereign's own as far as his stockpile goes; those that
        cannot be replaced stay their family's (PROPOSED), and an empty Royal Stronghold
        passes to the new Sovereign's family."""
        royal = next((c for c in self.s.cities.values() if c.building == "royal"), None)
        if royal is None or royal.holder in (None, family):
            return
        old = royal.holder or ""
        self.exchange_troops(royal.name, old, family)
        if self.present(royal.name, old):
            if royal.units_of(family):
                self.arrive(royal.name, family)
            return
        royal.holder = family
        royal.occupants = [family] if royal.units_of(family) else []
        self.emit(EventId.CITY_TAKEN, {"city": royal.name, "family": family, "from": old})

    def royal_spouse(self, key: str) -> None:
        """FE 9.0, 13.1: the Sovereign's spouse takes two Royal Men-at-Arms (a former
        Queen keeps hers until a new one is crowned)."""
        s = self.s
        for n in s.nobles.values():
            n.royal_men_at_arms = 0
        spouse = s.nobles[key]
        spouse.royal_men_at_arms = 2
        if s.sovereign and s.nobles[s.sovereign].sex == "m":
            s.queen = key

    def drop_excalibur(self, noble: Noble) -> None:
        """FE 13.2: the sword of a holder slain, ambushed or taken lies where he fell."""
        if self.s.excalibur_holder == noble.key:
            self.s.excalibur_holder = None
            self.s.excalibur_city = noble.city
            self.s.excalibur_dropped = True

    def _prince_succeeds(self) -> None:
        """FAQ P2, Defs: the Prince of Wales is King when the King or his mother the
        Sovereign Queen dies."""
        prince = self.s.nobles.get(self.s.prince) if self.s.prince else None
        if prince is None or not prince.alive:
            return
        self.s.prince = None
        self.crown(prince.key)
        self.emit(EventId.ELECTED, {"noble": prince.key, "tally": {}, "title": "King",
                                    "prince": True})

    def drop_relics(self, noble: Noble) -> None:
        """FE 12.0: a dead or captured noble's Relics stay in the city for another noble
        to pick up (one face-up Relic a city is kept; more are lost, PROPOSED)."""
        city = self.city(noble.city)
        for relic in noble.relics:
            if city.relic is None:
                city.relic, city.relic_up = relic, True
            else:
                self.s.removed.append(f"Relic {relic}")
        noble.relics = []

    def release(self, noble: Noble, why: str) -> None:
        """FE 7.6: a released noble goes to a family Stronghold, else to a family noble."""
        noble.status = "free"
        noble.captor = None
        forts = sorted(c.name for c in self.s.cities.values()
                       if c.holder == noble.family
                       and c.building in ("stronghold", "fortified", "royal"))
        kin = [n.city for n in self.s.living(noble.family) if n.free and n.key != noble.key]
        noble.city = forts[0] if forts else kin[0] if kin else noble.city
        self.emit(EventId.NOBLE_RELEASED, {"noble": noble.key, "city": noble.city, "why": why})
        self.arrive(noble.city, noble.family)

    def capture(self, noble: Noble, captor: str, city: str) -> None:
        noble.status = "captive"
        noble.captor = captor
        noble.royal_knights = noble.royal_men_at_arms = 0     # FE 13.1: the guard is gone
        self.drop_excalibur(noble)
        if captor.startswith("invaders:"):
            # FE 12.0: a Relic captured by Invaders is revealed and removed from the game.
            self.s.removed.extend(f"Relic {r}" for r in noble.relics)
            noble.relics = []
        else:
            self.drop_relics(noble)
        # Public news, and on the sheet of the player who lost him (as a death, FE 4.8).
        self.emit(EventId.NOBLE_CAPTURED, {"noble": noble.key, "captor": captor, "city": city},
                  actor=self.owner(noble.family))
        self.refresh_control(city)

    def ransom(self, noble: Noble) -> int:
        """FE 7.7, 6.7: 2 plus 2 per Title held."""
        titles = len(noble.titles) + (1 if noble.clergy else 0) + len(noble.abbess)
        titles += 1 if self.s.sovereign == noble.key else 0   # FE 6.7: every Title counts
        return self.t.money.ransom_base + self.t.money.ransom_per_title * titles

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

    def bandit_ransom(self, noble: Noble) -> int:
        """FE 13.4: 2 untitled, 4 a Lord, 5 a cleric without a fiefdom, 10 with one,
        nothing from the King or Queen."""
        if noble.key in (self.s.sovereign, self.s.queen):
            return 0
        if noble.clergy or noble.abbess:
            return 10 if noble.titles else 5
        return 4 if noble.titles else 2

    def vp(self, player: str) -> int:
        """FE 8.1: one per Fiefdom Title, one for the Relic VP marker."""
        fams = self.s.players[player].families
        titles = sum(len(n.titles) for n in self.s.living() if n.family in fams)
        return titles + (1 if self.s.players[player].relic_vp else 0)

    def loss_order(self, family: str) -> tuple[str, ...]:
        """The family's standing LOSSES plan, then the default cheapest-first order."""
        default = ("men_at_arms", "archer", "crossbow", "knight")
        plan: tuple[str, ...] = ()
        for data in self.s.players[self.account(family)].standing:
            if data.get("kind") == "losses" and data.get("family") in (None, family):
                plan = tuple(data["units"])
        return tuple(dict.fromkeys((*plan, *default)))
