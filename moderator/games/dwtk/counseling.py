"""Counseling the Monarch (DWTK 15) at the end of a Player Turn, and what an accepted
counsel does (the counsels of ``data/dwtk/counseling.toml``, PROPOSED per reference §7).

The player's COUNSEL lines (orders/counsel.py) are tried in the order written; the
first one legal is made (15.6: one a turn).  Readings (docs/dwtk-by-email.md): no
henchman counsels (15.3), a crisis allows counsel at -1 (33.2.4 over 15.5), a Free
Counsel counter is protected like a Court Ball free counsel (15.10).  The ±1 of each
listed PC/FAC (15.7) and of a FARC Monarch (15.11) is the MODIFY +/- reaction on
COUNSELS of the player who controls him; the counseling player's own default to +1.
"""

from __future__ import annotations

from functools import partial

from moderator.games.dwtk import bribery, faction, fugitives, justice
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.counsel import CROWN_TABLES, CounselOrder
from moderator.games.dwtk.orders.reaction import Act, Trigger
from moderator.games.dwtk.problems import end_war
from moderator.games.dwtk.reactions import fire
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.state import Character, OpenProblem
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import Counsel, Effect, OfficeKind, kind_of

BESYZAN = "besyzan"


def counsel_phase(court: Court, player: str, counsels: tuple[CounselOrder, ...]) -> None:
    """15.1, 15.6: the first legal COUNSEL line is made; the others say why not."""
    for o in counsels:
        try:
            make(court, player, o)
            return
        except Refused as refused:
            court.emit(EventId.COUNSEL_REFUSED, {"table": o.table, "counsel": o.counsel,
                                                 "reason": refused.reason},
                       actor=player, public=False)


def has_free_counsel(court: Court, player: str) -> bool:
    """8.4.4 (this turn's Court Ball) or a Free Counsel counter drawn (12.3.9)."""
    p = court.players[player]
    return p.free_counsel or any(kind_of(o) == "free_counsel" for o in p.opportunity)


def may_counsel(court: Court, c: Character) -> bool:
    """15.2-15.3: an Office Holder or Monarch's Counselor, not a henchman; abroad only
    an Ambassador whose country is at peace."""
    if not c.alive or c.face_down_until is not None or not c.free or c.henchman is not None:
        return False
    owner_pc = court.pc_of(c.owner) if c.owner is not None else None
    if owner_pc is not None and owner_pc.spouse == c.key:
        return False  # 17.3: the PC's spouse is a henchman
    office = court.office_of(c.key)
    if office is None:
        return c.counselor is not None and not c.abroad
    if court.t.office(office).kind is OfficeKind.AMBASSADOR:
        return c.location not in court.wars
    return not c.abroad


def _counselor(court: Court, player: str, by: str | None, free: bool) -> Character:
    pc = court.pc_of(player)
    mine = ([pc] if pc is not None else []) + sorted(court.faction(player), key=lambda c: c.id)
    eligible = [c for c in mine if may_counsel(court, c)]
    if by is not None:
        cid = resolve_who(court, player, by)
        chosen = next((c for c in mine if c.key == cid), None)
        if chosen is None or not (chosen in eligible or (free and chosen.pc)):
            raise Refused("not_a_counselor")
        return chosen
    if eligible:
        return eligible[0]
    if free and pc is not None and pc.alive and pc.face_down_until is None:
        return pc
    raise Refused("no_counselor")


def open_tables(court: Court) -> list[str]:
    """15.4: each unresolved problem's table and this turn's Crown Event's."""
    tables = [p.key for p in court.problems]
    if court.crown_event in CROWN_TABLES:
        tables.append(court.crown_event)
    return tables


def _modifier(court: Court, player: str, counselor: Character, counsel: Counsel) -> int:
    """15.7 (each listed PC/FAC ±1; a bribed NC for his briber, 13.4.20.2), 15.11 (a FARC
    Monarch ±1), crisis -1 (33.2.4)."""
    def sign(owner: str) -> int:
        for p, r in fire(court, Trigger.COUNSELS, counselor.key, player):
            if p == owner and r.act is Act.MODIFY:
                return r.sign
        return 1 if owner == player else 0

    total = 0
    for m in counsel.modifiers:
        holder = court.offices.get(m) if not m.isdigit() else m
        if holder is not None and holder.isdigit() and _present(court, holder) is None:
            continue
        owner = court.controller(holder)
        if owner is not None:
            total += sign(owner)
        else:  # 15.7: an NC's modifier is ignored, unless bribed (13.4.20.2)
            total += bribery.influence(court, holder, "counsel", counsel.key, sign)
    monarch = court.monarch()
    farc_owner = court.royals[monarch].owner if monarch else None
    if farc_owner is not None:
        total += sign(farc_owner)
    if court.crisis:
        total -= 1
    return total


