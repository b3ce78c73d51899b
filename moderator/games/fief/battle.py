"""Battles: projectiles, melee, losses, captives (FE 7.0-7.8, 6.4, 6.8).

A battle is fought to its end by the engine with the default battle plan of
fief-email.md §5.1: losses cheapest first, always as many hits as can be taken (7.5), no
surrender, no truce; it ends in victory, annihilation, deadlock (3 rolls without loss), or
when the attacker cannot roll a die against a fortification (7.8 note).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from moderator.games.fief import excalibur, siege
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Attack, Pillage, TurnOrders
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble

LOSS_ORDER = ("men_at_arms", "archer", "crossbow", "knight")


@dataclass
class Side:
    """One side of a battle: a family's army in the city, or the invaders there."""

    realm: Realm
    city: str
    family: str | None = None
    armies: list[str] = field(default_factory=list)
    fortified: int = 0          # attacker's melee penalty when this side sits in a fortification
    per_die: int = 0            # hits added for each die this side rolls (FE 5.3)
    tunnels: bool = False       # attacking from the tunnels: no melee penalty (FE 10.2)
    lost: int = 0

    @property
    def label(self) -> str:
        return self.family or "invaders"

    def units(self) -> dict[str, int]:
        if self.family is None:
            return {}
        return dict(self.realm.city(self.city).units_of(self.family))

    def nobles(self) -> list[Noble]:
        if self.family is None:
            return []
        return self.realm.nobles_at(self.city, self.family)

    def foot(self) -> int:
        return sum(self.realm.s.invaders[a].foot for a in self.armies)

    def leaders(self) -> int:
        return sum(1 for a in self.armies if self.realm.s.invaders[a].leader)

    def guards(self) -> tuple[int, int]:
        """The Royal Knights and Royal Men-at-Arms of this side's free nobles (FE 13.1)."""
        nobles = self.nobles()
        return (sum(n.royal_knights for n in nobles), sum(n.royal_men_at_arms for n in nobles))

    def troops(self) -> int:
        """Units that can take hits before the nobles (FE 7.5; leaders last, 6.4)."""
        if self.family is None:
            return self.foot() + self.leaders()
        u = self.units()
        return sum(u.get(k, 0) for k in LOSS_ORDER) + sum(self.guards())

    def sp(self) -> int:
        """FE 7.3."""
        t = self.realm.t
        if self.family is None:
            return self.foot() * t.invaders.foot_sp + self.leaders() * t.invaders.leader_sp
        u = self.units()
        sp = sum(u.get(k, 0) * t.unit(k).sp for k in LOSS_ORDER)
        knights, maa = self.guards()
        sp += knights * t.unit("knight").sp + maa * t.unit("men_at_arms").sp   # FE 13.1
        sp += sum(1 for n in self.nobles() if n.sex == "m" or n.is_lord)
        return sp

    def has_leader(self) -> bool:
        return bool(self.nobles()) if self.family else self.leaders() > 0

    def take_hits(self, hits: int) -> int:
        """Remove as many hit points of troops as possible up to ``hits`` (FE 7.5); among
        the removals that do, the family's LOSSES plan decides (its first troop lost
        first); returns the hits left over."""
        t = self.realm.t
        if self.family is None:
            return self._invader_hits(hits)
        u = self.units()
        # FE 13.1: the Royal Guard fights as Knights and Men-at-Arms and falls last
        # among its kind (PROPOSED).
        royal_k, royal_m = self.guards()
        u["knight"] = u.get("knight", 0) + royal_k
        u["men_at_arms"] = u.get("men_at_arms", 0) + royal_m
        order = self.realm.loss_order(self.family)
        cost = {k: t.unit(k).hits for k in LOSS_ORDER}
        best: tuple[int, tuple[int, ...]] | None = None
        choice: dict[str, int] = {}
        for knights in range(min(u.get("knight", 0), hits // cost["knight"]) + 1):
            left_k = hits - knights * cost["knight"]
            for xbow in range(min(u.get("crossbow", 0), left_k // cost["crossbow"]) + 1):
                left_x = left_k - xbow * cost["crossbow"]
                for maa in range(min(u.get("men_at_arms", 0), left_x) + 1):
                    archers = min(u.get("archer", 0), left_x - maa)
                    removal = {"knight": knights, "crossbow": xbow, "men_at_arms": maa,
                               "archer": archers}
                    total = sum(removal[k] * cost[k] for k in removal)
                    key = (total, tuple(removal[k] for k in order))
                    if best is None or key > best:
                        best, choice = key, removal
        for unit in LOSS_ORDER:
            n = choice.get(unit, 0)
            if not n:
                continue
            own = min(n, self.realm.city(self.city).units_of(self.family).get(unit, 0))
            if own:
                self.realm.return_units(self.city, self.family, unit, own)
            self._guards_fall(unit, n - own)
            self.lost += n
        return hits - (best[0] if best else 0)

    def _guards_fall(self, unit: str, n: int) -> None:
        field = {"knight": "royal_knights", "men_at_arms": "royal_men_at_arms"}.get(unit)
        for noble in self.nobles():
            if n <= 0 or field is None:
                return
            have = getattr(noble, field)
            lost = min(have, n)
            setattr(noble, field, have - lost)
            n -= lost

    def _invader_hits(self, hits: int) -> int:
        t = self.realm.t
        for key in self.armies:
            army = self.realm.s.invaders[key]
            kill = min(army.foot, hits // t.invaders.foot_hits)
            army.foot -= kill
            hits -= kill * t.invaders.foot_hits
            self.lost += kill
        if self.foot() == 0:
            for key in self.armies:
                army = self.realm.s.invaders[key]
                if army.leader and hits >= t.invaders.leader_hits:
                    army.leader = False
                    hits -= t.invaders.leader_hits
                    self.lost += 1
        return hits


def _roll(realm: Realm, dice: int, who: str, what: str, actor: str | None) -> list[int]:
    return [realm.battle_die("battle", f"{what} ({who})", actor) for _ in range(dice)]


def _actor(realm: Realm, side: Side) -> str | None:
    return realm.account(side.family) if side.family else None


def _projectiles(realm: Realm, a: Side, d: Side, record: dict[str, Any]) -> None:
    """FE 7.2: Trebuchets, then Bombards, then Archers/Crossbowmen, each simultaneous."""
    t = realm.t
    for kind in ("trebuchet", "bombard", "archer"):
        hits: dict[str, int] = {}
        for me, them in ((a, d), (d, a)):
            u = me.units()
            if me.family is None:
                continue
            if kind == "trebuchet" and u.get("trebuchet") and u.get("men_at_arms"):
                faces = _roll(realm, 2, me.label, "trebuchets", _actor(realm, me))
                hits[me.label] = sum(faces) + (1 if u["trebuchet"] >= 2 else 0)
                record.setdefault("projectiles", []).append(
                    {"side": me.label, "kind": kind, "faces": faces, "hits": hits[me.label]})
            elif kind == "bombard" and u.get("bombard") and u.get("men_at_arms"):
                faces = _roll(realm, u["bombard"], me.label, "bombards", _actor(realm, me))
                hits[me.label] = sum(faces)
                blanks = faces.count(0)
                if blanks and me.family:
                    realm.return_units(me.city, me.family, "bombard", blanks)
                    realm.return_units(me.city, me.family, "men_at_arms",
                                       min(blanks, me.units().get("men_at_arms", 0)))
                record.setdefault("projectiles", []).append(
                    {"side": me.label, "kind": kind, "faces": faces, "hits": hits[me.label],
                     "exploded": blanks})
            elif kind == "archer":
                n = u.get("archer", 0) + u.get("crossbow", 0)
                need = {0: 1, 1: t.battle.archers_vs_stronghold,
                        2: t.battle.archers_vs_fortified}[them.fortified]
                if n >= max(1, need):
                    faces = _roll(realm, 1, me.label, "archers", _actor(realm, me))
                    bonus = 1 if n >= t.battle.archer_bonus_from and not them.fortified else 0
                    hits[me.label] = sum(faces) + bonus
                    record.setdefault("projectiles", []).append(
                        {"side": me.label, "kind": kind, "faces": faces, "hits": hits[me.label]})
        for me, them in ((a, d), (d, a)):
            if hits.get(me.label):
                them.take_hits(hits[me.label])


def melee_dice(realm: Realm, attacker: Side, defender: Side) -> tuple[int, int]:
    """FE 7.3-7.4: dice by SP; the attacker loses 1 (Stronghold) or 2 (Fortified City)."""
    penalty = 0 if attacker.tunnels else defender.fortified
    a = max(0, realm.t.battle_dice(attacker.sp()) - penalty)
    return a, realm.t.battle_dice(defender.sp())


def fight(realm: Realm, attacker: Side, defender: Side, why: str) -> str:
    """Fight to the end; returns the winner's label, or "" when nobody won."""
    # Long: the FE 7.1-7.8 round loop (fire, melee, losses, surrender, deadlock) in one
    # place so the order of a battle round reads as the rulebook gives it.
    t = realm.t
    record: dict[str, Any] = {"city": attacker.city, "attacker": attacker.label,
                              "defender": defender.label, "why": why, "rounds": []}
    realm.emit(EventId.BATTLE_BEGINS, {"city": attacker.city, "attacker": attacker.label,
                                       "defender": defender.label, "why": why,
                                       "attacker_units": _shown(attacker),
                                       "defender_units": _shown(defender)})
    quiet = 0
    outcome = ""
    quitter: Side | None = None
    for number in range(1, t.battle.max_battle_rounds + 1):
        before = attacker.lost + defender.lost
        rnd: dict[str, Any] = {"round": number}
        if why != "cavalcade":          # FE 5.2: a Cavalcade is fought with melee only
            _projectiles(realm, attacker, defender, rnd)
        a_dice, d_dice = melee_dice(realm, attacker, defender)
        if a_dice == 0 and defender.fortified and not attacker.tunnels \
                and not rnd.get("projectiles"):
            outcome = "stalled"
            record["rounds"].append(rnd)
            break
        a_faces = _roll(realm, a_dice, attacker.label, "melee", _actor(realm, attacker))
        d_faces = _roll(realm, d_dice, defender.label, "melee", _actor(realm, defender))
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
        record["rounds"].append(rnd)
        realm.emit(EventId.BATTLE_ROUND, {"city": attacker.city, **rnd})
        # FE 7.5: hits left once every troop is gone fall on the nobles, one each.
        _slay_spare(realm, defender, a_left)
        _slay_spare(realm, attacker, d_left)
        quiet = quiet + 1 if attacker.lost + defender.lost == before else 0
        if not attacker.troops() or not defender.troops():
            break
        if quiet >= t.battle.deadlock_rounds:
            outcome = "deadlock"
            break
        if attacker.family is None and attacker.troops() <= defender.troops():
            outcome = "invaders withdraw"   # FE 6.8
            break
        quitter = next((side for side in (defender, attacker) if _surrenders(realm, side)), None)
        if quitter is not None:
            outcome = "surrender"
            break
    winner = ""
    if outcome == "surrender" and quitter is not None:
        other = attacker if quitter is defender else defender
        _surrender(realm, quitter)
        winner = other.label
        _take_captives(realm, other, quitter)
    elif not outcome:
        if attacker.troops() and not defender.troops():
            winner = attacker.label
            _take_captives(realm, attacker, defender)
        elif defender.troops() and not attacker.troops():
            winner = defender.label
            _take_captives(realm, defender, attacker)
        else:
            outcome = "annihilation"
    record["winner"] = winner
    record["outcome"] = outcome or "victory"
    realm.battles.append(record)
    realm.emit(EventId.BATTLE_ENDS, {"city": attacker.city, "winner": winner,
                                     "outcome": outcome or "victory"})
    realm.refresh_control(attacker.city)
    return winner


def _grail(side: Side) -> bool:
    """FE 12.1: the Holy Grail protects the defending side its noble stands with."""
    return any("Holy Grail" in n.relics for n in side.nobles())


def _bonus(realm: Realm, side: Side) -> int:
    """Excalibur +1 (FE 13.2) and +1 for each Royal Guard marker (FE 13.1, reading A14:
    on each melee roll) to the side's melee hits."""
    return excalibur.melee_bonus(realm, side.city, side.family) + sum(side.guards())


def _surrenders(realm: Realm, side: Side) -> bool:
    """The standing plan `SURRENDER IF TROOPS BELOW n` (fief-email.md §5.1), read at the
    end of each battle roll (FE 7.8)."""
    if side.family is None:
        return False
    limit = next((d["below"] for d in reversed(realm.s.players[realm.account(side.family)].standing)
                  if d.get("kind") == "surrender" and d.get("family") in (None, side.family)), 0)
    return 0 < side.troops() < limit


def _surrender(realm: Realm, side: Side) -> None:
    """FE 7.8 Surrender: the remaining troops leave the map; the nobles are taken."""
    assert side.family is not None
    realm.emit(EventId.SURRENDER, {"city": side.city, "family": side.family})
    for unit, n in sorted(side.units().items()):
        if unit in LOSS_ORDER and n:
            realm.return_units(side.city, side.family, unit, n)


def _shown(side: Side) -> dict[str, int]:
    """FE 7.0: once a battle is declared both sides reveal their troops."""
    if side.family is None:
        return {"foot": side.foot(), "leaders": side.leaders()}
    shown = {k: v for k, v in sorted(side.units().items()) if v}
    shown["nobles"] = len(side.nobles())
    return shown


def _slay_spare(realm: Realm, side: Side, hits: int) -> None:
    if side.family is None or side.troops() or hits <= 0:
        return
    for noble in side.nobles()[:hits]:
        realm.kill(noble, "battle")


def _take_captives(realm: Realm, winner: Side, loser: Side) -> None:
    """FE 7.6, 7.8: the loser's nobles are taken by the winner's noble, or slain by troops
    without one; engines are destroyed (the Winner's Spoils, absorbing not yet modelled)."""
    city = winner.city
    if loser.family is not None:
        for unit in ("bombard", "trebuchet"):
            n = loser.units().get(unit, 0)
            if n:
                realm.return_units(city, loser.family, unit, n)
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


def lone_nobles(realm: Realm) -> None:
    """FE 7.0, 7.5, FAQ P7: nobles with no troops in a city where an opposing army with a
    noble stands are captured at the start of Phase 7."""
    s = realm.s
    for city in realm.t.city_names:
        c = s.cities[city]
        for family in s.family_order():
            here = realm.nobles_at(city, family)
            guarded = any(n.royal_knights or n.royal_men_at_arms for n in here)
            lone = here if not c.troop_count(family) and not guarded else []
            if not lone:
                continue
            for other in s.family_order():
                if other == family or realm.allied(other, family) or not c.troop_count(other):
                    continue
                keepers = realm.nobles_at(city, other)
                if keepers:
                    for noble in lone:
                        realm.capture(noble, keepers[0].key, city)
                    break


def battles_phase(realm: Realm) -> None:
    """FE 7.0: in player order, each player's ATTACK lines."""
    lone_nobles(realm)
    siege.check(realm)
    for player in realm.s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(Attack):
            declare(realm, player, order.city, order.against, order.tunnels)
    siege.check(realm)
    siege.declare(realm)
    for player in realm.s.player_order():
        for p in realm.orders.get(player, TurnOrders()).of(Pillage):
            pillage(realm, player, p)


def pillage(realm: Realm, player: str, order: Pillage) -> None:
    """FE 7.10, 2.13: once all battles are over, in player order, a player may destroy a
    Mill of a city he holds (+2) or its Abbey (+10, its Relic, and the Heresy marker on
    the noble who leads the pillage, who must be there)."""
    s = realm.s
    c = realm.city(order.city)
    text = f"PILLAGE {order.city} {order.what.upper()}"
    fams = s.players[player].families
    if c.holder not in fams:
        realm.refuse(player, text, f"you do not hold {order.city}")
        return
    if order.what == "mill":
        if not c.mill:
            realm.refuse(player, text, "no Mill there")
            return
        c.mill = False
        realm.earn(c.holder or "", realm.t.money.scorch_bonus)
        realm.emit(EventId.PILLAGED, {"city": order.city, "what": "mill", "player": player,
                                      "gain": realm.t.money.scorch_bonus})
        return
    leaders = [n for n in realm.nobles_at(order.city) if n.family in fams
               and (order.by is None or n.key == order.by.lower())]
    if c.building != "abbey":
        realm.refuse(player, text, "no Abbey there")
    elif not leaders:
        realm.refuse(player, text, "a free noble of yours must lead the pillage")
    else:
        leader = leaders[0]
        abbey = c.abbey
        c.building, c.abbey = "", None
        realm.earn(leader.family, 10)
        for n in s.living():
            n.heresy = False
        leader.heresy = True
        if c.relic:
            leader.relics.append(c.relic)
            c.relic, c.relic_up = None, False
        realm.emit(EventId.PILLAGED, {"city": order.city, "what": "abbey", "abbey": abbey,
                                      "player": player, "gain": 10, "noble": leader.key})


def declare(realm: Realm, player: str, city: str, against: str | None,
            tunnels: bool = False) -> None:
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
    family = mine[0]
    foes = [f for f in s.family_order() if f not in s.players[player].families
            and c.troop_count(f) and (against is None or s.families[f].player == against)]
    if not foes:
        realm.refuse(player, text, "no opposing troops there")
        return
    foe = c.holder if c.holder in foes else foes[0]
    fort = realm.walls(city)
    # FE 5.0: an attacker let in by the holder need not overcome the walls.
    walled = c.holder == foe and not realm.inside(city, family)
    defender = Side(realm, city, foe, fortified=fort if walled else 0)
    attacker = Side(realm, city, family, tunnels=_tunnels(realm, player, defender, tunnels))
    fight(realm, attacker, defender, "attack")


def _tunnels(realm: Realm, player: str, defender: Side, wanted: bool) -> bool:
    """FE 10.2 Attack from the Tunnels: a Passage card cancels the melee penalty of the
    defender's walls; spent only when there are walls to get under."""
    if not (wanted and defender.fortified and "Passage" in realm.s.players[player].hand):
        return False
    realm.s.players[player].hand.remove("Passage")
    realm.s.fortune_discard.append("Passage")
    realm.emit(EventId.PASSAGE_TUNNELS, {"player": player, "city": defender.city})
    return True
