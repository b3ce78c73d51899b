"""Appointments (reference §7), titles (reference §8) and deaths.

Applying is an NPC decision at the appointer's level (PROPOSED: 6+ on 1d6, open to
influence); a PC holding the appointing post decides instead (``appoint:`` GM
decision; default: the NPC roll).  One appointment at a time (PROPOSED); a
disgraced man may not hold one (reference §9).  Each post pays SP and crowns a
month and a favour each season (``influence.grant(..., source="appointment")``).

Titles: a character who qualifies (twice mentioned in dispatches, becoming a
Minister, a battle result of 1 in command, or a result 3 better than his
superior's) asks the King: 6 on 1d6, +1 per 3 SL above the title's minimum, -1
per earlier qualification that brought nothing, open to influence.  The title's
SL applies at once (EG §E's exception), with its SP, pension and family home (EG §P).
"""

from __future__ import annotations

from collections import Counter

from moderator.games.engarde import influence, loans
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Apply, ResignPosition
from moderator.games.engarde.state import Home, Property, Tenure
from moderator.games.engarde.tables import Appointment


def holders(m: Month, post: str, regiment: str | None = None) -> list[str]:
    return [a.key for a in m if not a.c.dead and a.c.appointment == post
            and (regiment is None or a.c.regiment == regiment)]


def office_holder(m: Month, office: str) -> str | None:
    """The PC holding an office (EG §R: prosecutors and judges), None for an NPC."""
    post = m.tables.army.office(office)
    found = holders(m, post.key)
    return found[0] if found else None


def title_rank(m: Month, a: Actor) -> int:
    row = m.tables.army.title(a.c.title) if a.c.title else None
    return row.rank if row else 0


def _qualifies(m: Month, a: Actor, post: Appointment) -> str | None:
    army = m.tables.army
    by_rank = army.rank_index(a.c.rank) >= army.rank_index(post.rank)
    by_title = post.title_rank > 0 and title_rank(m, a) >= post.title_rank
    if not (by_rank or by_title):
        return "rank"
    if post.per_regiment and not a.c.regiment:
        return "regiment"
    if a.sl < post.min_sl:
        return "sl"
    if a.c.military_ability < post.min_ma:
        return "ma"
    taken = holders(m, post.key, a.c.regiment if post.per_regiment else None)
    if len(taken) >= post.slots:
        return "vacancy"
    return None


def _appointer(m: Month, a: Actor, post: Appointment) -> str | None:
    """A PC who appoints to this post: the regiment's colonel, or the Minister of War."""
    if post.appointer == "colonel" and a.c.regiment:
        found = [k for k in (b.key for b in m) if m.actors[k].c.regiment == a.c.regiment
                 and m.actors[k].c.rank == "colonel" and k != a.key]
        return found[0] if found else None
    if post.appointer == "minister":
        found = [k for k in holders(m, "minister_of_war") if k != a.key]
        return found[0] if found else None
    return None


def apply(m: Month, a: Actor, order: Apply) -> None:
    """An anytime APPLY FOR: noted now, decided with every other application of the
    month (`applications`), so who gets a vacancy never depends on the order of names."""
    m.scratch.setdefault("applications", []).append((a.key, order.position))


def applications(m: Month) -> None:
    """The month's applications, after every anytime order (reference §7).

    Each applicant's applications are tried in the order he wrote them until one
    succeeds (one appointment at a time); then each post's vacancies go to the best
    results: the margin of the roll (a PC appointer's yes first), then SL, then lots
    drawn on 1d6 (PROPOSED).  The others are told the post was filled."""
    mine: dict[str, list[str]] = {}
    for key, position in m.scratch.pop("applications", []):
        mine.setdefault(key, []).append(position)
    won: dict[tuple[str, str | None], list[tuple[int, str]]] = {}
    for key in sorted(mine):
        for position in mine[key]:
            result = _try(m, m.actors[key], m.tables.army.appointment(position))
            if result is not None:
                post, margin = result
                seat = (post.key, m.actors[key].c.regiment if post.per_regiment else None)
                won.setdefault(seat, []).append((margin, key))
                break
    for seat in sorted(won, key=lambda s: (s[0], s[1] or "")):
        _fill(m, m.tables.army.appointment(seat[0]), seat[1], won[seat])


