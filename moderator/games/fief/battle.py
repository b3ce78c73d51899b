"""Battles: the declaration and the battle rounds (FE 7.0-7.8, 6.4, 6.8, 7.9 sally).

A battle is fought to its end by the engine with the battle plan of fief-email.md §5.1:
losses by each side's LOSSES plan (7.5), always as many hits as can be taken; it ends in
victory, annihilation, deadlock (3 rolls without loss), surrender, truce, or when the
attacker cannot roll a die against a fortification (7.8 note).  The sides are in
`army.py`, the projectiles in `projectiles.py`, the end of a battle in `aftermath.py`,
coalitions and truces in `coalition.py`, withdrawals and sallies in `tactics.py`.
"""

from __future__ import annotations

from typing import Any

from moderator.games.fief import aftermath, battle_report, coalition, excalibur, siege, tactics
from moderator.games.fief.aftermath import lone_nobles
from moderator.games.fief.army import LOSS_ORDER, Side
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Attack, Pillage, Sally, TurnOrders
from moderator.games.fief.pillage import pillage
from moderator.games.fief.projectiles import actor, fire, roll, untaken_aims
from moderator.games.fief.realm import Realm

__all__ = ["LOSS_ORDER", "Side", "battles_phase", "declare", "fight", "lone_nobles",
           "melee_dice"]


def melee_dice(realm: Realm, attacker: Side, defender: Side) -> tuple[int, int]:
    """FE 7.3-7.4: dice by SP; the attacker loses 1 (Stronghold) or 2 (Fortified City)."""
    penalty = 0 if attacker.tunnels else defender.fortified
    a = max(0, realm.t.battle_dice(attacker.sp()) - penalty)
    return a, realm.t.battle_dice(defender.sp())


def _melee(realm: Realm, attacker: Side, defender: Side, rnd: dict[str, Any]) -> None:
    """FE 7.3, 7.5: both sides roll at once, take their losses at once; hits left once
    every troop is gone fall on the nobles, one each."""
    a_dice, d_dice = melee_dice(realm, attacker, defender)
    a_faces = roll(realm, a_dice, attacker.label, "melee", actor(realm, attacker))
    d_faces = roll(realm, d_dice, defender.label, "melee", actor(realm, defender))
    if _grail(defender):   # FE 12.1: the attacker's ff faces do nothing
        a_faces = [f for f in a_faces if f != 2]
    a_hits = sum(a_faces) + (_bonus(realm, attacker) if a_faces else 0) \
        + attacker.per_die * len(a_faces)
    d_hits = sum(d_faces) + (_bonus(realm, defender) if d_faces else 0) \
        + defender.per_die * len(d_faces)
    a_left = defender.take_hits(a_hits) if defender.troops() else a_hits
    d_left = attacker.take_hits(d_hits) if attacker.troops() else d_hits
    rnd.update({"attacker_faces": a_faces, "defender_faces": d_faces,
                "attacker_hits": a_hits, "defender_hits": d_hits})
    realm.emit(EventId.BATTLE_ROUND, {"city": attacker.city, **rnd})
    aftermath.slay_spare(realm, defender, a_left)
    aftermath.slay_spare(realm, attacker, d_left)


def _stalled(realm: Realm, attacker: Side, defender: Side, rnd: dict[str, Any]) -> bool:
    """FE 7.8 note: no melee die against walls and no engine fired: the attack ends."""
    a_dice, _ = melee_dice(realm, attacker, defender)
    return (a_dice == 0 and bool(defender.fortified) and not attacker.tunnels
            and not rnd.get("projectiles"))


