"""Royal Death (DWTK 8.4.1), succession and mourning (9), a RC's death (31.1-31.2), the
widowed (31.7) and the Prince/Queen Consort (9.2, 18.10)."""

from __future__ import annotations

from moderator.games.dwtk import hiding
from moderator.games.dwtk.death import drop_betrothal
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders import TurnOrders
from moderator.games.dwtk.shared import forced_discards, release_cards
from moderator.games.dwtk.state import Phase
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import kind_of


def royal_death(court: Court) -> None:
    """DWTK 8.4.1: a dice count names a RC by Death Number; if dead, roll again."""
    alive = [r for r in court.t.royals if court.royals[r.key].alive and r.deaths]
    if not alive:
        return
    while True:
        count = court.dice_count("crown", "Royal Death (DWTK 8.4.1)")
        royal = next(r for r in court.t.royals if count in r.deaths)
        if court.royals[royal.key].alive:
            break
    kill_royal(court, royal.key, "royal_death")


def kill_royal(court: Court, key: str, cause: str, succeed: bool = True) -> None:
    """DWTK 9.1, 31.2: removed for good with his Royal Alignment card; 9.2 succession
    (not after a usurpation, 36.6); 36.11: a FARC Monarch's player loses his next turn."""
    royal = court.royals[key]
    on_throne = court.monarch() == key
    was_monarch = on_throne and succeed
    court.set_royal(key, alive=False, owner=None, spouse=None)
    drop_betrothal(court, key, "death")  # 18.4.6
    _remove_alignment_card(court, key)
    if royal.spouse is not None:
        _widow(court, royal.spouse)
    court.emit(EventId.ROYAL_DEATH, {"royal": key, "cause": cause, "monarch": on_throne,
                                     "owner": royal.owner})
    if was_monarch:
        if royal.owner is not None:
            p = court.players[royal.owner]
            court.set_player(royal.owner, lost_turns=(*p.lost_turns, court.turn + 1))
        succession(court)
    elif court.phase is not Phase.OVER and not any(court.royals[k].alive
                                                  for k in court.t.succession):
        _draw(court)  # 37: the last RC who can succeed to the throne is dead


def _draw(court: Court) -> None:
    court.drawn_game = True
    court.phase = Phase.OVER
    court.emit(EventId.GAME_DRAWN, {})
    court.turn_over = True


def _widow(court: Court, spouse: str) -> None:
    """31.7: the survivor may remarry; a noble widowed by a RC keeps Status 8 as Duke/Duchess.
    18.10: a Prince/Queen Consort becomes an NC, his Loyalty counter back in the container."""
    if spouse.isdigit():
        c = court.set_char(spouse, spouse=None, fixed_status=8)
        if c.owner is None and c.alive and c.id not in court.loyalty_pool:
            court.loyalty_pool.append(c.id)
    else:
        court.set_royal(spouse, spouse=None)


def _remove_alignment_card(court: Court, key: str) -> None:
    """9.4, 14.2.5, 14.5.19: wherever it is, the RC's Royal Alignment card leaves the game."""
    for card in [c for c in court.t.card_instances()
                 if court.t.card_kind(kind_of(c)).royal == key]:
        for name, p in court.players.items():
            if card in p.hand:
                court.take_from_hand(name, card)
        court.deck = [c for c in court.deck if c != card]
        court.discards = [c for c in court.discards if c != card]
        royal = court.royals[key]
        if royal.card == card:
            court.set_royal(key, card=None)
        if card not in court.removed:
            court.removed.append(card)


def _consort(court: Court, heir: str) -> None:
    """9.2, 18.10: the new Monarch's noble spouse becomes Prince/Queen Consort, an NRC:
    out of any faction, his Loyalty counter kept on his card (never drawn: he may not be
    recruited in any manner).  He is the consort while his spouse is the Monarch."""
    spouse = court.royals[heir].spouse
    if spouse is None or not spouse.isdigit():
        return
    c = court.char(spouse)
    owner = c.owner
    release_cards(court, c.id, "consort")  # 14.2.4: no longer his FAC
    court.set_char(spouse, owner=None)
    hiding.forced_out(court, c.id)  # 24.7: an NC (here an NRC) cannot hide
    if c.id in court.loyalty_pool:
        court.loyalty_pool.remove(c.id)
    for name, p in court.players.items():
        if c.id in p.loyalty:
            court.set_player(name, loyalty=tuple(x for x in p.loyalty if x != c.id))
    court.emit(EventId.CONSORT, {"character": spouse, "royal": heir, "player": owner,
                                 "female": court.t.noble(c.id).sex.value == "f"})


def succession(court: Court) -> None:
    """DWTK 9.2-9.4: the next in line is crowned; offices empty; mourning ends the turn."""
    heir = next((k for k in court.t.succession if court.royals[k].alive), None)
    if heir is None:
        _draw(court)  # 37: the last RC who can succeed is dead
        return
    royal = court.royals[heir]
    if royal.owner is not None:
        court.set_royal(heir, owner=None, card=None)  # 9.2: becomes an NRC
    _consort(court, heir)
    _remove_alignment_card(court, heir)
    court.offices["monarch"] = heir
    court.roll_support("the new Monarch's Support (DWTK 9.4, 32.4)")
    for office in [o for o, h in court.offices.items() if h is not None and o != "monarch"]:
        court.discharge(office, "new_monarch")
    court.emit(EventId.SUCCESSION, {"royal": heir, "support": court.support})
    for player in court.in_order():
        mine = court.orders.get(player, TurnOrders())
        forced_discards(court, player, court.t.rule("mourning_discards"), "mourning",
                        mine.discard, mine.keep_last)
    court.next_crown_event = "court_ball"
    court.turn_over = True
    court.phase = Phase.MOURNING
    court.emit(EventId.MOURNING, {})