def _try(m: Month, a: Actor, post: Appointment) -> tuple[Appointment, int] | None:
    """The application's decision: (post, margin) if it succeeds, else None (told)."""
    args = {"position": post.name}
    reason = "disgraced" if a.c.disgraced else "holds_one" if a.c.appointment else None
    reason = reason or _qualifies(m, a, post)
    if reason:
        m.emit(a.key, EventId.APPOINTMENT_REFUSED, {**args, "reason": reason})
        return None
    chief = _appointer(m, a, post)
    pushes = influence.take_pushes(m, "appointment", a.key)
    if chief is not None:
        answer = m.decide(f"appoint:{post.key}:{a.key}", "roll", a.key, appointer=chief)
        if answer != "roll":
            if answer.lower() in ("yes", "y", "appoint", "true"):
                return post, _CHOSEN
            m.emit(a.key, EventId.APPOINTMENT_REFUSED, {**args, "reason": "roll"})
            return None
    decision = influence.resolve_npc_decision(
        post.appointer, m.tables.army.appointment_rules["apply_needs"], pushes,
        m.dice.stream("offices"), m.tables, f"applying to be {post.name}", actor=a.key)
    if not decision.success:
        m.emit(a.key, EventId.APPOINTMENT_REFUSED, {**args, "reason": "roll"})
        return None
    return post, decision.roll.total - decision.needed


_CHOSEN = 100  # a PC appointer's yes beats any roll


def _fill(m: Month, post: Appointment, regiment: str | None,
          candidates: list[tuple[int, str]]) -> None:
    """Give the post's free places to the best candidates (see `applications`)."""
    free = post.slots - len(holders(m, post.key, regiment))
    ranked = sorted(candidates, key=lambda c: (-c[0], -m.actors[c[1]].sl, c[1]))
    if len(ranked) > free:
        ranked = _draw_lots(m, post, ranked)
    for i, (_, key) in enumerate(ranked):
        a = m.actors[key]
        if i >= free:
            m.emit(key, EventId.APPOINTMENT_REFUSED, {"position": post.name,
                                                      "reason": "vacancy"})
            continue
        a.update(appointment=post.key)
        m.emit(key, EventId.APPOINTMENT_GRANTED, {"position": post.name}, public=True)
        if post.minister:
            qualify(m, a, "minister")


