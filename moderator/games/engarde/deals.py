"""Deals between players (EG §P "as with all finance deals ... only if both players
specify the same price/terms"): house sales and commission sales.

Both use `match`: each side's order is keyed by (seller, buyer, thing, price); a deal
goes through only when the seller's and the buyer's orders name the same terms, and
then only if the rules still allow it (he owns the house; the commission is his, the
buyer qualifies and can pay).  Otherwise both are told privately.

* ``SELL <type> IN <area> TO <name> FOR <n>`` / ``BUY ... FROM <seller> FOR <n>``.
* ``SELL COMMISSION <rank> TO <name> FOR <n>`` / ``BUY COMMISSION <rank> FROM <seller>
  FOR <n>`` (reference §4): the seller holds that rank; the buyer is already in the
  seller's regiment below it (a man outside first joins it, e.g. with JOIN REGIMENT
  the same month: deals come after the anytime orders); he pays the agreed price to
  the seller and the army's price for any rank he skips on the way; he needs the
  rank's SL, and above Major he may rise only one step (reference §4.1).  The seller
  leaves the regiment (as with SELL COMMISSION, but paid by the buyer), so the slot
  he held is the vacancy the buyer takes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, cast

from moderator.games.engarde import army
from moderator.games.engarde.checks import owns
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import CommissionDeal, HouseDeal, Order
from moderator.games.engarde.state import Property, Tenure

Terms = tuple[str, str, Hashable, int]  # seller, buyer, what is sold, price


def match(m: Month, kind: type[Order], terms: Callable[[Actor, Any], Terms],
          settle: Callable[[Month, Actor, Actor, Terms], bool],
          unmatched: Callable[[Month, Terms, Actor | None, Actor | None], None]) -> None:
    """Pair sellers' and buyers' orders of ``kind`` by their terms; settle or report."""
    sells: dict[Terms, Actor] = {}
    buys: dict[Terms, Actor] = {}
    for a in m:
        if a.indisposed:
            continue
        for o in a.orders.anytime:
            if isinstance(o, kind):
                (sells if o.selling else buys)[terms(a, o)] = a  # type: ignore[attr-defined]
    for deal in sorted(set(sells) | set(buys), key=repr):
        s, b = sells.get(deal), buys.get(deal)
        if s is None or b is None or not settle(m, s, b, deal):
            unmatched(m, deal, s, b)


def run(m: Month) -> None:
    """The deals phase: houses first, then commissions."""
    match(m, HouseDeal, _house_terms, _house_settle, _house_unmatched)
    match(m, CommissionDeal, _commission_terms, _commission_settle, _commission_unmatched)


def _house_terms(a: Actor, o: HouseDeal) -> Terms:
    seller, buyer = (a.key, o.other) if o.selling else (o.other, a.key)
    return (seller, buyer, (o.house, o.area), o.price)


def _place(deal: Terms) -> tuple[str, str]:
    """The (house type, area) a house deal's terms sell (see `_house_terms`)."""
    return cast(tuple[str, str], deal[2])


def _house_names(m: Month, deal: Terms) -> dict[str, Any]:
    seller, buyer, _, price = deal
    house, area = _place(deal)
    return {"house": m.tables.housing_type(house).name, "area": m.tables.area(area).name,
            "price": price, "seller": seller, "buyer": buyer}


def _house_unmatched(m: Month, deal: Terms, s: Actor | None, b: Actor | None) -> None:
    for x in (s, b):
        if x is not None:
            m.emit(x.key, EventId.HOUSING_DEAL_UNMATCHED, _house_names(m, deal))


def _house_settle(m: Month, s: Actor, b: Actor, deal: Terms) -> bool:
    """EG §P: the seller owns it (never a family home) and the buyer has the money."""
    house, area = _place(deal)
    price = deal[3]
    family = (s.c.home and s.c.home.tenure is Tenure.FAMILY
              and (s.c.home.kind, s.c.home.area) == (house, area)) or \
        any(p.family for p in s.c.properties if (p.kind, p.area) == (house, area))
    if not owns(s.c, house, area) or b.crowns < price or family:
        return False
    if s.c.home and (s.c.home.kind, s.c.home.area) == (house, area):
        s.update(home=None)
    else:
        props = list(s.c.properties)
        props.remove(next(p for p in props if (p.kind, p.area) == (house, area)))
        s.update(properties=tuple(props))
    b.update(properties=(*b.c.properties, Property(area, house)))
    names = _house_names(m, deal)
    m.emit(s.key, EventId.HOUSING_DEAL, {**names, "sold": True}, crowns=price, public=True)
    m.emit(b.key, EventId.HOUSING_DEAL, {**names, "sold": False}, crowns=-price)
    return True


def _commission_terms(a: Actor, o: CommissionDeal) -> Terms:
    seller, buyer = (a.key, o.other) if o.selling else (o.other, a.key)
    return (seller, buyer, o.rank, o.price)


def _commission_args(m: Month, deal: Terms, reason: str | None = None) -> dict[str, Any]:
    seller, buyer, rank, price = deal
    return {"seller": seller, "buyer": buyer, "rank": m.tables.army.rank_name(str(rank)),
            "price": price, "reason": reason}


def _commission_unmatched(m: Month, deal: Terms, s: Actor | None, b: Actor | None) -> None:
    reason = m.scratch.get("commission_deal", {}).pop(deal, None) or "unmatched"
    for x in (s, b):
        if x is not None:
            m.emit(x.key, EventId.REGIMENT_DEAL_UNMATCHED, _commission_args(m, deal, reason))


def commission_problem(m: Month, s: Actor, b: Actor, rank: str, price: int) -> str | None:
    """Why this commission cannot pass from ``s`` to ``b``, if it cannot (reference §4)."""
    ranks = m.tables.army.ranks
    if s.c.rank != rank or not s.c.regiment or rank not in ranks:
        return "seller"
    if b.c.regiment != s.c.regiment or b.c.rank not in ranks or \
            ranks.index(b.c.rank) >= ranks.index(rank):
        return "buyer"
    skipped = army.steps(m.tables.army, b.c.rank, rank)[:-1]
    if ranks.index(rank) > ranks.index(m.tables.army.settings["max_entry_rank"]) and skipped:
        return "one_step"
    if b.sl < m.tables.army.cell(rank, s.c.regiment, "min_sl"):
        return "sl"
    if any(not army.vacancy(m, s.c.regiment, r, b.key) for r in skipped):
        return "vacancy"
    if b.crowns < price + army.price(m.tables.army, s.c.regiment, skipped):
        return "funds"
    return None


def _commission_settle(m: Month, s: Actor, b: Actor, deal: Terms) -> bool:
    rank, price = str(deal[2]), deal[3]
    reason = commission_problem(m, s, b, rank, price)
    if reason:
        m.scratch.setdefault("commission_deal", {})[deal] = reason
        return False
    regiment = str(s.c.regiment)
    skipped = army.steps(m.tables.army, b.c.rank, rank)[:-1]
    steps_cost = army.price(m.tables.army, regiment, skipped)
    army.leave_regiment(m, s)
    b.update(rank=rank)
    args = {**_commission_args(m, deal), "regiment": m.tables.army.regiment(regiment).name,
            "steps": steps_cost}
    m.emit(s.key, EventId.REGIMENT_DEAL, {**args, "sold": True}, crowns=price, public=True)
    m.emit(b.key, EventId.REGIMENT_DEAL, {**args, "sold": False}, crowns=-price - steps_cost)
    return True
