"""The theatre (EG §O): weekend trips, first nights, boxes and long runs.

A new play's reception is rolled at its first night (weekend 1), whether or not
anyone attends.  A resounding success runs the next month with no first night;
after that it runs on while a 6 is rolled each month.  A box is bought for the
month (``PREMONTH: BOX``, 150 crowns); its owner sits in it free on any theatre
weekend and gains 4 SP plus the box column of the table on his first visit;
in a long run only last month's box owners get the table's column.  A box never
visited brings nothing (EG §O: box owners must attend).
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.engarde.events import EventId
from moderator.games.engarde.influence import resolve_npc_decision, take_pushes
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Theatre


def opening(m: Month) -> None:
    """Roll the new play's reception at its first night (not in a long run)."""
    if m.theatre.long_run:
        m.reception = m.theatre.last_outcome
        return
    royal = _royals(m)
    roll = m.dice.stream("theatre").roll("1d6", f"first night of play {m.theatre.play}",
                                         modifier=royal)
    outcome = m.tables.outcome(max(1, min(6, roll.total)))
    m.reception = outcome.key
    m.world(EventId.THEATRE_RECEPTION, {"play": m.theatre.play, "face": roll.total,
                                        "outcome": outcome.key, "name": outcome.name})


def _royals(m: Month) -> int:
    """EG §O: +1 if royalty attends; only favours can bring them (EG §S, PROPOSED).

    The attendance decision is rolled only when someone used a favour on it
    (``USE FAVOUR n ON FIRST NIGHT FOR|AGAINST``), on the ``influence`` stream.
    """
    pushes = take_pushes(m, "first_night")
    if not pushes:
        return 0
    decision = resolve_npc_decision(
        m.tables.society.influence["royal_position"], m.tables.rule("party", "royal_needs"),
        pushes, m.dice.stream("influence"), m.tables, "royalty at the first night")
    if not decision.success:
        return 0
    m.world(EventId.THEATRE_ROYALS, {"play": m.theatre.play})
    return int(m.tables.theatre["royal_modifier"])


def buy_box(m: Month, a: Actor) -> None:
    cost = m.tables.theatre["box_cost"]
    if a.box:
        return
    if a.crowns < cost:
        m.emit(a.key, EventId.THEATRE_UNAFFORDABLE, {"what": "box", "cost": cost})
        return
    a.box = True
    m.emit(a.key, EventId.THEATRE_BOX, {"cost": cost, "play": m.theatre.play}, crowns=-cost)


def box_extra(m: Month, a: Actor) -> tuple[str | None, int]:
    """The box column of the outcome table for this owner (EG §O)."""
    if m.theatre.long_run and a.key not in m.theatre.box_holders:
        return None, 0
    if m.reception is None:
        return None, 0
    outcome = next(o for o in m.tables.outcomes if o.key == m.reception)
    return outcome.key, outcome.box_sl_num * a.sl // outcome.box_sl_den


def attend(m: Month, a: Actor, order: Theatre) -> None:
    t = m.tables.theatre
    if a.box:
        if not a.box_seen:
            a.box_seen = True
            outcome, extra = box_extra(m, a)
            m.emit(a.key, EventId.THEATRE_BOX_SEEN, {"outcome": outcome, "extra": extra,
                                                     "basic": t["box_sp"]},
                   sp=t["box_sp"] + extra)
        return
    if order.first_night and m.theatre.long_run:
        m.emit(a.key, EventId.THEATRE_NO_FIRST_NIGHT, {"play": m.theatre.play})
        return
    per_sl = t["first_night_cost_per_sl"] if order.first_night else t["trip_cost_per_sl"]
    cost = per_sl * a.sl
    if a.crowns < cost:
        m.emit(a.key, EventId.THEATRE_UNAFFORDABLE, {"what": "seat", "cost": cost})
        return
    if order.first_night:
        played = next(o for o in m.tables.outcomes if o.key == m.reception)
        m.emit(a.key, EventId.THEATRE_FIRST_NIGHT, {"outcome": played.key, "cost": cost},
               crowns=-cost, sp=played.first_night_sp)
        return
    sp = 0 if a.theatre_trip else t["trip_sp"]
    a.theatre_trip = True
    m.emit(a.key, EventId.THEATRE_TRIP, {"cost": cost, "repeat": sp == 0}, crowns=-cost, sp=sp)


def close(m: Month) -> None:
    """Unused boxes, then does the play run on into next month?"""
    holders = []
    for a in m:
        if a.box and not a.box_seen:
            m.emit(a.key, EventId.THEATRE_BOX_UNUSED)
        elif a.box:
            holders.append(a.key)
    t, play = m.theatre, m.theatre.play
    run_on = m.tables.theatre["run_on_face"]
    if t.long_run:
        roll = m.dice.stream("theatre").roll("1d6", f"does play {play} run on?", needs=run_on)
        continues = bool(roll.success)
    else:
        continues = m.reception == m.tables.outcome(run_on).key
    if continues:
        m.world(EventId.THEATRE_RUN_CONTINUES, {"play": play, "months": t.run_months + 1})
        m.theatre = replace(t, long_run=True, run_months=t.run_months + 1,
                            last_outcome=m.reception, box_holders=tuple(holders))
    else:
        if t.long_run:
            m.world(EventId.THEATRE_RUN_ENDS, {"play": play, "months": t.run_months + 1})
        m.theatre = replace(t, play=play + 1, long_run=False, run_months=0, last_outcome=None,
                            box_holders=())
