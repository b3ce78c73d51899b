"""The start of a turn: first player (5), Office Phase (6) and the draws (10-12).

By email these run right after the previous turn's Player Turns, so that players write
their orders knowing their draws (docs/dwtk-by-email.md).  Choices the rules give a
player here come from the orders sent with the previous turn: office bids (6.1.1), the
one draw allowed to a PC in hiding, banished or imprisoned (24.3, 29.2, 30.2).  Political
Problems (7) are problems.py, Crown Events (8) crown.py, succession (9) succession.py.
"""

from __future__ import annotations

from functools import partial

from moderator.games.dwtk import faction
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders import Draw, TurnOrders
from moderator.games.dwtk.shared import Orders, can_spend, resolve_who, spend
from moderator.games.dwtk.state import Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import kind_of

# -- DWTK 5 -------------------------------------------------------------------------


def first_player(court: Court, orders: Orders) -> None:
    """DWTK 5: each player rolls a dice count; the highest goes first, then clockwise.

    Ties are not covered by the rules; PROPOSED: the tied players roll again.
    """
    seats = court.seats
    contenders = list(seats)
    while len(contenders) > 1:
        counts = {k: court.dice_count("first_player", "first player (DWTK 5)", k)
                  for k in contenders}
        best = max(counts.values())
        contenders = [k for k in contenders if counts[k] == best]
    first = contenders[0]
    i = seats.index(first)
    court.order = seats[i:] + seats[:i]
    court.emit(EventId.FIRST_PLAYER, {"player": first, "order": list(court.order)})


# -- DWTK 6 -------------------------------------------------------------------------


def office_phase(court: Court, orders: Orders) -> None:
    """DWTK 6.1-6.4: vacant offices go to bidders in player order, then at random.

    By email the first player 'selects' offices in the order of his own bids, then
    the other vacant offices in the order of the Office Deck (PROPOSED).  A bid names
    the player's PC or a FAC; moving an office holder leaves his old office vacant for
    this same phase (6.2).  Skipped when nothing is vacant (6.4).
    """
    dissolve(court, orders)
    vacant = court.vacant_offices()
    if not vacant:
        return
    cost = court.t.rule("office_cost")
    first = court.order[0]
    mine = [o for o, _ in orders.get(first, TurnOrders()).bids if o in vacant]
    queue = list(dict.fromkeys(mine + vacant))
    done: set[str] = set()
    while queue:
        office = queue.pop(0)
        if office in done or court.offices.get(office) is not None:
            continue
        done.add(office)
        for player in court.order:
            filled = _bid(court, player, office, orders.get(player, TurnOrders()), cost)
            if filled is not None:
                if filled not in done and filled not in queue:
                    queue.append(filled)
                break
    for office in court.vacant_offices():
        _fill_at_random(court, office)


def dissolve(court: Court, orders: Orders) -> None:
    """36.14: the FARC Monarch's player may dissolve the government: every Office Holder
    discharged, then up to three offices filled by him with any Office Holder character
    (FAC, EAC or NC) at no IP cost (APPOINT); the rest are filled normally."""
    monarch = court.monarch()
    owner = court.royals[monarch].owner if monarch else None
    mine = orders.get(owner, TurnOrders()) if owner else TurnOrders()
    if owner is None or not mine.dissolve:
        return
    court.emit(EventId.GOVERNMENT_DISSOLVED, {"player": owner}, actor=owner)
    for office in [o for o, h in court.offices.items() if h is not None and o != "monarch"]:
        court.discharge(office, "dissolved")
    for office, who in mine.appoint:
        cid = resolve_who(court, owner, who)
        why = "no_character" if cid is None else court.may_fill_office(int(cid), office)
        if cid is None or why is not None:
            court.emit(EventId.OFFICE_BID_REFUSED, {"office": office, "holder": cid or who,
                                                    "reason": why}, actor=owner, public=False)
            continue
        court.seat_in_office(int(cid), office)
        court.emit(EventId.OFFICE_FILLED, {"office": office, "holder": cid, "player": owner,
                                           "cost": 0, "moved_from": None}, actor=owner)


def _bid(court: Court, player: str, office: str, orders: TurnOrders,
         cost: int) -> str | None:
    """Try the player's bids for this office; returns '' or the office he vacated."""
    for bid_office, who in orders.bids:
        if bid_office != office:
            continue
        cid = resolve_who(court, player, who)
        if cid is None:
            continue
        c = court.char(cid)
        reason = None if c.owner == player and c.alive else "not_yours"
        old = court.office_of(c.key)
        if reason is None and old is not None:
            court.offices[old] = None  # 6.2: may move to the vacant office ...
        if reason is None:
            reason = court.may_fill_office(int(cid), office)
        if reason is None and not can_spend(court, player, cost):
            reason = "ip"
        if reason is None and not faction.fits(court, player,
                                             partial(court.seat_in_office, int(cid), office)):
            reason = "pp"
        if reason is not None and old is not None:
            court.offices[old] = c.key  # ... but a move not paid for never happens
        if reason is not None:
            court.emit(EventId.OFFICE_BID_REFUSED, {"office": office, "holder": cid,
                                                    "reason": reason},
                       actor=player, public=False)
            continue
        spend(court, player, cost)
        court.seat_in_office(int(cid), office)
        court.emit(EventId.OFFICE_FILLED, {"office": office, "holder": cid, "player": player,
                                           "cost": cost, "moved_from": old}, actor=player)
        return old or ""
    return None