def make(court: Court, player: str, o: CounselOrder) -> None:
    """15.4-15.10: the counsel, the Counseling Results Table and its consequences."""
    if court.crown_event in ("famine", "plague"):
        raise Refused("no_counsel_this_turn")  # 15.5, 8.4.2, 8.4.7
    monarch = court.monarch()
    if monarch is not None and court.royals[monarch].owner == player:
        raise Refused("farc_monarch")  # 36.10.2
    if o.table not in open_tables(court):
        raise Refused("table_not_open")
    counsel = next(c for c in court.t.counseling[o.table] if c.key == o.counsel)
    free = has_free_counsel(court, player)
    counselor = _counselor(court, player, o.by, free)
    made = court.players[player].counsels.get(o.table, ())
    every = {c.key for c in court.t.counseling[o.table]}
    if not free and o.counsel in made and not every <= set(made):
        raise Refused("rotation")  # 15.9
    mod = _modifier(court, player, counselor, counsel)
    roll = court.dice.roll("counsel", "2d6", "Counseling Results Table (DWTK 15.7)",
                           actor=player, modifier=mod)
    row = court.t.counseling_results.lookup(roll.total)
    p = court.players[player]
    court.set_player(player, counsels={**p.counsels, o.table: (
        *made, *(() if o.counsel in made else (o.counsel,)))})
    accepted = row.has("accepted")
    with faction.cause_first(court):  # the counsel is told before whom its PP loss costs him
        ip, pp = faction.gain(court, player, ip=row.total("ip"), pp=row.total("pp"))
        court.emit(EventId.COUNSEL_MADE, {
            "player": player, "counselor": counselor.key, "table": o.table,
            "counsel": counsel.name, "total": roll.total, "modifier": mod, "free": free,
            "result": "accepted" if accepted else "rejected" if row.has("rejected") else
            "pleased", "ip": ip, "pp": pp}, actor=player)
    if row.total("support"):
        court.change_support(row.total("support"), f"counsel:{counsel.key}")
    if row.has("lose_office") or row.has("to_besyzan"):
        if free:
            court.emit(EventId.COUNSEL_EFFECT, {"effect": "protected",
                                                "character": counselor.key})  # 15.10
        elif row.has("to_besyzan") and court.office_of(counselor.key) is not None:
            if not to_besyzan(court, counselor.id):
                _lose_post(court, counselor.id)
        else:
            _lose_post(court, counselor.id)
    if accepted:
        named = resolve_who(court, player, o.named) if o.named is not None else None
        for effect in counsel.effects:
            apply(court, player, o.table, counsel, effect, named, o.office)


def _lose_post(court: Court, cid: int) -> None:
    """15.8, 16.4-16.5: discharged (or recalled), or his Monarch's Counselor card lost."""
    c = court.char(cid)
    office = court.office_of(c.key)
    if office is not None:
        court.discharge(office, "counsel")
    elif c.counselor is not None:
        court.discard(c.counselor)
        court.set_char(cid, counselor=None)
        court.emit(EventId.COUNSEL_EFFECT, {"effect": "counselor_lost", "character": c.key})


def to_besyzan(court: Court, cid: int) -> bool:
    """16.5: made Ambassador to Besyzan; the Ambassador there is recalled.  False when it
    cannot be done (not 11-44, not free, the embassy closed by war)."""
    office = court.t.ambassador_of(BESYZAN).key
    c = court.char(cid)
    if not court.t.noble(cid).office_holder or not c.alive or not c.free or \
            c.face_down_until is not None or office in court.suspended or \
            court.at_war_stuck(c):
        return False
    if court.offices.get(office) == c.key:
        return True
    court.discharge(office, "counsel")
    old = court.office_of(c.key)
    if old is not None:
        court.discharge(old, "counsel")
    court.seat_in_office(cid, office)
    court.emit(EventId.COUNSEL_EFFECT, {"effect": "to_besyzan", "character": c.key})
    return True


def _present(court: Court, named: str | None) -> Character | None:
    if named is None or not named.isdigit():
        return None
    c = court.char(named)
    return c if c.alive and c.face_down_until is None else None


