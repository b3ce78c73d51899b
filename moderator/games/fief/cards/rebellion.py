"""Rebellions and their quelling (FE 10.1, 9.3, 11.2, 2.13)."""

from __future__ import annotations

from moderator.games.fief.battle import Side
from moderator.games.fief.cards.common import take
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Rebellion,
)
from moderator.games.fief.realm import Realm


def rebellion(realm: Realm, player: str, order: Rebellion) -> None:
    """FE 10.1, 11.2, Ex 10-1, 10-2, 11-1: a Rebellion started by a card or a Burgher action,
    with the starter's own additions, then the other players' standing `IF ANYONE REBELS`
    support in player order from the starter; resolved once."""
    text = f"REBELLION AT {order.city}"
    starter = "burgher rebellion" if order.burgher else "rebellion"
    reason = _rebel_refusal(realm, player, order.city) or _short_of(
        realm, player, (starter, *order.extras))
    if reason:
        realm.refuse(player, text, reason)
        return
    support = [(player, what) for what in (starter, *order.extras)]
    for _, what in support:
        _pay_support(realm, player, what)
    support += _rebels_reactions(realm, player, order.city, support)
    _resolve_rebellion(realm, player, order.city, support)


def _rebel_refusal(realm: Realm, player: str, city: str) -> str | None:
    """FE 10.1, 9.3: why this player may not raise or join a Rebellion on the city."""
    s = realm.s
    region = realm.t.region_of(city)
    taxed_by = [tx["player"] for tx in s.taxes
                if tx.get("region") == region.key or tx.get("district") == region.district]
    if player in taxed_by:
        return "never on a city under your own Tax (FE 10.1)"
    if not (taxed_by or realm.region_has(region.number, "Famine") or s.parliament_rebellion):
        return "only on a city taxed, royally taxed or in Famine (FE 10.1)"
    return None


def _short_of(realm: Realm, player: str, items: tuple[str, ...]) -> str | None:
    """The cards and Treasures the items need (FE 10.1, 10.2, 11.2, 11.3), or why not."""
    p = realm.s.players[player]
    for card in ("Rebellion", "Passage"):
        if items.count(card.lower()) > p.hand.count(card):
            return f"not enough {card} cards in your hand"
    burghers = sum(1 for x in items if x.startswith("burgher"))
    if burghers and not (p.slot or "").startswith("Burgher"):
        return "no Burgher card on your board (FE 11.2)"
    if burghers > p.treasures:
        return "a Treasure for each Burgher action (FE 11.2, 11.3)"
    return None


def _pay_support(realm: Realm, player: str, what: str) -> None:
    p = realm.s.players[player]
    if what.startswith("burgher"):
        p.treasures -= 1
        return
    card = what.title()
    take(realm, player, card)
    realm.s.fortune_discard.append(card)


