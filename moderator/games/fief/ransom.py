"""Lower ransoms (FE 7.7, Ex 7-6): matching orders between a captive's player and his
captor's (fief-email.md §4).

The full ransom is mandatory when the family can pay it (`economy.ransoms`).  When it
cannot, its player may write `RANSOM <captive> OFFER n`; the captor's player accepts with
`ACCEPT RANSOM FOR <captive> AT LEAST m`; an offer of at least m is paid and the captive
goes free.  No Carrier Pigeon is needed (7.7).  An offer or an acceptance the other side
did not match is told to both; the money stays for purchases.  Invaders and Bandits take
the full price only (6.7, 13.4).
"""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import AcceptRansom, RansomOffer, TurnOrders
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble


def _offer(realm: Realm, player: str, noble: Noble) -> RansomOffer | None:
    return next((o for o in reversed(realm.orders.get(player, TurnOrders()).of(RansomOffer))
                 if o.captive.lower() == noble.key), None)


def _accept(realm: Realm, player: str, noble: Noble) -> AcceptRansom | None:
    return next((o for o in reversed(realm.orders.get(player, TurnOrders()).of(AcceptRansom))
                 if o.captive.lower() == noble.key), None)


def lower(realm: Realm, noble: Noble, price: int) -> None:
    """A captive whose family cannot pay the full ``price``: a matched lower ransom."""
    s = realm.s
    owner = realm.account(noble.family)
    captor = s.nobles.get(noble.captor or "")
    offer = _offer(realm, owner, noble)
    if captor is None:
        if offer is not None:
            _mismatch(realm, (owner,), noble, offer.amount,
                      "the Invaders and the Bandits take the full ransom only (FE 6.7, 13.4)")
        return
    keeper = realm.account(captor.family)
    accept = _accept(realm, keeper, noble)
    if offer is None and accept is None:
        return
    both = (owner, keeper)
    amount = offer.amount if offer else 0
    if offer is None:
        _mismatch(realm, both, noble, 0, "no RANSOM OFFER from the captive's player")
    elif accept is None:
        _mismatch(realm, both, noble, amount, "the captor's player did not ACCEPT RANSOM")
    elif amount < accept.amount:
        _mismatch(realm, both, noble, amount, f"the captor asks at least {accept.amount}")
    elif realm.cash(noble.family) < amount:
        _mismatch(realm, both, noble, amount, f"the purse holds only {realm.cash(noble.family)}")
    else:
        realm.pay(noble.family, amount)
        realm.earn(captor.family, amount)
        realm.emit(EventId.RANSOM_PAID, {"noble": noble.key, "amount": amount,
                                         "captor": captor.key, "lower": True})
        realm.release(noble, "ransom")


def _mismatch(realm: Realm, players: tuple[str, ...], noble: Noble, offer: int,
              why: str) -> None:
    for player in dict.fromkeys(players):
        realm.emit(EventId.RANSOM_MISMATCH, {"captive": noble.key, "offer": offer,
                                             "reason": why}, actor=player, public=False)
