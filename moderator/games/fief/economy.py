"""Phase 4 purchasing (FE 4.0-4.4), with the interdictions and ransoms that open it (FE 7.7,
6.7); Phase 3, income, is in income.py."""

from __future__ import annotations

from moderator.games.fief import mercenaries, ransom, siege
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Build,
    BuildRoyal,
    Buy,
    BuyTitle,
    Give,
    Grant,
    Hire,
    Interdict,
    Transfer,
    TurnOrders,
)
from moderator.games.fief.realm import Realm


def interdictions(realm: Realm) -> None:
    """FE 13.4 King's Interdiction, before the ransoms: a free King or Queen (the Sovereign
    or the royal spouse) spends a Carrier Pigeon (2.15, three a game) and a captive of the
    Bandits of his choice goes free, unransomed.  Read as the Bandits' captives only: the
    rule sits in the Sherwood section and replaces their ransom (PROPOSED)."""
    s = realm.s
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(Interdict):
            text = f"INTERDICT {order.captive}"
            royals = [s.nobles[k] for k in (s.sovereign, s.queen) if k]
            captive = s.nobles.get(order.captive.lower())
            if not any(n.free and n.family in s.players[player].families for n in royals):
                realm.refuse(player, text, "only a free King or Queen interdicts (FE 13.4)")
            elif captive is None or captive.status != "captive" or captive.captor != "bandits":
                realm.refuse(player, text, "not a captive of the Bandits (FE 13.4)")
            elif s.players[player].pigeons < 1:
                realm.refuse(player, text, "no Carrier Pigeon left (FE 2.15)")
            else:
                s.players[player].pigeons -= 1
                realm.release(captive, "the King's Interdiction")


def ransoms(realm: Realm) -> None:
    """FE 7.7, 6.7: a lower ransom both players agreed (`ransom.lower`), else the full
    ransom, paid at the start of Phase 4 when the family can afford it (the captor must
    accept it); invaders' ransoms go to the bank."""
    s = realm.s
    interdictions(realm)
    ransom.strays(realm)
    for noble in [n for n in s.living() if n.status == "captive"]:
        price = (realm.bandit_ransom(noble) if noble.captor == "bandits"
                 else realm.ransom(noble))
        if ransom.lower(realm, noble, price) or realm.cash(noble.family) < price:
            continue
        realm.pay(noble.family, price)
        captor = noble.captor or ""
        if not captor.startswith("invaders:") and captor in s.nobles:
            realm.earn(s.nobles[captor].family, price)
        ransom.told(realm, noble, price, captor)
        realm.release(noble, "ransom")


def purchase_phase(realm: Realm) -> None:
    """FE 4.0-4.4 in player order, each line in the order written; a line that cannot be
    afforded or placed when it runs is skipped with its reason."""
    gifts(realm)
    ransoms(realm)
    siege.build(realm)
    mercenaries.loans(realm)
    placed: dict[str, int] = {}
    for player in realm.s.player_order():
        for order in realm.orders.get(player, TurnOrders()).orders:
            if isinstance(order, Buy):
                _buy(realm, player, order, placed)
            elif isinstance(order, Build):
                _build(realm, player, order)
            elif isinstance(order, BuyTitle):
                _title(realm, player, order)
            elif isinstance(order, BuildRoyal):
                _build_royal(realm, player, order)
            elif isinstance(order, Hire):
                _hire(realm, player, order)
            elif isinstance(order, Grant):
                _grant(realm, player, order)
            elif isinstance(order, Transfer):
                _transfer(realm, player, order)


def _holder_family(realm: Realm, player: str, city: str) -> str | None:
    holder = realm.city(city).holder
    return holder if holder in realm.s.players[player].families else None


