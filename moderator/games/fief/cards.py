"""Phase 2: discard, draw, disasters, and playing cards (FE 2.0-2.14)."""

from __future__ import annotations

from moderator.games.fief import aftermath
from moderator.games.fief.battle import Side
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Ambush,
    Assassinate,
    Chasuble,
    Discard,
    Draw,
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
    TurnOrders,
)
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble

DISASTERS = ("Plague", "Storms", "Famine", "Invasion")


def is_disaster(card: str) -> bool:
    return card in DISASTERS


def _orders(realm: Realm, player: str) -> TurnOrders:
    return realm.orders.get(player, TurnOrders())


# -- 2A, 2B ----------------------------------------------------------------------------

def discard_phase(realm: Realm) -> None:
    """FE 2.0 A: discarded Character cards go under the Character deck, face up; Fortune
    cards onto the discard pile."""
    for player in realm.s.player_order():
        hand = realm.s.players[player].hand
        for order in _orders(realm, player).orders:
            if order.at == "discard":    # FAQ P2 F10: played instead of discarded
                _play_one(realm, player, order)
        for order in _orders(realm, player).of(Discard):
            for card in order.cards:
                if card not in hand:
                    realm.refuse(player, f"DISCARD {card}", "not in your hand")
                    continue
                hand.remove(card)
                if _is_character(realm, card):
                    realm.s.character_discard.append(card)
                else:
                    realm.s.fortune_discard.append(card)
                realm.emit(EventId.CARD_DISCARDED, {"player": player, "card": card})


def _is_character(realm: Realm, card: str) -> bool:
    return card.startswith("Noble ") or card in {c for c, _ in realm.t.character_cards}


def draw_phase(realm: Realm) -> None:
    """FE 2.0 B, 2.1, 2.3: each player's draw plan, card by card, in player order."""
    limit = realm.t.hand_limit(realm.player_count())
    most, most_char = realm.t.draw_limits(realm.player_count())
    for player in realm.s.player_order():
        plans = _orders(realm, player).of(Draw)
        if not plans:
            continue
        plan = plans[-1]
        hand = realm.s.players[player].hand
        drawn = chars = reds = 0
        for deck in plan.decks[:most]:
            if len(hand) >= limit:
                realm.refuse(player, f"DRAW {deck}", f"your hand is full ({limit} cards)")
                break
            if deck == "CHARACTER":
                if chars >= most_char:
                    realm.refuse(player, "DRAW CHARACTER", "never two Character cards (FE 2.0)")
                    continue
                card = _draw_from(realm, "character")
                chars += 1
            else:
                card = None
                while True:
                    top = _peek_fortune(realm)
                    if top is None or not is_disaster(top):
                        break
                    if plan.disasters_at_most is not None and reds >= plan.disasters_at_most:
                        break
                    _draw_from(realm, "fortune")
                    reds += 1
                    _track(realm, top, player)
                top = _peek_fortune(realm)
                if top is None or is_disaster(top):
                    break
                card = _draw_from(realm, "fortune")
            if card is None:
                break
            hand.append(card)
            drawn += 1
            realm.emit(EventId.CARD_DRAWN, {"player": player, "card": card}, actor=player,
                       public=False)
        realm.emit(EventId.CARD_DRAWN, {"player": player, "count": drawn, "disasters": reds})


def _peek_fortune(realm: Realm) -> str | None:
    if not realm.s.fortune_deck:
        _reshuffle(realm, "fortune")
    return realm.s.fortune_deck[0] if realm.s.fortune_deck else None


def _draw_from(realm: Realm, deck: str) -> str | None:
    pile = realm.s.character_deck if deck == "character" else realm.s.fortune_deck
    if not pile:
        _reshuffle(realm, deck)
        pile = realm.s.character_deck if deck == "character" else realm.s.fortune_deck
    return pile.pop(0) if pile else None


def _reshuffle(realm: Realm, deck: str) -> None:
    """FE 2.1: an exhausted deck is its shuffled discards."""
    s = realm.s
    discards = s.character_discard if deck == "character" else s.fortune_discard
    if not discards:
        return
    new = realm.shuffle(sorted(discards), "deck", f"reshuffle the {deck} deck")
    discards.clear()
    if deck == "character":
        s.character_deck = new
    else:
        s.fortune_deck = new
    realm.emit(EventId.DECK_RESHUFFLED, {"deck": deck, "cards": len(new)})


