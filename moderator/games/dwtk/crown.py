"""Crown Events (DWTK 8): the first player's roll and each result but the Royal Death
(succession.py) and new Political Problems (problems.py): Plague (8.4.7), Intrigue
(8.4.3), the Court Ball (8.4.4) and Scandal (8.4.6, 22).  Famine (8.4.2) is checked
where IP is spent (34.6)."""

from __future__ import annotations

from moderator.games.dwtk import duels, faction, status
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.justice import accuse
from moderator.games.dwtk.problems import new_problem
from moderator.games.dwtk.scandals import apply_scandal
from moderator.games.dwtk.shared import Orders
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.succession import royal_death
from moderator.games.dwtk.tables import kind_of


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
    for player in court.order[1:]:
        if intrigue_spares(court, player):
            court.emit(EventId.INTRIGUE_SPARED, {"player": player})
            continue
        intrigue_card(court, first, player)


def intrigue_spares(court: Court, player: str) -> bool:
    """8.4.3, 13.4.12, 36.10.1: three cards or fewer, or a FARC Monarch's player."""
    monarch = court.monarch()
    farc_owner = court.royals[monarch].owner if monarch else None
    return len(court.players[player].hand) < court.t.rule("intrigue_min_hand") \
        or player == farc_owner


def intrigue_card(court: Court, by: str, player: str) -> None:
    """One card at random from ``player``'s hand (8.4.3, 13.4.12)."""
    ordered = sorted(court.players[player].hand)
    card = ordered[court.pick_index(len(ordered), "intrigue", f"intrigue {player}'s hand")]
    kind = court.t.card_kind(kind_of(card))
    court.emit(EventId.INTRIGUE_DRAWN, {"by": by, "player": player, "card": kind.key,
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
            with faction.cause_first(court):
                faction.gain(court, player, pp=-t.rule("court_ball_ban_loss"))
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
        with faction.cause_first(court):  # the roll is told before the losses its PP cost
            _, pp = faction.gain(court, player, pp=row.total("pp"))
            court.emit(EventId.COURT_BALL_ROLL, {"player": player, "total": roll.total,
                                                 "effects": [str(e) for e in row.effects],
                                                 "pp": pp, "mod": new_mod,
                                                 "free_counsel": free}, actor=player)
        if row.has("banned"):
            _ban(court, player)
        if row.has("duel"):
            duels.required(court, pc.id, "court_ball", at_ball=True)  # 19.7.3
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
                      key=lambda c: (status.status(court, c.id), c.id))
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
