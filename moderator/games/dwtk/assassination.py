"""Conduct An Assassination Attempt (DWTK 13.4.8, 21; 17.2.1, 17.6, 20.6.3, 29.6, 30.7).

By email: ``DO ASSASSINATE <target> [BY <henchman>] [WITH <n> CARDS]``.  An Intrigue
counter drawn (or an Intrigue card, 14.5.7) and an Assassination card are needed
(12.3.3, 14.5.8); with an Any Activity counter no card is needed and every card played
(as many as asked and held) is an additional one (12.3.1).  The counter used is spent
(`counters`: one activity each).
Each additional card +2; against the Monarch -1.  The other players' cards are their
ASSASSINATES reactions (14.1, in player order): one Treachery (-2) and one Informer
(±2) at most; Personal Guards (-2 each) only against a non-Office Holder, Palace Guards
(±2 each) only against an Office Holder or a RC.  The Assassination Table is PROPOSED
(reference §8.2).
"""

from __future__ import annotations

from moderator.games.dwtk import counters, justice, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.duels import henchmen
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders import Activity
from moderator.games.dwtk.orders.reaction import Trigger
from moderator.games.dwtk.reactions import play_cards
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.state import FANDONIA, Character, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.succession import kill_royal
from moderator.games.dwtk.tables import RangeRow


def _assassin(court: Court, player: str, by: str | None) -> Character:
    """17.2.1: his PC or one of his henchmen, free to act."""
    if by is None:
        c = court.pc_of(player)
    else:
        cid = resolve_who(court, player, by)
        c = next((h for h in henchmen(court, player) if h.key == cid), None)
    if c is None or not c.alive or c.face_down_until is not None or not c.free:
        raise Refused("no_assassin")
    return c


def _where(court: Court, target: str) -> str | None:
    """Where the target is (None: he cannot be assassinated, 13.4.8, 30.7; a privateer's
    captain at sea, 13.4.17.1)."""
    if not target.isdigit():
        royal = court.royals.get(target)
        return FANDONIA if royal is not None and royal.alive else None  # 20.7
    c = court.char(target)
    if not c.alive or c.face_down_until is not None or court.at_war_stuck(c) or \
            status.at_sea(court, c.id) or c.situation in (Situation.HIDING, Situation.IMPRISONED,
                            Situation.AWAITING_EXECUTION):
        return None
    return c.location


def attempt(court: Court, player: str, a: Activity) -> None:
    """13.4.8: the Assassination Table, 2d6 with every modifier."""
    permit = counters.intrigue(court, player, "assassination", max(1, a.cards))
    target = resolve_who(court, player, a.who[0])
    assassin = _assassin(court, player, a.by)
    if target is None or target == assassin.key:
        raise Refused("no_target")
    where = _where(court, target)
    if where is None:
        raise Refused("target_out_of_reach")
    if where != assassin.location:
        raise Refused("not_in_the_same_country")  # 20.6.3, 29.6, 17.6
    if permit.any_activity:  # 12.3.1: no card needed, and each card played is +2
        count = min(a.cards, len(court.cards_of(player, "assassination")))
        permit = counters.combine(permit, counters.Permit(cards=("assassination",) * count))
        extra = count
    else:
        extra = max(1, a.cards) - 1  # 13.4.8: each additional card
    counters.use(court, player, permit)
    rules = court.t.justice_rules
    mod = extra * rules["assassination_card"]
    if court.monarch() == target:
        mod += rules["assassination_monarch"]
    holder = not target.isdigit() or court.office_of(target) is not None
    guards = "palace_guards" if holder else "personal_guards"
    mod += play_cards(court, Trigger.ASSASSINATES, target, player,
                      only=(guards, "treachery", "informer"))[0]
    roll = court.dice.roll("assassination", "2d6", "Assassination Table (DWTK 13.4.8)",
                           actor=player, modifier=mod)
    row = court.t.justice["assassination"].lookup(roll.total)
    court.emit(EventId.ASSASSINATION, {"player": player, "assassin": assassin.key,
                                       "target": target, "total": roll.total,
                                       "modifier": mod,
                                       "effects": [str(e) for e in row.effects]},
               actor=player)
    if row.has("target_dies"):
        if target.isdigit():
            kill_character(court, int(target), "assassinated")
        else:
            kill_royal(court, target, "assassinated")  # 9: the Monarch's death ends the turn
    _caught(court, assassin.id, row)


def _caught(court: Court, cid: int, row: RangeRow) -> None:
    """21: a caught assassin may die, be tried, heard or accused."""
    if row.has("assassin_dies"):
        kill_character(court, cid, "assassination")
    elif row.has("assassin_trial"):
        court.set_char(cid, wrongdoer=True)  # 23.5; no hiding (24.2 is for hearings)
        if court.char(cid).pc:
            justice.trial(court, cid)
        else:
            justice.interrogation(court, cid)  # 27.1: an NC or FAC first
    elif row.has("assassin_hearing"):
        justice.send_to_hearing(court, cid)
    elif row.has("assassin_accused"):
        justice.accuse(court, cid, "assassination")
