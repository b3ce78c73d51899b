"""What every card module needs: a player's orders, and taking a card from the hand."""

from __future__ import annotations

from moderator.games.fief.orders.values import TurnOrders
from moderator.games.fief.realm import Realm


def orders_of(realm: Realm, player: str) -> TurnOrders:
    return realm.orders.get(player, TurnOrders())


def take(realm: Realm, player: str, card: str) -> bool:
    hand = realm.s.players[player].hand
    if card not in hand:
        return False
    hand.remove(card)
    return True
