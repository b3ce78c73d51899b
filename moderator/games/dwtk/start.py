"""The start of a turn: first player (5), Office Phase (6), Political Problems (7),
Crown Events (8) with succession and mourning (9), and the draws (10-12).

By email these run right after the previous turn's Player Turns, so that players write
their orders knowing their draws (docs/dwtk-by-email.md).  Choices the rules give a
player here come from the orders sent with the previous turn: office bids (6.1.1),
letting a problem stand or modifying its roll (7.4, 7.6), the one draw allowed to a PC
in hiding, banished or imprisoned (24.3, 29.2, 30.2).
"""

from __future__ import annotations

from collections.abc import Mapping

from moderator.games.dwtk.court import Court
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.justice import accuse, send_to_hearing
from moderator.games.dwtk.orders import PC, Draw, Stance, TurnOrders
from moderator.games.dwtk.state import OpenProblem, Phase, Situation
from moderator.games.dwtk.tables import OfficeKind, kind_of

Orders = Mapping[str, TurnOrders]


def resolve_who(court: Court, player: str, who: str) -> str | None:
    """``pc`` -> the player's PC id; other keys unchanged."""
    if who == PC:
        pc = court.players[player].pc
        return None if pc is None else str(pc)
    return who


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


def can_spend(court: Court, player: str, amount: int) -> bool:
    """IP may be used: not on a Famine turn (34.6); at most half in a crisis (33.2.1)."""
    p = court.players[player]
    if amount > p.ip:
        return False
    if court.crown_event == "famine":
        return False
    if court.crisis:
        allowed = p.ip_at_start // 2 if p.ip_at_start > 1 else p.ip_at_start
        return p.ip_spent + amount <= allowed
    return True


def spend(court: Court, player: str, amount: int) -> None:
    p = court.players[player]
    court.set_player(player, ip=p.ip - amount, ip_spent=p.ip_spent + amount)


def office_phase(court: Court, orders: Orders) -> None:
    """DWTK 6.1-6.4: vacant offices go to bidders in player order, then at random.

    By email the first player 'selects' offices in the order of his own bids, then
    the other vacant offices in the order of the Office Deck (PROPOSED).  A bid names
    the player's PC or a FAC; moving an office holder leaves his old office vacant for
    this same phase (6.2).  Skipped when nothing is vacant (6.4).
    """
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
        if reason is None:
            if old is not None:
                court.offices[old] = None  # 6.2: may move to the vacant office
            reason = court.may_fill_office(int(cid), office)
            if old is not None and reason is not None:
                court.offices[old] = c.key
        if reason is None and not can_spend(court, player, cost):
            reason = "ip"
        if reason is None and not court.fits(player,
                                             lambda c=cid: court.seat_in_office(int(c), office)):
            reason = "pp"
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


# -- DWTK 7 -------------------------------------------------------------------------


def problems_phase(court: Court, orders: Orders) -> None:
    """DWTK 7.1-7.9: one attempt at every unresolved problem (in table order, PROPOSED)."""
    for problem in [p.key for p in court.problems]:
        attempt(court, problem, orders)