def _track(realm: Realm, card: str, player: str) -> None:
    """FE 2.3: a red top card goes face down on the first free track space, unseen;
    with the track full it is discarded."""
    if len(realm.s.track) < realm.t.cards.disaster_track:
        realm.s.track.append(card)
        realm.emit(EventId.DISASTER_TRACKED, {"player": player, "slot": len(realm.s.track)})
    else:
        realm.s.fortune_discard.append(card)
        realm.emit(EventId.DISASTER_TRACKED, {"player": player, "slot": None, "card": card})


# -- 2C ---------------------------------------------------------------------------------

def disasters_phase(realm: Realm) -> None:
    """FE 2.4: left to right, the first player rolls the d6 for the Region; in Round 1 the
    cards are placed but act only from Round 2's Phase 2."""
    s = realm.s
    first = s.player_order()[0]
    if s.round >= 2:
        for region, card in s.dormant:
            _place(realm, int(region), str(card), first, from_round_one=True)
        s.dormant = []
    while s.track:
        card = s.track.pop(0)
        region = realm.d6("disaster", f"region of the {card}", actor=first)
        if s.round == 1:
            s.dormant.append([region, card])
            realm.emit(EventId.DISASTER_PLACED, {"card": card, "region": region, "dormant": True})
        else:
            _place(realm, region, card, first)


def _place(realm: Realm, region: int, card: str, first: str, from_round_one: bool = False) -> None:
    sea = realm.s.seas.setdefault(str(region), [])
    if card in sea:
        realm.s.fortune_discard.append(card)
        realm.emit(EventId.DISASTER_DUPLICATE, {"card": card, "region": region})
        return
    sea.append(card)
    realm.emit(EventId.DISASTER_PLACED, {"card": card, "region": region,
                                         "dormant": False, "woken": from_round_one})
    if card == "Plague":
        plague(realm, region)


def plague(realm: Realm, region: int) -> None:
    """FE 2.5 PLAGUE: every army loses half its troops, rounded down, the cheapest first
    (the owner's choice, fief-email.md §2.3 default); engines are spared; each noble in the
    region rolls the d6 and dies on 1-3, unless in an Abbey (FE 2.13)."""
    r = realm.t.region(region)
    for city in r.cities:
        c = realm.city(city)
        for family in sorted(c.troops):
            lose = c.troop_count(family) // 2
            lost: dict[str, int] = {}
            for unit in ("men_at_arms", "archer", "crossbow", "knight"):
                take = min(lose, c.units_of(family).get(unit, 0))
                if take:
                    realm.return_units(city, family, unit, take)
                    lost[unit] = take
                    lose -= take
            if lost:
                realm.emit(EventId.PLAGUE_TROOPS, {"city": city, "family": family, "lost": lost})
        for army in sorted(realm.s.invaders.values(), key=lambda a: a.key):
            if army.city == city and army.foot:
                lost_foot = army.foot // 2
                army.foot -= lost_foot
                realm.emit(EventId.PLAGUE_TROOPS, {"city": city, "family": None,
                                                   "lost": {"foot": lost_foot}})
        for noble in [n for n in realm.s.living() if n.city == city]:
            if c.building == "abbey":
                continue
            plague_roll(realm, noble)
        realm.refresh_control(city)


def plague_roll(realm: Realm, noble: Noble) -> None:
    roll = realm.d6("plague", f"plague: {noble.name}", actor=realm.account(noble.family))
    dies = roll in realm.t.plague.noble_dies_on
    realm.emit(EventId.PLAGUE_NOBLE, {"noble": noble.key, "roll": roll, "dies": dies})
    if dies:
        realm.kill(noble, "plague")


def region_has(realm: Realm, region: int, card: str) -> bool:
    return realm.region_has(region, card)


# -- 2D ---------------------------------------------------------------------------------

def play_phase(realm: Realm) -> None:
    """FE 2.6: in player order, each player plays his cards in the order written."""
    for player in realm.s.player_order():
        for order in _orders(realm, player).orders:
            if not order.at:
                _play_one(realm, player, order)


def _play_one(realm: Realm, player: str, order: Order) -> None:
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
        _assassinate(realm, player, order)
    elif isinstance(order, PlayTithe):
        _play_tithe(realm, player, order)
    elif isinstance(order, Justice):
        _justice(realm, player, order)
    elif isinstance(order, Ambush):
        _ambush(realm, player, order)
    elif isinstance(order, Escape):
        _escape(realm, player, order)
    elif isinstance(order, Rebellion):
        rebellion(realm, player, order)
    elif isinstance(order, PlaySlot):
        _play_slot(realm, player, order)
    elif isinstance(order, Chasuble):
        _chasuble(realm, player, order)
    elif isinstance(order, Shinbone):
        _shinbone(realm, player)
    elif isinstance(order, Mata):
        _mata(realm, player, order)


