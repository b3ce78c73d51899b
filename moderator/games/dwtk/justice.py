"""The justice chain: wrongdoing (DWTK 23), hearings (26), interrogation (27), trials
(28) and the sentences: banishment (29), imprisonment (30), execution (28.6.5, 31.6).

Each stage calls the next at once.  The choices the rules give players are their
standing reactions (orders/reaction.py): Evidence, Alibi and Informer at hearings and trials,
Treachery and Prison Guards at interrogations, hiding instead of going to a hearing
(24.2), the Judge (28.2), a FAC Judge's ±5 (28.3), the country of banishment (29.1).
Fugitives, Manhunts, extradition and the prison roll are in fugitives.py.
"""

from __future__ import annotations

from moderator.games.dwtk import status
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.reaction import JUDGES, Act, Trigger
from moderator.games.dwtk.reactions import choice, play_cards
from moderator.games.dwtk.state import FANDONIA, Fate, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import OfficeKind, RangeRow, kind_of

HELD = (Situation.BANISHED, Situation.IMPRISONED, Situation.AWAITING_EXECUTION)
FOREIGN_CAUSES = frozenset({"duel", "assassination", "prestige"})  # 25.11


def roller(court: Court, cid: int | str) -> str | None:
    """23.2, 26.1, 27.2, 28.1: the controlling player rolls; for an NC the first player."""
    owner = court.char(cid).owner
    return owner if owner is not None else (court.order[0] if court.order else None)


def _rule(court: Court, key: str) -> int:
    return court.t.justice_rules[key]


def _present(court: Court, cid: int) -> bool:
    c = court.char(cid)
    return c.alive and c.face_down_until is None


def accuse(court: Court, cid: int, cause: str, bonus: int = 0, charge: int = 0,
           foreign: bool | None = None) -> None:
    """DWTK 23.2-23.5: one die against Status; at or above it, or a 6, means a hearing.

    ``bonus`` is 23.3's +2 for a DOWN WITH THE KING card drawn from his hand.  ``charge``
    is a bribe's amount (13.4.20): added to this roll and, if it sends him to a hearing,
    to the hearing roll too (the specific rule over 23.3's "no other modifiers").
    ``foreign``: the wrongdoing was against the laws of the country he is in (25.11);
    None decides it by ``cause`` (`is_foreign`).  A wrongdoer ignores further
    accusations (24.10, 29.7, 30.8).  RCs are never accused (23.4): callers pass nobles.
    """
    if not _present(court, cid):
        return
    c = court.char(cid)
    if c.wrongdoer or c.situation in HELD:
        court.emit(EventId.JUSTICE_ACCUSED, {"character": c.key, "cause": cause,
                                             "result": "ignored"}, actor=c.owner)
        return
    roll = court.dice.roll("justice", "1d6", "Wrongdoing (DWTK 23.2)",
                           actor=roller(court, cid), modifier=bonus + charge)
    rating = status.status(court, cid)
    to_hearing = roll.faces[0] == 6 or roll.total >= rating
    court.emit(EventId.JUSTICE_ACCUSED, {"character": c.key, "cause": cause,
                                         "roll": roll.total, "status": rating,
                                         "result": "hearing" if to_hearing else "innocent"},
               actor=c.owner)
    if to_hearing:
        send_to_hearing(court, cid, charge=charge,
                        foreign=is_foreign(court, cid, cause) if foreign is None else foreign)


def is_foreign(court: Court, cid: int, cause: str) -> bool:
    """25.11 (PROPOSED reading): a wrongdoing against the laws of a foreign country is
    one done there — a duel, an assassination attempt or a Prestige Table result (cause
    ``prestige`` or ``prestige:<table>``) of a character abroad.  Not a bribe: that
    wrongs Fandonia, whose Office Holder is bribed (13.4.20)."""
    c = court.char(cid)
    return c.abroad and c.situation is not Situation.BANISHED and \
        cause.partition(":")[0] in FOREIGN_CAUSES


