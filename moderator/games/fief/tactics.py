"""What a side may do inside a battle (FE 7.2 Tactical Destruction, 7.8/10.2 Withdraw,
7.9 Sally, 11.1 Crossbowmen hired in the middle of a battle), and a Passage lent to the
invaders' march (FE 10.2)."""

from __future__ import annotations

from moderator.games.fief import mercenaries
from moderator.games.fief.aftermath import ENGINES
from moderator.games.fief.army import Side
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    EndBattle,
    HelpInvaders,
    HireInBattle,
    Sally,
    TurnOrders,
    WithdrawPassage,
)
from moderator.games.fief.realm import Realm

# PROPOSED: a withdrawing noble takes the strongest troop he can (FE 7.8 leaves it open).
TAKEN_FIRST = ("knight", "crossbow", "archer", "men_at_arms")


def _players(realm: Realm, side: Side) -> list[str]:
    return list(dict.fromkeys(realm.account(f) for f in side.families))


def hire_in_battle(realm: Realm, *sides: Side) -> None:
    """FE 11.1: `HIRE <n> CROSSBOWMEN AT <city> IN BATTLE`: once the battle there is
    declared and the troops shown, Crossbowmen from the player's Mercenary card join his
    family on that side, 2 Shillings each (fief-email.md W12)."""
    for side in sides:
        for player in _players(realm, side):
            p = realm.s.players[player]
            family = next(f for f in side.families if realm.account(f) == player)
            for order in realm.orders.get(player, TurnOrders()).of(HireInBattle):
                if order.city != side.city:
                    continue
                text = f"HIRE {order.count} CROSSBOWMEN AT {order.city} IN BATTLE"
                cost = realm.t.unit("crossbow").cost * order.count
                why = mercenaries.hire_refusal(p, order.count, cost)
                if why:
                    realm.refuse(player, text, why)
                else:
                    mercenaries.take(p, order.count, cost)
                    realm.city(side.city).add(family, "crossbow", order.count)
                    realm.emit(EventId.HIRED, {"family": family, "count": order.count,
                                               "city": side.city, "cost": cost,
                                               "battle": True}, actor=player, public=False)


def destroy_engines(realm: Realm, side: Side) -> None:
    """FE 7.2 Tactical Destruction: at the end of a battle round a side with troops left
    destroys its own Trebuchets and Bombards by its standing `DESTROY ENGINES IF TROOPS
    BELOW n` (so that they do not fall into enemy hands)."""
    if side.family is None or not side.troops():
        return
    for fam in side.families:
        standing = realm.s.players[realm.account(fam)].standing
        below = next((d["below"] for d in reversed(standing) if d.get("kind") ==
                      "destroy_engines" and d.get("family") in (None, fam)), 0)
        if not side.troops() < below:
            continue
        c = realm.city(side.city)
        gone = {u: n for u in ENGINES if (n := c.units_of(fam).get(u, 0))}
        for unit, n in gone.items():
            realm.return_units(side.city, fam, unit, n)
        if gone:
            realm.emit(EventId.ENGINES_DESTROYED, {"city": side.city, "family": fam,
                                                   "units": gone})


def withdraw(realm: Realm, defender: Side) -> bool:
    """FE 7.8, 10.2 Withdraw: a defending player's `WITHDRAW FROM <city> WITH PASSAGE
    [TO <city>]` plays his Passage at the end of a battle roll: the defending side's
    nobles (his and his allies') go to one adjacent city, each with one of his family's
    troops; the rest stay and fight on."""
    if defender.family is None:
        return False
    for player in _players(realm, defender):
        hand = realm.s.players[player].hand
        for order in realm.orders.get(player, TurnOrders()).of(WithdrawPassage):
            if order.city != defender.city or not defender.nobles() or "Passage" not in hand:
                continue
            to = _where(realm, defender, order.to)
            hand.remove("Passage")
            realm.s.fortune_discard.append("Passage")
            _go(realm, defender, to)
            return True
    return False