def _buy(realm: Realm, player: str, order: Buy, placed: dict[str, int]) -> None:
    unit = realm.t.unit(order.unit)
    text = f"BUY {order.count} {unit.name.upper()} AT {order.city}"
    family = _holder_family(realm, player, order.city)
    cost = unit.cost * order.count
    cap = realm.t.buildings.new_units_per_city
    if family is None:
        realm.refuse(player, text, f"you do not control {order.city} in Phase 4, before this "
                     f"round's moves (FE 4.0)")
    elif realm.city(order.city).besieged_by:
        realm.refuse(player, text, "no troops can be placed in a besieged city (FE 7.9)")
    elif realm.cash(family) < cost:
        realm.refuse(player, text, f"costs {cost}, you have {realm.cash(family)}")
    elif realm.stock(family, unit.key) < order.count:
        realm.refuse(player, text,
                     f"only {realm.stock(family, unit.key)} left in your stockpile (FAQ P4)")
    elif placed.get(order.city, 0) + order.count > cap:
        realm.refuse(player, text, f"at most {cap} new units a city each Phase 4 (FE 4.0)")
    else:
        realm.pay(family, cost)
        realm.s.families[family].stock[unit.key] -= order.count
        realm.city(order.city).add(family, unit.key, order.count)
        placed[order.city] = placed.get(order.city, 0) + order.count
        # FE 4.1: the purchase is shown, its placement is hidden (a private line).
        realm.emit(EventId.BOUGHT, {"family": family, "unit": unit.key, "count": order.count,
                                    "city": order.city, "cost": cost}, actor=player, public=False)
        realm.emit(EventId.BOUGHT, {"family": family, "unit": unit.key, "count": order.count,
                                    "city": None, "cost": cost})


def _build(realm: Realm, player: str, order: Build) -> None:
    b = realm.t.buildings
    c = realm.city(order.city)
    family = _holder_family(realm, player, order.city)
    text = f"BUILD {order.building.upper()} AT {order.city}"
    cost = b.mill_cost if order.building == "mill" else b.stronghold_cost
    used = sum(1 for x in realm.s.cities.values()
               if (x.mill if order.building == "mill"
                   else x.building in ("stronghold", "fortified")))
    pool = b.mills if order.building == "mill" else b.strongholds
    if family is None:
        realm.refuse(player, text, f"you do not control {order.city} in Phase 4, before this "
                     f"round's moves (FE 4.2)")
    elif order.building == "mill" and c.mill:
        realm.refuse(player, text, "one Mill a city (FE 4.2)")
    elif order.building == "stronghold" and c.building:
        realm.refuse(player, text, "one Building a city (FE 4.2)")
    elif used >= pool:
        realm.refuse(player, text, "none left in the supply (FAQ P4)")
    elif realm.cash(family) < cost:
        realm.refuse(player, text, f"costs {cost}, you have {realm.cash(family)}")
    else:
        realm.pay(family, cost)
        if order.building == "mill":
            c.mill = True
        else:
            c.building = "stronghold"
        realm.emit(EventId.BUILT, {"family": family, "building": order.building,
                                   "city": order.city, "cost": cost}, actor=player)


def title_allowed(realm: Realm, family: str, region_key: str) -> str | None:
    """Why the family may not hold the region's title now, or None (FE 4.3)."""
    return realm.s.title_refusal(family, region_key, realm.t.region(region_key).cities)


def _title(realm: Realm, player: str, order: BuyTitle) -> None:
    region = realm.t.region(order.region)
    noble = realm.s.nobles.get(order.noble.lower())
    text = f"BUY TITLE {region.name} FOR {order.noble}"
    cost = realm.t.money.title_cost_per_city * len(region.cities)
    if noble is None or not noble.alive or noble.family not in realm.s.players[player].families:
        realm.refuse(player, text, "not a living noble of your family")
        return
    why = title_allowed(realm, noble.family, region.key)
    if why:
        realm.refuse(player, text, why)
    elif realm.cash(noble.family) < cost:
        realm.refuse(player, text, f"costs {cost}, you have {realm.cash(noble.family)}")
    else:
        realm.pay(noble.family, cost)
        fort = _invest(realm, noble.key, region.key)
        realm.emit(EventId.TITLE_BOUGHT, {"noble": noble.key, "region": region.key,
                                          "title": region.title, "cost": cost, "fortified": fort},
                   actor=player)


def _invest(realm: Realm, noble: str, region_key: str) -> str:
    """FE 4.3-4.4: the title under the noble; a Stronghold of the fiefdom (the first in the
    region's order, PROPOSED) becomes its Fortified City, unless it has one already."""
    region = realm.t.region(region_key)
    realm.s.nobles[noble].titles.append(region.key)
    forts = [c for c in region.cities if realm.city(c).building == "fortified"]
    if forts:
        return forts[0]
    fort = next(c for c in region.cities if realm.city(c).building == "stronghold")
    realm.city(fort).building = "fortified"
    return fort


