"""Political Problems (DWTK 7): one attempt at each unresolved problem, new problems
(7.2, 8.4.5) and the Foreign War (7.10).

A PC/FAC Minister may let his problem stand (7.4) and PC/FAC modifiers say + or - (7.6),
from the orders sent with the previous turn (docs/dwtk-by-email.md).
"""

from __future__ import annotations

from moderator.games.dwtk import bribery
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.fugitives import capture
from moderator.games.dwtk.orders import Stance, TurnOrders
from moderator.games.dwtk.shared import Orders
from moderator.games.dwtk.state import OpenProblem, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import OfficeKind


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
    """7.6 (PC/FAC modifying Ministers, + or - as ordered; a bribed NC for his briber,
    13.4.20.2), 7.12, 33.2.2."""
    total = 0
    problem = court.t.problem(key)
    def sign(player: str) -> int:
        stance = dict(orders.get(player, TurnOrders()).stances).get(key)
        return 1 if stance is Stance.PLUS else -1 if stance is Stance.MINUS else 0

    for office in problem.modifiers:
        holder = court.offices.get(office)
        owner = court.controller(holder)
        if owner is None:  # an NC's modifier is ignored (7.6) unless bribed (13.4.20.2)
            total += bribery.influence(court, holder, "problem", key, sign)
            continue
        total += sign(owner)
    monarch = court.monarch()
    farc_owner = court.royals[monarch].owner if monarch else None
    if farc_owner is not None:
        total += sign(farc_owner)  # 7.12
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
        held = court.office_of(c.key)
        if held and court.t.office(held).kind is OfficeKind.MINISTER and \
                c.location in countries:
            court.set_char(c.id, location="fandonia")  # 7.10.6
            court.emit(EventId.WAR_EXPELLED, {"holder": c.key, "country": c.location,
                                              "office": held})


def end_war(court: Court) -> None:
    """DWTK 7.10: the war ends with the problem; the embassies reopen (vacant).  7.10.1:
    the wrongdoers who waited there openly for the peace are returned for justice now."""
    ended = list(court.wars)
    court.emit(EventId.WAR_ENDED, {"countries": ended})
    court.wars = []
    court.suspended = []
    waiting = sorted(c.id for c in court.characters.values()
                     if c.alive and c.wrongdoer and c.fate is not None
                     and c.situation is Situation.NORMAL and c.location in ended)
    for cid in waiting:
        capture(court, cid, EventId.JUSTICE_CAPTURED)
