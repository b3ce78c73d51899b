"""Phase 2D: playing cards in player order (FE 2.6-2.14, 11.0-11.2)."""

from __future__ import annotations

from moderator.games.fief.cards import abbey, intrigue, relics, retainers
from moderator.games.fief.cards.common import orders_of, take
from moderator.games.fief.cards.rebellion import rebellion
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Ambush,
    Assassinate,
    Chasuble,
    Escape,
    Justice,
    Mata,
    Order,
    PlayClergy,
    PlayFortune,
    PlayNoble,
    PlaySlot,
    PlayTax,
    PlayTithe,
    Rebellion,
    Shinbone,
)
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import TALLAGE_RULE, Noble

# -- 2D ---------------------------------------------------------------------------------

def play_phase(realm: Realm) -> None:
    """FE 2.6: in player order, each player plays his cards in the order written."""
    retainers.exchanges(realm)
    for player in realm.s.player_order():
        for order in orders_of(realm, player).orders:
            if not order.at:
                play_one(realm, player, order)


def play_one(realm: Realm, player: str, order: Order) -> None:
    """One card order, in Phase 2D or in another window (FAQ P2 F10: the Discard)."""
    if isinstance(order, PlayNoble):
        _play_noble(realm, player, order)
    elif isinstance(order, PlayFortune) and order.window == "cards":
        play_fortune(realm, player, order)
    elif isinstance(order, PlayTax):
        _play_tax(realm, player, order)
    elif isinstance(order, PlayClergy):
        _play_clergy(realm, player, order)
    elif isinstance(order, Assassinate):
        intrigue.assassinate(realm, player, order)
    elif isinstance(order, PlayTithe):
        _play_tithe(realm, player, order)
    elif isinstance(order, Justice):
        intrigue.justice(realm, player, order)
    elif isinstance(order, Ambush):
        intrigue.ambush(realm, player, order)
    elif isinstance(order, Escape):
        intrigue.escape(realm, player, order)
    elif isinstance(order, Rebellion):
        rebellion(realm, player, order)
    elif isinstance(order, PlaySlot):
        _play_slot(realm, player, order)
    elif isinstance(order, Chasuble):
        relics.chasuble(realm, player, order)
    elif isinstance(order, Shinbone):
        relics.shinbone(realm, player)
    elif isinstance(order, Mata):
        retainers.mata(realm, player, order)


def _family_for(realm: Realm, player: str, wanted: str | None) -> str:
    families = realm.s.players[player].families
    return wanted if wanted in families else families[0]


def _play_noble(realm: Realm, player: str, order: PlayNoble) -> None:
    """FE 2.11: at most 3 nobles; placed in a family Stronghold, with a family noble, a
    controlled city, or an empty Independent or allied city; a Retainer is drawn (2.12)."""
    s, t = realm.s, realm.t
    family = _family_for(realm, player, order.family)
    card = f"Noble {t.noble_card(order.noble).name}"
    text = f"PLAY NOBLE {order.noble} AT {order.city}"
    if card not in s.players[player].hand:
        realm.refuse(player, text, "that Noble card is not in your hand")
        return
    if len(s.living(family)) >= t.cards.nobles_max:
        realm.refuse(player, text, f"a family has at most {t.cards.nobles_max} nobles (FE 2.11)")
        return
    c = realm.city(order.city)
    allowed = (c.holder == family or any(n.city == order.city for n in s.living(family))
               or (c.holder is None and not c.troops)
               or (c.holder is not None and realm.allied(c.holder, family)))
    if not allowed:
        realm.refuse(player, text, f"{order.city} is held by another family (FE 2.11)")
        return
    take(realm, player, card)
    nc = t.noble_card(order.noble)
    noble = Noble(nc.key, nc.name, nc.sex, family, order.city)
    s.nobles[nc.key] = noble
    if s.retainer_deck:
        noble.retainer = s.retainer_deck.pop(0)
    realm.emit(EventId.NOBLE_PLACED, {"noble": nc.key, "family": family, "city": order.city})
    realm.arrive(order.city, family)
    _recover_titles(realm, family)
    _prince_of_wales(realm, noble)


def _recover_titles(realm: Realm, family: str) -> None:
    """FE 4.8: a title back on the deck returns free when the family, still holding the
    Fortified City, gains a noble."""
    for region in realm.t.regions:
        if realm.lord_of(region.key) is not None:
            continue
        forts = [c for c in region.cities if realm.city(c).building == "fortified"
                 and realm.city(c).holder == family]
        nobles = realm.s.living(family)
        if forts and nobles:
            nobles[0].titles.append(region.key)
            realm.emit(EventId.TITLE_PASSED, {"region": region.key, "from": None,
                                              "to": nobles[0].key})


