"""The plain activities of DWTK 13.4 (13.4.1-13.4.4, 13.4.7, 13.4.13, 13.4.18, 13.4.19):
titles, offices, counselors, favour, henchmen, recruiting, travel and draws.  The others
have modules of their own (assassination.py, escape.py, treachery.py, prestige.py...);
`player.do` dispatches them all."""

from __future__ import annotations

from moderator.games.dwtk import duels, faction, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.acts import mine as _mine
from moderator.games.dwtk.acts import pay as _pay
from moderator.games.dwtk.acts import play_card as _play
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.activity import Activity
from moderator.games.dwtk.orders.reaction import Trigger
from moderator.games.dwtk.reactions import play_cards
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.start import draw_loyalty, draw_opportunity
from moderator.games.dwtk.state import FANDONIA, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import NobleKind, OfficeKind, Sex, kind_of


def title(court: Court, player: str, a: Activity) -> None:
    """13.4.1: each named PC/FAC one step up the ladder, paying the Title Table's IP."""
    steps: list[tuple[int, int]] = []
    for who in a.who:
        cid = _mine(court, player, who)
        c = court.char(cid)
        card = court.t.noble(cid)
        if cid in court.t.no_titles or not c.free or court.at_war_stuck(c):
            raise Refused("cannot_take_title")
        printed = c.fixed_status if c.fixed_status is not None else card.status
        rank = printed + c.titles
        if rank >= len(court.t.titles):
            raise Refused("already_duke")
        steps.append((cid, court.t.titles[rank].cost))
    total = sum(cost for _, cost in steps)

    def promote() -> None:
        for cid, _ in steps:
            court.set_char(cid, titles=court.char(cid).titles + 1)

    if not faction.fits(court, player, promote):
        raise Refused("pp")
    _pay(court, player, total)
    for cid, cost in steps:
        c = court.set_char(cid, titles=court.char(cid).titles + 1)
        rank = status.base_status(court, c)
        t = court.t.titles[rank - 1]
        name = t.female if court.t.noble(cid).sex is Sex.FEMALE else t.male
        court.emit(EventId.TITLE_ACQUIRED, {"character": str(cid), "title": name, "cost": cost},
                   actor=player)


def fill_office(court: Court, player: str, a: Activity) -> None:
    """13.4.2: Three IP and a PC/FAC into a vacant office (one office per turn)."""
    cid = _mine(court, player, a.who[0])
    office = a.office or ""
    old = court.office_of(str(cid))
    if old is not None:
        raise Refused("holds_office")  # 16.2: only in the Office Phase may he move (6.2)
    reason = court.may_fill_office(cid, office)
    if reason is not None:
        raise Refused(reason)
    cost = court.t.rule("office_activity_cost")
    if not faction.fits(court, player, lambda: court.seat_in_office(cid, office)):
        raise Refused("pp")
    _pay(court, player, cost)
    court.seat_in_office(cid, office)
    court.emit(EventId.OFFICE_FILLED, {"office": office, "holder": str(cid), "player": player,
                                       "cost": cost, "moved_from": None}, actor=player)


def counselor(court: Court, player: str, a: Activity) -> None:
    """13.4.3: a male PC/FAC, not an Office Holder, under a Monarch's Counselor card."""
    cid = _mine(court, player, a.who[0])
    c = court.char(cid)
    if court.t.noble(cid).sex is Sex.FEMALE:
        raise Refused("female")
    if court.office_of(c.key) is not None or c.counselor is not None:
        raise Refused("office_holder")
    if not c.free:
        raise Refused("situation")
    if not court.cards_of(player, "monarchs_counselor"):
        raise Refused("no_card:monarchs_counselor")
    if not faction.fits(court, player, lambda: court.set_char(cid, counselor="trial")):
        raise Refused("pp")  # +2 Status must fit the PP total (35.4)
    card = _play(court, player, "monarchs_counselor")
    court.set_char(cid, counselor=card)
    court.emit(EventId.COUNSELOR_MADE, {"character": str(cid)}, actor=player)


def henchman(court: Court, player: str, a: Activity) -> None:
    """13.4.7, 17.1: a FAC (never the PC) under a Henchman card."""
    cid = _mine(court, player, a.who[0])
    c = court.char(cid)
    if c.pc:
        raise Refused("pc")
    if c.henchman is not None:
        raise Refused("already_henchman")
    card = _play(court, player, "henchman")
    court.set_char(cid, henchman=card)
    court.emit(EventId.HENCHMAN_MADE, {"character": str(cid)}, actor=player)


