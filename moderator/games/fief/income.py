"""Phase 3: income (FE 3.0-3.4): each family's cities, titles and abbeys, the Fortune cards
that change it (Tallage, Tithe, Famine, Bountiful Harvest), Scorched Earth; and the
forecast of it a turn sheet shows."""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Scorch, TurnOrders
from moderator.games.fief.realm import Realm


def _bonus(realm: Realm, region: int) -> int:
    """FE 2.7, 2.9: +1 per Mill/Abbey for each of Bountiful Harvest and Good Weather."""
    sea = realm.s.seas.get(str(region), [])
    return realm.t.money.fortune_bonus * sum(1 for c in ("Bountiful Harvest", "Good Weather")
                                             if c in sea)


def tallager(realm: Realm, region: str, played_by: str) -> str | None:
    """Who collects a Tallage at Phase 3 (FAQ P3): the family now holding the title, or
    the Sovereign's player for a royal Tallage; an unclaimed title collects nothing."""
    lord = realm.lord_of(region)
    if lord is not None:
        return realm.account(lord.family)
    king = realm.s.sovereign
    if king is not None and realm.account(realm.s.nobles[king].family) == played_by:
        return played_by
    return None


def tither(realm: Realm, district: str) -> str | None:
    """FAQ P3: a dead prelate's Tithe is not collected and the Mills pay their owners."""
    prelate = next((n for n in realm.s.living() if n.clergy == district), None)
    return realm.account(prelate.family) if prelate is not None else None


def abbey_owner(realm: Realm, city: str) -> str | None:
    """FE 2.13: the Abbess receives the revenues of her Abbey and its city's Mill (the
    city's holder when she is dead, PROPOSED)."""
    c = realm.city(city)
    abbess = next((n for n in realm.s.living() if c.abbey in n.abbess), None)
    return abbess.family if abbess is not None else c.holder


def abbey_income(realm: Realm, city: str, famine: bool, bonus: int) -> int:
    """FE 3.0, 3.1: 2 (+ fortune), 2 for each Abbess and Lord there, 3 for each member of
    the Royal Family, 3 a Relic, 3 for Excalibur; its Mill 2 + 1 (+ fortune) unless in
    Famine; the visitors pay even in Famine."""
    s, m = realm.s, realm.t.money
    c = realm.city(city)
    # FE 5.0: only those inside the Abbey (its own and those let in) are its visitors.
    here = [n for n in s.living() if n.city == city and n.free and realm.inside(city, n.family)]
    royal = {s.sovereign, s.queen, s.prince}
    total = m.abbey_income + bonus
    total += sum(3 if n.key in royal else 2 for n in here
                 if n.key in royal or n.abbess or n.is_lord)
    total += 3 * (sum(len(n.relics) for n in here) + (1 if c.relic and c.relic_up else 0))
    holder = s.nobles.get(s.excalibur_holder) if s.excalibur_holder else None
    if s.excalibur_city == city or (holder is not None and holder in here):
        total += 3
    if c.mill and not famine:
        total += m.mill_income + bonus + 1
    return total


def forecast(realm: Realm, player: str) -> dict[str, int]:
    """The income a player's families would collect now, line by line (FE 3.0-3.3)."""
    s, m = realm.s, realm.t.money
    fams = s.players[player].families
    taxed = {tx["region"]: who for tx in s.taxes if "region" in tx
             if (who := tallager(realm, tx["region"], tx["player"])) is not None}
    lines = {"cities": 0, "mills": 0, "abbeys": 0, "tallage": 0, "tithe": 0, "queen": 0}
    tithed = {tx["district"]: who for tx in s.taxes if "district" in tx
              if (who := tither(realm, tx["district"])) is not None}
    for region in realm.t.regions:
        famine = "Famine" in s.seas.get(str(region.number), [])
        bonus = _bonus(realm, region.number)
        taxer = taxed.get(region.key)
        if taxer == player:
            lines["tallage"] += m.tallage_per_city * len(region.cities)
        if tithed.get(region.district) == player:
            # FE 2.8, 3.2: the Tithe takes each Mill's 2 and its fortune bonus, wherever
            # the Mill's owner, except the Mill of an Abbey's city; Famine Mills pay nothing.
            lines["tithe"] += sum(m.tithe_per_mill + bonus for c in region.cities
                                  if s.cities[c].mill and not famine
                                  and s.cities[c].building != "abbey")
        for city in region.cities:
            c = s.cities[city]
            if (c.building == "abbey" and not c.besieged_by
                    and abbey_owner(realm, city) in fams):
                lines["abbeys"] += abbey_income(realm, city, famine, bonus)
            if c.holder not in fams or c.besieged_by:
                continue
            if taxer is None:
                lines["cities"] += m.city_income
            if c.building != "abbey" and c.mill and not famine and region.district not in tithed:
                # FE 3.1, 2.13: +1 for a Mill in a city a road away from an Abbey.
                near = any(s.cities[n].building == "abbey" for n in realm.t.neighbours(city))
                lines["mills"] += m.mill_income + bonus + (1 if near else 0)
    if s.queen and s.nobles[s.queen].family in fams:
        lines["queen"] = m.queen_income
    total = sum(lines.values())
    # FE 3.3: with Invaders anywhere in England every income is halved, rounded up.
    halved = bool(s.invaders)
    lines["total"] = (total + 1) // 2 if halved else total
    lines["halved"] = int(halved)
    return lines


def income_phase(realm: Realm) -> None:
    """FE 3.0-3.3, collected simultaneously; then Scorched Earth (3.4); the Fortune cards
    leave the map once everyone is paid (3.2 note)."""
    s = realm.s
    paid = {p: forecast(realm, p) for p in s.player_order()}
    for player, lines in paid.items():
        s.players[player].cash += lines["total"]
        realm.emit(EventId.INCOME, {"player": player, **lines}, actor=player, public=False)
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(Scorch):
            for city in order.cities:
                c = s.cities[city]
                if c.holder not in s.players[player].families or not c.mill:
                    realm.refuse(player, f"SCORCH {city}", "you hold no Mill there")
                    continue
                c.mill = False
                s.players[player].cash += realm.t.money.scorch_bonus
                realm.emit(EventId.SCORCHED, {"player": player, "city": city})
    for sea in s.seas.values():
        for card in ("Bountiful Harvest", "Good Weather"):
            if card in sea:
                sea.remove(card)
                s.fortune_discard.append(card)