def fight(realm: Realm, attacker: Side, defender: Side, why: str) -> str:
    """Fight to the end; returns the winner's label, or "" when nobody won."""
    t = realm.t
    record: dict[str, Any] = {"city": attacker.city, "attacker": attacker.label,
                              "defender": defender.label, "why": why, "rounds": []}
    begins: dict[str, Any] = {"city": attacker.city, "attacker": attacker.label,
                              "defender": defender.label, "why": why,
                              "attacker_units": aftermath.shown(attacker),
                              "defender_units": aftermath.shown(defender)}
    if attacker.members or defender.members:     # FE 7.0 Ally Attacks
        begins["allies"] = {"attacker": list(attacker.members),
                            "defender": list(defender.members)}
    realm.emit(EventId.BATTLE_BEGINS, begins)
    start = battle_report.before(realm, attacker, defender, why)
    tactics.hire_in_battle(realm, attacker, defender)
    quiet = 0
    outcome = ""
    quitter: Side | None = None
    for number in range(1, t.battle.max_battle_rounds + 1):
        before = attacker.lost + defender.lost
        rnd: dict[str, Any] = {"round": number}
        # FE 5.2: a Cavalcade is fought with melee only; FE 7.9: so is a sally.
        if why not in ("cavalcade", "sally"):
            fire(realm, attacker, defender, rnd)
        if _stalled(realm, attacker, defender, rnd):
            outcome = "stalled"
            record["rounds"].append(rnd)
            break
        _melee(realm, attacker, defender, rnd)
        record["rounds"].append(rnd)
        quiet = quiet + 1 if attacker.lost + defender.lost == before else 0
        if not attacker.troops() or not defender.troops():
            break
        if quiet >= t.battle.deadlock_rounds:
            outcome = "deadlock"
            break
        if attacker.family is None and attacker.troops() <= defender.troops():
            outcome = "invaders withdraw"   # FE 6.8
            break
        quitter = next((side for side in (defender, attacker)
                        if aftermath.surrenders(realm, side)), None)
        if quitter is not None:
            outcome = "surrender"
            break
        outcome = _end_of_roll(realm, attacker, defender, why)
        if outcome:
            break
        coalition.betrayals(realm, attacker, defender, number)
    winner = _result(realm, attacker, defender, outcome, quitter)
    if outcome != "truce":
        coalition.truce_unmatched(realm, attacker, defender)
    record["winner"] = winner
    record["outcome"] = outcome or ("victory" if winner else "annihilation")
    realm.battles.append(record)
    realm.emit(EventId.BATTLE_ENDS, {"city": attacker.city, "winner": winner,
                                     "outcome": record["outcome"]})
    realm.refresh_control(attacker.city)
    battle_report.tell(realm, start, attacker, defender, winner, record["outcome"])
    return winner


def _end_of_roll(realm: Realm, attacker: Side, defender: Side, why: str) -> str:
    """FE 7.8, 7.2, 7.9 at the end of a battle roll, in the order of fief-email.md §5.2
    E4: tactical destruction, the defender's withdrawal, a truce, the sally back, a side
    that ends the battle alone."""
    tactics.destroy_engines(realm, attacker)
    tactics.destroy_engines(realm, defender)
    if tactics.withdraw(realm, defender):
        return "" if defender.troops() else "withdrawal"
    terms = coalition.truce(realm, attacker, defender)
    if terms is not None:
        coalition.keep_truce(realm, attacker, defender, terms)
        return "truce"
    if why == "sally" and tactics.sally_back(realm, attacker):
        return "sally back"
    if tactics.ends(realm, attacker, defender):
        return "ended"
    return ""


def _result(realm: Realm, attacker: Side, defender: Side, outcome: str,
            quitter: Side | None) -> str:
    if outcome == "surrender" and quitter is not None:
        other = attacker if quitter is defender else defender
        aftermath.surrender(realm, quitter)
        aftermath.take_captives(realm, other, quitter)
        return other.label
    if outcome in ("", "withdrawal"):
        if attacker.troops() and not defender.troops():
            aftermath.take_captives(realm, attacker, defender)
            return attacker.label
        if defender.troops() and not attacker.troops():
            aftermath.take_captives(realm, defender, attacker)
            return defender.label
    return ""


def _grail(side: Side) -> bool:
    """FE 12.1: the Holy Grail protects the defending side its noble stands with."""
    return any("Holy Grail" in n.relics for n in side.nobles())