def _prince_of_wales(realm: Realm, noble: Noble) -> None:
    """FAQ P2, Defs: a male noble placed on the Queen's (or the Sovereign Queen's) family
    board is the Prince of Wales, her son."""
    s = realm.s
    mother = s.queen or (s.sovereign if s.sovereign and s.nobles[s.sovereign].sex == "f"
                         else None)
    if (mother and s.prince is None and noble.sex == "m"
            and s.nobles[mother].family == noble.family):
        s.prince = noble.key
        realm.emit(EventId.PRINCE_OF_WALES, {"noble": noble.key, "mother": mother})


def play_fortune(realm: Realm, player: str, order: PlayFortune) -> None:
    """FE 2.7, 2.9: on a region; cancels Famine (Harvest) or Storms (Weather); may not be
    played where the other disaster is; one of each kind a region a round."""
    region = realm.t.region(order.region)
    text = f"PLAY {order.card.upper()} ON {region.name}"
    if order.card not in realm.s.players[player].hand:
        realm.refuse(player, text, "that card is not in your hand")
        return
    sea = realm.s.seas.setdefault(str(region.number), [])
    cancels, forbidden = (("Famine", "Storms") if order.card == "Bountiful Harvest"
                          else ("Storms", "Famine"))
    if forbidden in sea:
        realm.refuse(player, text,
                     f"{order.card} may not be played where {forbidden} rage (FE 2.7)")
        return
    if order.card in sea:
        realm.refuse(player, text, "one card of each kind a region a round (FE 2.9)")
        return
    take(realm, player, order.card)
    if cancels in sea:
        sea.remove(cancels)
        realm.s.fortune_discard.extend([cancels, order.card])
        realm.emit(EventId.FORTUNE_CANCELS, {"card": order.card, "cancels": cancels,
                                             "region": region.number, "player": player})
        return
    sea.append(order.card)
    realm.emit(EventId.FORTUNE_PLAYED, {"card": order.card, "region": region.number,
                                        "player": player})


def _play_tax(realm: Realm, player: str, order: PlayTax) -> None:
    """FE 2.8, 11.3: Tallage by the Lord of the fiefdom, or by the Sovereign on an
    ungoverned region; one Treasure marker is spent."""
    region = realm.t.region(order.region)
    text = f"PLAY TAX ON {region.name}"
    p = realm.s.players[player]
    if "Tax" not in p.hand:
        realm.refuse(player, text, "no Tax card in your hand")
    elif not realm.s.may_tallage(player, region.key):
        realm.refuse(player, text, TALLAGE_RULE)
    elif p.treasures < 1:
        realm.refuse(player, text, "no Treasure marker left this round (FE 11.3)")
    elif any(tx.get("region") == region.key for tx in realm.s.taxes):
        realm.refuse(player, text, "that region is taxed already")
    else:
        take(realm, player, "Tax")
        p.treasures -= 1
        realm.s.taxes.append({"region": region.key, "player": player})
        realm.s.seas.setdefault(str(region.number), []).append("Tax")
        realm.emit(EventId.TAX_PLAYED, {"player": player, "region": region.number})


def _play_clergy(realm: Realm, player: str, order: PlayClergy) -> None:
    """FE 2.13-2.14: Abbess on an unmarried noblewoman (an Abbey in a city without a
    Stronghold); Bishop/Archbishop on an unmarried free nobleman (one religious title)."""
    s, t = realm.s, realm.t
    text = f"PLAY {order.card.upper()} ON {order.noble}" + (f" AT {order.city}" if order.city
                                                            else "")
    noble = s.nobles.get(order.noble.lower())
    fams = s.players[player].families
    if order.card not in s.players[player].hand:
        realm.refuse(player, text, "that card is not in your hand")
        return
    if noble is None or not noble.alive or not (noble.family in fams or any(
            realm.allied(noble.family, f) for f in fams)):
        realm.refuse(player, text, "not a living noble of your family or an ally")
        return
    if noble.spouse:
        realm.refuse(player, text, "a married noble cannot take holy orders (FE 2.13, 2.14)")
        return
    if order.card == "Abbess":
        city = order.city or noble.city
        c = realm.city(city)
        if noble.sex != "f":
            realm.refuse(player, text, "only a noblewoman can be Abbess (FE 2.13)")
        elif abbey.site_refusal(realm, city, noble.family):
            realm.refuse(player, text, str(abbey.site_refusal(realm, city, noble.family)))
        else:
            # An Abbey destroyed but still its Abbess's (to rebuild, FE 2.13) is not free.
            used = {abbey.base(a) for a in [x.abbey for x in s.cities.values() if x.abbey]
                    + [a for n in s.living() for a in n.abbess]}
            name = next(a for a in t.abbey_names if a not in used)
            royal = abbey.is_royal_family(realm, noble.family)
            name = abbey.royal(name) if royal else name
            take(realm, player, order.card)
            c.building, c.abbey = "abbey", name
            noble.abbess.append(name)
            realm.emit(EventId.ABBEY_FOUNDED, {"noble": noble.key, "abbey": name, "city": city,
                                               **({"royal": True} if royal else {})})
        return
    district = next(d for d in t.districts if order.card.endswith(d.cathedral))
    if noble.sex != "m" or not noble.free:
        realm.refuse(player, text, "only a free nobleman (FE 2.14)")
    elif noble.clergy and not (order.card.startswith("Archbishop")
                               and t.district(noble.clergy).rank == "bishop"):
        realm.refuse(player, text, "one religious title at a time (FE 2.14, FAQ P1)")
    else:
        take(realm, player, order.card)
        if noble.clergy:
            old = t.district(noble.clergy)
            s.character_discard.append(f"Bishop of {old.cathedral}")
        noble.clergy = district.key
        realm.emit(EventId.CLERGY_APPOINTED, {"noble": noble.key, "district": district.key})