def _take(realm: Realm, player: str, card: str) -> bool:
    hand = realm.s.players[player].hand
    if card not in hand:
        return False
    hand.remove(card)
    return True


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
    _take(realm, player, card)
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
    _take(realm, player, order.card)
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
    lord = realm.lord_of(region.key)
    sovereign = realm.noble(realm.s.sovereign) if realm.s.sovereign else None
    mine = lord is not None and lord.family in p.families
    royal = lord is None and sovereign is not None and sovereign.family in p.families
    if "Tax" not in p.hand:
        realm.refuse(player, text, "no Tax card in your hand")
    elif not (mine or royal):
        realm.refuse(player, text, "only its Lord, or the Sovereign on an ungoverned region")
    elif p.treasures < 1:
        realm.refuse(player, text, "no Treasure marker left this round (FE 11.3)")
    elif any(tx.get("region") == region.key for tx in realm.s.taxes):
        realm.refuse(player, text, "that region is taxed already")
    else:
        _take(realm, player, "Tax")
        p.treasures -= 1
        realm.s.taxes.append({"region": region.key, "player": player})
        realm.s.seas.setdefault(str(region.number), []).append("Tax")
        realm.emit(EventId.TAX_PLAYED, {"player": player, "region": region.number})


def _play_clergy(realm: Realm, player: str, order: PlayClergy) -> None:
    """FE 2.13-2.14: Abbess on an unmarried noblewoman (an Abbey in a city without a
    Stronghold); Bishop/Archbishop on an unmarried free nobleman (one religious title)."""
    s, t = realm.s, realm.t
    text = f"PLAY {order.card.upper()} ON {order.noble}"
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
        elif c.building:
            realm.refuse(player, text, f"{city} already has a building (FE 2.13, 4.2)")
        elif c.holder not in (None, noble.family):
            realm.refuse(player, text, f"{city} is held by another family (FE 2.13)")
        else:
            used = {x.abbey for x in s.cities.values() if x.abbey}
            name = next(a for a in t.abbey_names if a not in used)
            _take(realm, player, order.card)
            c.building, c.abbey = "abbey", name
            noble.abbess.append(name)
            realm.emit(EventId.ABBEY_FOUNDED, {"noble": noble.key, "abbey": name, "city": city})
        return
    district = next(d for d in t.districts if order.card.endswith(d.cathedral))
    if noble.sex != "m" or not noble.free:
        realm.refuse(player, text, "only a free nobleman (FE 2.14)")
    elif noble.clergy and not (order.card.startswith("Archbishop")
                               and t.district(noble.clergy).rank == "bishop"):
        realm.refuse(player, text, "one religious title at a time (FE 2.14, FAQ P1)")
    else:
        _take(realm, player, order.card)
        if noble.clergy:
            old = t.district(noble.clergy)
            s.character_discard.append(f"Bishop of {old.cathedral}")
        noble.clergy = district.key
        realm.emit(EventId.CLERGY_APPOINTED, {"noble": noble.key, "district": district.key})


def _assassinate(realm: Realm, player: str, order: Assassinate) -> None:
    """FE 10.3: a Sponsor of the player's family takes the Heresy marker; the victim dies
    and his troops stay where they are (dispersal in groups of 4 is not yet modelled)."""
    s = realm.s
    text = f"ASSASSINATE {order.target} BY {order.sponsor}"
    target = s.nobles.get(order.target.lower())
    sponsor = s.nobles.get(order.sponsor.lower())
    if "Assassination" not in s.players[player].hand:
        realm.refuse(player, text, "no Assassination card in your hand")
    elif target is None or not target.alive:
        realm.refuse(player, text, "no such living noble")
    elif sponsor is None or not sponsor.alive or sponsor.family not in s.players[player].families:
        realm.refuse(player, text, "the Sponsor must be a living noble of your family")
    else:
        _take(realm, player, "Assassination")
        s.fortune_discard.append("Assassination")
        for n in s.living():
            n.heresy = False
        sponsor.heresy = True
        realm.emit(EventId.ASSASSINATION, {"target": target.key, "sponsor": sponsor.key})
        realm.kill(target, "assassination")
        realm.disperse(target.family, target.city)


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
        _take(realm, player, "Tax")
        p.treasures -= 1
        s.taxes.append({"district": district.key, "player": player})
        first = min(r.number for r in realm.t.regions if r.district == district.key)
        s.seas.setdefault(str(first), []).append("Tax")
        realm.emit(EventId.TAX_PLAYED, {"player": player, "district": district.key})


