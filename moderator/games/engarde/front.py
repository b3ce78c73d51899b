"""The front (EG §C–D; reference §5): seasons, deployment, battles, personal outcomes.

PROPOSED season (reference §5.1): in June each brigade rolls 1d6 and deploys on its
number or less; its regiments serve June-August and are back for September.
Frontier regiments are always at the front.  Volunteers go at once (with their
regiment in season if it is deployed, else with a frontier regiment, for three
months); debtors sent away stay until their debts are paid (EG §Q).

Each month the army fights one mission (reference §5.2): the army's commander rolls
on the Battle Result table with his MA, then each brigade's, then each regiment's,
a commander's result of 1-2 giving his subordinates MA +1 and 5-6 MA -1
(cumulative); an adjutant 2+ MA better than his commander gives +1.  NPC
commanders' MA is rolled once and remembered (``GameState.campaign["ma"]``).  Each
PC at the front then makes the four Personal Outcome rolls for his regiment's
result, with the rank and regiment modifiers added to the target (S5).
"""

from __future__ import annotations

from typing import Any

from moderator.games.engarde import honour, offices
from moderator.games.engarde.army import send_to_front, vacancy
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Disguise, Volunteer

FRONTIER = "fr"


def season_end(m: Month) -> int | None:
    """The last turn of the running campaign season, or None out of season."""
    until = m.campaign.get("until")
    return int(until) if until is not None and until >= m.turn else None


def deployed(m: Month, brigade: str) -> bool:
    return season_end(m) is not None and brigade in m.campaign.get("deployed", ())


def volunteer(m: Month, a: Actor, order: Volunteer) -> None:
    """VOLUNTEER FOR THE FRONT: with his regiment if deployed, else a frontier regiment."""
    army = m.tables.army
    end = season_end(m)
    mine = army.regiment(a.c.regiment).brigade if a.c.regiment else None
    if end is not None and mine and deployed(m, mine):
        send_to_front(m, a, "regiment", end)
    else:
        send_to_front(m, a, "volunteer", m.turn + army.settings["volunteer_months"] - 1)


def disguise(m: Month, a: Actor, order: Disguise) -> None:
    """EG §R: at the front he forsakes his command (rank and commission lost, nothing paid
    back) and serves as a private of a frontier regiment, where no arrest can reach him.
    He stays there until he leaves that regiment (SELL COMMISSION brings him home)."""
    if not a.c.at_front or a.c.disguised:
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "DISGUISE AS PRIVATE",
                                                "reason": "not at the front" if not
                                                a.c.at_front else "already disguised"})
        return
    army = m.tables.army
    old = army.regiment(a.c.regiment).name if a.c.regiment else None
    a.update(regiment=FRONTIER, rank="private", disguised=True, front_reason="frontier",
             front_until=None)
    m.emit(a.key, EventId.FRONT_DISGUISED, {"regiment": old,
                                            "frontier": army.regiment(FRONTIER).name})


def commanding_general(m: Month, a: Actor) -> Actor | None:
    """The PC general over ``a`` at the front (his brigade's brigadier, else the senior
    PC general there), or None: an NPC commands (EG §R arrests at the front)."""
    brigade = m.tables.army.regiment(unit(m, a)).brigade
    chief = _brigadier(m, brigade)
    if chief is not None and chief is not a:
        return chief
    ranks = m.tables.army.all_ranks
    generals = [g for g in m if g.c.at_front and g is not a and g.c.rank in ranks
                and ranks.index(g.c.rank) > ranks.index("brigadier_general")]
    return max(generals, key=lambda g: ranks.index(str(g.c.rank)), default=None)


def unit(m: Month, a: Actor) -> str:
    """The regiment he fights with: his own if deployed (or frontier), else a frontier one."""
    if a.c.regiment:
        reg = m.tables.army.regiment(a.c.regiment)
        if reg.frontier or deployed(m, reg.brigade):
            return reg.key
    return FRONTIER


