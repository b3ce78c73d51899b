"""Regiments (reference §4; EG §C, §G, §N): joining, commissions, pay, duty, horses.

Officer slots (Captain and up) are held by NPCs unless a PC holds them; a PC buys a
slot an NPC holds (PROPOSED: the NPC sells out) but never one another PC holds.
A PC Colonel decides who joins his regiment (a GM/player decision, ``admit:``).
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.games.engarde import influence
from moderator.games.engarde.clubs import horse_guards_officer
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import BuyCommission, BuyHorse, JoinRegiment, SellCommission
from moderator.games.engarde.tables import Army, Regiment


def holders(m: Month, regiment: str, rank: str, skip: str | None = None) -> list[str]:
    """The living PCs holding this rank in this regiment."""
    return [key for key in m.posts(regiment, rank) if key != skip]


def vacancy(m: Month, regiment: str, rank: str, skip: str | None = None) -> bool:
    """A slot not held by a PC (reference §4.2: 1 Col, 1 Lt-Col, 2 Maj, 6 Capt)."""
    slots = m.tables.army.settings["slots"].get(rank)
    return slots is None or len(holders(m, regiment, rank, skip)) < slots


def colonel(m: Month, regiment: str) -> str | None:
    found = holders(m, regiment, "colonel")
    return found[0] if found else None


def steps(army: Army, rank_from: str | None, rank_to: str) -> list[str]:
    """The ranks bought going from ``rank_from`` (None: outside) up to ``rank_to``."""
    ranks = army.ranks
    start = ranks.index(rank_from) + 1 if rank_from in ranks else 0
    return list(ranks[start:ranks.index(rank_to) + 1])


def price(army: Army, regiment: str, ranks: Iterable[str]) -> int:
    return sum(army.cell(r, regiment, "price") for r in ranks)


def _problem(m: Month, a: Actor, regiment: str, ranks: list[str]) -> str | None:
    """Why he may not hold these new ranks here (SL, vacancy, money), if he may not."""
    army = m.tables.army
    top = ranks[-1]
    if a.sl < army.cell(top, regiment, "min_sl"):
        return "sl"
    if not vacancy(m, regiment, top, a.key):
        return "vacancy"
    if a.crowns < price(army, regiment, ranks):
        return "funds"
    return None


def join(m: Month, a: Actor, order: JoinRegiment) -> None:
    """Reference §4.1: Table A (influence may move it), PC colonels decide, rejections."""
    army = m.tables.army
    reg = army.regiment(order.regiment)
    args = {"regiment": reg.name, "rank": army.rank_name(order.rank)}
    failed = m.scratch.setdefault("rejected_at", {}).get(a.key)
    reason = None
    if a.c.regiment:
        reason = "already"
    elif failed is not None and reg.order <= failed:
        reason = "lower_only"  # after a failure, only lower-ranked regiments that week
    elif army.ranks.index(order.rank) > army.ranks.index(army.settings["max_entry_rank"]):
        reason = "entry_rank"
    ranks = steps(army, None, order.rank)
    reason = reason or _problem(m, a, reg.key, ranks)
    if reason:
        m.emit(a.key, EventId.REGIMENT_REJECTED, {**args, "reason": reason})
        return
    admitted = _admitted(m, a, reg)
    if not admitted:
        m.scratch["rejected_at"][a.key] = reg.order
        a.update(rejections=a.c.rejections + 1)
        m.emit(a.key, EventId.REGIMENT_REJECTED, {**args, "reason": admitted_reason(m, a, reg)})
        return
    cost = price(army, reg.key, ranks)
    a.update(regiment=reg.key, rank=order.rank, rejections=0)
    m.emit(a.key, EventId.REGIMENT_JOINED, {**args, "cost": cost}, crowns=-cost, public=True)
    if reg.frontier:
        send_to_front(m, a, "frontier", None)


def admitted_reason(m: Month, a: Actor, reg: Regiment) -> str:
    return "colonel" if colonel(m, reg.key) not in (None, a.key) else \
        "table" if m.tables.army.table_a(a.sl, reg.key) is None else "roll"


def _admitted(m: Month, a: Actor, reg: Regiment) -> bool:
    army = m.tables.army
    if reg.frontier:
        return True
    chief = colonel(m, reg.key)
    if chief is not None and chief != a.key:
        answer = m.decide(f"admit:{reg.key}:{a.key}", "yes", a.key, colonel=chief)
        return answer.lower() in ("yes", "y", "admit", "true")
    needed = army.table_a(a.sl, reg.key)
    if needed is None:
        return False
    penalty = a.c.rejections // army.settings["rejections_per_penalty"]
    pushes = influence.take_pushes(m, "regiment", a.key)
    decision = influence.resolve_npc_decision(
        "colonel", needed + penalty, pushes, m.dice.stream("army"), m.tables,
        f"applying to the {reg.name}", actor=a.key)
    return decision.success


def buy_commission(m: Month, a: Actor, order: BuyCommission) -> None:
    """Buy up to the rank named, paying every step; Lt-Col and up one step at a time."""
    army = m.tables.army
    args = {"rank": army.rank_name(order.rank)}
    if not a.c.regiment or a.c.rank not in army.ranks:
        m.emit(a.key, EventId.REGIMENT_COMMISSION_REFUSED, {**args, "reason": "no_regiment"})
        return
    ranks = steps(army, a.c.rank, order.rank) if army.ranks.index(order.rank) > \
        army.ranks.index(a.c.rank) else []
    major = army.ranks.index(army.settings["max_entry_rank"])
    reason = "not_higher" if not ranks else None
    if ranks and army.ranks.index(order.rank) > major and len(ranks) > 1:
        reason = "one_step"
    reason = reason or _problem(m, a, a.c.regiment, ranks)
    if reason:
        m.emit(a.key, EventId.REGIMENT_COMMISSION_REFUSED, {**args, "reason": reason})
        return
    cost = price(army, a.c.regiment, ranks)
    a.update(rank=order.rank)
    m.emit(a.key, EventId.REGIMENT_COMMISSION,
           {**args, "regiment": army.regiment(a.c.regiment).name, "cost": cost},
           crowns=-cost, public=True)


def sell_commission(m: Month, a: Actor, order: SellCommission) -> None:
    """PROPOSED: a commission sells for what its ranks cost; he leaves the regiment."""
    army = m.tables.army
    if not a.c.regiment or a.c.rank not in army.ranks:
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "SELL COMMISSION",
                                                "reason": "no_regiment"})
        return
    value = price(army, a.c.regiment, steps(army, None, a.c.rank)) * \
        army.settings["sell_pct"] // 100
    reg = army.regiment(a.c.regiment)
    leave_regiment(m, a)
    m.emit(a.key, EventId.REGIMENT_SOLD, {"regiment": reg.name, "price": value},
           crowns=value, public=True)


def leave_regiment(m: Month, a: Actor) -> None:
    """He is out of his regiment; serving at the front only with it, he comes home."""
    a.update(regiment=None, rank=None, disguised=False)
    if a.c.front_reason in ("regiment", "frontier") and a.c.sent_away is None:
        a.update(location="paris", front_until=None, front_reason=None, front_months=0)


def buy_horse(m: Month, a: Actor, count: int) -> bool:
    cost = count * m.tables.army.settings["horse_price"]
    if a.crowns < cost:
        return False
    a.update(horses=a.c.horses + count)
    m.emit(a.key, EventId.HORSE_BOUGHT, {"count": count, "cost": cost}, crowns=-cost)
    return True


def horse_order(m: Month, a: Actor, order: BuyHorse) -> None:
    if not buy_horse(m, a, order.count):
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "BUY HORSE", "reason": "funds"})


def horses_needed(army: Army, regiment: str | None, rank: str | None) -> int:
    """Reference §4.5: cavalry and captains keep 1 horse, majors and above 3."""
    if not regiment or not rank:
        return 0
    s, index = army.settings, army.rank_index(rank)
    if index >= army.rank_index("major"):
        return int(s["horses_major"])
    if index >= army.rank_index("captain"):
        return int(s["horses_captain"])
    return int(s["horses_cavalry"]) if army.regiment(regiment).cavalry else 0


def duty(m: Month, a: Actor) -> bool:
    """WEEK n: REGIMENTAL DUTY (reference §4.5)."""
    if not a.c.regiment:
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "REGIMENTAL DUTY",
                                                "reason": "no_regiment"})
        return False
    done = m.scratch.setdefault("duty", {})
    done[a.key] = done.get(a.key, 0) + 1
    m.emit(a.key, EventId.REGIMENT_DUTY, {"regiment": m.tables.army.regiment(a.c.regiment).name})
    return True


def send_to_front(m: Month, a: Actor, reason: str, until: int | None) -> None:
    if a.c.at_front:
        if until is None or (a.c.front_until is not None and until > a.c.front_until):
            a.update(front_until=until)
        return
    a.update(location="front", front_until=until, front_reason=reason, front_months=0)
    m.emit(a.key, EventId.FRONT_DEPARTS, {"reason": reason}, public=True)


def month_end(m: Month) -> None:
    """Pay and rank SP, missed duty, horses and their upkeep, the Horse Guards club."""
    army = m.tables.army
    s = army.settings
    duty_done = m.scratch.get("duty", {})
    for a in m:
        if a.c.dead:
            continue
        if a.c.regiment and a.c.rank:
            pay = army.cell(a.c.rank, a.c.regiment, "pay")
            sp = army.cell(a.c.rank, a.c.regiment, "sp")
            m.emit(a.key, EventId.REGIMENT_PAY, {"rank": army.rank_name(a.c.rank),
                                                 "regiment": army.regiment(a.c.regiment).name,
                                                 "pay": pay}, crowns=pay, sp=sp)
            required = s["duty_weeks"].get(a.c.rank, 0)
            missed = required - duty_done.get(a.key, 0)
            in_paris = not (a.absent() or a.c.at_front)
            if missed > 0 and in_paris and m.state.turn > 0:
                fine = min(a.crowns, missed * s["duty_fine"])
                m.emit(a.key, EventId.REGIMENT_DUTY_MISSED, {"missed": missed, "fine": fine},
                       crowns=-fine, sp=s["duty_fine_sp"])
        _horses(m, a)
        if a.c.club == "horse_guards" and not horse_guards_officer(a.c, m.tables):
            a.update(club=None)
            m.emit(a.key, EventId.CLUB_NOT_QUALIFIED, {"club": m.tables.club("horse_guards").name},
                   public=True)


def _horses(m: Month, a: Actor) -> None:
    army, s = m.tables.army, m.tables.army.settings
    needed = horses_needed(army, a.c.regiment, a.c.rank)
    if a.c.horses < needed and not buy_horse(m, a, needed - a.c.horses):
        short = needed - a.c.horses
        m.emit(a.key, EventId.HORSE_LACKING, {"needed": needed, "short": short},
               sp=short * s["horse_lacking_sp"])
    if a.c.horses:
        cost = a.c.horses * s["horse_upkeep"] + s["groom_upkeep"]
        cost = min(cost, max(0, a.crowns))
        m.emit(a.key, EventId.HORSE_UPKEEP, {"horses": a.c.horses, "cost": cost}, crowns=-cost)