def _justice(realm: Realm, player: str, order: Justice) -> None:
    """FE 10.4: a noble with the Heresy marker, not of the Royal Family, is executed."""
    s = realm.s
    target = s.nobles.get(order.target.lower())
    text = f"JUSTICE {order.target}"
    if "Justice" not in s.players[player].hand:
        realm.refuse(player, text, "no Justice card in your hand")
    elif target is None or not target.alive or not target.heresy:
        realm.refuse(player, text, "Justice strikes only a noble bearing the Heresy marker")
    elif target.key in (s.sovereign, s.queen):
        realm.refuse(player, text, "not the King, the Sovereign Queen or the Queen (FE 10.4)")
    elif realm.city(target.city).building == "abbey":
        realm.refuse(player, text, "an Abbey protects its nobles from Justice (FE 2.13)")
    else:
        _take(realm, player, "Justice")
        s.fortune_discard.append("Justice")
        target.heresy = False
        realm.emit(EventId.JUSTICE, {"noble": target.key, "player": player})
        realm.kill(target, "justice")
        realm.disperse(target.family, target.city)


def _ambush(realm: Realm, player: str, order: Ambush) -> None:
    """FE 10.5: your free noble captures a noble in the same city, unless he is inside a
    Stronghold or Fortified City (his family holds the city and its walls)."""
    s = realm.s
    target = s.nobles.get(order.target.lower())
    by = s.nobles.get(order.by.lower())
    text = f"AMBUSH {order.target} BY {order.by}"
    if "Ambush" not in s.players[player].hand:
        realm.refuse(player, text, "no Ambush card in your hand")
    elif by is None or not by.free or by.family not in s.players[player].families:
        realm.refuse(player, text, "the ambusher must be a free noble of yours")
    elif target is None or not target.free or target.city != by.city:
        realm.refuse(player, text, f"no free {order.target} with {by.name}")
    elif (realm.city(target.city).holder == target.family
          and realm.city(target.city).building in ("stronghold", "fortified", "royal")):
        realm.refuse(player, text, "a noble in a Stronghold cannot be ambushed (FE 10.5)")
    else:
        _take(realm, player, "Ambush")
        s.fortune_discard.append("Ambush")
        realm.emit(EventId.AMBUSH, {"noble": target.key, "by": by.key, "city": by.city})
        realm.capture(target, by.key, by.city)
        realm.disperse(target.family, target.city)


def _escape(realm: Realm, player: str, order: Escape) -> None:
    """FE 10.2 (any time): a captive of your choice goes free."""
    s = realm.s
    captive = s.nobles.get(order.captive.lower())
    text = f"PASSAGE FREE {order.captive}"
    if "Passage" not in s.players[player].hand:
        realm.refuse(player, text, "no Passage card in your hand")
    elif captive is None or captive.status != "captive":
        realm.refuse(player, text, f"{order.captive} is no captive")
    else:
        _take(realm, player, "Passage")
        s.fortune_discard.append("Passage")
        if captive.captor and captive.captor.startswith("invaders:"):
            army = s.invaders.get(captive.captor[9:])
            if army and captive.key in army.captives:
                army.captives.remove(captive.key)
        aftermath.escape(realm, captive)    # FE 10.2: placed as the card says


def rebellion(realm: Realm, player: str, order: Rebellion) -> None:
    """FE 10.1, 11.2, Ex 10-1, 10-2, 11-1: a Rebellion started by a card or a Burgher action,
    with the starter's own additions, then the other players' standing `IF ANYONE REBELS`
    support in player order from the starter; resolved once."""
    text = f"REBELLION AT {order.city}"
    starter = "burgher rebellion" if order.burgher else "rebellion"
    reason = _rebel_refusal(realm, player, order.city) or _short_of(
        realm, player, (starter, *order.extras))
    if reason:
        realm.refuse(player, text, reason)
        return
    support = [(player, what) for what in (starter, *order.extras)]
    for _, what in support:
        _pay_support(realm, player, what)
    support += _rebels_reactions(realm, player, order.city, support)
    _resolve_rebellion(realm, player, order.city, support)