def _where(realm: Realm, side: Side, wanted: str | None) -> str:
    """The city named if it is one road away; else one the side's family holds, else one
    without other troops, else the first (PROPOSED, in the map's sorted order)."""
    near = realm.t.neighbours(side.city)
    if wanted in near:
        return wanted
    held = [c for c in near if realm.city(c).holder in side.families]
    empty = [c for c in near if all(f in side.families for f in realm.city(c).troops
                                    if realm.city(c).troop_count(f))]
    return (held or empty or list(near))[0]


def _go(realm: Realm, side: Side, to: str) -> None:
    here = realm.city(side.city)
    moved: list[str] = []
    for noble in side.nobles():
        unit = next((u for u in TAKEN_FIRST if here.units_of(noble.family).get(u, 0)), None)
        if unit is not None:
            here.add(noble.family, unit, -1)
            realm.city(to).add(noble.family, unit, 1)
        noble.city = to
        moved.append(noble.key)
        realm.arrive(to, noble.family)
    realm.emit(EventId.WITHDRAWN, {"city": side.city, "to": to, "nobles": moved,
                                   "family": side.family})


def sally_sides(realm: Realm, player: str, city: str) -> tuple[Side, Side] | None:
    """FE 7.9 Sally: the besieged attack out on their turn: melee only, no engines, and
    without the walls; after a roll they go back inside by their `SALLY ... BACK IF LOST n`
    (default: half the troops they came out with, fief-email.md §5.1)."""
    from_orders = [o for o in realm.orders.get(player, TurnOrders()).of(Sally) if o.city == city]
    c = realm.city(city)
    text = f"SALLY {city}"
    fams = realm.s.players[player].families
    mine = [f for f in fams if realm.nobles_at(city, f) and c.troop_count(f)]
    if c.besieged_by is None or c.holder not in fams:
        realm.refuse(player, text, f"{city} is not a city of yours under siege (FE 7.9)")
        return None
    if not mine:
        realm.refuse(player, text, "a sally needs a free noble of yours with troops there")
        return None
    besieger = c.besieged_by
    attacker = Side(realm, city, mine[0], melee_only=True)
    defender = Side(realm, city, besieger)
    back = from_orders[-1].back if from_orders and from_orders[-1].back else 0
    attacker.back_after = back or max(1, (attacker.troops() + 1) // 2)
    return attacker, defender


def sally_back(realm: Realm, side: Side) -> bool:
    """After a battle roll of a sally: back inside once the losses reach the mark."""
    if side.lost >= side.back_after > 0:
        realm.emit(EventId.SALLY_BACK, {"city": side.city, "family": side.family,
                                        "lost": side.lost})
        return True
    return False


def ends(realm: Realm, attacker: Side, defender: Side) -> bool:
    """FE 7.8: `END BATTLE AT <city>`: the attacker of a Stronghold or Fortified City may
    alone decide to end the battle (both stay), and so may a side whose opponents have no
    noble left (Assassination); read after each battle roll."""
    for me, them in ((attacker, defender), (defender, attacker)):
        if me.family is None:
            continue
        may = (me is attacker and bool(defender.fortified)) or not them.has_leader()
        if not may:
            continue
        for player in _players(realm, me):
            if any(o.city == me.city for o in realm.orders.get(player, TurnOrders()).of(EndBattle)):
                realm.emit(EventId.BATTLE_ENDED_BY, {"city": me.city, "family": me.family})
                return True
    return False



def help_invaders(realm: Realm, army: str, city: str) -> bool:
    """FE 10.2 "a Player may even help Invaders move if they choose": the first player in
    player order with `HELP INVADERS AT <city> WITH PASSAGE` and a Passage in hand spends
    it when the army there is held by Storms (A74): it takes one move into, out of or
    within the Storms, still by the compass (PROPOSED: Storms are the only bar to the
    invaders' march that a Passage lifts; they need no permission and ignore sieges)."""
    for player in realm.s.player_order():
        hand = realm.s.players[player].hand
        orders = realm.orders.get(player, TurnOrders()).of(HelpInvaders)
        if "Passage" in hand and any(o.city == city for o in orders):
            hand.remove("Passage")
            realm.s.fortune_discard.append("Passage")
            realm.emit(EventId.INVADERS_HELPED, {"player": player, "army": army, "city": city})
            return True
    return False