def recruit(court: Court, player: str, a: Activity) -> None:
    """13.4.13, 11, 35.4: NCs whose Loyalty counters he drew, if his PP allow them all."""
    p = court.players[player]
    ids = []
    for who in a.who:
        cid = resolve_who(court, player, who)
        if cid is None or not cid.isdigit() or int(cid) not in p.loyalty:
            raise Refused("no_loyalty_counter")
        c = court.char(cid)
        if c.owner is not None or not c.alive:
            raise Refused("not_neutral")
        if c.situation in (Situation.IMPRISONED, Situation.AWAITING_EXECUTION,
                           Situation.HIDING) or court.at_war_stuck(c):
            raise Refused("situation")
        if court.monarch() == cid:
            raise Refused("monarch")
        ids.append(int(cid))
    added = sum(status.status(court, cid) for cid in ids)
    if status.faction_load(court, player) + added > p.pp:
        raise Refused("pp")
    for recruit in ids:
        court.set_char(recruit, owner=player)
        court.set_player(player, loyalty=tuple(x for x in court.players[player].loyalty
                                               if x != recruit))
        court.emit(EventId.RECRUITED, {"character": str(recruit)}, actor=player)


def favor(court: Court, player: str, a: Activity) -> None:
    """13.4.4: 2d6 on the Royal Favor Table; +5 with a Favor counter (12.3.5); any
    player's Treachery -2, one card at most (COURTS reactions).  17.2.4: courted by his
    PC or a henchman (BY), free in Fandonia where the royals are (20.7, PROPOSED)."""
    royal = a.who[0]
    r = court.royals.get(royal)
    if r is None or r.owner != player or not r.alive or court.monarch() == royal:
        raise Refused("not_farc")
    by = resolve_who(court, player, a.by) if a.by is not None else None
    who = court.pc_of(player) if by is None else next(
        (h for h in duels.henchmen(court, player) if h.key == by), None)
    if who is None or not who.free or who.abroad or who.face_down_until is not None:
        raise Refused("no_courtier")
    bonus = 5 if any(kind_of(c) == "favor" for c in court.players[player].opportunity) else 0
    bonus += play_cards(court, Trigger.COURTS, royal, player)[0]
    roll = court.dice.roll("favor", "2d6", "Royal Favor Table (DWTK 13.4.4)", actor=player,
                           modifier=bonus)
    row = court.t.justice["royal_favor"].lookup(roll.total)
    ip, _ = faction.gain(court, player, ip=row.total("ip"))
    court.emit(EventId.FAVOR_COURTED, {"royal": royal, "total": roll.total, "ip": ip,
                                       "lost": row.has("farc_lost"), "by": by}, actor=player)
    if row.has("farc_lost"):
        faction.lose_member(court, player, royal, "royal_favor")  # 17.2.4, 14.5.19


def travel(court: Court, player: str, a: Activity) -> None:
    """13.4.18, 20: PCs/FACs abroad or home; not to or from a country at war."""
    place = a.place or FANDONIA
    if place in court.wars:
        raise Refused("at_war")
    moving = []
    for who in a.who:
        cid = _mine(court, player, who)
        c = court.char(cid)
        card = court.t.noble(cid)
        office = court.office_of(c.key)
        if not card.can_travel or card.kind is NobleKind.CLERGY:
            raise Refused("never_abroad")
        if not c.free:
            raise Refused("situation")
        if office and court.t.office(office).kind is OfficeKind.AMBASSADOR:
            raise Refused("ambassador")  # 20.4
        if office and any(court.t.problem(p.key).minister == office for p in court.problems):
            raise Refused("failed_minister")  # 20.3
        if c.location in court.wars:
            raise Refused("at_war")
        if c.location == place:
            raise Refused("already_there")
        moving.append(cid)
    for cid in moving:
        court.set_char(cid, location=place)
        court.emit(EventId.TRAVELLED, {"character": str(cid), "to": place}, actor=player)


def draw(court: Court, player: str, a: Activity) -> None:
    """13.4.19: One IP for one more counter or card (not a Loyalty counter if none left)."""
    cost = court.t.rule("draw_cost")
    kind = a.draw.value if a.draw else "event"
    if kind == "loyalty" and not court.loyalty_pool:
        raise Refused("no_loyalty_left")
    _pay(court, player, cost)
    if kind == "loyalty":
        draw_loyalty(court, player)
    elif kind == "opportunity":
        draw_opportunity(court, player)
    else:
        card = court.draw_card(player)
        if card is not None:
            court.emit(EventId.DRAW_EVENT, {"card": kind_of(card)}, actor=player, public=False)
    court.emit(EventId.DRAW_BOUGHT, {"what": kind, "cost": cost}, actor=player, public=False)
