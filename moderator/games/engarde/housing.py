"""Lodgings and houses (EG §P): rent, buy, let, sell, move, and the monthly SP.

Reading of moving (documented in docs/engarde-orders.md): RENT/BUY are weekend
actions and the new dwelling becomes his home at once.  Leaving anything bigger
than an apartment costs 50 crowns and a week, so the month's orders must also
have a ``WEEK n: MOVE``; leaving a garret or apartment (or nowhere) is free.
A house he owned and leaves stays his, to let or sell.
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.engarde.checks import house_problem, monthly_cost
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Buy, Let, Move, Rent, Sell, StopLetting
from moderator.games.engarde.state import Home, Property, Tenure


def _names(m: Month, kind: str, area: str) -> dict[str, str]:
    return {"house": m.tables.housing_type(kind).name, "area": m.tables.area(area).name}


def pay_rent(m: Month) -> None:
    """A rented home costs its monthly cost; unpaid rent means eviction."""
    for a in m:
        home = a.c.home
        if not home or home.tenure is not Tenure.RENTED:
            continue
        cost = monthly_cost(m.tables, home.kind, home.area)
        if a.crowns >= cost:
            m.emit(a.key, EventId.HOUSING_RENT, {**_names(m, home.kind, home.area),
                                                 "cost": cost}, crowns=-cost)
        else:
            a.update(home=None)
            m.emit(a.key, EventId.HOUSING_EVICTED, _names(m, home.kind, home.area),
                   public=True)


def _moving_week(a: Actor) -> bool:
    orders = a.orders.weeks.values()
    return any(isinstance(o, Move) or isinstance(getattr(o, "then", None), Move)
               or isinstance(getattr(o, "otherwise", None), Move) for o in orders)


def acquire(m: Month, a: Actor, order: Rent | Buy) -> None:
    names = _names(m, order.house, order.area)
    why = house_problem(replace(a.c, sl=a.sl), m.tables, order)
    home = a.c.home
    settings = m.tables.housing
    big = home is not None and \
        m.tables.housing_type(home.kind).rank > settings["free_move_max_rank"]
    monthly = monthly_cost(m.tables, order.house, order.area)
    price = monthly * (settings["buy_months"] if isinstance(order, Buy) else 1)
    move_cost = settings["move_cost"] if big else 0
    if why is None and big and not _moving_week(a):
        why = "no MOVE week"
    if why is None and a.crowns < price + move_cost:
        why = f"needs {price + move_cost} crowns"
    if why:
        m.emit(a.key, EventId.HOUSING_REFUSED, {**names, "reason": why})
        return
    properties = a.c.properties
    if home and home.tenure is not Tenure.RENTED:
        properties += (Property(home.area, home.kind, home.tenure is Tenure.FAMILY),)
    tenure = Tenure.OWNED if isinstance(order, Buy) else Tenure.RENTED
    a.update(home=Home(order.area, order.house, tenure), properties=properties)
    event = EventId.HOUSING_BOUGHT if isinstance(order, Buy) else EventId.HOUSING_RENTED
    m.emit(a.key, event, {**names, "cost": price}, crowns=-price, public=True)
    m.emit(a.key, EventId.HOUSING_MOVED, {**names, "cost": move_cost}, crowns=-move_cost)


def anytime(m: Month, a: Actor, order: Let | StopLetting | Sell) -> None:
    names = _names(m, order.house, order.area)
    home = a.c.home
    at_home = home is not None and home.tenure is not Tenure.RENTED and \
        (home.kind, home.area) == (order.house, order.area)
    index = next((i for i, p in enumerate(a.c.properties)
                  if (p.kind, p.area) == (order.house, order.area)), None)
    if isinstance(order, Sell):
        family = (at_home and home is not None and home.tenure is Tenure.FAMILY) or (
            index is not None and a.c.properties[index].family)
        if family or (not at_home and index is None):
            reason = "family" if family else "not_owned"
            m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "SELL", "reason": reason})
            return
        price = monthly_cost(m.tables, order.house, order.area) * m.tables.housing["buy_months"]
        value = price * m.tables.housing["sale_pct"] // 100
        if at_home:
            a.update(home=None)
        elif index is not None:  # always, when not at home: checked above
            a.update(properties=a.c.properties[:index] + a.c.properties[index + 1:])
        m.emit(a.key, EventId.HOUSING_SOLD, {**names, "price": price, "value": value},
               crowns=value, public=True)
        return
    if index is None:
        reason = "lives_there" if at_home else "not_owned"
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": order.verb, "reason": reason})
        return
    on = isinstance(order, Let)
    props = list(a.c.properties)
    props[index] = replace(props[index], letting=on)
    a.update(properties=tuple(props))
    m.emit(a.key, EventId.HOUSING_LETTING, {**names, "on": on})


def letting(m: Month) -> None:
    """Each house on offer: 5 crowns of adverts, then an NPC tenant on 1d6 > its rank."""
    settings = m.tables.housing
    for a in m:
        props = list(a.c.properties)
        for i, p in enumerate(props):
            if not p.letting:
                continue
            names = _names(m, p.kind, p.area)
            if a.crowns < settings["advert_cost"]:
                props[i] = replace(p, letting=False)
                m.emit(a.key, EventId.HOUSING_LETTING, {**names, "on": False})
                continue
            m.emit(a.key, EventId.HOUSING_ADVERT, {**names, "cost": settings["advert_cost"]},
                   crowns=-settings["advert_cost"])
            rank = m.tables.housing_type(p.kind).rank
            roll = m.dice.stream("housing").roll(
                "1d6", f"tenant for the {names['house']} in {names['area']}", actor=a.key,
                needs=rank + 1)
            if roll.success:
                income = monthly_cost(m.tables, p.kind, p.area) * settings["let_income_pct"] // 100
                m.emit(a.key, EventId.HOUSING_LET, {**names, "income": income}, crowns=income)
            else:
                m.emit(a.key, EventId.HOUSING_NO_TENANT, names)
        a.update(properties=tuple(props))


def residence_sp(m: Month) -> None:
    """Area SP plus housing SP for where he lives (EG §P)."""
    for a in m:
        home = a.c.home
        if home:
            sp = m.tables.area(home.area).sp + m.tables.housing_type(home.kind).sp
            if sp:
                m.emit(a.key, EventId.HOUSING_SP, _names(m, home.kind, home.area), sp=sp)
