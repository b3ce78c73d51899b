"""Retainers (FE 2.12): Mata's power, and giving, exchanging, selling them."""

from __future__ import annotations

from moderator.games.fief.cards.common import orders_of
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Mata,
    RetainerDeal,
)
from moderator.games.fief.realm import Realm


def mata(realm: Realm, player: str, order: Mata) -> None:
    """FE 2.12: the noble served by Mata swaps a card of your choice for one drawn at
    random from another player's hand, once a round (the Retainer is then Spent)."""
    s = realm.s
    text = f"MATA {order.card} WITH {order.player}"
    spy = next((n for n in s.living() if n.retainer == "Mata"
                and n.family in s.players[player].families), None)
    other = s.players.get(order.player)
    if spy is None:
        realm.refuse(player, text, "Mata serves none of your nobles")
    elif f"mata:{spy.key}" in s.spent:
        realm.refuse(player, text, "Mata is spent until the end of the round (FE 2.12)")
    elif order.card not in s.players[player].hand:
        realm.refuse(player, text, "that card is not in your hand")
    elif other is None or other.key == player or not other.hand:
        realm.refuse(player, text, "another player with cards in hand")
    else:
        taken = realm.pick(sorted(other.hand), "deck", f"Mata's pick from {other.name}")
        other.hand.remove(taken)
        s.players[player].hand.remove(order.card)
        other.hand.append(order.card)
        s.players[player].hand.append(taken)
        s.spent.append(f"mata:{spy.key}")
        for who in (player, other.key):
            realm.emit(EventId.MATA, {"player": player, "other": other.key, "gave": order.card,
                                      "took": taken}, actor=who, public=False)


def _deals(realm: Realm) -> list[tuple[str, RetainerDeal]]:
    """FE 2.12, fief-email.md §4: the deals to carry out, in player order of the giver: a
    line between one player's own nobles stands alone; between two players both write it."""
    s = realm.s
    lines = {p: orders_of(realm, p).of(RetainerDeal) for p in s.player_order()}
    out: list[tuple[str, RetainerDeal]] = []
    for player in s.player_order():
        for deal in lines[player]:
            giver = s.nobles.get(deal.giver.lower())
            receiver = s.nobles.get(deal.receiver.lower())
            if giver is None or receiver is None or realm.account(giver.family) != player:
                continue        # the receiver's copy: matched from the giver's side
            other = realm.account(receiver.family)
            if other != player and deal not in lines[other]:
                for who in (player, other):
                    realm.refuse(who, _text(deal), "no matching RETAINER line from the "
                                 "other player (fief-email.md §4)")
                continue
            out.append((player, deal))
    return out


def _text(deal: RetainerDeal) -> str:
    return f"RETAINER {deal.retainer} FROM {deal.giver} TO {deal.receiver}"


def _why_not(realm: Realm, deal: RetainerDeal, swapped: set[str]) -> str | None:
    s = realm.s
    giver, receiver = s.nobles[deal.giver.lower()], s.nobles[deal.receiver.lower()]
    payer = s.players[realm.account(receiver.family)]
    if not giver.alive or giver.retainer != deal.retainer:
        return f"{giver.name} has no Retainer {deal.retainer}"
    if not receiver.alive or receiver.key == giver.key:
        return "to another living noble"
    if receiver.retainer and receiver.key not in swapped:
        return f"{receiver.name} has a Retainer already: one a noble (FE 2.12)"
    if deal.price and payer.key != realm.account(giver.family) and payer.cash < deal.price:
        return f"the buyer cannot pay {deal.price}"
    return None


def exchanges(realm: Realm) -> None:
    """FE 2.12: in Phase 2D, Retainers given, sold or exchanged between nobles, theirs or
    another family's, without a pigeon; a noble has one Retainer at most, so an exchange
    is two matching lines that run together.  The price goes from the receiver's player
    to the giver's (A73: no need to share a city)."""
    s = realm.s
    deals = _deals(realm)
    givers = {d.giver.lower(): d for _, d in deals}
    # A receiver whose own Retainer goes to this giver in the same phase: an exchange.
    swapped = {d.receiver.lower() for _, d in deals
               if givers.get(d.receiver.lower()) is not None
               and givers[d.receiver.lower()].receiver.lower() == d.giver.lower()}
    done: set[str] = set()
    moves: list[tuple[str, RetainerDeal]] = []
    for player, deal in deals:
        why = _why_not(realm, deal, swapped)
        if why:
            realm.refuse(player, _text(deal), why)
            continue
        moves.append((player, deal))
    for player, deal in moves:
        giver, receiver = s.nobles[deal.giver.lower()], s.nobles[deal.receiver.lower()]
        if giver.key in done:
            continue
        done.add(giver.key)
        buyer = realm.account(receiver.family)
        if deal.price and buyer != player:
            s.players[buyer].cash -= deal.price
            s.players[player].cash += deal.price
        back = next((d for _, d in moves if d.giver.lower() == receiver.key), None)
        if receiver.retainer and back is None:
            realm.refuse(player, _text(deal), f"{receiver.name} has a Retainer already")
            continue
        giver.retainer, receiver.retainer = (back.retainer if back else None), deal.retainer
        if back is not None:
            done.add(receiver.key)
            if back.price and buyer != player:
                s.players[player].cash -= back.price
                s.players[buyer].cash += back.price
        realm.emit(EventId.RETAINER_PASSED, {"retainer": deal.retainer, "from": giver.key,
                                             "to": receiver.key, "price": deal.price,
                                             "back": back.retainer if back else None})