def _draw_lots(m: Month, post: Appointment,
               ranked: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Candidates equal in margin and SL draw lots (1d6 each, again while equal; PROPOSED),
    so the order of their names decides nothing."""
    def level(c: tuple[int, str]) -> tuple[int, int, tuple[int, ...]]:
        return (c[0], m.actors[c[1]].sl, lots[c[1]])

    lots: dict[str, tuple[int, ...]] = {key: () for _, key in ranked}
    stream = m.dice.stream("offices")
    for _ in range(6):  # bounded: six equal draws in a row fall back on the key order
        seen = Counter(level(c) for c in ranked)
        tied = [c[1] for c in ranked if seen[level(c)] > 1]
        if not tied:
            break
        for key in tied:
            roll = stream.roll("1d6", f"drawing lots for the {post.name}", actor=key)
            lots[key] = (*lots[key], roll.total)
    return sorted(ranked, key=lambda c: (-c[0], -m.actors[c[1]].sl,
                                         tuple(-x for x in lots[c[1]]), c[1]))


def resign(m: Month, a: Actor, order: ResignPosition) -> None:
    if not a.c.appointment:
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "RESIGN POSITION", "reason": "none"})
        return
    post = m.tables.army.appointment(a.c.appointment)
    a.update(appointment=None)
    m.emit(a.key, EventId.APPOINTMENT_RESIGNED, {"position": post.name}, public=True)


def seasonal_favours(m: Month) -> None:
    """Reference §7 (PROPOSED): a favour a season from each appointment."""
    if m.state.month not in m.tables.society.influence["season_starts"]:
        return
    for a in m:
        if a.c.appointment:
            post = m.tables.army.appointment(a.c.appointment)
            influence.grant(m, a, post.favour, "appointment", influence.season_end(m),
                            position=post.name)


def month_end(m: Month) -> None:
    """Appointment SP and pay; title pensions; posts a man no longer qualifies for."""
    army = m.tables.army
    for a in m:
        if a.c.dead:
            continue
        if a.c.appointment:
            post = army.appointment(a.c.appointment)
            m.emit(a.key, EventId.APPOINTMENT_PAY, {"position": post.name, "pay": post.pay},
                   crowns=post.pay, sp=post.sp)
        row = army.title(a.c.title) if a.c.title else None
        if row and row.pension:
            m.emit(a.key, EventId.TITLE_PENSION, {"pension": row.pension}, crowns=row.pension)


def qualify(m: Month, a: Actor, how: str) -> None:
    """Reference §8: he qualifies for a title; the King decides at the month's end."""
    if a.c.qualified is None and not a.c.dead:
        a.update(qualified=how)
        m.emit(a.key, EventId.TITLE_QUALIFIED, {"how": how})


def titles(m: Month) -> None:
    """The King's decision for everyone who qualified this month (reference §8)."""
    army = m.tables.army
    rules = army.appointment_rules
    for a in m:
        how = a.c.qualified
        if how is None or a.c.dead:
            continue
        a.update(qualified=None)
        row = army.title_by_rank(title_rank(m, a) + 1)
        if row is None or a.sl < row.min_sl:
            m.emit(a.key, EventId.TITLE_REFUSED, {"how": how, "reason": "sl" if row else "top"})
            continue
        needed = rules["title_needs"] - (a.sl - row.min_sl) // rules["title_sl_step"] \
            - a.c.title_tries
        decision = influence.resolve_npc_decision(
            "king", needed, influence.take_pushes(m, "title", a.key), m.dice.stream("offices"),
            m.tables, "the King considers a title", actor=a.key)
        if not decision.success:
            a.update(title_tries=a.c.title_tries + 1)
            m.emit(a.key, EventId.TITLE_REFUSED, {"how": how, "reason": "roll"})
            continue
        grant_title(m, a, row.key, how)


def grant_title(m: Month, a: Actor, key: str, how: str) -> None:
    row = m.tables.army.title(key)
    assert row is not None
    name = next(t.name for t in m.tables.titles if t.key == key)
    before = a.sl
    a.sl = max(a.sl, row.raise_to)
    a.update(title=key, title_tries=0)
    m.emit(a.key, EventId.TITLE_GRANTED, {"title": name, "how": how, "sl_before": before,
                                          "sl_after": a.sl}, sp=row.sp, public=True)
    kind = str(next(t for t in m.tables.titles if t.key == key).values["home"])
    home = Home(m.tables.housing["family_home_area"], kind, Tenure.FAMILY)
    old = a.c.home
    properties = a.c.properties
    if old and old.tenure is not Tenure.RENTED:
        properties = (*properties, Property(old.area, old.kind, old.tenure is Tenure.FAMILY))
    a.update(home=home, properties=properties)
    m.emit(a.key, EventId.HOUSING_FAMILY_HOME, {
        "house": m.tables.housing_type(kind).name,
        "area": m.tables.area(home.area).name})


def kill(m: Month, a: Actor) -> None:
    """A dead character is out of the game: his lady, post and club are free, and what he
    leaves pays his debts (`loans.settle_estate`, PROPOSED)."""
    for lady in (a.c.mistress, a.c.wife):
        if lady:
            m.keepers.pop(lady, None)
    a.update(dead=True, mistress=None, wife=None, appointment=None, club=None,
             qualified=None)
    loans.settle_estate(m, a)
