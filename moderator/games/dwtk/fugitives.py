"""Fugitives and prisoners over time: Manhunts (DWTK 24.11, 25.5-25.8), capture (25.10),
extradition (25.1-25.7, 25.12), the prison death roll (30.10) and executions (31.6).

At the beginning of each player's turn (`start_of_player_turn`) his wrongdoers hiding in
Fandonia (or hiding abroad where a Manhunt was begun) are hunted and his imprisoned
characters roll for their lives; at the end of all Player Turns (`end_of_turns`) the
imprisoned NCs roll and those awaiting execution since an earlier turn are executed.
"""

from __future__ import annotations

from enum import StrEnum

from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.justice import (
    execute,
    hearing,
    imprison,
    interrogation,
    roller,
    trial,
)
from moderator.games.dwtk.orders.reaction import Act, Trigger
from moderator.games.dwtk.reactions import choice, play_cards
from moderator.games.dwtk.shared import can_spend, spend
from moderator.games.dwtk.state import FANDONIA, Fate, Situation
from moderator.games.dwtk.state.court import Court


class Extradition(StrEnum):
    """How an extradition ends (25.2-25.7)."""

    RETURNED = "returned"  # 25.2: brought back for justice
    MANHUNT = "manhunt"  # 25.5: hiding there, Manhunted there from now on
    VETOED = "vetoed"  # 25.3, 25.6: the FAC Ambassador's player said no
    REFUSED = "refused"  # 25.1, 25.12: not one who can be extradited



def _members(court: Court, player: str) -> list[int]:
    """His PC and FACs, alive and face up (the PC counts as one of his own: PROPOSED)."""
    return sorted(c.id for c in court.characters.values()
                  if c.owner == player and c.alive and c.face_down_until is None)


def start_of_player_turn(court: Court, player: str) -> None:
    """24.11, 25.8: Manhunts for his fugitives; 30.10: his prisoners' roll for death."""
    for cid in _members(court, player):
        c = court.char(cid)
        if c.situation is Situation.HIDING and c.wrongdoer and (
                c.location == FANDONIA or c.location in c.hunted):
            manhunt(court, cid)
        elif c.situation is Situation.IMPRISONED and court.turn > c.since:
            prison_roll(court, cid)


def end_of_turns(court: Court) -> None:
    """30.10: imprisoned NCs roll (the first player); 31.6: executions from last turn."""
    for c in sorted(court.characters.values(), key=lambda x: x.id):
        if c.alive and c.owner is None and c.situation is Situation.IMPRISONED and \
                court.turn > c.since:
            prison_roll(court, c.id)
    for c in sorted(court.characters.values(), key=lambda x: x.id):
        if c.alive and c.situation is Situation.AWAITING_EXECUTION and court.turn > c.since:
            execute(court, c.id, "sentence")


def manhunt(court: Court, cid: int) -> None:
    """24.11 (in Fandonia) / 25.8 (abroad): 2d6, 10-12 captures him.

    Informer +2 each (any player); in Fandonia the player with a FAC Sheriff may obstruct
    (OBSTRUCT, -2); abroad the player with a FAC Ambassador there may modify ±1 (MODIFY).
    No Manhunt in a country at war with Fandonia (25.12).
    """
    c = court.char(cid)
    where = c.location
    if where in court.wars:
        return
    mod, _ = play_cards(court, Trigger.HUNTS, c.key)
    if where == FANDONIA:
        sheriff = court.char(52).owner if 52 in court.characters else None
        if sheriff is not None and choice(court, Trigger.HUNTS, c.key, Act.OBSTRUCT,
                                          {sheriff}) is not None:
            mod += court.t.justice_rules["sheriff_obstruction"]
    else:
        holder = court.offices.get(court.t.ambassador_of(where).key)
        owner = court.controller(holder)
        found = choice(court, Trigger.HUNTS, c.key, Act.MODIFY, {owner}) if owner else None
        if found is not None:
            mod += found[1].sign * court.t.justice_rules["ambassador_manhunt"]
    roll = court.dice.roll("justice", "2d6", "Manhunt (DWTK 24.11)", actor=c.owner,
                           modifier=mod)
    captured = roll.total >= court.t.justice_rules["manhunt_capture"]
    court.emit(EventId.JUSTICE_MANHUNT, {"character": c.key, "where": where,
                                         "total": roll.total, "modifier": mod,
                                         "captured": captured}, actor=c.owner)
    if captured:
        capture(court, cid)


