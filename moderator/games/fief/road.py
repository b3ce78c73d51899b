"""On the road (FE 2.5, 5.2-5.3, 13.4): what befalls a group under way, on its own page
so that movement.py keeps the order of a move: Plague on entering a region, the Cavalcade
that forces its way through a city, the Bandits of Sherwood, and the troops it sets down."""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.fief import cards
from moderator.games.fief.battle import Side, fight
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Move
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble
from moderator.games.fief.state.model import TROOPS


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


def drop(realm: Realm, family: str, city: str, unit: str, n: int) -> None:
    realm.city(city).add(family, unit, n)
    moved = realm.moved_units.setdefault((family, city), {})
    moved[unit] = moved.get(unit, 0) + n


def plague_entry(realm: Realm, j: Journey) -> None:
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


def break_out(realm: Realm, family: str, group: list[Noble], units: dict[str, int],
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
        # Found playing by mail: the die stood alone under "Your dice", unexplained.
        realm.emit(EventId.BANDITS, {"family": family, "city": city, "roll": roll,
                                     "paid": [], "held": [], "cost": 0, "passed": True,
                                     "strike_on": list(realm.t.bandit_capture_on)},
                   actor=realm.account(family), public=False)
        return group
    free: list[Noble] = []
    held: list[Noble] = []
    cost = 0
    for noble in sorted(group, key=lambda n: (-realm.bandit_ransom(n), n.key)):
        price = realm.bandit_ransom(noble)
        if realm.cash(family) >= price:
            realm.pay(family, price)
            cost += price
            free.append(noble)
        else:
            held.append(noble)
    for noble in held:
        noble.city = city
        realm.capture(noble, "bandits", city)
    # Found playing by mail: the player's own sheet did not say his noble was stopped, nor
    # what the outlaws took (only the gazette's line, with no price).
    realm.emit(EventId.BANDITS, {"family": family, "city": city, "roll": roll,
                                 "paid": [n.key for n in free], "held": [n.key for n in held],
                                 "cost": cost}, actor=realm.account(family))
    if not free:
        for unit in ("men_at_arms", "archer", "crossbow"):
            n = units.pop(unit, 0)
            if n and unit != "crossbow":
                realm.s.families[family].stock[unit] += n
        if units.get("knight"):
            drop(realm, family, city, "knight", units.pop("knight"))
    return [n for n in group if n in free]