def _grant(realm: Realm, player: str, order: Grant) -> None:
    """FE 4.5: the free Sovereign gives an unclaimed title to a noble whose family meets
    the conditions of 4.3 (any price asked is a separate deal, FAQ P4)."""
    s = realm.s
    region = realm.t.region(order.region)
    noble = s.nobles.get(order.noble.lower())
    text = f"GRANT {region.name} TO {order.noble}"
    king = s.nobles[s.sovereign] if s.sovereign else None
    if king is None or not king.free or king.family not in s.players[player].families:
        realm.refuse(player, text, "only a free Sovereign grants titles (FE 4.5)")
        return
    if noble is None or not noble.alive:
        realm.refuse(player, text, realm.not_living(order.noble))
        return
    why = title_allowed(realm, noble.family, region.key)
    if why:
        realm.refuse(player, text, why)
        return
    fort = _invest(realm, noble.key, region.key)
    realm.emit(EventId.TITLE_GRANTED, {"noble": noble.key, "region": region.key,
                                       "title": region.title, "by": king.key, "fortified": fort})


def _transfer(realm: Realm, player: str, order: Transfer) -> None:
    """FE 4.6: a Lord of several fiefdoms passes one to a noble of his family, keeping the
    largest (Duchy > County > Barony) for himself."""
    s = realm.s
    region = realm.t.region(order.region)
    lord = realm.lord_of(region.key)
    heir = s.nobles.get(order.noble.lower())
    text = f"TRANSFER {region.name} TO {order.noble}"
    rank = {"Duchy": 3, "County": 2, "Barony": 1}
    if lord is None or lord.family not in s.players[player].families:
        realm.refuse(player, text, "that title is not your family's")
    elif heir is None or not heir.alive or heir.family != lord.family or heir.key == lord.key:
        realm.refuse(player, text, "to another noble of the same family (FE 4.6)")
    elif len(lord.titles) < 2:
        realm.refuse(player, text, "a Lord keeps his only title (FE 4.6)")
    elif rank[region.title] > max(rank[realm.t.region(r).title] for r in lord.titles
                                  if r != region.key):
        realm.refuse(player, text, "the Lord keeps the largest fiefdom himself (FE 4.6)")
    else:
        lord.titles.remove(region.key)
        heir.titles.append(region.key)
        realm.emit(EventId.TITLE_TRANSFERRED, {"region": region.key, "from": lord.key,
                                               "to": heir.key})


FORTS = ("stronghold", "fortified", "royal", "abbey")


def gifts(realm: Realm) -> None:
    """FE 2.15, 9.0 at the start of Phase 4 (the email window, PROPOSED): nobles of the
    two players in one city exchange freely; otherwise a Carrier Pigeon flies between a
    noble in a Stronghold, Fortified City or Abbey and one in another (one card at most);
    on a 6 it strays: the card is lost, the Shillings stay home.  Every pigeon is spent."""
    s = realm.s
    limit = realm.t.hand_limit(realm.player_count())
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(Give):
            _give(realm, player, order, limit)


