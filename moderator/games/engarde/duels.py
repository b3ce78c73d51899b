"""Duels (reference §6; EG §L causes): challenges, answers, the abstract fight, SP.

A ``CHALLENGE`` is published in the month it is issued and fought the month after,
in the week named (default week 1), before that week's other business.  Cause is
automatic for a ``duel_cause`` matter (rival suitors, caught courting, revealed
liaisons, betrayed husbands: EG §L), for members of enemy regiments who met that
month or before (reference §6), and for a noble facing a non-noble 4+ SL above him;
otherwise the GM decides (``cause:<challenger>:<challenged>``, default "no": the
challenger loses 2 SP, and the challenged may refuse without penalty).

No answer means he turns up.  Refusing (or failing to appear: at the front, in
prison, indisposed) costs 2 SP, and half his SL more (rounded up) when the other had
automatic cause; the other gains 2 (PROPOSED).  The fight (reference §6 (b)): each
pass both roll 1d6 + Exp/4 with the weapon; the higher wounds the other for 1d6 +
Str/6 Endurance; to first blood it ends at the first wound, to the death when
Endurance is gone (after 60 passes the seconds part them: PROPOSED).  Weapon: the
challenger's choice, else his regimental weapon, else the rapier.
"""

from __future__ import annotations

from typing import Any

from moderator.games.engarde import honour, offices, pardon, trials
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import AnswerChallenge, DuelOrders
from moderator.games.engarde.orders import Challenge as ChallengeOrder
from moderator.games.engarde.state import Challenge


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _cause(m: Month, a: Actor, other: Actor) -> str | None:
    """The automatic cause ``a`` has against ``other``, consuming a matter if used."""
    for i, matter in enumerate(m.matters):
        if matter.kind == "duel_cause" and matter.parties == (a.key, other.key):
            m.matters.pop(i)
            return str(matter.args.get("reason", "cause"))
    if relation(m, a, other) == "enemy":
        return "enemy_regiment"
    gap = m.tables.army.duel["noble_gap"]
    if a.c.noble and not other.c.noble and other.sl - a.sl >= gap:
        return "rank"
    return None


def relation(m: Month, a: Actor, b: Actor) -> str:
    """friendly (same or friendly regiment), enemy, or neutral (reference §4.2, §6)."""
    if not a.c.regiment or not b.c.regiment:
        return "neutral"
    if a.c.regiment == b.c.regiment:
        return "friendly"
    reg = m.tables.army.regiment(a.c.regiment)
    if b.c.regiment in reg.enemies:
        return "enemy"
    return "friendly" if b.c.regiment in reg.friends else "neutral"


def challenge(m: Month, a: Actor, order: ChallengeOrder) -> None:
    """Issue a challenge: published now, fought next month (one per pair a month)."""
    other = m.actors.get(order.target)
    pair = _pair(a.key, order.target)
    taken = any(_pair(c.challenger, c.challenged) == pair for c in m.challenges)
    if other is None or other.key == a.key or other.c.dead or taken:
        m.emit(a.key, EventId.DUEL_INVALID, {"target": order.target,
                                             "reason": "pending" if taken else "target"})
        return
    cause = _cause(m, a, other)
    ch = Challenge(a.key, other.key, m.turn, order.weapon, order.week, order.to_death, cause)
    m.challenges.append(ch)
    m.emit(a.key, EventId.DUEL_CHALLENGED, _args(ch), public=True)


def _args(ch: Challenge) -> dict[str, Any]:
    return {"challenger": ch.challenger, "challenged": ch.challenged, "weapon": ch.weapon,
            "week": ch.week, "to_death": ch.to_death, "cause": ch.cause}


def _duel_orders(a: Actor, opponent: str) -> DuelOrders | None:
    return next((o for o in a.orders.anytime
                 if isinstance(o, DuelOrders) and o.opponent == opponent), None)


def _answer(a: Actor, challenger: str) -> bool:
    return next((o.accept for o in a.orders.anytime
                 if isinstance(o, AnswerChallenge) and o.challenger == challenger), True)


def fight_week(m: Month, week: int) -> None:
    """Every challenge of an earlier month due this week, in order of issue."""
    default = m.tables.army.duel["default_week"]
    due = [c for c in m.challenges if c.turn < m.turn and (c.week or default) == week]
    for ch in due:
        m.challenges.remove(ch)
        _settle(m, ch)


def _settle(m: Month, ch: Challenge) -> None:
    d = m.tables.army.duel
    a, b = m.actors.get(ch.challenger), m.actors.get(ch.challenged)
    if a is None or b is None or a.c.dead or b.c.dead:
        return
    args = _args(ch)
    cause = ch.cause
    if cause is None:
        has = m.decide(ch.decision, "no", a.key, challenged=b.key)
        if has.lower() in ("yes", "y", "true", "cause"):
            cause = "gm"
        else:
            m.emit(a.key, EventId.DUEL_NO_CAUSE, args, sp=d["no_cause"], public=True)
    if not _answer(b, a.key) and cause is None:
        # Refused freely (reference §6), from the front too: his agents answer for him.
        # The challenger reads it on his own sheet as well.
        m.emit(b.key, EventId.DUEL_REFUSED, {**args, "refuser": b.key}, public=True)
        m.emit(a.key, EventId.DUEL_REFUSED, {**args, "refuser": b.key})
        return
    absent = [x for x in (a, b) if x.absent()]
    if len(absent) == 2:
        m.emit(a.key, EventId.DUEL_NO_SHOW, {**args, "absent": "both"}, public=True)
        return
    if absent:
        _walkover(m, absent[0], b if absent[0] is a else a, args, cause, EventId.DUEL_NO_SHOW)
        return
    if not _answer(b, a.key):
        _walkover(m, b, a, args, cause, EventId.DUEL_REFUSED)
        return
    _fight(m, a, b, ch, args, cause)