def attempt(court: Court, key: str, orders: Orders) -> None:
    """One attempt to resolve a problem (7.3-7.9); Foreign War ends with it (7.10)."""
    t = court.t
    problem = t.problem(key)
    open_ = next(p for p in court.problems if p.key == key)
    minister = court.offices.get(problem.minister)
    resolved = False
    detail: dict[str, object] = {"problem": key, "minister": minister}
    if minister is None:
        detail["why"] = "vacant"  # 7.4
    else:
        if court.char(minister).abroad and t.office(problem.minister).kind is not \
                OfficeKind.AMBASSADOR:
            court.set_char(minister, location="fandonia")  # 20.3
        owner = court.controller(minister)
        stances = dict(orders.get(owner, TurnOrders()).stances) if owner else {}
        if owner is not None and stances.get(key) is Stance.FAIL:
            detail["why"] = "let_stand"  # 7.4
        else:
            mod = _problem_modifiers(court, key, orders) + open_.next_roll
            roll = court.dice.roll("problems", "1d6", f"resolve {problem.name} (DWTK 7.5)",
                                   actor=owner, modifier=mod)
            ability = t.noble(minister).ability or 0
            resolved = roll.faces[0] != 6 and roll.total < ability
            detail.update(roll=roll.faces[0], modifier=mod, total=roll.total, ability=ability)
    if resolved:
        court.problems = [p for p in court.problems if p.key != key]
        court.emit(EventId.PROBLEM_RESOLVED, detail)
        court.change_support(court.t.rule("support_step"), f"resolved:{key}")
        if key == "foreign_war":
            end_war(court)
        return
    failures = open_.failures + (1 if minister is not None else 0)
    court.problems = [OpenProblem(key, failures, open_.unresolved + 1) if p.key == key else p
                      for p in court.problems]
    court.emit(EventId.PROBLEM_UNRESOLVED, {**detail, "failures": failures})
    court.change_support(-court.t.rule("support_step"), f"unresolved:{key}")
    if minister is not None and failures >= court.t.rule("problem_failures_discharge"):
        court.discharge(problem.minister, "three_failures")  # 7.8
        court.problems = [OpenProblem(key, 0, p.unresolved) if p.key == key else p
                          for p in court.problems]


def _problem_modifiers(court: Court, key: str, orders: Orders) -> int:
    """7.6 (PC/FAC modifying Ministers, + or - as ordered), 7.12, 33.2.2."""
    total = 0
    problem = court.t.problem(key)
    for office in problem.modifiers:
        owner = court.controller(court.offices.get(office))
        if owner is None:
            continue  # an NC's modifier is ignored (7.6)
        stance = dict(orders.get(owner, TurnOrders()).stances).get(key)
        total += 1 if stance is Stance.PLUS else -1 if stance is Stance.MINUS else 0
    monarch = court.monarch()
    farc_owner = court.royals[monarch].owner if monarch else None
    if farc_owner is not None:
        stance = dict(orders.get(farc_owner, TurnOrders()).stances).get(key)
        total += 1 if stance is Stance.PLUS else -1 if stance is Stance.MINUS else 0  # 7.12
    if court.crisis:
        total += 1  # 33.2.2
    return total


def new_problem(court: Court, orders: Orders) -> None:
    """DWTK 7.2, 8.4.5: roll until a problem that is not already unresolved; attempt it.

    PROPOSED guard: with every problem already unresolved, no new one arises.
    """
    t = court.t
    if len(court.problems) >= len(t.problems):
        court.emit(EventId.PROBLEM_NONE_NEW, {})
        return
    while True:
        roll = court.roll("problems", "2d6", "Political Problems Table (DWTK 8.4.5)")
        problem = t.problem_for_roll(roll)
        if all(p.key != problem.key for p in court.problems):
            break
    court.problems.append(OpenProblem(problem.key))
    court.emit(EventId.PROBLEM_ARISES, {"problem": problem.key, "roll": roll})
    minister = court.offices.get(problem.minister)
    if minister is not None and court.char(minister).abroad and \
            t.office(problem.minister).kind is OfficeKind.MINISTER:
        court.set_char(minister, location="fandonia")  # 20.3
    if problem.key == "foreign_war":
        start_war(court)
    attempt(court, problem.key, orders)