def _rebel_refusal(realm: Realm, player: str, city: str) -> str | None:
    """FE 10.1, 9.3: why this player may not raise or join a Rebellion on the city."""
    s = realm.s
    region = realm.t.region_of(city)
    taxed_by = [tx["player"] for tx in s.taxes
                if tx.get("region") == region.key or tx.get("district") == region.district]
    if player in taxed_by:
        return "never on a city under your own Tax (FE 10.1)"
    if not (taxed_by or region_has(realm, region.number, "Famine") or s.parliament_rebellion):
        return "only on a city taxed, royally taxed or in Famine (FE 10.1)"
    return None


def _short_of(realm: Realm, player: str, items: tuple[str, ...]) -> str | None:
    """The cards and Treasures the items need (FE 10.1, 10.2, 11.2, 11.3), or why not."""
    p = realm.s.players[player]
    for card in ("Rebellion", "Passage"):
        if items.count(card.lower()) > p.hand.count(card):
            return f"not enough {card} cards in your hand"
    burghers = sum(1 for x in items if x.startswith("burgher"))
    if burghers and not (p.slot or "").startswith("Burgher"):
        return "no Burgher card on your board (FE 11.2)"
    if burghers > p.treasures:
        return "a Treasure for each Burgher action (FE 11.2, 11.3)"
    return None


def _pay_support(realm: Realm, player: str, what: str) -> None:
    p = realm.s.players[player]
    if what.startswith("burgher"):
        p.treasures -= 1
        return
    card = what.title()
    _take(realm, player, card)
    realm.s.fortune_discard.append(card)


