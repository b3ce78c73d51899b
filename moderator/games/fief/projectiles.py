"""Projectile attacks (FE 7.2): Trebuchets, then Bombards, then Archers and Crossbowmen,
each type fired by both sides at once and its losses taken before the next fires."""

from __future__ import annotations

from typing import Any

from moderator.games.fief.army import Side
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Target, TurnOrders
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble


def roll(realm: Realm, dice: int, who: str, what: str, actor: str | None) -> list[int]:
    return [realm.battle_die("battle", f"{what} ({who})", actor) for _ in range(dice)]


def actor(realm: Realm, side: Side) -> str | None:
    return realm.account(side.family) if side.family else None


def fire(realm: Realm, a: Side, d: Side, record: dict[str, Any]) -> None:
    """FE 7.2: Trebuchets, then Bombards, then Archers/Crossbowmen, each simultaneous."""
    for kind in ("trebuchet", "bombard", "archer"):
        hits: dict[str, int] = {}
        slain: list[Noble] = []
        for me, them in ((a, d), (d, a)):
            if me.family is None:
                continue
            shot = _fire_one(realm, kind, me, them, record, slain)
            if shot:
                hits[me.label] = shot
        for me, them in ((a, d), (d, a)):
            if hits.get(me.label):
                them.take_hits(hits[me.label])
        for noble in slain:     # FE 7.2 Targeting a Noble: an fff slays him (4.8)
            if noble.alive:
                realm.kill(noble, "battle")


def _fire_one(realm: Realm, kind: str, me: Side, them: Side, record: dict[str, Any],
              slain: list[Noble]) -> int:
    t = realm.t
    u = me.units()
    if kind == "trebuchet" and u.get("trebuchet") and u.get("men_at_arms"):
        faces = roll(realm, 2, me.label, "trebuchets", actor(realm, me))
        hits = sum(faces) + (1 if u["trebuchet"] >= 2 else 0)
        record.setdefault("projectiles", []).append(
            {"side": me.label, "kind": kind, "faces": faces, "hits": hits})
        return hits
    if kind == "bombard" and u.get("bombard") and u.get("men_at_arms"):
        faces = roll(realm, u["bombard"], me.label, "bombards", actor(realm, me))
        blanks = faces.count(0)
        if blanks:
            me.remove("bombard", blanks)
            me.remove("men_at_arms", min(blanks, me.units().get("men_at_arms", 0)))
        record.setdefault("projectiles", []).append(
            {"side": me.label, "kind": kind, "faces": faces, "hits": sum(faces),
             "exploded": blanks})
        return sum(faces)
    if kind != "archer":
        return 0
    n = u.get("archer", 0) + u.get("crossbow", 0)
    need = {0: 1, 1: t.battle.archers_vs_stronghold, 2: t.battle.archers_vs_fortified}[
        them.fortified]
    if n < max(1, need):
        return 0
    if _aims_at_leader(realm, me, them):
        faces = roll(realm, 1, me.label, "archers", actor(realm, me))
        army = next(k for k in them.armies if realm.s.invaders[k].leader)
        slays = faces[0] == max(t.battle.die_faces)
        if slays:   # FE 7.2, 6.11: the Leader is gone, his Foot Soldiers stay
            realm.s.invaders[army].leader = False
        record.setdefault("projectiles", []).append(
            {"side": me.label, "kind": kind, "faces": faces, "hits": 0, "target": "leader",
             "slain": "leader" if slays else None})
        realm.emit(EventId.ARCHERS_TARGET, {"city": me.city, "side": me.label,
                                            "noble": "leader", "slain": slays})
        return 0
    target = _target(realm, me, them)
    faces = roll(realm, 1, me.label, "archers", actor(realm, me))
    if target is not None:
        entry: dict[str, Any] = {"side": me.label, "kind": kind, "faces": faces, "hits": 0,
                                 "target": target.key}
        if faces[0] == max(t.battle.die_faces):
            slain.append(target)
            entry["slain"] = target.key
        record.setdefault("projectiles", []).append(entry)
        realm.emit(EventId.ARCHERS_TARGET, {"city": me.city, "side": me.label,
                                            "noble": target.key, "slain": bool(entry.get("slain"))})
        return 0
    bonus = 1 if n >= t.battle.archer_bonus_from and not them.fortified else 0
    hits = sum(faces) + bonus
    record.setdefault("projectiles", []).append(
        {"side": me.label, "kind": kind, "faces": faces, "hits": hits})
    return hits


def _target(realm: Realm, me: Side, them: Side) -> Noble | None:
    """`TARGET <noble> AT <city>` of the side's leading player: his archers aim at that
    noble while he stands free on the other side (FE 7.2, announced before the roll)."""
    if me.family is None:
        return None
    player = realm.account(me.family)
    present = {n.key: n for n in them.nobles()}
    for order in realm.orders.get(player, TurnOrders()).of(Target):
        if order.city == me.city and order.noble.lower() in present:
            return present[order.noble.lower()]
    return None


def _aims_at_leader(realm: Realm, me: Side, them: Side) -> bool:
    """`TARGET LEADER AT <city>`: the archers aim at an Invading Leader there (FE 7.2)."""
    if me.family is None or them.family is not None or not them.leaders():
        return False
    orders = realm.orders.get(realm.account(me.family), TurnOrders()).of(Target)
    return any(o.city == me.city and o.noble.upper() == "LEADER" for o in orders)


def untaken_aims(realm: Realm) -> None:
    """FE 7.2: a `TARGET` line whose archers never aimed at its noble this round is told
    on the sheet, with why (found playing by mail: `TARGET Simon AT Bristol` by a side
    with no archers did nothing, and the sheet did not say so)."""
    aimed = {(str(e.args["city"]), str(e.args["side"]), str(e.args["noble"]).lower())
             for e in realm.events if e.id == EventId.ARCHERS_TARGET.value}
    fought = {str(b["city"]) for b in realm.battles}
    for player in realm.s.player_order():
        families = realm.s.players[player].families
        for order in realm.orders.get(player, TurnOrders()).of(Target):
            if any((order.city, f, order.noble.lower()) in aimed for f in families):
                continue
            why = (f"no battle was fought at {order.city}" if order.city not in fought
                   else f"your side's archers did not aim at {order.noble}: it takes Archers "
                        "or Crossbowmen enough to shoot, your side leading the battle, and "
                        f"{order.noble} free on the other side (FE 7.2)")
            realm.refuse(player, f"TARGET {order.noble} AT {order.city}", why)