def _walkover(m: Month, coward: Actor, other: Actor, args: dict[str, Any], cause: str | None,
              event: EventId) -> None:
    d = m.tables.army.duel
    loss = d["refused"]
    if cause is not None and d["refused_cause_half_sl"] and coward.key == args["challenged"]:
        loss -= (coward.sl + 1) // 2
    key = "refuser" if event is EventId.DUEL_REFUSED else "absent"
    m.emit(coward.key, event, {**args, key: coward.key}, sp=loss, public=True)
    m.emit(other.key, EventId.DUEL_WALKOVER, {**args, "other": coward.key},
           sp=d["refused_winner"])


def _tell(m: Month, a: Actor, b: Actor, fought: dict[str, Any],
          seconds: dict[str, list[str]]) -> None:
    """The duel's line: public once (the gazette prints it), and a private copy for the
    challenged man and for each second (reference §6), since a sheet lists only its
    owner's events: each reads of the duel he fought or stood at, and how it ended."""
    m.emit(a.key, EventId.DUEL_FOUGHT, fought, public=True)
    m.emit(b.key, EventId.DUEL_FOUGHT, fought)
    for key in sorted({s for group in seconds.values() for s in group} - {a.key, b.key}):
        m.emit(key, EventId.DUEL_FOUGHT, fought)


def _fight(m: Month, a: Actor, b: Actor, ch: Challenge, args: dict[str, Any],
           cause: str | None) -> None:
    d = m.tables.army.duel
    mine, theirs = _duel_orders(a, b.key), _duel_orders(b, a.key)
    weapon = ch.weapon or (mine.weapon if mine else None) or (
        m.tables.army.regiment(a.c.regiment).weapon if a.c.regiment else "rapier")
    to_death = ch.to_death or bool(mine and mine.to_death)
    seconds = {x.key: [s for s in (o.seconds if o else ())[:d["max_seconds"]]
                       if s in m.actors and not m.actors[s].absent()]
               for x, o in ((a, mine), (b, theirs))}
    stream = m.dice.stream("duels")
    end = {x.key: x.c.endurance - x.c.wounds for x in (a, b)}
    hits = {a.key: 0, b.key: 0}
    loser = None
    passes = 0
    for passes in range(1, d["max_passes"] + 1):
        ra = stream.roll("1d6", f"duel pass {passes}", actor=a.key,
                         modifier=a.c.expertise.get(weapon, 0) // d["exp_divisor"]).total
        rb = stream.roll("1d6", f"duel pass {passes}", actor=b.key,
                         modifier=b.c.expertise.get(weapon, 0) // d["exp_divisor"]).total
        if ra == rb:
            continue
        hitter, hit = (a, b) if ra > rb else (b, a)
        wound = stream.roll("1d6", "wound", actor=hitter.key,
                            modifier=hitter.c.strength // d["str_divisor"]).total
        end[hit.key] -= wound
        hits[hit.key] += wound
        if not to_death or end[hit.key] <= 0:
            loser = hit
            break
    for x in (a, b):
        x.update(wounds=x.c.wounds + hits[x.key])
    winner = (b if loser is a else a) if loser else None
    killed = loser is not None and end[loser.key] <= 0
    fought = {**args, "weapon": weapon, "to_death": to_death, "passes": passes,
              "winner": winner.key if winner else None, "loser": loser.key if loser else None,
              "seconds": seconds, "wounds": hits, "killed": killed}
    _tell(m, a, b, fought, seconds)
    if winner is None or loser is None:
        return
    pardon.beaten_accuser(m, winner, loser)  # reference §9 (PROPOSED)
    rel = relation(m, winner, loser)
    win = {"friendly": d["win_friendly"], "neutral": d["win_neutral"],
           "enemy": d["win_enemy"]}[rel]
    m.emit(winner.key, EventId.DUEL_SP, {"outcome": f"win_{rel}", "other": loser.key}, sp=win)
    if rel == "enemy":
        m.emit(loser.key, EventId.DUEL_SP, {"outcome": "lose_enemy", "other": winner.key},
               sp=d["lose_enemy"])
    if killed:
        m.emit(winner.key, EventId.DUEL_SP, {"outcome": "kill", "other": loser.key},
               sp=d["kill"])
        m.emit(loser.key, EventId.DUEL_KILLED, {"by": winner.key}, public=True)
        offices.kill(m, loser)
        if cause is None:  # EG §R: a killing without cause, under the watch's eyes
            trials.caught(m, winner.key, "murder", victim=loser.key)


def meetings(m: Month, venue_of: dict[str, str]) -> None:
    """Reference §6: PCs of enemy regiments who meet (same venue, same week) have cause."""
    by_venue: dict[str, list[str]] = {}
    for key, venue in sorted(venue_of.items()):
        if m.actors[key].c.regiment:
            by_venue.setdefault(venue, []).append(key)
    for keys in by_venue.values():
        if len(keys) < 2:
            continue
        by_reg: dict[str, list[str]] = {}
        for key in keys:
            by_reg.setdefault(str(m.actors[key].c.regiment), []).append(key)
        for reg, members in sorted(by_reg.items()):
            for enemy in m.tables.army.regiment(reg).enemies:
                for x in members:
                    for y in by_reg.get(enemy, ()):
                        if not any(mt.kind == "duel_cause" and mt.parties == (x, y)
                                   for mt in m.matters):
                            honour.cause_for_duel(m, x, y, "enemy_regiment")


def heal(m: Month) -> None:
    """PROPOSED: duelling wounds heal by the month's end."""
    for a in m:
        if a.c.wounds and not a.c.dead:
            a.update(wounds=0)
