"""Death of a noble (DWTK 31.3-31.5, 31.7) and what it takes with him: his cards, his
office, his marriage (18.6) and an accepted proposal (18.4.6)."""

from __future__ import annotations

from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.shared import forced_discards, release_cards
from moderator.games.dwtk.state import FANDONIA, Character, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import NobleKind


def _release_cards(court: Court, c: Character) -> None:
    """31.3/31.4, 17.4, 14.2.4: his Henchman and Monarch's Counselor cards are discarded,
    in sight of all (14.2.2)."""
    release_cards(court, c.id, "died")


def _leave_office(court: Court, c: Character) -> None:
    office = court.office_of(c.key)
    if office is not None:
        court.discharge(office, "died")  # 16.4: a Minister who dies is discharged


def _widow_partner(court: Court, c: Character) -> None:
    """31.7, 18.6: the survivor may remarry."""
    if c.spouse is None:
        return
    if c.spouse.isdigit():
        court.set_char(c.spouse, spouse=None)
    else:
        court.set_royal(c.spouse, spouse=None)


def drop_betrothal(court: Court, key: str, why: str) -> None:
    """18.4.6: an accepted proposal is negated when one of the two dies."""
    me = court.char(key) if key.isdigit() else court.royals[key]
    other = me.betrothed
    if other is None:
        return
    if key.isdigit():
        court.set_char(key, betrothed=None)
    else:
        court.set_royal(key, betrothed=None)
    partner = court.char(other) if other.isdigit() else court.royals[other]
    if partner.betrothed == key:
        if other.isdigit():
            court.set_char(other, betrothed=None)
        else:
            court.set_royal(other, betrothed=None)
    court.emit(EventId.PROPOSAL_NEGATED, {"a": key, "b": other, "why": why})


def kill_character(court: Court, cid: int, cause: str) -> None:
    """A noble dies (31.3, 31.4); a PC's death is 31.5 (`kill_pc`)."""
    c = court.char(cid)
    if c.pc and c.owner is not None:
        kill_pc(court, c.owner, cause)
        return
    _release_cards(court, c)
    _leave_office(court, c)
    _widow_partner(court, c)
    drop_betrothal(court, c.key, "death")
    card = court.t.noble(cid)
    if card.kind in (NobleKind.OFFICIAL, NobleKind.CLERGY):
        # 31.4: characters 45-55 go back to the pile; the heir is in the game at once.
        court.characters[cid] = Character(cid)
        for key, p in court.players.items():  # a counter drawn this turn comes back too
            if cid in p.loyalty:
                court.set_player(key, loyalty=tuple(x for x in p.loyalty if x != cid))
        if cid not in court.loyalty_pool:
            court.loyalty_pool.append(cid)
    else:
        # 31.3: removed for good, and his Loyalty counter with him.
        court.characters[cid] = Character(cid, alive=False)
        if cid in court.loyalty_pool:
            court.loyalty_pool.remove(cid)
    if c.owner is not None:
        court.emit(EventId.FACTION_LOST, {"player": c.owner, "member": c.key,
                                          "reason": cause, "died": True}, actor=c.owner)


def kill_pc(court: Court, player: str, cause: str, enforce: bool = True) -> None:
    """DWTK 31.5: half PP and IP lost, titles, offices, bans and modifiers gone, five
    Event cards discarded, no Player Turn now nor next turn; the heir comes back face up
    on the second turn after dying with the card's printed Status.  ``enforce=False``:
    the caller checks the PP limit (35.5) once every death of the event is applied."""
    p = court.players[player]
    pc = court.char(p.pc) if p.pc is not None else None
    if pc is None:
        return
    _release_cards(court, pc)
    _leave_office(court, pc)
    spouse = pc.spouse
    _widow_partner(court, pc)
    drop_betrothal(court, pc.key, "death")
    # 31.5 "loses half": half of each, rounded down, is lost (PROPOSED rounding).
    pp_lost, ip_lost = p.pp // 2, p.ip // 2
    court.set_player(player, pp=p.pp - pp_lost, ip=p.ip - ip_lost, prestige_mods={},
                     court_ball_mod=0, lost_turns=(*p.lost_turns, court.turn, court.turn + 1))
    court.characters[pc.id] = Character(pc.id, owner=player, pc=True, location=FANDONIA,
                                        situation=Situation.NORMAL,
                                        face_down_until=court.turn + 2)
    mine = court.orders.get(player)
    forced_discards(court, player, 5, "pc_death", getattr(mine, "discard", ()),
                    getattr(mine, "keep_last", ()))
    court.emit(EventId.PC_DIED, {"player": player, "member": str(pc.id), "reason": cause,
                                 "spouse": spouse, "pp_lost": pp_lost, "ip_lost": ip_lost,
                                 "pp": p.pp - pp_lost, "ip": p.ip - ip_lost,
                                 "returns": court.turn + 2}, actor=player)
    if enforce:  # else the caller applies the event's other deaths first (36.7)
        court.pp_limit(court, player)  # 31.5: the spouse now counts against the PP total