def start_war(court: Court) -> None:
    """DWTK 7.10: the Foreign War Table; ambassadors and Ministers there are expelled."""
    roll = court.roll("problems", "2d6", "Foreign War Table (DWTK 7.10)")
    countries = court.t.wars[roll]
    court.wars = list(countries)
    court.emit(EventId.WAR_DECLARED, {"countries": list(countries), "roll": roll})
    for country in countries:
        office = court.t.ambassador_of(country).key
        holder = court.offices.get(office)
        if holder is not None:
            court.discharge(office, "expelled")  # 7.10.4
            court.emit(EventId.WAR_EXPELLED, {"holder": holder, "country": country,
                                              "office": office})
        if office not in court.suspended:
            court.suspended.append(office)
    for c in list(court.characters.values()):
        office = court.office_of(c.key)
        if office and court.t.office(office).kind is OfficeKind.MINISTER and \
                c.location in countries:
            court.set_char(c.id, location="fandonia")  # 7.10.6
            court.emit(EventId.WAR_EXPELLED, {"holder": c.key, "country": c.location,
                                              "office": office})


def end_war(court: Court) -> None:
    """DWTK 7.10: the war ends with the problem; the embassies reopen (vacant)."""
    court.emit(EventId.WAR_ENDED, {"countries": list(court.wars)})
    court.wars = []
    court.suspended = []


# -- DWTK 8 and 9 -------------------------------------------------------------------


def crown_events(court: Court, orders: Orders) -> None:
    """DWTK 8.1-8.4: the first player rolls once (no modifiers, 8.3)."""
    forced = court.next_crown_event
    court.next_crown_event = None
    if forced is not None:
        result, roll = forced, None
    else:
        roll = court.roll("crown", "2d6", "Crown Events Table (DWTK 8.1)", court.order[0])
        result = court.t.crown_events[roll]
    court.crown_event = result
    court.emit(EventId.CROWN_EVENT, {"result": result, "roll": roll, "forced": roll is None})
    if result == "royal_death":
        royal_death(court)
    elif result == "plague":
        plague(court)
    elif result == "intrigue":
        intrigue(court)
    elif result == "court_ball":
        court_ball(court)
    elif result == "scandal":
        scandal(court)
    elif result in ("one_problem", "two_problems"):
        for _ in range(2 if result == "two_problems" else 1):
            new_problem(court, orders)
    # famine: checked where IP is spent (34.6) and counsel offered (8.4.2)
    if result in ("court_ball", "intrigue") and not court.problems and not court.turn_over:
        court.change_support(court.t.rule("support_step"), f"crown:{result}")  # 7.9


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


def kill_royal(court: Court, key: str, cause: str) -> None:
    """DWTK 9.1, 31.2: removed for good with his Royal Alignment card; 9.2 succession."""
    royal = court.royals[key]
    was_monarch = court.monarch() == key
    court.set_royal(key, alive=False, owner=None, spouse=None)
    _remove_alignment_card(court, key)
    if royal.spouse is not None:
        _widow(court, royal.spouse)
    court.emit(EventId.ROYAL_DEATH, {"royal": key, "cause": cause, "monarch": was_monarch,
                                     "owner": royal.owner})
    if was_monarch:
        succession(court)


def _widow(court: Court, spouse: str) -> None:
    """31.7: the survivor may remarry; a noble widowed by a RC keeps Status 8 as Duke/Duchess."""
    if spouse.isdigit():
        court.set_char(spouse, spouse=None, fixed_status=8)
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


def succession(court: Court) -> None:
    """DWTK 9.2-9.4: the next in line is crowned; offices empty; mourning ends the turn."""
    heir = next((k for k in court.t.succession if court.royals[k].alive), None)
    if heir is None:
        court.drawn_game = True  # 37: the last RC who can succeed is dead
        court.phase = Phase.OVER
        court.emit(EventId.GAME_DRAWN, {})
        court.turn_over = True
        return
    royal = court.royals[heir]
    if royal.owner is not None:
        court.set_royal(heir, owner=None, card=None)  # 9.2: becomes an NRC
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


