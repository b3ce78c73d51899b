"""Lower ransoms (FE 7.7, Ex 7-6): matching orders between a captive's player and his
captor's (fief-email.md §4).

The captive's player may write `RANSOM <captive> OFFER n`; the captor's player accepts with
`ACCEPT RANSOM FOR <captive> AT LEAST m`; an offer of at least m is paid and the captive
goes free, whether or not the family could pay the full ransom (Ex 7-6: "if Dave had 10
Shillings and he could not negotiate with George to pay less than 6 Shillings, then Dave
would have had to pay the full amount").  Without such a deal the full ransom is mandatory
when the family can pay it (`economy.ransoms`).  No Carrier Pigeon is needed (7.7).  An
offer or an acceptance the other side did not match is told to both; the money stays for
purchases.  Invaders and Bandits take
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


def lower(realm: Realm, noble: Noble, price: int) -> bool:
    """A matched lower ransom for ``noble`` (full ``price``); whether it was paid."""
    s = realm.s
    owner = realm.account(noble.family)
    captor = s.nobles.get(noble.captor or "")
    offer = _offer(realm, owner, noble)
    if captor is None:
        if offer is not None:
            _mismatch(realm, (owner,), noble, offer.amount,
                      "the Invaders and the Bandits take the full ransom only (FE 6.7, 13.4)")
        return False
    keeper = realm.account(captor.family)
    accept = _accept(realm, keeper, noble)
    if offer is None and accept is None:
        return False
    both = (owner, keeper)
    amount = offer.amount if offer else 0
    if offer is None:
        _mismatch(realm, both, noble, 0, "no RANSOM OFFER from the captive's player")
    elif accept is None:
        _mismatch(realm, both, noble, amount, "the captor's player did not ACCEPT RANSOM")
    elif amount >= price:
        return False    # no lower offer: the full ransom's rule (economy.ransoms)
    elif amount < accept.amount:
        _mismatch(realm, both, noble, amount, f"the captor asks at least {accept.amount}")
    elif realm.cash(noble.family) < amount:
        _mismatch(realm, both, noble, amount, f"the purse holds only {realm.cash(noble.family)}")
    else:
        realm.pay(noble.family, amount)
        realm.earn(captor.family, amount)
        told(realm, noble, amount, captor.key, lower=True)
        realm.release(noble, "ransom")
        return True
    return False


def told(realm: Realm, noble: Noble, amount: int, captor: str, lower: bool = False) -> None:
    """A ransom paid: the gazette says who was freed, the amount is private (Shillings are
    secret, fief-email.md §7.1 item 7): on the payer's sheet and the captor's."""
    realm.emit(EventId.RANSOM_PAID, {"noble": noble.key, "captor": captor})
    payer = realm.account(noble.family)
    realm.emit(EventId.RANSOM_PAID, {"noble": noble.key, "captor": captor, "amount": amount,
                                     "lower": lower}, actor=payer, public=False)
    keeper = realm.s.nobles.get(captor)
    if keeper is not None and realm.account(keeper.family) != payer:
        realm.emit(EventId.RANSOM_PAID, {"noble": noble.key, "captor": captor,
                                         "amount": amount, "lower": lower, "received": True},
                   actor=realm.account(keeper.family), public=False)


def strays(realm: Realm) -> None:
    """FE 7.7: a `RANSOM ... OFFER` is for a captive of the player's own families, an
    `ACCEPT RANSOM` for a captive one of his nobles holds; any other is refused on his
    sheet (found playing by mail: `RANSOM Edward OFFER 3` for a free noble of another
    player's did nothing, and said nothing)."""
    s = realm.s
    for player in s.player_order():
        orders = realm.orders.get(player, TurnOrders())
        mine = s.players[player].families
        for offer in orders.of(RansomOffer):
            noble = s.nobles.get(offer.captive.lower())
            why = ("not in play" if noble is None or not noble.alive
                   else "not of your family" if noble.family not in mine
                   else "not a captive" if noble.status != "captive" else "")
            if why:
                realm.refuse(player, f"RANSOM {offer.captive} OFFER {offer.amount}",
                             f"{offer.captive} is {why} (FE 7.7)")
        for accept in orders.of(AcceptRansom):
            noble = s.nobles.get(accept.captive.lower())
            captor = s.nobles.get(noble.captor or "") if noble is not None else None
            if noble is None or noble.status != "captive" or captor is None \
                    or captor.family not in mine:
                realm.refuse(player, f"ACCEPT RANSOM FOR {accept.captive} AT LEAST "
                             f"{accept.amount}",
                             f"{accept.captive} is not held by a noble of yours (FE 7.7)")


def _mismatch(realm: Realm, players: tuple[str, ...], noble: Noble, offer: int,
              why: str) -> None:
    for player in dict.fromkeys(players):
        realm.emit(EventId.RANSOM_MISMATCH, {"captive": noble.key, "offer": offer,
                                             "reason": why}, actor=player, public=False)
