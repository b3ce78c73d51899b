"""Duels (DWTK 19): who fights, the opponent, the two dice and what follows.

A duel is required of a character: the player's PC for the Duel counter (12.3.6, 19.3),
for the Court Ball's duel (8.4.4) and for the Prestige Tables' duels (19.1, 19.9;
prestige.py, Carousing with ``bonus=1``).  A privateer's captain at sea (13.4.17.1,
`status.at_sea`) neither fights nor is sent.  The choices the rules give players are
standing reactions on ``DUELS`` (orders/reaction.py), whose target is the character who must
fight:

- ``SEND <henchman>``: a henchman fights in his place (19.3, 19.4; never abroad, 19.7.4);
- ``PAY``: a PC avoids the duel for Three IP (19.4);
- ``PLAY Treachery +/-``: ±1 on that duellist's die (19.9; one card per player per duel).

Without a SEND the character fights himself; one who cannot (19.2: a woman) sends his
best duelling henchman, and with none there is no duel and no penalty (19.3, 19.4).
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.games.dwtk import status
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.justice import accuse, roller
from moderator.games.dwtk.orders.reaction import Act, Trigger
from moderator.games.dwtk.reactions import fire, play_cards
from moderator.games.dwtk.shared import can_spend, spend
from moderator.games.dwtk.state import Character
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import Sex

Pairing = Callable[[Character], bool]
# The purpose of each fighter's die in the dice log (views/dice.py finds whose it is).
DUELING = "Dueling (DWTK 19.8)"


def can_fight(court: Court, c: Character) -> bool:
    """19.2 (11-44, 52-54), alive and face up, and free (19.7.2: not banished, hiding
    or imprisoned; PROPOSED for the one who must fight as well)."""
    return court.t.noble(c.id).can_duel and c.alive and c.face_down_until is None and c.free \
        and not status.at_sea(court, c.id)  # 13.4.17.1: a privateer captain is at sea


def attending(court: Court, c: Character) -> bool:
    """8.4.4: at the Court Ball unless banned, banished, imprisoned, abroad or hiding."""
    return c.alive and c.face_down_until is None and c.free and not c.abroad and not c.banned


def henchmen(court: Court, player: str) -> list[Character]:
    """17.1, 17.3, 18.8: his FACs under a Henchman card, and his PC's spouse; not one
    at sea as a privateer's captain (13.4.17.1: he takes part in no other action)."""
    pc = court.pc_of(player)
    spouse = pc.spouse if pc is not None else None
    return [c for c in court.faction(player)
            if (c.henchman is not None or c.key == spouse) and not status.at_sea(court, c.id)]


def _side(court: Court, c: Character) -> tuple[str, str] | None:
    """(player, 'pc' or 'henchman') for 19.7.5's forbidden pairs."""
    if c.owner is None:
        return None
    if c.pc:
        return c.owner, "pc"
    if any(h.id == c.id for h in henchmen(court, c.owner)):
        return c.owner, "henchman"
    return None


def _same_side(court: Court, a: Character, b: Character) -> bool:
    """19.7.5: never the PC and a henchman of one faction, nor two of its henchmen."""
    x, y = _side(court, a), _side(court, b)
    return x is not None and y is not None and x[0] == y[0]


def stand_in(court: Court, c: Character, at_ball: bool,
             allowed: Pairing = lambda _: True) -> Character | None:
    """19.3-19.5, 19.7.4: who fights for ``c`` (None: no duel is fought).

    An NC must fight (19.5).  A PC or FAC may SEND an eligible henchman (not when he is
    abroad, 19.7.4); otherwise he fights himself, or if he cannot (19.2) his henchman
    with the best Dueling Rating (PROPOSED), or no one.
    """
    own = can_fight(court, c) and (not at_ball or attending(court, c)) and allowed(c)
    if c.owner is None or c.abroad:
        return c if own else None
    pool = [h for h in henchmen(court, c.owner) if h.id != c.id and can_fight(court, h)
            and not h.abroad and (not at_ball or attending(court, h)) and allowed(h)]
    keys = {h.key: h for h in pool}
    for player, r in fire(court, Trigger.DUELS, c.key):
        if player == c.owner and r.act is Act.SEND and r.choice in keys:
            sent = keys[r.choice]
            court.emit(EventId.DUEL_STAND_IN, {"character": c.key, "henchman": sent.key},
                       actor=c.owner)
            return sent
    if own:
        return c
    if not pool:
        return None
    best = min(pool, key=lambda h: (-(court.t.noble(h.id).dueling or 0), h.id))
    court.emit(EventId.DUEL_STAND_IN, {"character": c.key, "henchman": best.key},
               actor=c.owner)
    return best


def _bought_out(court: Court, c: Character) -> bool:
    """19.4: a PC who must fight may pay Three IP instead (PAY on DUELS)."""
    if not c.pc or c.owner is None:
        return False
    cost = court.t.rule("duel_buyout")
    paid = any(p == c.owner and r.act is Act.PAY
               for p, r in fire(court, Trigger.DUELS, c.key))
    if not paid or not can_spend(court, c.owner, cost):
        return False
    spend(court, c.owner, cost)
    court.emit(EventId.DUEL_AVOIDED, {"character": c.key, "player": c.owner, "ip": cost},
               actor=c.owner)
    return True