def forced_discards(court: Court, player: str, count: int, reason: str,
                    prefer: tuple[str, ...] = (), keep: tuple[str, ...] = ()) -> None:
    """Discard ``count`` cards the player chooses (9.4, 14.2.1, 31.5).

    By email: the kinds he listed with DISCARD first, then at random among the rest,
    keeping his KEEP kinds and never the DOWN WITH THE KING card (14.2.8).  PROPOSED.
    """
    gone: list[str] = []
    for _ in range(count):
        hand = [c for c in court.players[player].hand if kind_of(c) != "dwtk"]
        if not hand:
            break
        chosen = next((c for k in prefer for c in hand if kind_of(c) == k), None)
        if chosen is None:
            hand.sort()
            pool = [c for c in hand if kind_of(c) not in keep] or hand
            chosen = pool[court.pick_index(len(pool), "discard", f"{reason} discard")]
        court.take_from_hand(player, chosen)
        court.discard(chosen)
        gone.append(chosen)
    if gone:
        court.emit(EventId.CARDS_DISCARDED, {"player": player, "cards": [kind_of(c) for c in gone],
                                             "reason": reason}, actor=player)


def plague(court: Court) -> None:
    """DWTK 8.4.7: two different dice counts die; PCs and those abroad are spared."""
    victims: list[int] = []
    candidates = [c for c in court.characters.values()
                  if c.alive and not c.pc and not c.abroad]
    while len(victims) < min(2, len(candidates)):
        count = court.dice_count("crown", "Plague (DWTK 8.4.7)")
        c = court.characters[count]
        if c.pc or c.abroad or not c.alive or count in victims:
            continue
        victims.append(count)
    for cid in victims:
        court.emit(EventId.PLAGUE_DEATH, {"character": str(cid)})
        kill_character(court, cid, "plague")


def intrigue(court: Court) -> None:
    """DWTK 8.4.3 (with 14.2.7's list of illegal cards): one card from each opponent.

    The first player 'may' draw; by email he always does (PROPOSED default).  The card
    is taken at random; a legal card is discarded and shown, an illegal one stays and
    its owner's PC is accused of wrongdoing (23.1), +2 for DOWN WITH THE KING (23.3).
    """
    first = court.order[0]
    monarch = court.monarch()
    farc_owner = court.royals[monarch].owner if monarch else None
    for player in court.order[1:]:
        hand = court.players[player].hand
        if len(hand) < court.t.rule("intrigue_min_hand") or player == farc_owner:
            court.emit(EventId.INTRIGUE_SPARED, {"player": player})
            continue
        ordered = sorted(hand)
        card = ordered[court.pick_index(len(ordered), "intrigue", f"intrigue {player}'s hand")]
        kind = court.t.card_kind(kind_of(card))
        court.emit(EventId.INTRIGUE_DRAWN, {"by": first, "player": player, "card": kind.key,
                                            "legal": kind.legal})
        if kind.legal:
            court.take_from_hand(player, card)
            court.discard(card)
        else:
            pc = court.players[player].pc
            if pc is not None:
                accuse(court, pc, "intrigue", court.t.justice_rules["dwtk_wrongdoing_bonus"]
                       if kind.key == "dwtk" else 0)


def court_ball(court: Court) -> None:
    """DWTK 8.4.4: each attending player rolls 2d6 + his modifier on the Court Ball Table."""
    t = court.t
    cap, floor = t.rule("court_ball_modifier_cap"), t.rule("court_ball_modifier_floor")
    for player in court.order:
        pc = court.pc_of(player)
        if pc is None or pc.face_down_until is not None:
            continue
        if pc.banned:
            court.gain(player, pp=-t.rule("court_ball_ban_loss"))
            court.emit(EventId.COURT_BALL_BAN_LOSS, {"player": player,
                                                     "pp": t.rule("court_ball_ban_loss")},
                       actor=player)
            continue
        if not pc.free or pc.abroad:
            continue
        p = court.players[player]
        roll = court.dice.roll("court_ball", "2d6", "Court Ball Table (DWTK 8.4.4)",
                               actor=player, modifier=p.court_ball_mod)
        row = t.court_ball.lookup(roll.total)
        new_mod = max(floor, min(cap, p.court_ball_mod + row.mod))
        free = row.has("free_counsel") or roll.total >= t.rule("free_counsel_from")
        court.set_player(player, court_ball_mod=new_mod, free_counsel=free)
        _, pp = court.gain(player, pp=row.total("pp"))
        court.emit(EventId.COURT_BALL_ROLL, {"player": player, "total": roll.total,
                                             "effects": [str(e) for e in row.effects],
                                             "pp": pp, "mod": new_mod, "free_counsel": free},
                   actor=player)
        if row.has("banned"):
            _ban(court, player)
        if row.has("duel"):
            court.pending("19", "duel", actor=player, character=str(pc.id))
        if row.has("scandal"):
            apply_scandal(court, pc.id, exposed=False)  # 22
        if row.has("accused"):
            accuse(court, pc.id, "court_ball")  # 23.1