def _give(realm: Realm, player: str, order: Give, limit: int) -> None:
    s = realm.s
    me, them = s.players[player], s.players.get(order.to)
    text = f"GIVE TO {order.to}"
    if them is None or them.key == player:
        realm.refuse(player, text, "to another player")
        return
    if me.cash < order.amount or (order.card and order.card not in me.hand):
        realm.refuse(player, text, "you have not got it")
        return
    if order.card and len(them.hand) >= limit:
        realm.refuse(player, text, f"{them.name}'s hand is full (FE 2.15)")
        return
    mine = [n for n in s.living() if n.free and n.family in me.families]
    theirs = [n for n in s.living() if n.free and n.family in them.families]
    together = any(a.city == b.city for a in mine for b in theirs)
    if not together:
        sender = [n for n in mine if realm.city(n.city).building in FORTS]
        receiver = [n for n in theirs if realm.city(n.city).building in FORTS]
        if not sender or not receiver:
            realm.refuse(player, text, "in different cities a pigeon needs a noble of each "
                         "in a Stronghold, Fortified City or Abbey (FE 2.15)")
            return
        if me.pigeons < 1:
            realm.refuse(player, text, "no Carrier Pigeon left (FE 2.15)")
            return
        me.pigeons -= 1
        roll = realm.d6("pigeon", f"carrier pigeon to {them.name}", player)
        if roll == 6:
            if order.card:
                me.hand.remove(order.card)
                fortune = order.card in {c for c, _ in realm.t.fortune_cards}
                (s.fortune_discard if fortune else s.character_discard).append(order.card)
            realm.emit(EventId.GIFT, {"from": player, "to": them.key, "amount": 0,
                                      "card": None, "pigeon": True, "lost": True},
                       actor=player, public=False)
            return
    me.cash -= order.amount
    them.cash += order.amount
    if order.card:
        me.hand.remove(order.card)
        them.hand.append(order.card)
    for who in (player, them.key):
        realm.emit(EventId.GIFT, {"from": player, "to": them.key, "amount": order.amount,
                                  "card": order.card, "pigeon": not together, "lost": False},
                   actor=who, public=False)


def _hire(realm: Realm, player: str, order: Hire) -> None:
    """FE 11.1: Crossbowmen from your Mercenary card, 2 Shillings each, placed in a city
    you hold or where a noble of yours stands (PROPOSED: "any City of choice")."""
    s = realm.s
    p = s.players[player]
    text = f"HIRE {order.count} CROSSBOWMEN AT {order.city}"
    cost = realm.t.unit("crossbow").cost * order.count
    c = realm.city(order.city)
    family = c.holder if c.holder in p.families else next(
        (n.family for n in realm.nobles_at(order.city) if n.family in p.families), None)
    why = mercenaries.hire_refusal(p, order.count, cost)
    if why:
        realm.refuse(player, text, why)
    elif family is None:
        realm.refuse(player, text, f"you hold no city and have no noble at {order.city}")
    else:
        mercenaries.take(p, order.count, cost)
        c.add(family, "crossbow", order.count)
        realm.arrive(order.city, family)
        realm.emit(EventId.HIRED, {"family": family, "count": order.count, "city": order.city,
                                   "cost": cost}, actor=player, public=False)


def _build_royal(realm: Realm, player: str, order: BuildRoyal) -> None:
    """FE 4.9: the Royal Family builds its one Royal Stronghold (5) in an Independent city
    or a city of an ungoverned region (in a fiefdom only if its Lord is of the Royal
    Family: his consent, PROPOSED); the Royal Family holds the city, which leaves its
    region for titles."""
    s = realm.s
    text = f"BUILD ROYAL STRONGHOLD AT {order.city}"
    c = realm.city(order.city)
    royals = [s.nobles[k] for k in sorted(realm.royal_family())]
    mine = [n for n in royals if n.family in s.players[player].families]
    region = realm.t.region_of(order.city)
    lord = realm.lord_of(region.key)
    cost = realm.t.buildings.royal_stronghold_cost
    if not mine:
        realm.refuse(player, text, "only the Royal Family builds it (FE 4.9)")
    elif any(x.building == "royal" for x in s.cities.values()):
        realm.refuse(player, text, "there is one Royal Stronghold (Components)")
    elif c.building:
        realm.refuse(player, text, "one Building a city (FE 4.2)")
    elif c.holder is not None and c.holder not in s.players[player].families:
        realm.refuse(player, text, "an Independent city or one of yours (FE 4.9)")
    elif lord is not None and lord.key not in realm.royal_family():
        realm.refuse(player, text, "its Lord has not consented (FE 4.9)")
    elif realm.cash(mine[0].family) < cost:
        realm.refuse(player, text, f"costs {cost}, you have {realm.cash(mine[0].family)}")
    else:
        realm.pay(mine[0].family, cost)
        c.building = "royal"
        c.holder = mine[0].family
        if mine[0].family not in c.occupants:
            c.occupants.insert(0, mine[0].family)
        realm.emit(EventId.BUILT, {"family": mine[0].family, "building": "royal stronghold",
                                   "city": order.city, "cost": cost}, actor=player)