def apply(court: Court, player: str, table: str, counsel: Counsel, e: Effect,
          named: str | None, office: str | None = None) -> None:
    """One effect of an accepted counsel (15.8); what cannot be done has no effect.
    ``office``: the office an appointment asks for (``AS``), None for the default."""
    c = _present(court, named)
    done: dict[str, object] | None = None
    if e.name == "next_roll" and any(p.key == table for p in court.problems):
        court.problems = [OpenProblem(p.key, p.failures, p.unresolved, p.next_roll + e.amount)
                          if p.key == table else p for p in court.problems]
        done = {"problem": table, "amount": e.amount}
    elif e.name == "resolve_quietly" and any(p.key == table for p in court.problems):
        court.problems = [p for p in court.problems if p.key != table]
        done = {"problem": table}
        if table == "foreign_war":
            end_war(court)
    elif e.name == "support":
        court.change_support(e.amount, f"counsel:{counsel.key}")
    elif e.name == "discard":
        gone = 0
        for p in court.in_order():  # 14.2.6: from the hands only
            for card in court.cards_of(p, str(e.arg)):
                court.take_from_hand(p, card)
                court.discard(card)
                gone += 1
        done = {"card": e.arg, "count": gone}
    elif e.name == "discharge":
        court.discharge(str(e.arg), "counsel")  # 16.4
    elif e.name == "extradite_named" and c is not None and fugitives.extraditable(court, c.id):
        fugitives.extradite(court, player, c.id, forced=True)  # 25.4, 25.7
    elif e.name == "accuse_named" and c is not None:
        justice.accuse(court, c.id, "counsel")  # 23.1
    elif e.name == "besyzan_named" and c is not None:
        to_besyzan(court, c.id)
    elif e.name == "title_named" and c is not None and c.owner == player:
        done = _free_title(court, player, c)
    elif e.name == "office_named" and c is not None and c.owner == player:
        done = _free_office(court, player, c, office)
    elif e.name in ("ban_named", "ban_object"):
        target = c if e.name == "ban_named" else _present(court, str(court.scandal_object))
        if target is not None:
            court.set_char(target.id, banned=True)
            done = {"character": target.key}
    elif e.name == "hearing_object" and court.scandal_object is not None:
        justice.send_to_hearing(court, court.scandal_object)  # 26 (24.2: he may hide)
    elif e.name == "purge_counselor_named" and c is not None and c.counselor is not None:
        court.discard(c.counselor)
        court.set_char(c.id, counselor=None)
        done = {"character": c.key}
    else:
        return
    if done is not None:
        court.emit(EventId.COUNSEL_EFFECT, {"effect": e.name, **done})


def _free_title(court: Court, player: str, c: Character) -> dict[str, object] | None:
    """One Title at no cost; the limits of 13.4.1 and the PP limit (35.4) apply."""
    card = court.t.noble(c.id)
    rank = (c.fixed_status if c.fixed_status is not None else card.status) + c.titles
    if c.id in court.t.no_titles or not c.free or court.at_war_stuck(c) or \
            rank >= len(court.t.titles) or not faction.fits(court,
                player, lambda: court.set_char(c.id, titles=c.titles + 1)):
        return None
    court.set_char(c.id, titles=c.titles + 1)
    return {"character": c.key}


def _free_office(court: Court, player: str, c: Character,
                 office: str | None) -> dict[str, object] | None:
    """"Recommend an appointment" (15.8, reference §7.3): a vacant office at no IP cost;
    the PP limit applies (35.4).  ``office`` named (AS): that office or nothing, and an
    Office Holder may move to it as by 6.2/16.2 (PROPOSED); none named: the first vacant
    office he may fill in Office Deck order, never moving an Office Holder (PROPOSED)."""
    if office is None:
        if court.office_of(c.key) is not None:
            return None
        for o in court.vacant_offices():
            if court.may_fill_office(c.id, o) is None and faction.fits(court,
                    player, partial(court.seat_in_office, c.id, o)):
                court.seat_in_office(c.id, o)
                return {"character": c.key, "office": o}
        return None
    why = court.may_fill_office(c.id, office)
    if why == "holds_office":
        why = None  # 6.2, 16.2: he leaves his office to take another
    if why is None and not faction.fits(court, player, lambda: court.seat_in_office(c.id, office)):
        why = "pp_limit"  # 35.4
    if why is not None:
        court.emit(EventId.COUNSEL_EFFECT, {"effect": "office_refused", "character": c.key,
                                            "office": office, "reason": why},
                   actor=player)
        return None
    old = court.office_of(c.key)
    court.seat_in_office(c.id, office)
    return {"character": c.key, "office": office, "left": old}