def _ban(court: Court, player: str) -> None:
    """8.4.4, 17.2.3: the PC is banned for life, or an attending henchman instead.

    The henchman is 'designated'; by email the lowest-Status attending henchman takes it
    (PROPOSED default: no sane player would rather ban his PC).
    """
    henchmen = sorted((c for c in court.faction(player)
                       if c.henchman is not None and c.free and not c.abroad and not c.banned),
                      key=lambda c: (court.status(c.id), c.id))
    target = henchmen[0] if henchmen else court.pc_of(player)
    if target is None:
        return
    court.set_char(target.id, banned=True)
    court.emit(EventId.COURT_BALL_BANNED, {"player": player, "character": target.key},
               actor=player)


def scandal(court: Court) -> None:
    """DWTK 8.4.6, 22: a dice count names the object; the Scandal Table is rolled.

    Removed characters and RCs cannot be objects (22); PROPOSED: roll again for them.
    """
    while True:
        count = court.dice_count("crown", "Scandal object (DWTK 8.4.6)")
        c = court.characters[count]
        if c.alive and c.face_down_until is None:
            break
    court.scandal_object = count
    owner = c.owner
    court.emit(EventId.SCANDAL_OBJECT, {"character": str(count), "owner": owner})
    apply_scandal(court, count, exposed=False)


def apply_scandal(court: Court, cid: int, exposed: bool, exposer: str | None = None) -> None:
    """The Scandal Table (22; PROPOSED rows): an NC ignores PP and IP losses.

    Informer (EXPOSES reactions): +1 each from the object's player, -1 each from the
    player exposing the scandal (22); nobody else may play it.
    """
    from moderator.games.dwtk.reactions import play_cards
    from moderator.games.dwtk.standing import Trigger

    owner = court.char(cid).owner
    mod, _ = play_cards(court, Trigger.EXPOSES, str(cid), exposer,
                        sign_of=lambda p: 1 if p == owner else -1 if p == exposer else None)
    roll = court.roll("scandal", "2d6", "Scandal Table (DWTK 22)", owner, modifier=mod)
    row = court.t.justice["scandal"].lookup(roll)
    ip = pp = 0
    if owner is not None:
        ip, pp = court.gain(owner, ip=row.total("ip"), pp=row.total("pp"))
    court.emit(EventId.SCANDAL_RESULT, {"character": str(cid), "total": roll,
                                        "effects": [str(e) for e in row.effects],
                                        "ip": ip, "pp": pp}, actor=owner)
    if row.has("hearing"):
        send_to_hearing(court, cid)  # 26 (24.2: he may hide instead)
    if row.has("accused"):
        accuse(court, cid, "scandal")  # 23.1
    if row.has("accuser_accused") and exposed:
        court.pending("22", "accuser_accused", actor=owner, character=str(cid))


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
        court.gain(player, ip=1)
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
        ip, _ = court.gain(player, ip=delta)
        court.emit(EventId.OPPORTUNITY_IP, {"counter": kind, "ip": ip}, actor=player,
                   public=False)
