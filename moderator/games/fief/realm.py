"""`Realm`: one adjudication's working state, tables, dice and events.

The rules modules are functions of a Realm; it owns the few shared helpers so that no rule
reaches for randomness or state another way: the events, dice and purses (realm_core.py),
the cities and their control (realm_map.py), and here the fates of nobles: deaths and the
titles they leave, crowns, captures and releases.
"""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.realm_map import RealmMap
from moderator.games.fief.state import Noble


class Realm(RealmMap):
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
