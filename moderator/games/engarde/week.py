"""One week (and the weekend after it): who is where, then what they do there.

Orders are indexed once per week (hosts by key, venues by name), so a
1,000-character month stays linear: no rule scans all characters per action.
Venues: ``club:<key>``, ``bawdyhouse``, ``party:<host>`` (EG §G–M).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.engarde import (
    army,
    bawdyhouse,
    clubs,
    duels,
    gambling,
    housing,
    mistresses,
    parties,
    practice,
    romance,
    theatre,
    toadying,
)
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Month
from moderator.games.engarde.orders import (
    WEEKS,
    AttendParty,
    Bawdyhouse,
    Buy,
    ClubVisit,
    Court,
    Duty,
    HostParty,
    Liaise,
    Marry,
    Order,
    Practice,
    Propose,
    Rent,
    Theatre,
    VisitMistress,
)


@dataclass
class Week:
    """What is known about one week while it is resolved."""

    m: Month
    number: int
    orders: dict[str, Order]
    venue_of: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    failed: set[str] = field(default_factory=set)
    reported: set[tuple[str, str, str]] = field(default_factory=set)
    parties: dict[str, tuple[HostParty, str]] = field(default_factory=dict)
    guests: dict[str, list[str]] = field(default_factory=dict)
    joint: dict[str, tuple[str, ...]] = field(default_factory=dict)  # EG §J co-hosts

    def place(self, key: str, venue: str, label: str) -> None:
        self.venue_of[key] = venue
        self.labels[venue] = label

    def no_show(self, kind: str, waiting: str, absent: str, venue: str) -> None:
        """A mutual action that did not meet: both are told who did not turn up.  When the
        absent man's own orders did match (he too wrote TOADY <the other>) but he never got
        in (turned away at the door, or could not pay the bawdyhouse), ``kept_away`` says
        so: his orders were not at fault (EG §I)."""
        self.failed.add(waiting)
        if (kind, waiting, absent) in self.reported:
            return
        self.reported.add((kind, waiting, absent))
        args: dict[str, object] = {"kind": kind, "waiting": waiting, "absent": absent,
                                   "venue": venue}
        if kind == "toady" and absent in self.failed and absent not in self.venue_of \
                and getattr(self.orders.get(absent), "toady", None) == waiting:
            args["kept_away"] = True
        self.m.emit(waiting, EventId.MUTUAL_NO_SHOW, args)
        if absent in self.m.actors:
            self.m.emit(absent, EventId.MUTUAL_NO_SHOW, args)


def run_weeks(m: Month) -> None:
    """Weeks 1-4, each followed by its weekend (EG §D)."""
    for n in WEEKS:
        m.week = n
        duels.fight_week(m, n)  # reference §6: duels before the week's other business
        resolve_week(m, n)
        m.weekend = True
        resolve_weekend(m, n)
        m.weekend = False
    m.week = None


def resolve_week(m: Month, n: int) -> None:
    orders = {a.key: o for a in m if (o := a.week_order(n)) is not None}
    w = Week(m, n, orders)
    w.joint = parties.joint_hosts(m, {k: o for k, o in orders.items()
                                      if isinstance(o, HostParty)})
    for key, order in orders.items():
        if isinstance(order, ClubVisit):
            _enter_club(w, key, order)
        elif isinstance(order, HostParty):
            _open_party(w, key, order)
    for key, order in orders.items():
        if isinstance(order, AttendParty):
            _attend_party(w, key, order)
        elif isinstance(order, Bawdyhouse):
            if bawdyhouse.visit(m, m.actors[key]):
                w.place(key, "bawdyhouse", bawdyhouse.VENUE)
            else:
                w.failed.add(key)
        elif isinstance(order, Practice | VisitMistress | Duty) and \
                not _week_alone(m, key, order, n):
            w.failed.add(key)
    _open_club_parties(w)
    duels.meetings(m, w.venue_of)  # reference §6: enemy regiments who meet have cause
    for key in sorted(w.venue_of):
        _at_venue(w, key)
    w.failed |= toadying.resolve(m, orders, w.venue_of, w.labels, w.no_show)
    for host, (order, label) in sorted(w.parties.items()):
        parties.settle(m, m.actors[host], order, w.guests[host], label,
                       w.joint.get(host, (host,))[1:])
    # EG §L: courting last, when every lover's whereabouts this week are known.
    courts = {k: o for k, o in orders.items() if isinstance(o, Court)}
    if courts:
        w.failed |= mistresses.resolve_courting(m, n, courts)
    for key in orders:
        m.actors[key].week_ok[n] = key not in w.failed


def _week_alone(m: Month, key: str, order: Practice | VisitMistress | Duty, n: int) -> bool:
    """A week's action that needs nobody else: practice, a visit to her, duty (EG §L, §N)."""
    if isinstance(order, Duty):
        return army.duty(m, m.actors[key])
    if isinstance(order, Practice):
        return practice.practise(m, m.actors[key], order)
    return mistresses.visit(m, m.actors[key], n)


def _enter_club(w: Week, key: str, order: ClubVisit) -> None:
    """Members walk in; a guest needs his host there naming him (EG §G, §I)."""
    m, club = w.m, w.m.tables.club(order.club)
    member = m.actors[key].c.club == order.club
    if m.actors[key].c.disgraced:  # PROPOSED (reference §9): no club will have him
        w.failed.add(key)
        m.emit(key, EventId.CLUB_REFUSED_ENTRY, {"club": club.name, "host": None,
                                                 "disgraced": True})
        return
    for guest in order.bring:
        theirs = w.orders.get(guest)
        if not (isinstance(theirs, ClubVisit) and theirs.club == order.club
                and theirs.guest_of == key):
            w.no_show("guest", key, guest, club.name)
    if member:
        w.place(key, f"club:{club.key}", club.name)
        return
    host = order.guest_of
    theirs = w.orders.get(host) if host else None
    if host and isinstance(theirs, ClubVisit) and theirs.club == order.club \
            and key in theirs.bring and m.actors[host].c.club == order.club:
        w.place(key, f"club:{club.key}", club.name)
        return
    w.failed.add(key)
    if host:
        w.no_show("guest", key, host, club.name)
    m.emit(key, EventId.CLUB_REFUSED_ENTRY, {"club": club.name, "host": host})


