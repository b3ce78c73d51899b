"""Relics set down and taken up by hand (FE 12.0): in a city, or in an Abbey where a Relic
brings its Abbess 3 Shillings a round (FE 3.1)."""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import LeaveRelic, TakeRelic
from moderator.games.fief.realm import Realm


def set_down_or_take_up(realm: Realm, player: str, order: LeaveRelic | TakeRelic) -> None:
    """After the player's moves: `LEAVE RELIC` lays a carried Relic face up in the noble's
    city (one Relic a city, as the map holds them); `TAKE RELIC` takes a face-up one lying
    there, from inside the city's building only with its holder's leave (FE 5.0)."""
    s = realm.s
    noble = s.nobles.get(order.noble.lower())
    leave = isinstance(order, LeaveRelic)
    text = f"{'LEAVE' if leave else 'TAKE'} RELIC {order.relic} BY {order.noble}"
    if noble is None or not noble.free or noble.family not in s.players[player].families:
        realm.refuse(player, text, "needs a free noble of yours")
        return
    c = realm.city(noble.city)
    if leave and order.relic not in noble.relics:
        realm.refuse(player, text, f"{noble.name} does not carry the {order.relic}")
    elif leave and c.relic is not None:
        realm.refuse(player, text, f"a Relic already lies at {c.name}")
    elif leave:
        noble.relics.remove(order.relic)
        c.relic, c.relic_up = order.relic, True
        realm.emit(EventId.RELIC_LEFT, {"noble": noble.key, "relic": order.relic,
                                        "city": c.name, "abbey": c.building == "abbey"})
    elif c.relic != order.relic or not c.relic_up:
        realm.refuse(player, text, f"the {order.relic} does not lie face up at {c.name}")
    elif not realm.inside(c.name, noble.family):
        realm.refuse(player, text, f"{c.name}'s holder has not let you in (FE 5.0)")
    else:
        noble.relics.append(order.relic)
        c.relic, c.relic_up = None, False
        realm.emit(EventId.RELIC_FOUND, {"noble": noble.key, "relic": order.relic,
                                         "city": c.name})
