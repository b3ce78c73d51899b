"""Influence (EG §S): favours, their seasons, combining, bribery, NPC decisions.

Favours are held on the character (`Character.favours`) with their source and
the last turn they may be used.  SL favours (Table B) arrive at the start of each
season and lapse at its end; a lady's favours (Table C) arrive once a year from
the month after the affair began and last as long as it does; bribed favours
(NPC favours) never lapse; an appointment's favours come each season
(offices.seasonal_favours calls `grant` with ``source="appointment"``).

``USE FAVOUR`` orders reserve a favour at the start of the month for a named
decision (``orders.DECISIONS``); the rule that takes the decision calls
`take_pushes` (which spends the reserved favours) and `resolve_npc_decision`.  A
favour reserved for a decision not taken that month is kept.  Rolls are on the
``influence`` stream unless the caller passes its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from moderator.dice import DiceStream, Roll
from moderator.games.engarde.events import EventId
from moderator.games.engarde.honour import report_crime
from moderator.games.engarde.ladies import set_lady
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Bribe, CombineFavours, UseFavour
from moderator.games.engarde.state import Favour
from moderator.games.engarde.tables import Tables


@dataclass(frozen=True)
class Push:
    """One favour brought to bear on a decision (EG §S): for (-) or against (+)."""

    who: str
    cls: int
    against: bool = False


@dataclass(frozen=True)
class Decision:
    """An NPC decision as taken: what was needed after favours, and the roll."""

    position: str
    base: int
    needed: int
    roll: Roll
    success: bool


def favour_modifier(cls: int, minimum: int) -> int:
    """+1 at the minimum class of Table A, +1 more per class above; 0 below it (EG §S)."""
    return cls - minimum + 1 if cls >= minimum else 0


def resolve_npc_decision(position: str, base_needed: int, pushes: Sequence[Push],
                         dice: DiceStream, tables: Tables, purpose: str,
                         actor: str | None = None) -> Decision:
    """Roll an NPC's decision (EG §S): 1d6 >= base - favours for + favours against.

    ``position`` is a Table A key (``minister``, ``king`` ...); ``base_needed`` the
    unmodified roll (7 unless a rule says otherwise).  The roll is always made and
    logged, even when it cannot succeed (needed 7 or more).
    """
    minimum = tables.society.position(position).cls
    shift = sum(favour_modifier(p.cls, minimum) * (1 if p.against else -1) for p in pushes)
    needed = base_needed + shift
    roll = dice.roll("1d6", purpose, actor=actor, needs=needed)
    return Decision(position, base_needed, needed, roll, roll.total >= needed)


def decision_id(decision: str, subject: str | None) -> str:
    return f"{decision}:{subject or ''}"


def grant(m: Month, a: Actor, cls: int, source: str, expires: int | None,
          lady: str | None = None, **args: object) -> Favour:
    """Give ``a`` a favour (and say so on his sheet)."""
    serial = a.c.favour_serial + 1
    favour = Favour(f"{a.key}.{serial}", cls, source, expires, lady)
    a.update(favours=(*a.c.favours, favour), favour_serial=serial)
    until = {"until": m.date(expires)} if expires is not None else {}
    m.emit(a.key, EventId.FAVOUR_RECEIVED, {"cls": cls, "source": source,
                                            "expires": expires, **until, **args})
    return favour


def season_end(m: Month) -> int:
    """The last turn of the present season (EG §S: SL favours lapse with it)."""
    starts = sorted(m.tables.society.influence["season_starts"])
    month = m.state.month
    later = [s for s in starts if s > month]
    following = later[0] if later else starts[0] + 12
    return int(m.turn + (following - month) - 1)


def seasonal(m: Month) -> None:
    """Lapse old favours; SL favours at a season's start; ladies' yearly favours."""
    s = m.tables.society
    new_season = m.state.month in s.influence["season_starts"]
    for a in m:
        kept = tuple(f for f in a.c.favours if f.expires is None or f.expires >= m.turn)
        if len(kept) != len(a.c.favours):
            m.emit(a.key, EventId.FAVOUR_LAPSED, {"count": len(a.c.favours) - len(kept)})
            a.update(favours=kept)
        cls = s.sl_favour(a.sl)
        if new_season and cls:
            grant(m, a, cls, "sl", season_end(m))
        for key in (a.c.mistress, a.c.wife):
            lady = m.ladies.get(key) if key else None
            if lady is None or lady.since is None or lady.since >= m.turn:
                continue
            due = lady.favour_turn is None or \
                m.turn - lady.favour_turn >= s.influence["mistress_favour_months"]
            if not due:
                continue
            set_lady(m, lady.key, favour_turn=m.turn)
            for cls in s.lady_favours(lady.sl, lady.influential):
                grant(m, a, cls, "mistress", None, lady.key, name=lady.name)


def _reserved(m: Month) -> set[str]:
    return {fid for pushes in m.pushes.values() for _, fid, _ in pushes}


def _pick(m: Month, a: Actor, cls: int, skip: set[str]) -> Favour | None:
    """The held favour of this class that lapses soonest (not already reserved)."""
    free = [f for f in a.c.favours if f.cls == cls and f.id not in skip]
    far = 10 ** 9
    return min(free, key=lambda f: (f.expires if f.expires is not None else far, f.id),
               default=None)


def use(m: Month, a: Actor, order: UseFavour) -> None:
    """Reserve a favour for a decision this month (EG §S)."""
    favour = _pick(m, a, order.cls, _reserved(m))
    if favour is None:
        m.emit(a.key, EventId.FAVOUR_MISSING, {"cls": order.cls, "order": "USE FAVOUR"})
        return
    key = decision_id(order.decision, order.subject)
    m.pushes.setdefault(key, []).append((a.key, favour.id, 1 if order.against else -1))


def take_pushes(m: Month, decision: str, subject: str | None = None) -> list[Push]:
    """Spend the favours reserved for this decision and return them as pushes."""
    pushes = []
    for who, fid, sign in m.pushes.pop(decision_id(decision, subject), []):
        a = m.actors[who]
        favour = next((f for f in a.c.favours if f.id == fid), None)
        if favour is None:
            continue
        a.update(favours=tuple(f for f in a.c.favours if f.id != fid))
        m.emit(who, EventId.FAVOUR_USED, {"id": favour.id, "cls": favour.cls,
                                          "decision": decision,
                                          "subject": subject, "against": sign > 0})
        pushes.append(Push(who, favour.cls, sign > 0))
    return pushes


def unused(m: Month) -> None:
    """Favours reserved for a decision that was never taken are kept (notice only)."""
    for key, pushes in sorted(m.pushes.items()):
        decision, _, subject = key.partition(":")
        for who, _, _ in pushes:
            m.emit(who, EventId.FAVOUR_UNUSED, {"decision": decision,
                                                "subject": subject or None})
    m.pushes.clear()


def combine(m: Month, a: Actor, order: CombineFavours) -> None:
    """Two favours of one class make one of the next (EG §S); the shorter life wins."""
    top = m.tables.society.influence["max_class"]
    skip = _reserved(m)
    first = _pick(m, a, order.cls, skip)
    second = _pick(m, a, order.cls, skip | {first.id}) if first else None
    if order.cls >= top or first is None or second is None:
        m.emit(a.key, EventId.FAVOUR_MISSING, {"cls": order.cls, "order": "COMBINE FAVOURS"})
        return
    a.update(favours=tuple(f for f in a.c.favours if f.id not in (first.id, second.id)))
    lives = [f.expires for f in (first, second) if f.expires is not None]
    grant(m, a, order.cls + 1, "combined", min(lives) if lives else None,
          first.lady or second.lady, combined=order.cls)


def bribe(m: Month, a: Actor, order: Bribe) -> None:
    """The Bribery table (EG §S): direct or indirect, accepted, refused or reported."""
    s = m.tables.society
    cost = s.bribes[order.cls]
    position = s.position(order.position).name
    args = {"cls": order.cls, "position": position, "cost": cost}
    if a.crowns < cost:
        m.emit(a.key, EventId.BRIBE_UNAFFORDABLE, args)
        return
    stream = m.dice.stream("influence")
    approach = stream.roll("1d6", f"bribing a {position}: direct or indirect?", actor=a.key)
    direct = approach.total in s.influence["direct_faces"]
    answer = stream.roll("1d6", f"bribing a {position}: accepted?", actor=a.key)
    refused = answer.total in s.influence["refused_faces"]
    args["direct"] = direct
    if direct and refused:  # an honest man: he keeps nothing and reports you
        m.emit(a.key, EventId.BRIBE_REPORTED, args)
        report_crime(m, a.key, "bribery", position=position)
        return
    if refused:
        m.emit(a.key, EventId.BRIBE_WASTED, args, crowns=-cost)
        return
    m.emit(a.key, EventId.BRIBE_ACCEPTED, args, crowns=-cost)
    grant(m, a, order.cls, "npc", None, position=position)
