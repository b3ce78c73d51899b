"""Mercenary Crossbowmen hired from a player's card (FE 11.1): the checks and the payment
shared by the Phase 4 hire and the hire in the middle of a battle; and Crossbowmen lent to
another player (matching `LEND` and `HIRE ... FROM` orders), home at End Round."""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import HireFrom, Lend, TurnOrders
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Player


def refusal(p: Player, count: int, cost: int) -> str | None:
    """Why the player cannot hire ``count`` Crossbowmen for ``cost`` now, or None."""
    if p.slot is None or p.slot.startswith("Burgher"):
        return "you have no Mercenary card in play (FE 11.1)"
    if p.crossbows < count:
        return f"only {p.crossbows} Crossbowmen left on your card"
    if p.cash < cost:
        return f"costs {cost}, you have {p.cash}"
    return None


def hire_refusal(p: Player, count: int, cost: int) -> str | None:
    """`refusal` for the player's own HIRE, naming the Mercenary card in his hand that
    would put Crossbowmen on his board (found playing by mail: Lucy held Flemish
    Crossbowmen and was told only that she had no Mercenary card in play).  Never for a
    lender: his hand is hidden (FE 4.1)."""
    why = refusal(p, count, cost)
    card = next((c for c in p.hand if c.endswith("Crossbowmen")), None)
    if why and card and (p.slot is None or p.slot.startswith("Burgher")):
        return f"{why}: PLAY {card.upper()} in the same orders puts it in play first"
    return why


def take(p: Player, count: int, cost: int) -> None:
    """Pay for them and take them off the card."""
    p.cash -= cost
    p.crossbows -= count


def loans(realm: Realm) -> None:
    """FE 11.1 "a Player can lend or rent their Mercenaries, in whole or in part, to other
    Players": at the start of Phase 4 purchases, in player order of the borrower, each
    `HIRE <n> CROSSBOWMEN FROM <lender> FOR <price> AT <city>` that the lender matched with
    `LEND <n> CROSSBOWMEN TO <borrower> FOR <price>`: the price passes (the deal is its own
    carrier, PROPOSED), the Crossbowmen join a family of the borrower there (a city he
    holds or where a noble of his is) until End Round.  A line not matched is told to both."""
    s = realm.s
    used: set[tuple[str, int]] = set()   # (lender, index of his LEND): one HIRE each
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(HireFrom):
            lender = order.lender
            text = f"HIRE {order.count} CROSSBOWMEN FROM {lender} AT {order.city}"
            match = next((i for i, o in enumerate(realm.orders.get(lender, TurnOrders())
                                                  .of(Lend))
                          if (lender, i) not in used and o.to == player
                          and o.count == order.count and o.price == order.price), None) \
                if lender in s.players else None
            if match is not None:
                used.add((lender, match))
            if match is None:
                for who in dict.fromkeys((player, lender)):
                    realm.emit(EventId.LOAN_MISMATCH, {"borrower": player, "lender": lender,
                                                       "count": order.count,
                                                       "price": order.price},
                               actor=who, public=False)
                continue
            why = _loan_refusal(realm, player, order)
            if why:
                realm.refuse(player, text, why)
                continue
            _lend(realm, player, order)


def _loan_refusal(realm: Realm, player: str, order: HireFrom) -> str | None:
    s = realm.s
    lent = s.players[order.lender]
    why = refusal(lent, order.count, 0)
    if why:
        return "the lender: " + why
    if s.players[player].cash < order.price:
        return f"the price is {order.price}, you have {s.players[player].cash}"
    if _family(realm, player, order.city) is None:
        return f"you hold no city and have no noble at {order.city}"
    return None


def _family(realm: Realm, player: str, city: str) -> str | None:
    fams = realm.s.players[player].families
    c = realm.city(city)
    return c.holder if c.holder in fams else next(
        (n.family for n in realm.nobles_at(city) if n.family in fams), None)


def _lend(realm: Realm, player: str, order: HireFrom) -> None:
    s = realm.s
    family = _family(realm, player, order.city)
    assert family is not None
    s.players[player].cash -= order.price
    s.players[order.lender].cash += order.price
    s.players[order.lender].crossbows -= order.count
    realm.city(order.city).add(family, "crossbow", order.count)
    realm.arrive(order.city, family)
    realm.loans.append((order.lender, family, order.city, order.count))
    for who in (player, order.lender):
        realm.emit(EventId.LOAN, {"borrower": player, "lender": order.lender,
                                  "count": order.count, "price": order.price,
                                  "city": order.city}, actor=who, public=False)


def loans_home(realm: Realm) -> None:
    """FE 11.1, 8.0: at End Round the lent Crossbowmen still alive go back to the
    lender's card (those at the city they were lent to first, then anywhere)."""
    for lender, family, city, count in realm.loans:
        cities = [city, *(c for c in realm.t.city_names if c != city)]
        for name in cities:
            c = realm.city(name)
            n = min(count, c.units_of(family).get("crossbow", 0))
            if n:
                c.add(family, "crossbow", -n)
                realm.s.players[lender].crossbows += n
                count -= n
                realm.refresh_control(name)
    realm.loans = []