def deploy(m: Month) -> None:
    """Start of the month: who comes home, the season's deployment, who goes."""
    army = m.tables.army
    s = army.settings
    for a in m:
        if a.c.at_front and a.c.sent_away is None and a.c.front_until is not None \
                and a.c.front_until < m.turn:
            come_home(m, a)
    if m.state.month == s["season_start"]:
        stream = m.dice.stream("front")
        chosen = []
        for key, (name, deploys) in sorted(army.brigades.items()):
            roll = stream.roll("1d6", f"does the {name} march?", needs=None)
            if roll.total <= deploys:
                chosen.append(key)
        m.campaign = {**m.campaign, "deployed": chosen,
                      "until": m.turn + s["season_months"] - 1}
        m.world(EventId.FRONT_DEPLOYED, {"brigades": [army.brigades[b][0] for b in chosen]})
    end = season_end(m)
    for a in m:
        if a.c.dead or a.c.imprisoned(m.turn):
            continue
        if a.c.sent_away is not None and not a.c.at_front:
            send_to_front(m, a, "debt", None)
        elif a.c.regiment and not a.c.at_front:
            reg = army.regiment(a.c.regiment)
            if reg.frontier:
                send_to_front(m, a, "frontier", None)
            elif end is not None and deployed(m, reg.brigade):
                send_to_front(m, a, "regiment", end)


def come_home(m: Month, a: Actor) -> None:
    """Back in Paris: mentions are credited now (reference §5.5), and a full season at
    the front ends a disgrace other than a debt's (reference §9, PROPOSED)."""
    months = a.c.front_months
    due = a.c.mention_sp_due
    a.update(location="paris", front_until=None, front_reason=None, front_months=0,
             mention_sp_due=0, disguised=False)
    m.emit(a.key, EventId.FRONT_RETURNS, {"months": months}, public=True)
    if due:
        m.emit(a.key, EventId.FRONT_MENTION_SP, {"sp": due}, sp=due)
    if a.c.disgraced and a.c.disgraced != "debt" and \
            months >= m.tables.army.settings["season_months"]:
        honour.end_disgrace(m, a, a.c.disgraced)


def _ma(m: Month, key: str, stream: Any) -> int:
    """An NPC commander's MA, rolled once and remembered (reference §5.2)."""
    known = dict(m.campaign.get("ma", {}))
    if key not in known:
        known[key] = stream.roll("1d6", f"MA of the NPC commander ({key})").total
        m.campaign = {**m.campaign, "ma": known}
    return int(known[key])


def _shift(result: int, s: Any) -> int:
    return 1 if result in s["good_results"] else -1 if result in s["bad_results"] else 0


def battles(m: Month) -> None:
    """The month's fighting for everyone at the front (reference §5.2-5.5)."""
    army = m.tables.army
    s = army.settings
    present = [a for a in m if a.c.at_front and not a.c.dead]
    if not present:
        return
    stream = m.dice.stream("front")
    mission, mission_name = army.mission(stream.roll("1d6", "the month's mission").total)
    army_ma = _ma(m, "army", stream)
    army_result = army.battle_result(army_ma, stream.roll("1d6", "the army's battle").total)
    m.world(EventId.FRONT_BATTLE, {"level": "army", "unit": "the Army", "mission": mission_name,
                                   "result": army_result, "ma": army_ma, "commander": None})
    units: dict[str, list[Actor]] = {}
    for a in present:
        a.update(front_months=a.c.front_months + 1)
        units.setdefault(unit(m, a), []).append(a)
    results: dict[str, int] = {}
    brigade_results: dict[str, int] = {}
    for reg_key in sorted(units, key=lambda k: army.regiment(k).order):
        reg = army.regiment(reg_key)
        if reg.brigade not in brigade_results:
            brigade_results[reg.brigade] = _command(
                m, stream, "brigade", reg.brigade, army.brigades[reg.brigade][0],
                _brigadier(m, reg.brigade), "brigade_major", _shift(army_result, s),
                army_result, mission_name, lambda a, b=reg.brigade:
                a.c.regiment is not None and army.regiment(a.c.regiment).brigade == b)
        shift = _shift(army_result, s) + _shift(brigade_results[reg.brigade], s)
        chief = next((a for a in units[reg_key] if a.c.regiment == reg_key
                      and a.c.rank == "colonel"), None)
        results[reg_key] = _command(
            m, stream, "regiment", reg_key, reg.name, chief, "regimental_adjutant", shift,
            brigade_results[reg.brigade], mission_name, lambda a, r=reg_key: a.c.regiment == r)
    for reg_key in sorted(units, key=lambda k: army.regiment(k).order):
        for a in units[reg_key]:
            _personal(m, a, mission, results[reg_key], reg_key, stream)


def _brigadier(m: Month, brigade: str) -> Actor | None:
    army = m.tables.army
    return next((a for a in m if a.c.at_front and a.c.rank == "brigadier_general"
                 and a.c.regiment and army.regiment(a.c.regiment).brigade == brigade), None)


