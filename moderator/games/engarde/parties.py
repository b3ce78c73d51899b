"""Parties at a club or at home (EG §J; house limits EG §P).

The host pays the drinks of everyone present (at his own SL, the quality of his
entertainment) and bouncers if he named exclusions; he gains the total SL of
everyone present (himself included) / 7.  Royal attendance needs 7 on 1d6: an
NPC decision (EG §S) that ``USE FAVOUR n ON PARTY FOR <host>`` can bring within
reach; PROPOSED: it is taken at the Crown Prince/Cardinal level of Table A and a
success brings one of them (+2 SP).  At home,
each guest beyond the dwelling's party limit costs him 1 SP.
"""

from __future__ import annotations

from moderator.games.engarde.checks import monthly_cost
from moderator.games.engarde.events import EventId
from moderator.games.engarde.influence import resolve_npc_decision, take_pushes
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import HostParty


def venue_label(m: Month, host: Actor, order: HostParty) -> str | None:
    """Where the party is, or None if he has no club / no home to hold it in."""
    if order.at_home:
        return "home" if host.c.home else None
    return m.tables.club(host.c.club).name if host.c.club else None


def settle(m: Month, host: Actor, order: HostParty, guests: list[str], label: str) -> None:
    rules = m.tables.rules["party"]
    if order.bouncers:
        if order.at_home and host.c.home:
            base = monthly_cost(m.tables, host.c.home.kind, host.c.home.area)
        else:
            base = m.tables.club(host.c.club).dues if host.c.club else 0
        cost = rules["bouncer_multiple"] * base
        m.emit(host.key, EventId.PARTY_BOUNCERS, {"cost": cost}, crowns=-cost)
    drinks = len(guests) * m.tables.rule("carousing", "cost_per_sl") * host.sl
    if drinks:
        m.emit(host.key, EventId.PARTY_DRINKS, {"guests": len(guests), "cost": drinks},
               crowns=-drinks)
    total = host.sl + sum(m.actors[g].sl for g in guests)
    # EG §J/§S: royal attendance is an NPC decision ("7 on 1d6") favours can move.
    royal = resolve_npc_decision(
        m.tables.society.influence["royal_position"], rules["royal_needs"],
        take_pushes(m, "party", host.key), m.dice.stream("party"), m.tables,
        f"royal attendance at {host.c.name}'s party", host.key)
    m.emit(host.key, EventId.PARTY_HELD,
           {"venue": label, "guests": sorted(guests), "total_sl": total,
            "divisor": rules["sp_divisor"]}, sp=total // rules["sp_divisor"], public=True)
    if royal.success:  # impossible without favours (EG §J)
        m.emit(host.key, EventId.PARTY_ROYALS, {"venue": label, "needed": royal.needed},
               sp=rules["royal_sp"], public=True)
    if order.at_home and host.c.home:
        limit = m.tables.housing_type(host.c.home.kind).party_limit
        if limit is not None and len(guests) > limit:
            over = len(guests) - limit
            m.emit(host.key, EventId.PARTY_OVER_LIMIT, {"limit": limit, "over": over},
                   sp=rules["over_limit_sp"] * over)
