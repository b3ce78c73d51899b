"""Orders of the justice chain that are not activities (DWTK 24.2, 24.8, 29.5, 29.9,
30.10) and the FARC Monarch's restoring of his own (36.10.4).

``HIDE x`` and ``UNHIDE x`` are carried out at the start of the player's Player Turn
(UNHIDE first, PROPOSED: 24.2 "at any time during his Player Turn"); ``SUICIDE x`` is
checked then and carried out at the end of all Player Turns (29.9, 30.10).
"""

from __future__ import annotations

from moderator.games.dwtk import fugitives, justice
from moderator.games.dwtk.acts import Refused, mine
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.justice_acts import _restore
from moderator.games.dwtk.state import Fate, Situation
from moderator.games.dwtk.state.court import Court

HELD = (Situation.IMPRISONED, Situation.AWAITING_EXECUTION)


def hide(court: Court, player: str, who: str) -> None:
    """24.2: a non-wrongdoer at any time in his Player Turn (he stays no wrongdoer); a
    wrongdoer before his hearing; 29.5: a banished character (still banished, fate
    "banished"); 24.4 never an Office Holder by choice; 30.6 never from prison; 24.2 not
    in and out of hiding the same turn."""
    cid = mine(court, player, who)
    c = court.char(cid)
    if c.situation is Situation.HIDING:
        raise Refused("already_hiding")
    if c.situation in HELD:
        raise Refused("imprisoned")  # 30.6
    if court.office_of(c.key) is not None:
        raise Refused("office_holder")  # 24.4: only to avoid a hearing
    if cid in court.came_out:
        raise Refused("same_turn")
    if c.situation is Situation.BANISHED:
        justice.go_into_hiding(court, cid, Fate.BANISHED)  # 29.5
    elif c.wrongdoer:
        justice.go_into_hiding(court, cid, c.fate or Fate.HEARING)
    else:
        justice.leave_posts(court, cid, "hiding")
        court.set_char(cid, situation=Situation.HIDING, since=court.turn)
        court.emit(EventId.JUSTICE_HID, {"character": c.key, "where": c.location,
                                         "fate": None}, actor=player)


def unhide(court: Court, player: str, who: str) -> None:
    """24.8: out of hiding; a wrongdoer goes (home, if abroad) to the stage he fled — a
    hearing, or prison again for an escaped prisoner (30.6, 31.6, reading 25.10); a
    banished character is banished again where he is; in a country at war he waits
    there openly for the peace (7.10.1)."""
    cid = mine(court, player, who)
    c = court.char(cid)
    if c.situation is not Situation.HIDING:
        raise Refused("not_hiding")
    if c.since == court.turn:
        raise Refused("same_turn")  # 24.2
    court.emit(EventId.JUSTICE_UNHID, {"character": c.key, "where": c.location},
               actor=player)
    _come_out(court, cid)


def forced_out(court: Court, cid: int) -> None:
    """24.7: an NC cannot hide; a FAC in hiding who becomes an NC comes out at once and
    takes the consequences, as by UNHIDE (24.8) but even the turn he hid (24.7's
    "immediately" over 24.2, PROPOSED).  The rulebook says "FARC"; RCs never hide (24.5),
    so it is read as FAC (PROPOSED)."""
    c = court.char(cid)
    if not c.alive or c.situation is not Situation.HIDING:
        return
    court.emit(EventId.JUSTICE_FORCED_OUT, {"character": c.key, "where": c.location})
    _come_out(court, cid)


def _come_out(court: Court, cid: int) -> None:
    """24.8, 29.5, 7.10.1, 25.10: where he stands once out of hiding."""
    c = court.char(cid)
    if c.fate is Fate.BANISHED:
        court.set_char(cid, situation=Situation.BANISHED, fate=None, since=c.since)
    elif c.wrongdoer and court.at_war_stuck(c):
        justice.await_peace(court, cid, c.fate or Fate.HEARING)  # 7.10.1: not returned yet
    elif c.wrongdoer:
        fugitives.capture(court, cid, EventId.JUSTICE_RETURNED)
    else:
        court.set_char(cid, situation=Situation.NORMAL, since=court.turn)
    court.came_out.add(cid)


def may_suicide(court: Court, player: str, who: str) -> int:
    """29.9, 30.10: a PC or FAC banished or imprisoned for three turns or more."""
    cid = mine(court, player, who)
    c = court.char(cid)
    banished = c.situation is Situation.BANISHED or (
        c.situation is Situation.HIDING and c.fate is Fate.BANISHED)
    if not (banished or c.situation in HELD):
        raise Refused("not_banished_or_imprisoned")
    if court.turn - c.since < court.t.rule("suicide_turns"):
        raise Refused("too_soon")
    return cid


def suicides(court: Court) -> None:
    """At the end of all Player Turns: every SUICIDE order still legal (29.9, 30.10)."""
    for player in court.in_order():
        orders = court.orders.get(player)
        for who in getattr(orders, "suicide", ()):
            try:
                cid = may_suicide(court, player, who)
            except Refused as refused:
                court.emit(EventId.ACTIVITY_SKIPPED, {"what": "suicide",
                                                      "reason": refused.reason},
                           actor=player, public=False)
                continue
            court.emit(EventId.JUSTICE_SUICIDE, {"character": str(cid)}, actor=player)
            kill_character(court, cid, "suicide")


def restore(court: Court, player: str, who: str) -> None:
    """36.10.4: the FARC Monarch's player returns his PC or a FAC who is banished,
    imprisoned or a wrongdoer to a normal situation (not an activity)."""
    monarch = court.monarch()
    if monarch is None or court.royals[monarch].owner != player:
        raise Refused("no_farc_monarch")
    cid = mine(court, player, who)
    c = court.char(cid)
    if c.situation is Situation.NORMAL and not c.wrongdoer:
        raise Refused("nothing_to_restore")
    _restore(court, cid)
    court.set_char(cid, fate=None, hunted=())
    court.emit(EventId.RESTORED, {"character": str(cid)}, actor=player)
