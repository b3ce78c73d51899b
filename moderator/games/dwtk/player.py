"""The Player Turns (DWTK 10, 13, 14.2.1, 35.8) played from the orders received.

Each player in player order: Royal Alignment plays and PP purchases (not activities),
then his activities in the priority order he wrote — the first ones that are legal are
done, up to his allowance (13.1: two; one while his PC is banished, imprisoned or in
hiding, and in the turn he is returned; none with Gout or Duel; +1 per Extra Activity
counter; an Extra Activity card, 14.5.20, for each legal one beyond).  Then the hand limit
(14.2.1) and the counters go back to their containers (11.2, 12.2).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from moderator.games.dwtk import (
    assassination,
    bribery,
    counseling,
    counters,
    duels,
    faction,
    fugitives,
    hiding,
    prestige,
    privateering,
    romance,
    scandals,
    seduction,
    status,
    treachery,
    usurpation,
    wedding,
)
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.acts import play_card as _play
from moderator.games.dwtk.court_activities import (
    counselor,
    draw,
    favor,
    fill_office,
    henchman,
    recruit,
    title,
    travel,
)
from moderator.games.dwtk.escape import escape
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.intrigue import intrigue
from moderator.games.dwtk.justice_acts import amnesty, extradite, pardon
from moderator.games.dwtk.orders import TurnOrders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.orders.conditions import holds
from moderator.games.dwtk.shared import can_spend, forced_discards, spend
from moderator.games.dwtk.start import has_player_turn
from moderator.games.dwtk.state import Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import kind_of


def player_turns(court: Court) -> None:
    for player in court.order:
        orders = court.orders.get(player, TurnOrders())
        if court.turn_over:  # 9.4: the Monarch died during the Player Turns
            end_player_turn(court, player, orders)
            continue
        fugitives.start_of_player_turn(court, player)  # 24.11, 25.8, 30.10
        if has_player_turn(court, player) is not None:
            return_counters(court, player)  # 11.2, 12.2: his draws go back all the same
            continue
        court.emit(EventId.PLAYER_TURN, {"player": player}, actor=player, public=False)
        privateering.voyage_turn(court, player)  # 13.4.17.1: first, free, not an activity
        if orders.buy_pp:  # before ALIGN: the PP bought may be what lets him align
            _try(court, player, partial(buy_pp, court, player, orders.buy_pp), "buy_pp")
        for royal in orders.align:
            _try(court, player, partial(align, court, player, royal), f"align:{royal}")
        for word, act, who_list in (("restore", hiding.restore, orders.restore),
                                    ("unhide", hiding.unhide, orders.unhide),
                                    ("hide", hiding.hide, orders.hide)):
            for who in who_list:  # 36.10.4, 24.8, 24.2, 29.5: not activities
                _try(court, player, partial(act, court, player, who),
                     f"{word}:{who}")
        _not_activities(court, player, orders)
        activities(court, player, orders)
        if orders.usurp is not None and not court.turn_over:  # 36.1 (after activities)
            if not holds(court, player, orders.usurp.conditions):
                court.emit(_SKIPPED, {"what": "usurp", "reason": "condition_not_met"},
                           actor=player, public=False)
            else:
                _try(court, player, partial(usurpation.attempt, court, player, orders.usurp),
                     "usurp")
        if has_player_turn(court, player) is not None:  # his PC died this turn (31.5)
            end_player_turn(court, player, orders)
            continue
        pc = court.pc_of(player)
        if pc is not None and not court.turn_over and any(
                kind_of(c) == "duel" for c in court.players[player].opportunity):
            duels.required(court, pc.id, "duel_counter")  # 12.3.6, 13.4.19, 19.3
        if not court.turn_over:
            counseling.counsel_phase(court, player, orders.counsels)  # 15.1
        for kind in orders.discard:
            cards = court.cards_of(player, kind)
            if cards and kind != "dwtk":
                forced_discards(court, player, 1, "voluntary", (kind,))
        end_player_turn(court, player, orders)


def _not_activities(court: Court, player: str, orders: TurnOrders) -> None:
    """Proposals (18.4) and bribes (13.4.20): any time in his turn, not activities; done
    before the activities so that a wedding or a counsel can use them."""
    for proposal in (p for p in orders.proposals if not p.free_only):  # IF FREE: 18.4.5
        _try(court, player, partial(romance.propose, court, player, proposal),
             f"propose:{proposal.suitor}")
    if orders.solicit:
        _try(court, player, lambda: bribery.solicit(court, player, orders.solicit), "solicit")
    if orders.bribe is not None:
        offer = orders.bribe
        _try(court, player, lambda: bribery.offer(court, player, offer), "bribe")


def _try(court: Court, player: str, action: Callable[[], object], what: str) -> bool:
    try:
        action()
    except Refused as refused:
        court.emit(EventId.ACTIVITY_SKIPPED, {"what": what, "reason": refused.reason},
                   actor=player, public=False)
        return False
    return True


def allowance(court: Court, player: str) -> int:
    """How many activities he may do this turn (13.1, 12.3.2, 12.3.6, 12.3.7, 24.3...):
    none with Gout or Duel; one while his PC is held (`counters.held`), whatever he drew; else
    two, +1 per Extra Activity counter.  Extra Activity cards come on top (`activities`)."""
    p = court.players[player]
    kinds = [kind_of(c) for c in p.opportunity]
    if "gout" in kinds or "duel" in kinds:
        return 0
    if counters.held(court, player):
        return 1
    pc = court.pc_of(player)
    if pc is not None and pc.wrongdoer and pc.abroad:
        return 1 + kinds.count("extra_activity")  # 20.8: a wrongdoer living abroad
    return court.t.rule("activities") + kinds.count("extra_activity")


def activities(court: Court, player: str, orders: TurnOrders) -> None:
    """13.1: his activities in priority order, the first legal ones up to his allowance.
    By email (PROPOSED) an Extra Activity card (14.5.20) is played by itself for each
    further legal activity he wrote once the allowance is used up: writing no more
    activities than the allowance keeps the cards."""
    left = allowance(court, player)
    extras = _extra_counters(court.players[player].opportunity)
    done: set[ActivityKind] = set()
    # Speed, no rule: a skipped line changes nothing but the events, so once he has no
    # activity left and no Extra Activity card to play, every later line is skipped too.
    exhausted = False
    seen: tuple[str, ...] | None = None  # his counters as last counted (a tuple, frozen)
    stop, now = False, extras
    for activity in orders.activities:
        if court.turn_over:
            break  # 9.4
        what = activity.kind._value_
        if activity.kind in done:  # 13.1: the same activity only once a turn
            court.emit(_SKIPPED, {"what": what, "reason": "same_activity_twice"},
                       actor=player, public=False)
            continue
        if activity.conditions and not holds(court, player, activity.conditions):
            # IF MONARCH IS x ...: written against a throne or a fate that changed
            court.emit(_SKIPPED, {"what": what, "reason": "condition_not_met"},
                       actor=player, public=False)
            continue
        extra = False
        if left <= 0 and not exhausted:
            extra = counters.extra_card(court, player)
            exhausted = not extra
        if exhausted:
            court.emit(_SKIPPED, {"what": what, "reason": "no_activities_left"},
                       actor=player, public=False)
            continue
        if _try(court, player, partial(do, court, player, activity), what):
            if extra and court.cards_of(player, "extra_activity"):
                court.discard(_play(court, player, "extra_activity"))  # 14.5.20
                court.emit(EventId.EXTRA_ACTIVITY_CARD, {"activity": what}, actor=player)
            else:
                left -= 1  # an Extra Activity card paid for this one (14.5.20)
            done.add(activity.kind)
        opportunity = court.players[player].opportunity
        if opportunity is not seen:  # counted again only when he drew (13.4.19)
            seen = opportunity
            stop = any(kind_of(c) in ("gout", "duel") for c in opportunity)
            now = _extra_counters(opportunity)
        if stop:  # 13.4.19: a Gout or Duel counter drawn now: no activity more, at all
            left, exhausted = 0, True
        elif now > extras and not counters.held(court, player):
            left += now - extras  # 12.3.2: one drawn now (13.4.19) counts this turn
        extras = now


_SKIPPED = EventId.ACTIVITY_SKIPPED


def _extra_counters(opportunity: tuple[str, ...]) -> int:
    return sum(1 for c in opportunity if kind_of(c) == "extra_activity")


def end_player_turn(court: Court, player: str, orders: TurnOrders) -> None:
    """14.2.1 hand limit; 11.2 unused Loyalty counters and 12.2 Opportunity counters back."""
    p = court.players[player]
    over = len(p.hand) - court.t.rule("hand_limit")
    if over > 0:
        forced_discards(court, player, over, "hand_limit", orders.discard, orders.keep_last)
    return_counters(court, player)


def return_counters(court: Court, player: str) -> None:
    """11.2, 12.2: unused Loyalty counters and the Opportunity counters go back."""
    p = court.players[player]
    court.loyalty_pool.extend(c for c in p.loyalty if court.char(c).owner is None
                              and court.char(c).alive and c not in court.loyalty_pool)
    court.opportunity_pool.extend(p.opportunity)
    court.set_player(player, loyalty=(), opportunity=())


# -- activities (13.4) ---------------------------------------------------------------


def do(court: Court, player: str, a: Activity) -> None:
    pc = court.pc_of(player)
    if pc is not None and pc.situation in _HELD and a.kind not in _WHILE_HELD:
        raise Refused("imprisoned")  # 30.3: Pardon, Amnesty or Escape only
    _HANDLERS[a.kind](court, player, a)


_HELD = (Situation.IMPRISONED, Situation.AWAITING_EXECUTION)
_WHILE_HELD = (ActivityKind.PARDON, ActivityKind.AMNESTY, ActivityKind.ESCAPE)
# Built once (speed: `do` runs for every activity line of every sheet).
_HANDLERS: dict[ActivityKind, Callable[[Court, str, Activity], None]] = {
    ActivityKind.TITLE: title, ActivityKind.OFFICE: fill_office,
    ActivityKind.COUNSELOR: counselor, ActivityKind.FAVOR: favor,
    ActivityKind.PARDON: pardon, ActivityKind.AMNESTY: amnesty,
    ActivityKind.HENCHMAN: henchman, ActivityKind.RECRUIT: recruit,
    ActivityKind.TRAVEL: travel, ActivityKind.DRAW: draw,
    ActivityKind.EXTRADITE: extradite, ActivityKind.SCANDAL: scandals.expose,
    ActivityKind.ASSASSINATE: assassination.attempt, ActivityKind.ESCAPE: escape,
    ActivityKind.INTRIGUE: intrigue, ActivityKind.TREACHERY: treachery.recruit,
    ActivityKind.SEDUCE: seduction.seduce, ActivityKind.WEDDING: wedding.wedding,
    ActivityKind.PRESTIGE: prestige.consult,
}


# -- not activities --------------------------------------------------------------------


def buy_pp(court: Court, player: str, amount: int) -> None:
    """35.8: One PP for Two IP, as many as he can afford (the order's number at most)."""
    price = court.t.rule("pp_price")
    affordable = min(amount, court.players[player].ip // price)
    while affordable and not can_spend(court, player, affordable * price):
        affordable -= 1
    if affordable <= 0:
        raise Refused("ip")
    spend(court, player, affordable * price)
    faction.gain(court, player, pp=affordable)
    court.emit(EventId.PP_BOUGHT, {"pp": affordable, "ip": affordable * price}, actor=player)


def align(court: Court, player: str, royal: str) -> None:
    """14.5.19: play the RC's Royal Alignment card; he must fit the PP limit (35.4)."""
    r = court.royals.get(royal)
    if r is None or not r.alive or r.owner is not None or court.monarch() == royal:
        raise Refused("not_available")
    if royal == "catherine" and court.monarch() == "george":
        raise Refused("catherine_while_george")
    cards = [c for c in court.players[player].hand
             if court.t.card_kind(kind_of(c)).royal == royal]
    if not cards:
        raise Refused("no_card")
    full = court.t.royal(royal).status  # a FARC's Status, never halved (33.2.3: NRCs)
    if status.faction_load(court, player) + full > court.players[player].pp:
        raise Refused("pp")
    court.take_from_hand(player, cards[0])
    court.set_royal(royal, owner=player, card=cards[0])
    court.emit(EventId.ROYAL_ALIGNED, {"royal": royal}, actor=player)