def _bonus(realm: Realm, side: Side) -> int:
    """Excalibur +1 (FE 13.2) and +1 for each Royal Guard marker (FE 13.1, reading A14:
    on each melee roll) to the side's melee hits."""
    bonus = sum(excalibur.melee_bonus(realm, side.city, f) for f in side.families) \
        if side.members else excalibur.melee_bonus(realm, side.city, side.family)
    return bonus + sum(side.guards())


def battles_phase(realm: Realm) -> None:
    """FE 7.0: in player order, each player's SALLY and ATTACK lines; then sieges and
    pillage; last, a TARGET whose archers never aimed is told (FE 7.2)."""
    lone_nobles(realm)
    siege.check(realm)
    coalition.note_mismatches(realm)
    for player in realm.s.player_order():
        orders = realm.orders.get(player, TurnOrders())
        for sally in orders.of(Sally):
            sides = tactics.sally_sides(realm, player, sally.city)
            if sides is not None:
                fight(realm, *sides, "sally")
        for order in orders.of(Attack):
            declare(realm, player, order.city, order.against, order.tunnels)
    siege.check(realm)
    siege.declare(realm)
    for player in realm.s.player_order():
        for p in realm.orders.get(player, TurnOrders()).of(Pillage):
            pillage(realm, player, p)
    untaken_aims(realm)


def declare(realm: Realm, player: str, city: str, against: str | None,
            tunnels: bool = False) -> None:
    """FE 7.0: an attack by a free noble with troops; the sides with their coalition
    partners (matching JOINs) and the attacker's and defender's other families."""
    s = realm.s
    text = f"ATTACK {city}"
    c = s.cities[city]
    mine = [f for f in s.players[player].families if realm.nobles_at(city, f) and c.troop_count(f)]
    if not mine:
        realm.refuse(player, text, "an attack needs a free noble with troops there (FE 7.0)")
        return
    if realm.region_has(realm.t.region_of(city).number, "Storms"):
        realm.refuse(player, text, "no battles in a region with Storms (FE 2.5)")
        return
    foes = [f for f in s.family_order() if f not in s.players[player].families
            and c.troop_count(f) and (against is None or s.families[f].player == against)]
    if not foes:
        realm.refuse(player, text, "no opposing troops there")
        return
    foe = c.holder if c.holder in foes else foes[0]
    enemy = realm.account(foe)
    attackers = _sides(realm, player, city, enemy, mine[0])
    defenders = _sides(realm, enemy, city, player, foe)
    defenders = [f for f in defenders if f not in attackers]
    if coalition.garter_bound(realm, mine, city, defenders):
        realm.refuse(player, text, "a Lord of the Garter may not attack his Sovereign (FE 13.3)")
        return
    attackers = [f for f in attackers if f in s.players[player].families
                 or not coalition.garter_bound(realm, [f], city, defenders)]
    fort = realm.walls(city)
    # FE 5.0: an attacker let in by the holder need not overcome the walls.
    walled = c.holder in defenders and not realm.inside(city, mine[0])
    defender = coalition.build(realm, city, defenders, fortified=fort if walled else 0)
    attacker = coalition.build(realm, city, attackers)
    attacker.tunnels = _tunnels(realm, player, defender, tunnels)
    fight(realm, attacker, defender, "attack")


def _sides(realm: Realm, player: str, city: str, opponent: str, first: str) -> list[str]:
    """The families of one side: the named family, the player's other families there with
    troops (Ex 13-3), then each matched partner's (FE 7.0)."""
    out = [first] + [f for f in coalition.families_of(realm, player, city) if f != first]
    for other in coalition.partners(realm, player, city, opponent):
        out += [f for f in coalition.families_of(realm, other, city) if f not in out]
    return out


def _tunnels(realm: Realm, player: str, defender: Side, wanted: bool) -> bool:
    """FE 10.2 Attack from the Tunnels: a Passage card cancels the melee penalty of the
    defender's walls; spent only when there are walls to get under."""
    if not (wanted and defender.fortified and "Passage" in realm.s.players[player].hand):
        return False
    realm.s.players[player].hand.remove("Passage")
    realm.s.fortune_discard.append("Passage")
    realm.emit(EventId.PASSAGE_TUNNELS, {"player": player, "city": defender.city})
    return True