def send_to_hearing(court: Court, cid: int, may_hide: bool = True, charge: int = 0,
                    foreign: bool = False) -> None:
    """23.5: he is a wrongdoer now; 24.2: his player may hide him instead (HIDE);
    24.10: one already hiding does not come, and is a wrongdoer.  ``charge`` (a bribe,
    13.4.20) waits for his hearing.  25.11: hiding from a foreign arrest, he is hunted
    there at once.  7.10.1: stuck in a country at war, he waits there for the peace."""
    if not _present(court, cid):
        return
    c = court.char(cid)
    if c.situation is Situation.HIDING:
        if not c.wrongdoer:
            court.set_char(cid, wrongdoer=True, fate=Fate.HEARING, charge=charge)
            court.emit(EventId.JUSTICE_HID, {"character": c.key, "where": c.location,
                                             "fate": Fate.HEARING.value}, actor=c.owner)
            if foreign:
                _hunted_there(court, cid)
        return
    if c.wrongdoer or c.situation in HELD:
        return
    court.set_char(cid, wrongdoer=True, charge=charge)
    if may_hide and c.owner is not None and choice(
            court, Trigger.HEARS, c.key, Act.HIDE, {c.owner}) is not None:
        go_into_hiding(court, cid, Fate.HEARING)  # 24.7: an NC cannot hide
        if foreign:
            _hunted_there(court, cid)
        return
    if court.at_war_stuck(c):
        await_peace(court, cid, Fate.HEARING)
        return
    hearing(court, cid, foreign)


def _hunted_there(court: Court, cid: int) -> None:
    """25.11: a foreign Manhunt (25.8) for him where he hides, from now on."""
    c = court.char(cid)
    if not c.abroad:
        return
    court.set_char(cid, hunted=tuple(sorted({*c.hunted, c.location})))
    court.emit(EventId.JUSTICE_FOREIGN_MANHUNT, {"character": c.key, "where": c.location},
               actor=c.owner)


def await_peace(court: Court, cid: int, fate: Fate) -> None:
    """7.10.1: a wrongdoer stuck in a country at war is not returned to Fandonia till the
    war is over; he stays there openly, his ``fate`` pending (`problems.end_war`)."""
    c = court.set_char(cid, wrongdoer=True, fate=fate, situation=Situation.NORMAL)
    court.emit(EventId.JUSTICE_AWAITS_PEACE, {"character": c.key, "where": c.location,
                                              "fate": fate.value}, actor=c.owner)


def bring_home(court: Court, cid: int, foreign: bool = False) -> None:
    """25.11, 7.10.1 (reading): justice is done in Fandonia, so one abroad is brought
    home for his hearing or trial — not an Ambassador at his post (20.4), who goes
    home only if he loses it (16.4), nor a banished character."""
    c = court.char(cid)
    office = court.office_of(c.key)
    if not c.abroad or c.situation is Situation.BANISHED or (
            office is not None and court.t.office(office).kind is OfficeKind.AMBASSADOR):
        return
    court.set_char(cid, location=FANDONIA)
    court.emit(EventId.JUSTICE_SENT_HOME, {"character": c.key, "from": c.location,
                                           "foreign": foreign}, actor=c.owner)


def leave_posts(court: Court, cid: int, reason: str) -> None:
    """16.4, 24.4, 29.3, 30.4, 13.4.3: discharged; a Monarch's Counselor card discarded."""
    c = court.char(cid)
    office = court.office_of(c.key)
    if office is not None:
        court.discharge(office, reason)
    if c.counselor is not None:
        court.discard(c.counselor)
        court.set_char(cid, counselor=None)
        if c.owner is not None:  # 14.2.2: a discard is shown to all
            court.emit(EventId.CARDS_DISCARDED, {"player": c.owner,
                                                 "cards": [kind_of(c.counselor)],
                                                 "reason": f"counselor_{reason}"},
                       actor=c.owner)


def go_into_hiding(court: Court, cid: int, fate: Fate) -> None:
    """24.1-24.4: in hiding where he is, a wrongdoer who fled ``fate`` (25.10)."""
    leave_posts(court, cid, "hiding")
    before = court.char(cid)
    since = before.since if before.situation is Situation.BANISHED else court.turn  # 29.9
    c = court.set_char(cid, situation=Situation.HIDING, wrongdoer=True, fate=fate,
                       since=since)
    court.emit(EventId.JUSTICE_HID, {"character": c.key, "where": c.location,
                                     "fate": fate.value},
               actor=c.owner)