def _open_party(w: Week, key: str, order: HostParty) -> None:
    """One host's party, or a joint party opened by its senior host (EG §J)."""
    hosts = w.joint.get(key, (key,))
    if hosts[0] != key:
        return  # a co-host: the senior host opens the party for them all
    if len(hosts) > 1:
        order = parties.merged([w.orders[k] for k in hosts])  # type: ignore[misc]
    label = parties.venue_label(w.m, w.m.actors[key], order)
    if label is None:
        for k in hosts:
            w.failed.add(k)
            w.m.emit(k, EventId.PARTY_CANCELLED, {"at_home": order.at_home})
        return
    w.parties[key] = (order, label)
    w.guests[key] = []
    for k in hosts:
        w.place(k, f"party:{key}", label)


def _attend_party(w: Week, key: str, order: AttendParty) -> None:
    host = w.joint.get(order.host, (order.host,))[0]  # any co-host names the party
    party = w.parties.get(host)
    if party is None:
        w.no_show("party", key, order.host, "")
    elif key in party[0].exclude:
        w.failed.add(key)
        w.m.emit(key, EventId.PARTY_TURNED_AWAY, {"host": order.host})
    else:
        w.guests[host].append(key)
        w.place(key, f"party:{host}", party[1])


def _open_club_parties(w: Week) -> None:
    """Without bouncers, anyone at the host's club counts as one of his guests (EG §J)."""
    open_clubs = {f"club:{w.m.actors[h].c.club}": h for h, (o, _) in w.parties.items()
                  if not o.at_home and not o.bouncers}
    if not open_clubs:
        return
    for key, venue in sorted(w.venue_of.items()):
        host = open_clubs.get(venue)
        if host and key != host and key not in w.guests[host]:
            w.guests[host].append(key)


def _at_venue(w: Week, key: str) -> None:
    """What a character does once he is in: guest SP, drink, gambling (EG §G–K)."""
    m, a, order = w.m, w.m.actors[key], w.orders[key]
    party_host = next((h for h, g in w.guests.items() if key in g), None)
    if isinstance(order, ClubVisit):
        club = m.tables.club(order.club)
        m.emit(key, EventId.CLUB_VISIT, {"club": club.name, "host": order.guest_of})
        host_sl = a.sl
        if order.guest_of and a.c.club != order.club:
            host_sl = max(a.sl, m.actors[order.guest_of].sl)
            m.emit(key, EventId.CLUB_GUEST, {"club": club.name, "host": order.guest_of},
                   sp=clubs.guest_sp(a.sl, club, m.tables, a.c), public=True)
        if party_host:
            clubs.carouse(m, a, club.name, m.actors[party_host].sl, paid_by=party_host)
        elif order.carouse:
            clubs.carouse(m, a, club.name, host_sl)
        if order.gamble:
            limit_ok = not club.house_limit or order.gamble.stake <= club.house_limit
            if limit_ok and order.gamble.stake >= club.min_wager:
                gambling.gamble(m, a, order.gamble, club.name, club.divisor)
        if order.with_mistress:
            mistresses.escort(m, a, w.number, club.name)
    elif isinstance(order, AttendParty) and party_host:
        m.emit(key, EventId.PARTY_ATTENDED, {"host": party_host, "venue": w.labels[
            w.venue_of[key]]})
        _party_guest_sp(w, key, party_host)
        clubs.carouse(m, a, w.labels[w.venue_of[key]], m.actors[party_host].sl,
                      paid_by=party_host)
    elif isinstance(order, Bawdyhouse) and order.gamble:
        gambling.gamble(m, a, order.gamble, bawdyhouse.VENUE, None)


def _party_guest_sp(w: Week, key: str, host: str) -> None:
    """EG §J: party guests "get status points for carousing and being at that club":
    at a club party a guest who is not a member gains the guest SP of EG §I."""
    m, a = w.m, w.m.actors[key]
    order = w.parties[host][0]
    club_key = m.actors[host].c.club
    if order.at_home or club_key is None or a.c.club == club_key:
        return
    club = m.tables.club(club_key)
    m.emit(key, EventId.CLUB_GUEST, {"club": club.name, "host": host},
           sp=clubs.guest_sp(a.sl, club, m.tables, a.c), public=True)


def resolve_weekend(m: Month, n: int) -> None:
    """Theatre, houses, then the heart (EG §L, §O, §P); the play's reception first.

    Lovers who spend the weekend with their lady are known before any liaison.
    """
    if n == m.tables.theatre["first_night_weekend"]:
        theatre.opening(m)
    orders = {a.key: o for a in m if (o := a.weekend_order(n)) is not None}
    for key, order in orders.items():
        romance.guard(m, m.actors[key], n, order)
    for key, order in orders.items():
        a = m.actors[key]
        if isinstance(order, Theatre):
            theatre.attend(m, a, order)
        elif isinstance(order, Rent | Buy):
            housing.acquire(m, a, order)
    for key, order in orders.items():
        a = m.actors[key]
        if isinstance(order, Liaise):
            romance.liaise(m, a, n, order)
        elif isinstance(order, Propose):
            romance.propose(m, a)
        elif isinstance(order, Marry):
            romance.marry(m, a, order)