def _command(m: Month, stream: Any, level: str, key: str, name: str, chief: Actor | None,
             adjutant_post: str, shift: int, superior: int, mission: str, member: Any) -> int:
    """One commander's roll on the Battle Result table (reference §5.2-5.3)."""
    s = m.tables.army.settings
    base = chief.c.military_ability if chief else _ma(m, f"{level}:{key}", stream)
    adjutant = next((a for a in m if a.c.at_front and a.c.appointment == adjutant_post
                     and member(a) and a is not chief), None)
    bonus = 1 if adjutant and adjutant.c.military_ability >= base + s["adjutant_gap"] else 0
    ma = max(1, min(s["max_ma"], base + shift + bonus))
    face = stream.roll("1d6", f"the {name}'s battle", actor=chief.key if chief else None)
    result = m.tables.army.battle_result(ma, face.total)
    m.world(EventId.FRONT_BATTLE, {"level": level, "unit": name, "mission": mission,
                                   "result": result, "ma": ma,
                                   "commander": chief.key if chief else None})
    if chief is not None:
        gap = m.tables.army.appointment_rules["superior_gap"]
        if result == 1:
            offices.qualify(m, chief, "victory")
        elif superior - result >= gap:
            offices.qualify(m, chief, "outshone")
    return result


def _personal(m: Month, a: Actor, mission: str, result: int, reg_key: str, stream: Any) -> None:
    """Death, mention, promotion and plunder: four 2d6 rolls (reference §5.4-5.5)."""
    army = m.tables.army
    death, mention, promotion, crowns, dice, mult = army.outcome[mission][result - 1]
    rank = a.c.rank or "private"
    rank_mods = army.rank_mods.get(rank, {})
    reg_mods = army.regiment(reg_key).mods

    def target(base: int, what: str) -> int:
        return base + rank_mods.get(what, 0) + reg_mods.get(what, 0)

    args = {"unit": army.regiment(reg_key).name, "result": result}
    if stream.roll("2d6", "killed at the front", actor=a.key,
                   needs=target(death, "death")).success:
        m.emit(a.key, EventId.FRONT_DIED, args, public=True)
        offices.kill(m, a)
        return
    happened = False
    promoted = stream.roll("2d6", "promotion", actor=a.key,
                           needs=target(promotion, "promotion")).success
    mentioned = stream.roll("2d6", "mention in dispatches", actor=a.key,
                            needs=target(mention, "mention")).success
    if promoted:
        new = _next_rank(m, a)
        if new is None:
            mentioned = True
        else:
            happened = True
            a.update(rank=new)
            if a.c.regiment is None:
                a.update(regiment=reg_key)
            m.emit(a.key, EventId.FRONT_PROMOTED, {**args, "rank": army.rank_name(new)},
                   public=True)
    if mentioned:
        happened = True
        _mention(m, a, args)
    if crowns and stream.roll("2d6", "plunder", actor=a.key,
                              needs=target(crowns, "crowns")).success:
        happened = True
        loot = stream.roll(f"{dice}d6", "how much plunder", actor=a.key).total * mult
        m.emit(a.key, EventId.FRONT_PLUNDER, {**args, "crowns": loot}, crowns=loot)
    if not happened:
        m.emit(a.key, EventId.FRONT_SURVIVED, args)


def _mention(m: Month, a: Actor, args: dict[str, Any]) -> None:
    sp = m.tables.army.settings["mention_sp"]
    a.update(mentions=a.c.mentions + 1, mention_sp_due=a.c.mention_sp_due + sp)
    m.emit(a.key, EventId.FRONT_MENTIONED, {**args, "sp": sp, "count": a.c.mentions},
           public=True)
    if a.c.disgraced and a.c.disgraced != "debt":
        honour.end_disgrace(m, a, a.c.disgraced)  # reference §9 (PROPOSED)
    if a.c.mentions % m.tables.army.appointment_rules["mentions_for_title"] == 0:
        offices.qualify(m, a, "mentions")


def _next_rank(m: Month, a: Actor) -> str | None:
    """One rank up if a vacancy exists (reference §5.5); past Colonel, Brigadier-General."""
    army = m.tables.army
    ranks = army.all_ranks
    if not a.c.regiment or a.c.rank not in ranks or a.c.rank == ranks[-1]:
        return None  # a volunteer outside any regiment is mentioned instead
    new = ranks[ranks.index(a.c.rank) + 1]
    if new in army.ranks and not vacancy(m, a.c.regiment, new, a.key):
        return None
    return new