def acquit(court: Court, cid: int) -> None:
    """23.2, 26.1, 28.6.1: innocent of all wrongdoing, a normal situation again."""
    court.set_char(cid, situation=Situation.NORMAL, wrongdoer=False, fate=None, hunted=(),
                   charge=0)


def hearing(court: Court, cid: int, foreign: bool = False) -> None:
    """DWTK 26: 2d6 against Status; Evidence +1 each or -1 if none, Alibi -3, Informer ±1,
    a bribe's amount (13.4.20, ``charge``); held in Fandonia (`bring_home`, 25.11).

    At or above Status he is sent to trial; an NC or FAC is interrogated first (27.1).
    """
    bring_home(court, cid, foreign)
    c = court.char(cid)
    mod, played = play_cards(court, Trigger.HEARS, c.key)
    if not played["evidence"]:
        mod += _rule(court, "hearing_no_evidence")
    mod += c.charge
    court.set_char(cid, charge=0)  # spent on this hearing
    roll = court.dice.roll("justice", "2d6", "Hearing (DWTK 26)", actor=roller(court, cid),
                           modifier=mod)
    rating = status.status(court, cid)
    guilty = roll.total >= rating
    court.emit(EventId.JUSTICE_HEARING, {"character": c.key, "total": roll.total,
                                         "modifier": mod, "status": rating,
                                         "result": "trial" if guilty else "innocent"},
               actor=c.owner)
    if not guilty:
        acquit(court, cid)
    elif c.pc:
        trial(court, cid)
    else:
        interrogation(court, cid)


def interrogation(court: Court, cid: int) -> None:
    """DWTK 27 (PROPOSED table): Treachery -1, Prison Guards ±2 (one of each at most).

    Unless he dies, he goes to trial at once with the row's Trial modifier (27.4).  A
    confession that implicates his patron accuses the controlling player's PC after the
    trial; for an NC, a dice count names the one implicated (PROPOSED, reference §8.3).
    """
    c = court.char(cid)
    mod, _ = play_cards(court, Trigger.INTERROGATES, c.key)
    roll = court.dice.roll("justice", "2d6", "Interrogation Table (DWTK 27)",
                           actor=roller(court, cid), modifier=mod)
    row = court.t.justice["interrogation"].lookup(roll.total)
    court.emit(EventId.JUSTICE_INTERROGATION, {"character": c.key, "total": roll.total,
                                               "effects": [str(e) for e in row.effects],
                                               "trial_mod": row.total("trial_mod")},
               actor=c.owner)
    if row.has("dies"):
        execute(court, cid, "interrogation")
        return
    trial(court, cid, row.total("trial_mod"))
    if row.has("implicates"):
        _implicate(court, cid)


def _implicate(court: Court, cid: int) -> None:
    owner = court.char(cid).owner
    if owner is not None:
        named = court.players[owner].pc
    else:
        named = court.dice_count("justice", "Implicated (DWTK 27, PROPOSED)")
    if named is None or named == cid or named not in court.characters:
        return
    court.emit(EventId.JUSTICE_IMPLICATED, {"character": str(cid), "named": str(named)})
    accuse(court, named, "implicated")


def choose_judge(court: Court, cid: int) -> tuple[str, str | None]:
    """28.2, 28.3: the PC/FAC Minister of Justice's JUDGE reaction, else 1d6 by the
    first player; a Judge never hears his own trial.  Returns (judge, chooser)."""
    key = str(cid)
    judges = [j for j in JUDGES if j != key]
    if len(judges) == 1:
        return judges[0], None
    minister = court.offices.get("justice")
    owner = court.controller(minister) if minister not in (None, key) else None
    if owner is not None:
        found = choice(court, Trigger.TRIES, key, Act.JUDGE, {owner})
        if found is not None and found[1].choice in JUDGES:
            return str(found[1].choice), owner
    first = court.order[0] if court.order else None
    die = court.roll("justice", "1d6", "Judge (DWTK 28.2)", first)
    return next(j for j in JUDGES if die in court.t.noble(j).trial_numbers), None


