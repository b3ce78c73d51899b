"""Phase 2A-2C: discard, draw, the decks and the disasters (FE 2.0-2.5)."""

from __future__ import annotations

from moderator.games.fief.cards import windows
from moderator.games.fief.cards.common import orders_of
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Discard,
    Draw,
)
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble

DISASTERS = ("Plague", "Storms", "Famine", "Invasion")


def is_disaster(card: str) -> bool:
    return card in DISASTERS


# -- 2A, 2B ----------------------------------------------------------------------------

def discard_phase(realm: Realm) -> None:
    """FE 2.0 A: discarded Character cards go under the Character deck, face up; Fortune
    cards onto the discard pile."""
    for player in realm.s.player_order():
        hand = realm.s.players[player].hand
        windows.play_for(realm, player, "discard")   # FAQ P2 F10: played, not discarded
        for order in orders_of(realm, player).of(Discard):
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
        plans = orders_of(realm, player).of(Draw)
        if not plans:
            continue
        plan = plans[-1]
        hand = realm.s.players[player].hand
        drawn = chars = reds = 0
        first: str | None = None
        for index in range(min(most, len(plan.decks))):
            deck = plan.deck_after(first, index)
            if len(hand) >= limit:
                # Found playing by mail: the refusal did not say what makes room.
                rule = "FE 13.7" if realm.player_count() == 2 else "FE 2.0"
                realm.refuse(player, f"DRAW {deck}",
                             f"your hand is full ({limit} cards, the most it holds, {rule}): "
                             "a DISCARD line in the same orders makes room")
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
            first = card if first is None else first
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
        realm.emit(EventId.DISASTER_TRACKED, {"player": player, "slot": len(realm.s.track)},
                   actor=player)
    else:
        realm.s.fortune_discard.append(card)
        realm.emit(EventId.DISASTER_TRACKED, {"player": player, "slot": None, "card": card},
                   actor=player)


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
    drawers = _track_drawers(realm)
    slot = 0
    while s.track:
        card = s.track.pop(0)
        slot += 1
        region = realm.d6("disaster", f"region of the {card}", actor=first)
        drawer = drawers.get(slot)
        if s.round == 1:
            s.dormant.append([region, card])
            realm.emit(EventId.DISASTER_PLACED, {"card": card, "region": region, "dormant": True,
                                                 "drawn_by": drawer}, actor=drawer)
        else:
            _place(realm, region, card, first, drawer=drawer)


def _track_drawers(realm: Realm) -> dict[int, str]:
    """Who laid each track space's card this phase (FE 2.3), so that the player who turned
    a Disaster up reads on his sheet which one it was once it is revealed (FE 2.4)."""
    return {int(e.args["slot"]): str(e.args["player"]) for e in realm.events
            if e.id == EventId.DISASTER_TRACKED.value and e.args.get("slot")}


def _place(realm: Realm, region: int, card: str, first: str, from_round_one: bool = False,
           drawer: str | None = None) -> None:
    sea = realm.s.seas.setdefault(str(region), [])
    if card in sea:
        realm.s.fortune_discard.append(card)
        realm.emit(EventId.DISASTER_DUPLICATE, {"card": card, "region": region,
                                                "drawn_by": drawer}, actor=drawer)
        return
    sea.append(card)
    realm.emit(EventId.DISASTER_PLACED, {"card": card, "region": region,
                                         "dormant": False, "woken": from_round_one,
                                         "drawn_by": drawer}, actor=drawer)
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
            if c.building == "abbey" and realm.inside(city, noble.family):
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
