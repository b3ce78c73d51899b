"""The Abbess beyond her card (FE 2.13): the Royal Abbey, relinquishing the title, and
rebuilding a destroyed Abbey."""

from __future__ import annotations

from moderator.games.fief.cards.common import orders_of
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Appoint, PermitRelinquish, RebuildAbbey, Relinquish
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble

ROYAL = " (Royal)"


def base(name: str) -> str:
    return name.removesuffix(ROYAL)


def royal(name: str) -> str:
    """The Abbey tile on its Royal Abbey side (Components: Abbey/Royal Abbey tiles)."""
    return base(name) + ROYAL


def is_royal_family(realm: Realm, family: str) -> bool:
    """FE 2.13: "A Royal Abbey is founded by an Abbess who is a member of the Royal Family".
    An Abbess is unmarried, so never King, Queen or Prince; the Royal Family here is the
    families of the King, the Queen and the Prince (PROPOSED: as in the Royal Moves, "the
    Royal Family ... and both of their Families' Nobles")."""
    return any(realm.s.nobles[k].family == family for k in realm.royal_family())


def royal_abbey(realm: Realm) -> str | None:
    """The city of the Royal Abbey on the map, for the Royal Moves (FE 2.13, 5.0)."""
    return next((c.name for c in realm.s.cities.values()
                 if c.abbey and c.abbey.endswith(ROYAL)), None)


def site_refusal(realm: Realm, city: str, family: str) -> str | None:
    """FE 2.13, 4.2: an Abbey stands in a city without a building, held by the Abbess's
    family or Independent; why not here, or None."""
    c = realm.city(city)
    if c.building:
        return f"{city} already has a building (FE 2.13, 4.2)"
    if c.holder not in (None, family):
        return f"{city} is held by another family (FE 2.13)"
    return None


def _abbey_city(realm: Realm, name: str) -> str | None:
    return next((c.name for c in realm.s.cities.values() if c.abbey == name), None)


def _prelates(realm: Realm, abbess: Noble) -> list[Noble]:
    """The Bishops or Archbishops whose districts hold her Abbeys (FE 2.13)."""
    out = []
    for name in abbess.abbess:
        city = _abbey_city(realm, name)
        if city is None:
            continue
        district = realm.t.region_of(city).district
        out += [n for n in realm.s.living() if n.clergy == district and n not in out]
    return out


def relinquish_phase(realm: Realm) -> None:
    """FE 2.13, fief-email.md §4: before the marriages, `RELINQUISH <abbess>` with the
    matching `PERMIT RELINQUISH <abbess>` of the prelate of her Abbey's district (a
    prelate of her own player permits by himself; with no prelate in office nobody need be
    asked, PROPOSED).  She lays down every Abbess title; each Abbey stays on the map.  The
    Sovereign's `APPOINT ABBESS <noblewoman>` gives the title at once to an unmarried
    noblewoman; else the card goes to the Character discards (A71)."""
    s = realm.s
    for player in s.player_order():
        for order in orders_of(realm, player).of(Relinquish):
            abbess = s.nobles.get(order.abbess.lower())
            text = f"RELINQUISH {order.abbess}"
            if abbess is None or not abbess.alive or not abbess.abbess \
                    or abbess.family not in s.players[player].families:
                realm.refuse(player, text, "not an Abbess of your family")
                continue
            missing = [p for p in _prelates(realm, abbess)
                       if realm.account(p.family) != player
                       and not any(o.abbess.lower() == abbess.key for o in
                                   orders_of(realm, realm.account(p.family)).of(PermitRelinquish))]
            if missing:
                for who in dict.fromkeys((player, *(realm.account(p.family) for p in missing))):
                    realm.refuse(who, text, f"{missing[0].name}, her prelate, does not permit "
                                 "it (PERMIT RELINQUISH, FE 2.13)")
                continue
            _lay_down(realm, abbess)


def _lay_down(realm: Realm, abbess: Noble) -> None:
    s = realm.s
    heir = _appointee(realm, abbess)
    for name in list(abbess.abbess):
        abbess.abbess.remove(name)
        if heir is not None:
            heir.abbess.append(name)
        else:
            s.character_discard.append("Abbess")
        realm.emit(EventId.ABBESS_RELINQUISHED, {"noble": abbess.key, "abbey": name,
                                                 "to": heir.key if heir else None})


def _appointee(realm: Realm, abbess: Noble) -> Noble | None:
    s = realm.s
    king = s.nobles.get(s.sovereign) if s.sovereign else None
    if king is None:
        return None
    for order in orders_of(realm, realm.account(king.family)).of(Appoint):
        n = s.nobles.get(order.noble.lower())
        if (n is not None and n.alive and n.sex == "f" and not n.spouse and not n.clergy
                and n.key != abbess.key):
            return n
    return None


def rebuild_phase(realm: Realm) -> None:
    """FE 2.13: "the Abbey can be rebuilt in any City, free of charge, by its Abbess during
    the next Purchase Phase": `REBUILD ABBEY <abbey> AT <city>` at the start of Phase 4 (any
    later Purchase Phase, PROPOSED), in a city with no building held by her family or
    Independent, as when founded."""
    s = realm.s
    for player in s.player_order():
        for order in orders_of(realm, player).of(RebuildAbbey):
            text = f"REBUILD ABBEY {order.abbey} AT {order.city}"
            abbess = next((n for n in s.living() if n.family in s.players[player].families
                           and any(base(a) == order.abbey for a in n.abbess)), None)
            c = realm.city(order.city)
            if abbess is None:
                realm.refuse(player, text, "not the Abbey of an Abbess of your family")
                continue
            name = next(a for a in abbess.abbess if base(a) == order.abbey)
            if _abbey_city(realm, name) is not None:
                realm.refuse(player, text, "that Abbey stands")
            elif site_refusal(realm, order.city, abbess.family):
                realm.refuse(player, text, str(site_refusal(realm, order.city, abbess.family)))
            else:
                c.building, c.abbey = "abbey", name
                realm.emit(EventId.ABBEY_REBUILT, {"noble": abbess.key, "abbey": base(name),
                                                   "city": order.city,
                                                   "royal": name.endswith(ROYAL)})