def trial(court: Court, cid: int, interrogated: int = 0) -> None:
    """DWTK 28: 2d6 on the Trial Table; Evidence +1 each or -3 if none, Alibi -1,
    Informer ±1, a FAC Judge's ±5 (MODIFY), the interrogation's modifier."""
    bring_home(court, cid)  # 25.11: an assassin caught abroad is tried at home
    c = court.char(cid)
    judge, chooser = choose_judge(court, cid)
    mod, played = play_cards(court, Trigger.TRIES, c.key)
    if not played["evidence"]:
        mod += _rule(court, "trial_no_evidence")
    judge_owner = court.char(judge).owner
    if judge_owner is not None:
        found = choice(court, Trigger.TRIES, c.key, Act.MODIFY, {judge_owner})
        if found is not None:
            mod += found[1].sign * _rule(court, "judge_modifier")
    mod += interrogated
    roll = court.dice.roll("justice", "2d6", "Trial Table (DWTK 28)", actor=roller(court, cid),
                           modifier=mod)
    row = court.t.justice["trial"].lookup(roll.total)
    court.emit(EventId.JUSTICE_TRIAL, {"character": c.key, "judge": judge, "chooser": chooser,
                                       "total": roll.total, "modifier": mod,
                                       "effects": [str(e) for e in row.effects]},
               actor=c.owner)
    sentence(court, cid, row)


def sentence(court: Court, cid: int, row: RangeRow) -> None:
    """28.6: not guilty, banished, imprisoned, awaiting execution, executed; a Judge
    found anything but not guilty is executed at once (28.3)."""
    if row.has("not_guilty"):
        acquit(court, cid)
    elif str(cid) in JUDGES or row.has("executed"):
        execute(court, cid, "judge" if str(cid) in JUDGES else "trial")
    elif row.has("banished"):
        banish(court, cid)
    elif row.has("imprisoned"):
        imprison(court, cid)
    elif row.has("awaiting_execution"):
        imprison(court, cid, Situation.AWAITING_EXECUTION)


def banish(court: Court, cid: int) -> None:
    """DWTK 29.1: to a country at peace chosen by a PC/FAC Minister of Justice, else by
    the first player (CHOOSE); without a choice the first at peace in table order
    (PROPOSED).  At war with every country: imprisoned instead."""
    c = court.char(cid)
    peace = [k.key for k in court.t.countries if k.key not in court.wars]
    if not peace:
        imprison(court, cid)
        return
    minister = court.offices.get("justice")
    owner = court.controller(minister) if minister not in (None, c.key) else None
    chooser = owner or (court.order[0] if court.order else None)
    found = choice(court, Trigger.BANISHES, c.key, Act.CHOOSE, {chooser} if chooser else ())
    country = found[1].choice if found and found[1].choice in peace else peace[0]
    leave_posts(court, cid, "banished")
    court.set_char(cid, situation=Situation.BANISHED, wrongdoer=True, location=country,
                   fate=None, hunted=(), since=court.turn)
    court.emit(EventId.JUSTICE_BANISHED, {"character": c.key, "country": country,
                                          "chooser": chooser if found else None},
               actor=c.owner)


def imprison(court: Court, cid: int, how: Situation = Situation.IMPRISONED) -> None:
    """DWTK 30.1, 30.4, 28.6.4: in prison in Fandonia (awaiting execution: 31.6)."""
    leave_posts(court, cid, "imprisoned")
    c = court.set_char(cid, situation=how, wrongdoer=True, location=FANDONIA, fate=None,
                       hunted=(), since=court.turn)
    court.emit(EventId.JUSTICE_IMPRISONED, {"character": c.key, "how": how.value},
               actor=c.owner)


def execute(court: Court, cid: int, why: str) -> None:
    """28.6.5, 31.6, 28.3 (and death under interrogation, 27): he dies (31.3-31.5)."""
    c = court.char(cid)
    court.emit(EventId.JUSTICE_EXECUTED, {"character": c.key, "why": why}, actor=c.owner)
    kill_character(court, cid, "executed" if why != "interrogation" else "interrogation")
