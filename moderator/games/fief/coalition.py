"""Coalitions and truces as matching orders (FE 7.0 Ally Attacks, 7.8 Truce, 13.3,
fief-email.md §4).

A coalition is two players' `JOIN <other> AT <city>` lines naming each other (the same
round); a truce is both sides' `TRUCE WITH <other> AT <city>` with mirrored terms (one
CEDEs the city, the other TAKEs it, or neither).  A line the other side did not match is
noted on both sides' sheets and nothing happens.  A player's own families always fight
together (FE 13.7, Ex 13-3).
"""

from __future__ import annotations

from moderator.games.fief.army import Side, family_sp
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Betray, Join, Truce, TurnOrders
from moderator.games.fief.realm import Realm

MIRROR = {"": "", "cede": "take", "take": "cede"}


def _joins(realm: Realm, player: str) -> list[Join]:
    return realm.orders.get(player, TurnOrders()).of(Join)


def _names(realm: Realm, player: str, other: str, city: str) -> Join | None:
    return next((j for j in _joins(realm, player) if j.player == other and j.city == city), None)


def partners(realm: Realm, player: str, city: str, opponent: str) -> list[str]:
    """The players whose JOIN matches this player's at the city, against this opponent
    (an AGAINST written on either side must name him), in player order."""
    out = []
    for other in realm.s.player_order():
        if other in (player, opponent):
            continue
        mine, theirs = _names(realm, player, other, city), _names(realm, other, player, city)
        if mine is None or theirs is None:
            continue
        if all(j.against in (None, opponent) for j in (mine, theirs)):
            out.append(other)
    return out


def note_mismatches(realm: Realm) -> None:
    """FE 7.0 by email: a JOIN the named player did not answer with his own JOIN is told
    to both privately, before the battles."""
    for player in realm.s.player_order():
        for join in _joins(realm, player):
            if join.player not in realm.s.players or join.player == player:
                realm.refuse(player, f"JOIN AT {join.city}", "name another player")
                continue
            if _names(realm, join.player, player, join.city) is None:
                for who in (player, join.player):
                    realm.emit(EventId.COALITION_MISMATCH,
                               {"player": player, "with": join.player, "city": join.city,
                                "reason": "no matching JOIN from the other player"},
                               actor=who, public=False)


def families_of(realm: Realm, player: str, city: str) -> list[str]:
    """A player's families with troops in the city, in turn order."""
    c = realm.city(city)
    return [f for f in realm.s.players[player].families if c.troop_count(f)]


def garter_bound(realm: Realm, families: list[str], city: str, against: list[str]) -> bool:
    """FE 13.3: a Lord of the Garter may not attack the Sovereign nor take part in a
    coalition attack against him: read as the Garter Lord standing in the battle and the
    Sovereign's family on the other side (PROPOSED)."""
    king = realm.s.sovereign
    if king is None or realm.s.nobles[king].family not in against:
        return False
    return any(n.garter for f in families for n in realm.nobles_at(city, f))


def build(realm: Realm, city: str, families: list[str], fortified: int = 0) -> Side:
    """A side led by its member with the most SP (FE 7.0; ties: the first named)."""
    leader = sorted(families, key=lambda f: -family_sp(realm, city, f))[0]
    members = [f for f in families if f != leader]
    return Side(realm, city, leader, members=members, fortified=fortified)


def truce(realm: Realm, a: Side, d: Side) -> str | None:
    """FE 7.8 Truce at the end of a battle roll: the leading players of both sides wrote
    `TRUCE WITH` each other at the city with mirrored terms; returns the terms ("",
    "cede" by the attacker's side, "take" by it), or None."""
    if a.family is None or d.family is None:
        return None
    pa, pd = realm.account(a.family), realm.account(d.family)
    ta, td = _truce(realm, pa, pd, a.city), _truce(realm, pd, pa, a.city)
    if ta is None or td is None or MIRROR[ta.terms] != td.terms:
        return None
    return ta.terms


def _truce(realm: Realm, player: str, other: str, city: str) -> Truce | None:
    return next((t for t in realm.orders.get(player, TurnOrders()).of(Truce)
                 if t.player == other and t.city == city), None)


def keep_truce(realm: Realm, a: Side, d: Side, terms: str) -> None:
    """Both armies stay; the city's controller keeps it, or it passes as agreed."""
    c = realm.city(a.city)
    assert a.family is not None and d.family is not None
    if terms:
        giver, taker = (a, d) if terms == "cede" else (d, a)
        if c.holder in giver.families and taker.family in c.occupants:
            c.holder = taker.family
            realm.emit(EventId.CITY_TAKEN, {"city": a.city, "family": taker.family,
                                            "from": giver.family})
            realm.check_fortified(a.city)
    realm.emit(EventId.TRUCE, {"city": a.city, "a": a.family, "b": d.family, "terms": terms})


def truce_unmatched(realm: Realm, a: Side, d: Side) -> None:
    """A TRUCE line at a battle the other side did not mirror: told to both (§4)."""
    if a.family is None or d.family is None:
        return
    pa, pd = realm.account(a.family), realm.account(d.family)
    for me, them in ((pa, pd), (pd, pa)):
        mine, theirs = _truce(realm, me, them, a.city), _truce(realm, them, me, a.city)
        if mine is None or (theirs is not None and me == pd):
            continue    # told once a pair: from the side that wrote, the attacker's first
        why = ("no matching TRUCE from the other side" if theirs is None
               else "the terms differ (one must CEDE the city, the other TAKE it)")
        for who in (me, them):
            realm.emit(EventId.TRUCE_MISMATCH, {"player": me, "with": them, "city": a.city,
                                                "reason": why}, actor=who, public=False)


def betrayals(realm: Realm, a: Side, d: Side, number: int) -> None:
    """FE 7.0: after battle round ``number``, each partner (never a side's leader) whose
    player wrote `BETRAY AT <city> AFTER ROUND <number>` crosses to the other side."""
    for me, them in ((a, d), (d, a)):
        for fam in list(me.members):
            orders = realm.orders.get(realm.account(fam), TurnOrders()).of(Betray)
            if any(o.city == me.city and o.after == number for o in orders):
                me.members.remove(fam)
                them.members.append(fam)
                realm.emit(EventId.BETRAYAL, {"city": me.city, "family": fam,
                                              "left": me.label, "joined": them.label})