def _rebels_reactions(realm: Realm, starter: str, city: str,
                      support: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Standing `IF ANYONE|AN OPPONENT REBELS <city>|ANY THEN PLAY ...`, in player order from
    the starter, each line once; one that cannot be paid does nothing and stays stored
    (fief-email.md §3.1).  A second Passage is never spent: the walls are ignored already."""
    s = realm.s
    order = s.player_order()
    turn = order[order.index(starter):] + order[:order.index(starter)]
    added: list[tuple[str, str]] = []
    for player in turn[1:]:
        for data in s.players[player].standing:
            what = str(data.get("response", ""))
            if data.get("kind") != "rebels_reaction" or data.get("city") not in ("", city):
                continue
            if what.endswith("passage") and any(w.endswith("passage")
                                                for _, w in support + added):
                continue
            if _rebel_refusal(realm, player, city) or _short_of(realm, player, (what,)):
                continue
            _pay_support(realm, player, what)
            added.append((player, what))
    return added


def _resolve_rebellion(realm: Realm, player: str, city: str,
                       support: list[tuple[str, str]]) -> None:
    """FE 10.1 Rebellion Resolution: one Battle Die +1 a Rebellion (+1 for the Royal Tax),
    a Stronghold cancelling one and a Fortified City two unless a Passage was played; all
    troops defeated: every noble there slain, the buildings and the Mill destroyed."""
    s = realm.s
    c = realm.city(city)
    count = sum(1 for _, what in support if what.endswith("rebellion"))
    count += 1 if s.parliament_rebellion else 0
    passage = any(what.endswith("passage") for _, what in support)
    # FE 10.2 Played at Any Time: a Passage ignores the walls' cancellations.
    cancel = 0 if passage else {"stronghold": 1, "royal": 1, "fortified": 2}.get(c.building, 0)
    dice = max(0, count - cancel)
    if dice and quelled(realm, city, dice):
        return
    faces = [realm.battle_die("rebellion", f"rebellion at {city}", player) for _ in range(dice)]
    hits = sum(faces) + dice
    args: dict[str, object] = {"city": city, "player": player, "rebellions": count,
                               "cancelled": min(cancel, count), "faces": faces, "hits": hits}
    if len(support) > 1:
        args["support"] = [[who, what] for who, what in support]
    if s.parliament_rebellion:
        args["royal_tax"] = True           # FE 9.3: the Parliament card adds one
    # Found playing by mail: Kirsten's own sheet did not say her Rebellion was played, nor
    # the gazette whose it was (a card played is public, as Fortune cards are).
    realm.emit(EventId.REBELLION, args, actor=player)
    if not dice:
        return
    left = hits
    for family in s.family_order():
        if c.troop_count(family) and left:
            left = Side(realm, city, family).take_hits(left)
    armies = [a.key for a in s.invaders.values() if a.city == city]
    if armies and left:
        left = Side(realm, city, armies=armies).take_hits(left)
        for key in armies:
            army = s.invaders[key]
            if not army.foot and not army.leader:
                del s.invaders[key]
    if any(c.troop_count(f) for f in c.troops) or any(a.city == city for a in s.invaders.values()):
        realm.refresh_control(city)
        return
    for noble in [n for n in s.living() if n.city == city]:
        realm.kill(noble, "rebellion")
    lost = [b for b in (c.building, "mill" if c.mill else "") if b]
    c.building, c.abbey, c.mill = "", None, False
    if lost:
        realm.emit(EventId.INVADERS_PILLAGE, {"city": city, "lost": lost, "rebels": True},
                   actor=realm.owner(c.holder))
    realm.refresh_control(city)


def quelled(realm: Realm, city: str, rebellions: int) -> bool:
    """FE 10.1: a free Abbess, Bishop or Archbishop in the city whose player has a standing
    `QUELL PAY` pays 3 a Rebellion; with `QUELL PRAY` the d6 is rolled for each: 1-4 it
    stops, 5-6 the cleric is stoned to death.  The first such cleric in player order acts."""
    s = realm.s
    for player in s.player_order():
        how = next((d["how"] for d in reversed(s.players[player].standing)
                    if d.get("kind") == "quell"), None)
        clerics = [n for n in realm.nobles_at(city) if n.is_clergy
                   and n.family in s.players[player].families]
        if how is None or not clerics:
            continue
        cleric = clerics[0]
        if how == "pay":
            cost = 3 * rebellions
            if s.players[player].cash < cost:
                continue
            s.players[player].cash -= cost
            realm.emit(EventId.QUELLED, {"cleric": cleric.key, "city": city, "paid": cost,
                                         "rolls": []})
            return True
        rolls = []
        for _ in range(rebellions):
            roll = realm.d6("quell", f"{cleric.name} before the rebels", player)
            rolls.append(roll)
            if roll >= 5:
                realm.emit(EventId.QUELLED, {"cleric": cleric.key, "city": city, "paid": 0,
                                             "rolls": rolls, "stoned": True})
                realm.kill(cleric, "rebellion")
                return False
        realm.emit(EventId.QUELLED, {"cleric": cleric.key, "city": city, "paid": 0,
                                     "rolls": rolls})
        return True
    return False
