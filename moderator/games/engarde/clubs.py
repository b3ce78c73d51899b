"""Clubs (EG §G), carousing (EG §H) and club guests (EG §I).

Joining is automatic for a qualified applicant who can pay the month's dues;
one club at a time; a resignation bars rejoining that club for three weeks
(counted in absolute weeks, so it spills into the next month).
"""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import JoinClub, ResignClub
from moderator.games.engarde.state import Character
from moderator.games.engarde.tables import Club, Tables


def horse_guards_officer(c: Character, tables: Tables) -> bool:
    """EG §G; reference §3: an officer (not a private) of the Horse Guards Brigade."""
    if not c.regiment or not c.rank or c.rank == "private":
        return False
    return tables.army.regiment(c.regiment).brigade == "horse_guards"


def qualifies(c: Character, sl: int, club: Club, tables: Tables) -> bool:
    if club.requires == "horse_guards_officer":
        return horse_guards_officer(c, tables)
    return not club.requires and sl >= club.min_sl


def highest_joinable_rank(sl: int, tables: Tables, c: Character | None = None) -> int:
    """Rank of the best club he qualifies for; 7 = none (EG §I; reference §3)."""
    ranks = [club.rank for club in tables.clubs
             if (qualifies(c, sl, club, tables) if c else not club.requires and sl >= club.min_sl)]
    return min(ranks, default=tables.no_club_rank)


def guest_sp(sl: int, club: Club, tables: Tables, c: Character | None = None) -> int:
    """Guest status points: highest joinable rank minus the rank visited, never below 0."""
    return max(0, highest_joinable_rank(sl, tables, c) - club.rank)


def join_refusal(m: Month, a: Actor, club: Club) -> str | None:
    """Why an application fails, as a code for the event template."""
    if club.requires and not qualifies(a.c, a.sl, club, m.tables):
        return "requires"
    if a.c.disgraced:
        return "disgraced"  # PROPOSED (reference §9): see honour.py
    if a.c.club == club.key:
        return "already"
    if a.c.club:
        return "other_club"
    if not club.requires and a.sl < club.min_sl:
        return "sl"
    if a.c.rejoin_bars.get(club.key, 0) > m.now():
        return "barred"
    if a.crowns < club.dues:
        return "funds"
    return None


def join(m: Month, a: Actor, order: JoinClub) -> None:
    club = m.tables.club(order.club)
    reason = join_refusal(m, a, club)
    if reason:
        m.emit(a.key, EventId.CLUB_JOIN_REFUSED,
               {"club": club.name, "reason": reason, "min_sl": club.min_sl,
                "other": m.tables.club(a.c.club).name if a.c.club else None,
                "until_week": a.c.rejoin_bars.get(club.key, 0) - m.state.week_base,
                "until": m.week_date(a.c.rejoin_bars.get(club.key, 0))})
        return
    a.update(club=club.key)
    m.emit(a.key, EventId.CLUB_JOINED, {"club": club.name, "dues": club.dues},
           crowns=-club.dues, public=True)


def resign(m: Month, a: Actor, order: ResignClub) -> None:
    if not a.c.club:
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "RESIGN CLUB", "reason": "no_club"})
        return
    club = m.tables.club(a.c.club)
    bars = {**a.c.rejoin_bars, club.key: m.now() + m.tables.rejoin_bar_weeks}
    a.update(club=None, rejoin_bars=bars)
    m.emit(a.key, EventId.CLUB_RESIGNED, {"club": club.name}, public=True)


def pay_dues(m: Month) -> None:
    """Members pay the month's dues or are struck off (EG §G)."""
    for a in m:
        if not a.c.club:
            continue
        club = m.tables.club(a.c.club)
        if a.crowns >= club.dues:
            m.emit(a.key, EventId.CLUB_DUES, {"club": club.name, "dues": club.dues},
                   crowns=-club.dues)
        else:
            a.update(club=None)
            m.emit(a.key, EventId.CLUB_EXPELLED, {"club": club.name, "dues": club.dues},
                   public=True)


def membership_sp(m: Month) -> None:
    """Monthly SP for belonging, visited or not (EG §G)."""
    for a in m:
        if a.c.club:
            club = m.tables.club(a.c.club)
            m.emit(a.key, EventId.CLUB_MEMBERSHIP_SP, {"club": club.name}, sp=club.sp)
    # Expired rejoin bars are dropped so the state stays small.
    for a in m:
        if a.c.rejoin_bars:
            end = m.state.week_base + 4
            a.update(rejoin_bars={k: v for k, v in a.c.rejoin_bars.items() if v > end})


def carouse(m: Month, a: Actor, venue: str, cost_sl: int, paid_by: str | None = None) -> bool:
    """Buy drink at SL crowns (the host's SL for a guest of a higher host): +1 SP (EG §H)."""
    cost = m.tables.rule("carousing", "cost_per_sl") * cost_sl
    if paid_by is None and a.crowns < cost:
        m.emit(a.key, EventId.CAROUSE_UNAFFORDABLE, {"venue": venue, "cost": cost})
        return False
    m.emit(a.key, EventId.CAROUSE_DRINK, {"venue": venue, "cost": cost, "paid_by": paid_by},
           crowns=0 if paid_by else -cost, sp=m.tables.rule("carousing", "sp"))
    return True