def _fill_at_random(court: Court, office: str) -> None:
    """DWTK 6.1.2: dice counts until a character who can fill the office comes up."""
    if not any(court.may_fill_office(c.id, office) is None for c in court.characters.values()):
        court.emit(EventId.OFFICE_UNFILLED, {"office": office})
        return
    while True:
        cid = court.dice_count("office", f"fill {office} (DWTK 6.1.2)")
        if court.may_fill_office(cid, office) is None:
            break
    court.seat_in_office(cid, office)
    court.emit(EventId.OFFICE_RANDOM, {"office": office, "holder": str(cid)})


# -- DWTK 10-12: the draws ------------------------------------------------------------


def has_player_turn(court: Court, player: str) -> str | None:
    """Why this player has no Player Turn this turn (None: he has one).

    31.5: a dead PC's player misses this turn and the next; 36.11 lost turns;
    7.10.3: a PC stuck in a country at war.
    """
    p = court.players[player]
    pc = court.pc_of(player)
    if pc is None:
        return "no_pc"
    if court.turn in p.lost_turns:
        return "lost"
    if pc.face_down_until is not None and court.turn < pc.face_down_until:
        return "dead"
    if court.at_war_stuck(pc):
        return "at_war"
    return None


def draws(court: Court, orders: Orders) -> None:
    """DWTK 10-12: one Loyalty counter, one Opportunity counter and one Event card.

    A PC hiding or banished draws only one of the three (24.3, 29.2); an imprisoned PC
    an Opportunity counter or an Event card (30.2).  The choice is DRAW ONLY; default:
    an Event card (PROPOSED).  Gain One IP, Favor and Gout change IP at once (12.3).
    """
    for player in court.order:
        why = has_player_turn(court, player)
        if why is not None:
            court.emit(EventId.NO_PLAYER_TURN, {"player": player, "why": why}, actor=player)
            continue
        pc = court.pc_of(player)
        assert pc is not None
        wanted = {Draw.LOYALTY, Draw.OPPORTUNITY, Draw.EVENT}
        if pc.situation is not Situation.NORMAL:
            choice = orders.get(player, TurnOrders()).draw_only or Draw.EVENT
            if pc.situation in (Situation.IMPRISONED, Situation.AWAITING_EXECUTION) and \
                    choice is Draw.LOYALTY:
                choice = Draw.EVENT
            wanted = {choice}
        if Draw.LOYALTY in wanted:
            draw_loyalty(court, player)
        if Draw.OPPORTUNITY in wanted:
            draw_opportunity(court, player)
        if Draw.EVENT in wanted:
            card = court.draw_card(player)
            if card is not None:
                court.emit(EventId.DRAW_EVENT, {"card": kind_of(card)}, actor=player,
                           public=False)


def draw_loyalty(court: Court, player: str) -> None:
    """DWTK 11.1, 11.4: a counter from the container, or One IP if none is left."""
    if not court.loyalty_pool:
        faction.gain(court, player, ip=1)
        court.emit(EventId.DRAW_NO_LOYALTY, {"ip": 1}, actor=player, public=False)
        return
    pool = sorted(court.loyalty_pool)
    cid = pool[court.pick_index(len(pool), "loyalty", "Loyalty counter (DWTK 11)")]
    court.loyalty_pool.remove(cid)
    p = court.players[player]
    court.set_player(player, loyalty=(*p.loyalty, cid))
    court.emit(EventId.DRAW_LOYALTY, {"character": str(cid)}, actor=player, public=False)


def draw_opportunity(court: Court, player: str) -> None:
    """DWTK 12: a counter from the container (returned at the end of his Player Turn)."""
    pool = sorted(court.opportunity_pool)
    if not pool:
        return
    counter = pool[court.pick_index(len(pool), "opportunity", "Opportunity counter (DWTK 12)")]
    court.opportunity_pool.remove(counter)
    p = court.players[player]
    court.set_player(player, opportunity=(*p.opportunity, counter))
    kind = kind_of(counter)
    court.emit(EventId.DRAW_OPPORTUNITY, {"counter": kind}, actor=player, public=False)
    delta = {"gain_ip": 1, "favor": 1, "gout": -1}.get(kind, 0)  # 12.3.5, 12.3.7, 12.3.8
    if delta:
        ip, _ = faction.gain(court, player, ip=delta)
        court.emit(EventId.OPPORTUNITY_IP, {"counter": kind, "ip": ip}, actor=player,
                   public=False)
