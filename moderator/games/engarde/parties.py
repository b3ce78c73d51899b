"""Parties at a club or at home (EG §J; house limits EG §P).

The host pays the drinks of everyone present (at his own SL, the quality of his
entertainment) and bouncers if he named exclusions; he gains the total SL of
everyone present (himself included) / 7.  Royal attendance needs 7 on 1d6: an
NPC decision (EG §S) that ``USE FAVOUR n ON PARTY FOR <host>`` can bring within
reach; PROPOSED: it is taken at the Crown Prince/Cardinal level of Table A and a
success brings one of them (+2 SP).  At home,
each guest beyond the dwelling's party limit costs him 1 SP.

Joint parties (EG §J; reference §12.1 "joint parties ... only if both players'
orders name the same week, venue and terms"): every host writes ``HOST PARTY AT
CLUB|HOME; COHOST <the others>`` in the same week, all naming the same place (club
or home) and each naming all the others; otherwise each holds his own party and all
are told privately that the co-hosting did not match.  The party is held at the
club or home of the senior host (highest SL, then key order).  Split rule: the
costs (drinks at the senior host's SL, bouncers on his club's dues or his rent) are
shared evenly, the senior host paying any odd crowns; each host gains the full
party SP (total SL present, every host included, / 7), each gains the royal SP, and
each bears the over-limit penalty.  Guests name any of the hosts (``PARTY <host>``);
a host's exclusion keeps a guest out of the joint party; guests may not toady any
host.
"""

from __future__ import annotations

from collections.abc import Mapping

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


def joint_hosts(m: Month, hosts: Mapping[str, HostParty]) -> dict[str, tuple[str, ...]]:
    """Every host of a matched joint party -> all its hosts, the senior first (EG §J).

    Hosts whose COHOST orders do not match are told privately (both of them) and hold
    their parties alone.
    """
    joint: dict[str, tuple[str, ...]] = {}
    told: set[tuple[str, str]] = set()
    for key in sorted(hosts):
        order = hosts[key]
        if not order.cohosts:
            continue
        group = frozenset({key, *order.cohosts})
        if all(k in hosts and hosts[k].at_home == order.at_home
               and frozenset({k, *hosts[k].cohosts}) == group for k in group):
            joint[key] = tuple(sorted(group, key=lambda k: (-m.actors[k].sl, k)))
            continue
        for other in order.cohosts:
            if (key, other) in told or other not in m.actors:
                continue
            told.add((key, other))
            args = {"kind": "cohost", "waiting": key, "absent": other, "venue": ""}
            m.emit(key, EventId.MUTUAL_NO_SHOW, args)
            m.emit(other, EventId.MUTUAL_NO_SHOW, args)
    return joint


def merged(orders: list[HostParty]) -> HostParty:
    """The joint party's terms: bouncers if any host hired them, every exclusion."""
    exclude = tuple(sorted({k for o in orders for k in o.exclude}))
    return HostParty(orders[0].at_home, any(o.bouncers for o in orders), exclude,
                     tuple(sorted({k for o in orders for k in o.cohosts})))


def _share(m: Month, hosts: list[Actor], event: EventId, cost: int, args: dict[str, int]) -> None:
    """Split a cost evenly between the hosts; the senior (first) pays the odd crowns."""
    each, odd = divmod(cost, len(hosts))
    for i, h in enumerate(hosts):
        part = each + (odd if i == 0 else 0)
        if part:
            m.emit(h.key, event, {**args, "cost": part}, crowns=-part)


def settle(m: Month, host: Actor, order: HostParty, guests: list[str], label: str,
           cohosts: tuple[str, ...] = ()) -> None:
    """The bill and the SP of a party; ``cohosts`` share it (see the module docstring)."""
    rules = m.tables.rules["party"]
    hosts = [host, *(m.actors[k] for k in cohosts)]
    if order.bouncers:
        if order.at_home and host.c.home:
            base = monthly_cost(m.tables, host.c.home.kind, host.c.home.area)
        else:
            base = m.tables.club(host.c.club).dues if host.c.club else 0
        _share(m, hosts, EventId.PARTY_BOUNCERS, rules["bouncer_multiple"] * base, {})
    drinks = len(guests) * m.tables.rule("carousing", "cost_per_sl") * host.sl
    if drinks:
        _share(m, hosts, EventId.PARTY_DRINKS, drinks, {"guests": len(guests)})
    total = sum(h.sl for h in hosts) + sum(m.actors[g].sl for g in guests)
    # EG §J/§S: royal attendance is an NPC decision ("7 on 1d6") favours can move.
    pushes = [p for h in hosts for p in take_pushes(m, "party", h.key)]
    royal = resolve_npc_decision(
        m.tables.society.influence["royal_position"], rules["royal_needs"],
        pushes, m.dice.stream("party"), m.tables,
        f"royal attendance at {host.c.name}'s party", host.key)
    sp = total // rules["sp_divisor"]
    args = {"venue": label, "guests": sorted(guests), "total_sl": total,
            "divisor": rules["sp_divisor"]}
    m.emit(host.key, EventId.PARTY_HELD, {**args, **({"cohosts": list(cohosts)} if cohosts
                                                     else {})}, sp=sp, public=True)
    for other in cohosts:
        m.emit(other, EventId.PARTY_COHOST, {**args, "host": host.key,
                                             "others": [h.key for h in hosts if h.key != other]},
               sp=sp)
    for h in hosts:
        if royal.success:  # impossible without favours (EG §J)
            m.emit(h.key, EventId.PARTY_ROYALS, {"venue": label, "needed": royal.needed},
                   sp=rules["royal_sp"], public=h is host)
        if order.at_home and host.c.home:
            limit = m.tables.housing_type(host.c.home.kind).party_limit
            if limit is not None and len(guests) > limit:
                over = len(guests) - limit
                m.emit(h.key, EventId.PARTY_OVER_LIMIT, {"limit": limit, "over": over},
                       sp=rules["over_limit_sp"] * over)