def _rebels_reactions(realm: Realm, starter: str, city: str,
                      support: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Standing `IF ANYONE|AN OPPONENT REBELS <city>|ANY THEN PLAY ...`, in player order from
    the starter, each line once; one that cannot be paid does nothing and stays stored
    (fief-email.md §3.1).  A second Passage is never spent: the walls are ignored already."""
    s = realm.s
    order = s.player_order()
    turn = order[order.index(starter):] + order[:order.index(starter)]
    added: list[tuple[str, str]] = []
    for player in turn[1:]:
        for data in s.players[player].standing:
            what = str(data.get("response", ""))
            if data.get("kind") != "rebels_reaction" or data.get("city") not in ("", city):
                continue
            if what.endswith("passage") and any(w.endswith("passage")
                                                for _, w in support + added):
                continue
            if _rebel_refusal(realm, player, city) or _short_of(realm, player, (what,)):
                continue
            _pay_support(realm, player, what)
            added.append((player, what))
    return added


def _resolve_rebellion(realm: Realm, player: str, city: str,
                       support: list[tuple[str, str]]) -> None:
    """FE 10.1 Rebellion Resolution: one Battle Die +1 a Rebellion (+1 for the Royal Tax),
    a Stronghold cancelling one and a Fortified City two unless a Passage was played; all
    troops defeated: every noble there slain, the buildings and the Mill destroyed."""
    s = realm.s
    c = realm.city(city)
    count = sum(1 for _, what in support if what.endswith("rebellion"))
    count += 1 if s.parliament_rebellion else 0
    passage = any(what.endswith("passage") for _, what in support)
    # FE 10.2 Played at Any Time: a Passage ignores the walls' cancellations.
    cancel = 0 if passage else {"stronghold": 1, "royal": 1, "fortified": 2}.get(c.building, 0)
    dice = max(0, count - cancel)
    if dice and quelled(realm, city, dice):
        return
    faces = [realm.battle_die("rebellion", f"rebellion at {city}", player) for _ in range(dice)]
    hits = sum(faces) + dice
    args: dict[str, object] = {"city": city, "player": player, "rebellions": count,
                               "cancelled": min(cancel, count), "faces": faces, "hits": hits}
    if len(support) > 1:
        args["support"] = [[who, what] for who, what in support]
    realm.emit(EventId.REBELLION, args)
    if not dice:
        return
    left = hits
    for family in s.family_order():
        if c.troop_count(family) and left:
            left = Side(realm, city, family).take_hits(left)
    armies = [a.key for a in s.invaders.values() if a.city == city]
    if armies and left:
        left = Side(realm, city, armies=armies).take_hits(left)
        for key in armies:
            army = s.invaders[key]
            if not army.foot and not army.leader:
                del s.invaders[key]
    if any(c.troop_count(f) for f in c.troops) or any(a.city == city for a in s.invaders.values()):
        realm.refresh_control(city)
        return
    for noble in [n for n in s.living() if n.city == city]:
        realm.kill(noble, "rebellion")
    lost = [b for b in (c.building, "mill" if c.mill else "") if b]
    c.building, c.abbey, c.mill = "", None, False
    if lost:
        realm.emit(EventId.INVADERS_PILLAGE, {"city": city, "lost": lost, "rebels": True})
    realm.refresh_control(city)


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
    _take(realm, player, order.card)
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


def quelled(realm: Realm, city: str, rebellions: int) -> bool:
    """FE 10.1: a free Abbess, Bishop or Archbishop in the city whose player has a standing
    `QUELL PAY` pays 3 a Rebellion; with `QUELL PRAY` the d6 is rolled for each: 1-4 it
    stops, 5-6 the cleric is stoned to death.  The first such cleric in player order acts."""
    s = realm.s
    for player in s.player_order():
        how = next((d["how"] for d in reversed(s.players[player].standing)
                    if d.get("kind") == "quell"), None)
        clerics = [n for n in realm.nobles_at(city) if n.is_clergy
                   and n.family in s.players[player].families]
        if how is None or not clerics:
            continue
        cleric = clerics[0]
        if how == "pay":
            cost = 3 * rebellions
            if s.players[player].cash < cost:
                continue
            s.players[player].cash -= cost
            realm.emit(EventId.QUELLED, {"cleric": cleric.key, "city": city, "paid": cost,
                                         "rolls": []})
            return True
        rolls = []
        for _ in range(rebellions):
            roll = realm.d6("quell", f"{cleric.name} before the rebels", player)
            rolls.append(roll)
            if roll >= 5:
                realm.emit(EventId.QUELLED, {"cleric": cleric.key, "city": city, "paid": 0,
                                             "rolls": rolls, "stoned": True})
                realm.kill(cleric, "rebellion")
                return False
        realm.emit(EventId.QUELLED, {"cleric": cleric.key, "city": city, "paid": 0,
                                     "rolls": rolls})
        return True
    return False


def _relic_holder(realm: Realm, player: str, relic: str) -> Noble | None:
    return next((n for n in realm.s.living() if relic in n.relics and n.free
                 and n.family in realm.s.players[player].families), None)


def _chasuble(realm: Realm, player: str, order: Chasuble) -> None:
    """FE 12.2: a Storms card to an adjacent sea, once a round a card."""
    s = realm.s
    text = "CHASUBLE"
    if _relic_holder(realm, player, "Chasuble of Thomas Becket") is None:
        realm.refuse(player, text, "you do not hold the Chasuble of Thomas Becket")
    elif realm.t.sea_distance(order.source, order.target) != 1:
        realm.refuse(player, text, "only to an adjacent sea (FE 12.2)")
    elif "Storms" not in s.seas.get(str(order.source), []):
        realm.refuse(player, text, f"no Storms on Sea {order.source}")
    elif "Storms" in s.seas.get(str(order.target), []):
        realm.refuse(player, text, "that sea has Storms already")
    elif order.source in s.chasuble_moved:
        realm.refuse(player, text, "that Storms card has moved this round (FE 12.2)")
    else:
        s.seas[str(order.source)].remove("Storms")
        s.seas.setdefault(str(order.target), []).append("Storms")
        s.chasuble_moved.append(order.target)
        realm.emit(EventId.RELIC_USED, {"relic": "Chasuble of Thomas Becket", "player": player,
                                        "from": order.source, "to": order.target})


def _shinbone(realm: Realm, player: str) -> None:
    """FE 12.4: the Famines of the Ecclesiastic District the Shinbone's noble is in."""
    s = realm.s
    noble = _relic_holder(realm, player, "Saint Eanswith's Shinbone")
    if noble is None:
        realm.refuse(player, "SHINBONE", "you do not hold Saint Eanswith's Shinbone")
        return
    district = realm.t.region_of(noble.city).district
    ended = []
    for region in realm.t.regions:
        sea = s.seas.get(str(region.number), [])
        if region.district == district and "Famine" in sea:
            sea.remove("Famine")
            s.fortune_discard.append("Famine")
            ended.append(region.number)
    realm.emit(EventId.RELIC_USED, {"relic": "Saint Eanswith's Shinbone", "player": player,
                                    "regions": ended})


def _mata(realm: Realm, player: str, order: Mata) -> None:
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
