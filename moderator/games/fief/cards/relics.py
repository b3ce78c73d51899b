"""Relic powers played as cards: the Chasuble, the Shinbone (FE 12.2, 12.4)."""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Chasuble,
)
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble


def _relic_holder(realm: Realm, player: str, relic: str) -> Noble | None:
    return next((n for n in realm.s.living() if relic in n.relics and n.free
                 and n.family in realm.s.players[player].families), None)


def chasuble(realm: Realm, player: str, order: Chasuble) -> None:
    """FE 12.2: a Storms card to an adjacent sea, once a round a card."""
    s = realm.s
    text = "CHASUBLE"
    if _relic_holder(realm, player, "Chasuble of Thomas Becket") is None:
        realm.refuse(player, text, "you do not hold the Chasuble of Thomas Becket")
    elif realm.t.sea_distance(order.source, order.target) != 1:
        realm.refuse(player, text, "only to an adjacent sea (FE 12.2)")
    elif "Storms" not in s.seas.get(str(order.source), []):
        realm.refuse(player, text, f"no Storms on Sea {order.source}")
    elif "Storms" in s.seas.get(str(order.target), []):
        realm.refuse(player, text, "that sea has Storms already")
    elif order.source in s.chasuble_moved:
        realm.refuse(player, text, "that Storms card has moved this round (FE 12.2)")
    else:
        s.seas[str(order.source)].remove("Storms")
        s.seas.setdefault(str(order.target), []).append("Storms")
        s.chasuble_moved.append(order.target)
        realm.emit(EventId.RELIC_USED, {"relic": "Chasuble of Thomas Becket", "player": player,
                                        "from": order.source, "to": order.target})


def shinbone(realm: Realm, player: str) -> None:
    """FE 12.4: the Famines of the Ecclesiastic District the Shinbone's noble is in."""
    s = realm.s
    noble = _relic_holder(realm, player, "Saint Eanswith's Shinbone")
    if noble is None:
        realm.refuse(player, "SHINBONE", "you do not hold Saint Eanswith's Shinbone")
        return
    district = realm.t.region_of(noble.city).district
    ended = []
    for region in realm.t.regions:
        sea = s.seas.get(str(region.number), [])
        if region.district == district and "Famine" in sea:
            sea.remove("Famine")
            s.fortune_discard.append("Famine")
            ended.append(region.number)
    realm.emit(EventId.RELIC_USED, {"relic": "Saint Eanswith's Shinbone", "player": player,
                                    "regions": ended})
