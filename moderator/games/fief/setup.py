"""Setup: a new game, players taking seats, and the muster that founds the families
(FE Setup, 13.6-13.8; the missing starting forces per fief-email.md §1.8, PROPOSED)."""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Start
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import City, Family, GameState, Noble, Phase, Player
from moderator.games.fief.state.model import UNITS
from moderator.games.fief.tables import Tables


def new_game(name: str, tables: Tables) -> GameState:
    state = GameState(name=name)
    state.cities = {c: City(c) for c in tables.city_names}
    return state


def add_player(state: GameState, key: str, name: str, tables: Tables) -> GameState:
    if state.phase is not Phase.MUSTER:
        raise ValueError("the families are already founded: no one can join now")
    if len(state.seats) >= tables.setup.players_max:
        raise ValueError(f"Fief: England takes at most {tables.setup.players_max} players")
    if key in state.players:
        raise ValueError(f"{key} already plays")
    state.seats.append(key)
    state.players[key] = Player(key=key, name=name)
    return state


def colours_for(seats: int, tables: Tables) -> list[list[str]]:
    """One colour a player; two each in the two-player game (FE 13.7: Ex 13-2 pairs
    Green with Blue and Red with Yellow, so seat i takes colours i and i+2)."""
    c = list(tables.setup.colours)
    if seats == 2:
        return [[c[0], c[2]], [c[1], c[3]]]
    return [[c[i]] for i in range(seats)]


def muster(realm: Realm) -> bool:
    """Found the families if enough players have joined; False if still waiting."""
    s, t = realm.s, realm.t
    if len(s.seats) < t.setup.players_min:
        realm.emit(EventId.SETUP_WAITING, {"players": len(s.seats),
                                           "needed": t.setup.players_min})
        return False
    for key, colours in zip(s.seats, colours_for(len(s.seats), t), strict=True):
        s.players[key].families = colours
        for colour in colours:
            s.families[colour] = Family(colour, key, {u.key: u.stock for u in t.units
                                                      if u.key in UNITS and u.stock})
            s.players[key].cash += t.setup.start_cash
    # FE Setup: "first player" is not said; PROPOSED a d6 roll-off read as a pick by dice.
    s.first = s.seats.index(realm.pick(sorted(s.seats), "setup", "first player"))
    _deal(realm)
    _place_relics(realm)
    # FE 13.2 does not say where Excalibur starts: PROPOSED an inland city without a
    # Cathedral, at random (fief-map.md §8.5).
    inland = sorted(c for c in t.city_names if c not in t.ports()
                    and c not in {d.cathedral for d in t.districts})
    s.excalibur_city = realm.pick(inland, "setup", "the stone of Excalibur")
    taken: set[int] = set()
    for colour in s.family_order():
        player = s.families[colour].player
        ranked = [c for o in realm.orders.get(player, _NO).of(Start)
                  if o.family in (None, colour) for c in o.cities]
        wanted = list(ranked)
        if t.setup.random_start:
            # FE 13.6: roll the Region (re-roll a taken one); then the player's city there.
            region = realm.d6("setup", f"starting Region of {colour}", actor=player)
            while region in taken:
                region = realm.d6("setup", f"starting Region of {colour} (re-roll)", actor=player)
            ranked = [c for c in ranked if t.region_of(c).number == region] or list(
                t.region(region).cities)
        city = next((c for c in [*ranked, *t.setup.start_cities, *t.city_names]
                     if t.region_of(c).number not in taken), None)
        if city is None:
            raise AssertionError("more families than regions")
        if wanted and city != wanted[0]:
            # Found playing by mail: Bob wrote START Cardiff, Ann's Red had taken Wales,
            # and Bob's family mustered at London with nothing on his sheet to say why.
            why = (f"the die chose the Region for {colour} (FE 13.6)" if t.setup.random_start
                   else f"the Region of {wanted[0]} was taken by a family before {colour} "
                        "in the order of play (one family a Region, FE Setup)")
            realm.refuse(player, "START " + ", ".join(wanted), f"{why}: {colour} musters at "
                         f"{city}")
        taken.add(t.region_of(city).number)
        _found(realm, colour, city)
    s.phase = Phase.ORDERS
    realm.emit(EventId.SETUP_DONE, {"players": len(s.seats), "order": s.family_order(),
                                    "first": s.seats[s.first]})
    return True


class _NoOrders:
    def of(self, cls: type) -> list[Start]:
        return []


_NO = _NoOrders()


def _deal(realm: Realm) -> None:
    """Setup: each sex pile shuffled, 3 removed unseen, one of each dealt per family; the
    rest of the nobles join the Character deck with its other cards (fief-email.md §1.2)."""
    s, t = realm.s, realm.t
    rest: list[str] = []
    hands: dict[str, list[str]] = {}
    for sex in ("m", "f"):
        pile = realm.shuffle(sorted(n.name for n in t.nobles if n.sex == sex), "setup",
                             f"shuffle the {'male' if sex == 'm' else 'female'} nobles")
        s.removed.extend(f"Noble {n}" for n in pile[:t.setup.removed_per_sex])
        pile = pile[t.setup.removed_per_sex:]
        for colour in s.family_order():
            hands.setdefault(colour, []).append(pile.pop(0))
        rest.extend(f"Noble {n}" for n in pile)
    others = [card for card, count in t.character_cards for _ in range(count)]
    s.character_deck = realm.shuffle(sorted(rest + others), "setup", "shuffle the Character deck")
    fortune = [card for card, count in (*t.fortune_cards, *t.disaster_cards)
               for _ in range(count)]
    s.fortune_deck = realm.shuffle(sorted(fortune), "setup", "shuffle Fortune & Disaster")
    retainers = [name for name, count, _ in t.retainers for _ in range(count)]
    s.retainer_deck = realm.shuffle(sorted(retainers), "setup", "shuffle the Retainers")
    for colour in s.family_order():
        for name in hands[colour]:
            card = t.noble_card(name)
            s.nobles[card.key] = Noble(card.key, card.name, card.sex, colour, "")


def _place_relics(realm: Realm) -> None:
    """FE 12 intro: the four Relics face down on the Cathedral cities, at random."""
    relics = realm.shuffle(["Holy Grail", "Chasuble of Thomas Becket", "Skull of Saint Caradoc",
                            "Saint Eanswith's Shinbone"], "setup", "place the Relics")
    for district, relic in zip(sorted(realm.t.districts, key=lambda d: d.key), relics,
                               strict=True):
        realm.s.cities[district.cathedral].relic = relic


def _found(realm: Realm, colour: str, city: str) -> None:
    """The PROPOSED start (Fief France 1429): a Stronghold, 1 Knight and 3 Men-at-Arms in
    one city with both nobles; each noble draws a Retainer (FE 2.12)."""
    s, t = realm.s, realm.t
    c = s.cities[city]
    if t.setup.start_stronghold:
        c.building = "stronghold"
    fam = s.families[colour]
    for unit, n in (("knight", t.setup.start_knights), ("men_at_arms", t.setup.start_men_at_arms)):
        c.add(colour, unit, n)
        fam.stock[unit] -= n
    for noble in s.living(colour):
        noble.city = city
        if s.retainer_deck:
            noble.retainer = s.retainer_deck.pop(0)
    c.occupants = [colour]
    c.holder = colour
    realm.emit(EventId.SETUP_FAMILY, {"family": colour, "player": fam.player, "city": city,
                                      "nobles": [n.key for n in s.living(colour)]})