def _none(court: Court, c: Character, reason: str) -> None:
    court.emit(EventId.DUEL_NONE, {"character": c.key, "reason": reason}, actor=c.owner)


def _rolled_ok(court: Court, fighter: Character, required: Character, cid: int,
               at_ball: bool) -> bool:
    """19.7.1-19.7.3, 19.7.5: may the dice count ``cid`` be the opponent (else roll again)?

    A woman (56-66) in someone's faction may be rolled: 19.4 then sends a henchman or
    no duel is fought.  A dead or face-down character is rolled again (PROPOSED).
    """
    c = court.characters[cid]
    card = court.t.noble(cid)
    if cid in (fighter.id, required.id) or not c.alive or c.face_down_until is not None:
        return False
    if not card.can_duel and not (card.sex is Sex.FEMALE and c.owner is not None):
        return False
    if not c.free or c.abroad or (at_ball and c.banned) or status.at_sea(court, cid):
        return False
    return not _same_side(court, fighter, c)


def _opponent(court: Court, fighter: Character, required: Character,
              at_ball: bool) -> Character | None:
    """19.7: a dice count, rolled again until it names a possible opponent; abroad
    (19.7.4) one of the duellists in the same country, never an Ambassador (PROPOSED:
    one pick among them, the same odds as rolling until one comes up)."""
    if fighter.abroad:
        pool = sorted(c.id for c in court.characters.values()
                      if c.location == fighter.location and c.id not in (fighter.id,
                                                                         required.id)
                      and can_fight(court, c) and court.office_of(c.key) is None
                      and not _same_side(court, fighter, c))
        if not pool:
            return None
        return court.char(pool[court.pick_index(len(pool), "duel",
                                                "duel opponent abroad (DWTK 19.7.4)")])
    if not any(_rolled_ok(court, fighter, required, cid, at_ball) for cid in court.characters):
        return None
    while True:
        cid = court.dice_count("duel", "duel opponent (DWTK 19.7)", fighter.owner)
        if _rolled_ok(court, fighter, required, cid, at_ball):
            return court.char(cid)


def required(court: Court, cid: int, cause: str, at_ball: bool = False,
             bonus: int = 0) -> None:
    """DWTK 19: ``cid`` must fight a duel (``bonus``: +1 from Carousing, 19.9)."""
    needed = court.char(cid)
    fighter = stand_in(court, needed, at_ball)
    if fighter is None:
        _none(court, needed, "no_duellist")
        return
    if _bought_out(court, fighter):
        return
    rolled = _opponent(court, fighter, needed, at_ball)
    if rolled is None:
        _none(court, fighter, "no_opponent")
        return
    court.emit(EventId.DUEL_OPPONENT, {"character": fighter.key, "opponent": rolled.key,
                                       "cause": cause})
    other = stand_in(court, rolled, at_ball, lambda h: not _same_side(court, fighter, h))
    if other is None:
        _none(court, rolled, "no_duellist")
        return
    if _bought_out(court, other):
        return
    fight(court, fighter, other, bonus)


def fight(court: Court, a: Character, b: Character, bonus: int = 0) -> None:
    """19.8-19.10: one die each against the Dueling Rating, below it kills the other;
    both rolls first, then the results (simultaneous).  Treachery ±1 (one card per
    player, either die).  A PC or FAC who kills rolls a die: on 1 he is accused (19.10)."""
    once: set[str] = set()
    rolls: dict[int, int] = {}
    for me, them, extra in ((a, b, bonus), (b, a, 0)):
        mod = extra + play_cards(court, Trigger.DUELS, me.key, them.owner, once_each=once)[0]
        rolls[me.id] = court.dice.roll("duel", "1d6", DUELING,
                                       actor=roller(court, me.id), modifier=mod).total
    kills = [(me, them) for me, them in ((a, b), (b, a))
             if rolls[me.id] < (court.t.noble(me.id).dueling or 0)]
    dead = [them for _, them in kills]
    court.emit(EventId.DUEL_FOUGHT, {
        "a": a.key, "b": b.key, "roll_a": rolls[a.id], "roll_b": rolls[b.id],
        "rating_a": court.t.noble(a.id).dueling, "rating_b": court.t.noble(b.id).dueling,
        "killed": [c.key for c in dead]})
    for c in dead:
        kill_character(court, c.id, "duel")
    for killer, _ in kills:
        k = court.char(killer.id)
        if k.owner is None or not k.alive or k.face_down_until is not None:
            continue
        die = court.roll("duel", "1d6", "after a duel (DWTK 19.10)", k.owner)
        accused = die <= court.t.justice_rules["duel_killer_accused"]
        court.emit(EventId.DUEL_KILLER_ROLL, {"character": k.key, "roll": die,
                                              "accused": accused}, actor=k.owner)
        if accused:
            accuse(court, k.id, "duel")