def _play_tithe(realm: Realm, player: str, order: PlayTithe) -> None:
    """FE 2.8, 11.3: a Bishop or Archbishop Tithes his own district, spending a Treasure."""
    s = realm.s
    district = realm.t.district(order.district)
    text = f"PLAY TAX TITHE ON {district.cathedral}"
    p = s.players[player]
    prelate = next((n for n in s.living() if n.clergy == district.key), None)
    if "Tax" not in p.hand:
        realm.refuse(player, text, "no Tax card in your hand")
    elif prelate is None or prelate.family not in p.families:
        realm.refuse(player, text, f"only the prelate of the {district.name} (FE 2.8)")
    elif p.treasures < 1:
        realm.refuse(player, text, "no Treasure marker left this round (FE 11.3)")
    elif any(tx.get("district") == district.key for tx in s.taxes):
        realm.refuse(player, text, "that district is tithed already")
    else:
        take(realm, player, "Tax")
        p.treasures -= 1
        s.taxes.append({"district": district.key, "player": player})
        first = min(r.number for r in realm.t.regions if r.district == district.key)
        s.seas.setdefault(str(first), []).append("Tax")
        realm.emit(EventId.TAX_PLAYED, {"player": player, "district": district.key})


def _play_slot(realm: Realm, player: str, order: PlaySlot) -> None:
    """FE 11.0-11.2: a Mercenary card (3 Crossbowmen on it) or a Burgher card (only with a
    titled Lord in the family) on the Opportunity space; the card there before is
    discarded with its Crossbowmen."""
    s = realm.s
    p = s.players[player]
    text = f"PLAY {order.card.upper()}"
    if order.card not in p.hand:
        realm.refuse(player, text, "that card is not in your hand")
        return
    burgher = order.card.startswith("Burgher")
    if burgher and not any(n.is_lord for n in s.living() if n.family in p.families):
        realm.refuse(player, text, "a Burgher serves only a family with a titled Lord (FE 11.2)")
        return
    take(realm, player, order.card)
    clear_slot(realm, player)
    p.slot = order.card
    p.crossbows = 0 if burgher else 3
    realm.emit(EventId.SLOT_PLAYED, {"player": player, "card": order.card})


def clear_slot(realm: Realm, player: str) -> None:
    p = realm.s.players[player]
    if p.slot is None:
        return
    for c in realm.s.cities.values():
        for fam in p.families:
            n = c.units_of(fam).get("crossbow", 0)
            if n:
                c.add(fam, "crossbow", -n)
    realm.s.character_discard.append(p.slot)
    p.slot, p.crossbows = None, 0


def crossbows_home(realm: Realm) -> None:
    """FE 11.1, 8.0: at End Round the Crossbowmen on the map go back to their card; a card
    whose three are all dead is discarded."""
    for player in realm.s.seats:
        p = realm.s.players[player]
        if p.slot is None or p.slot.startswith("Burgher"):
            continue
        for c in realm.s.cities.values():
            for fam in p.families:
                n = c.units_of(fam).get("crossbow", 0)
                if n:
                    c.add(fam, "crossbow", -n)
                    p.crossbows += n
                    realm.refresh_control(c.name)
        if p.crossbows == 0:
            clear_slot(realm, player)