def capture(court: Court, cid: int, event: EventId = EventId.JUSTICE_CAPTURED) -> None:
    """25.10 (30.6, 31.6): back in Fandonia to the stage he fled; no hiding this time
    (also a wrongdoer who comes out of hiding, 24.8: ``event`` JUSTICE_RETURNED)."""
    c = court.char(cid)
    fate = c.fate or Fate.HEARING
    court.set_char(cid, situation=Situation.NORMAL, location=FANDONIA, fate=None,
                   hunted=(), wrongdoer=True)
    court.emit(event, {"character": c.key, "fate": fate.value}, actor=c.owner)
    if fate is Fate.HEARING:
        hearing(court, cid)
    elif fate is Fate.INTERROGATION:
        interrogation(court, cid)
    elif fate is Fate.TRIAL:
        trial(court, cid)
    elif fate is Fate.EXECUTION:
        execute(court, cid, "recaptured")
    else:
        imprison(court, cid)


def extradite(court: Court, player: str, cid: int, forced: bool = False) -> Extradition:
    """25.1-25.7, 25.12 (reading 25.1: never from hiding in Fandonia).

    A wrongdoer living abroad openly is returned for justice (25.2); one hiding abroad
    is Manhunted there from now on (25.5).  The player with a FAC Ambassador to that
    country may VETO unless ``forced`` (Extradition with Intrigue, 25.3/25.6; an accepted
    counsel, 25.4/25.7).  Returns the result: returned, manhunt, vetoed or refused.
    """
    c = court.char(cid)
    if not extraditable(court, cid):
        result = Extradition.REFUSED
    else:
        holder = court.offices.get(court.t.ambassador_of(c.location).key)
        owner = court.controller(holder)
        if not forced and owner is not None and choice(
                court, Trigger.EXTRADITES, c.key, Act.VETO, {owner}, actor=player):
            result = Extradition.VETOED
        elif c.situation is Situation.HIDING:
            court.set_char(cid, hunted=tuple(sorted({*c.hunted, c.location})))
            result = Extradition.MANHUNT
        else:
            result = Extradition.RETURNED
    court.emit(EventId.JUSTICE_EXTRADITION, {"character": c.key, "by": player,
                                             "where": c.location, "result": result.value},
               actor=player)
    if result is Extradition.RETURNED:
        capture(court, cid)
    return result


def extraditable(court: Court, cid: int) -> bool:
    """25.1, 25.12: a wrongdoer abroad (living or hiding), not banished nor held, in a
    country at peace with Fandonia."""
    c = court.char(cid)
    return c.alive and c.wrongdoer and c.situation in (Situation.NORMAL, Situation.HIDING) \
        and c.abroad and c.location not in court.wars and c.fate is not Fate.BANISHED  # 29.5


def prison_roll(court: Court, cid: int) -> None:
    """30.10: from his second turn in prison, 2d6 each turn; 11-12 he dies.  His player
    may pay One IP for -2 (PAY on JAILS)."""
    c = court.char(cid)
    mod = 0
    paid = False
    owner = c.owner
    cost = court.t.rule("prison_death_ip")
    if owner is not None and choice(court, Trigger.JAILS, c.key, Act.PAY, {owner}) and \
            can_spend(court, owner, cost):
        spend(court, owner, cost)
        mod, paid = court.t.justice_rules["prison_death_payment"], True
    roll = court.dice.roll("justice", "2d6", "Death in prison (DWTK 30.10)",
                           actor=roller(court, cid), modifier=mod)
    died = roll.total >= court.t.justice_rules["prison_death"]
    court.emit(EventId.JUSTICE_PRISON_ROLL, {"character": c.key, "total": roll.total,
                                             "paid": paid, "died": died}, actor=owner)
    if died:
        execute(court, cid, "prison")
