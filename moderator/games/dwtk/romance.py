"""Romance and marriage (DWTK 18) and Hold A Wedding (13.4.16).

``PROPOSE <suitor> TO <beloved>`` (18.4, not an activity; before the activities): two of
his unmarried characters (FACs, or his PC proposing, or a FARC proposed to), one die +
his Romance Prestige modifier (-1 to Princess Anne): 3+ accepted, 2 refused, 1 or less
and the beloved leaves his faction.  An accepted proposal is kept on both characters
(`betrothed`) until the wedding or its negation (18.4.6: a death, or either leaving the
faction).  'Proposal Automatically Accepted' (18.4.5) takes the first of his PROPOSE
lines this turn that is legal then (PROPOSED: by email he names the pair in advance).

``DO WEDDING <a> AND <b>`` (13.4.16, 18.3): the betrothed pair, both in Fandonia and
neither imprisoned nor hiding, if his PP allow the marriage (18.8, 35.4).  Each player
whose orders say ``ATTEND WEDDINGS`` (the host too, and always the host whose PC marries)
rolls on the Socializing Table for his PC, free and not an activity; twice if his PC
marries (the second roll for the spouse).
"""

from __future__ import annotations

from typing import Any

from moderator.games.dwtk.activity_orders import Activity
from moderator.games.dwtk.acts import Refused, pay
from moderator.games.dwtk.court import Court
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.privateering import modifier
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.social_orders import Proposal
from moderator.games.dwtk.state import Character, Situation
from moderator.games.dwtk.tables import NobleKind, Sex

NEVER_MARRY = ("thomas", "jane")  # 18.1 (and the Archbishop, NobleKind.CLERGY)
FARC_SUITOR_STATUS = 4  # 18.4.4
LOCKED = (Situation.IMPRISONED, Situation.AWAITING_EXECUTION, Situation.HIDING)


# -- who is who (nobles by id, royals by key) ------------------------------------------


def _get(court: Court, key: str) -> Any:
    return court.char(key) if key.isdigit() else court.royals[key]


def _set(court: Court, key: str, **changes: Any) -> None:
    if key.isdigit():
        court.set_char(key, **changes)
    else:
        court.set_royal(key, **changes)


def _alive(court: Court, key: str) -> bool:
    x = _get(court, key)
    return x.alive and (not isinstance(x, Character) or x.face_down_until is None)


def _sex(court: Court, key: str) -> Sex:
    return court.t.noble(int(key)).sex if key.isdigit() else court.t.royal(key).sex


def _place(court: Court, key: str) -> str:
    """RCs are always in Fandonia (20.7)."""
    return court.char(key).location if key.isdigit() else "fandonia"


def engaged_to(court: Court, key: str) -> str | None:
    """His standing accepted proposal (18.4.6: negated if either dies or leaves the
    faction of the player who made it)."""
    a = _get(court, key)
    other = a.betrothed
    if other is None:
        return None
    b = _get(court, other)
    if b.betrothed != key or not (_alive(court, key) and _alive(court, other)) \
            or a.owner is None or a.owner != b.owner:
        return None
    return other


def sweep(court: Court) -> None:
    """18.4.6: clear proposals negated since (a character left the faction or died)."""
    keys = [c.key for c in court.characters.values() if c.betrothed is not None]
    keys += [r.key for r in court.royals.values() if r.betrothed is not None]
    for key in keys:
        other = _get(court, key).betrothed
        if other is None or engaged_to(court, key) is not None:
            continue
        _set(court, key, betrothed=None)
        if _get(court, other).betrothed == key:
            _set(court, other, betrothed=None)
        court.emit(EventId.PROPOSAL_NEGATED, {"a": key, "b": other, "why": "left_faction"})


# -- proposals (18.4) -------------------------------------------------------------------


def _proposed(court: Court, key: str) -> bool:
    """18.4.3: he proposed or was proposed to already this turn (this adjudication)."""
    return any(e.id == _PROPOSAL and key in (e.args["suitor"], e.args["beloved"])
               for e in court.events)


_PROPOSAL = EventId.PROPOSAL.value  # (an enum's .value is slow; this runs per proposal)


def _why_not(court: Court, player: str, s: str, b: str, free: bool) -> str | None:
    """Why ``s`` may not propose to ``b`` now (None: he may); 18.1-18.5, 36.10.5."""
    for k in (s, b):
        x = _get(court, k)
        if x.owner != player or not _alive(court, k):
            return "not_yours"
        if k in NEVER_MARRY or (k.isdigit() and court.t.noble(int(k)).kind is NobleKind.CLERGY):
            return "may_never_marry"  # 18.1
        if x.spouse is not None:
            return "married"
        if engaged_to(court, k) is not None:
            return "already_betrothed"  # 18.4.6
        if court.monarch() == k:
            return "farc_monarch"  # 36.10.5
        if k.isdigit() and court.at_sea(k):
            return "at_sea"  # 13.4.17.1: no other action while at sea
    if _sex(court, s) is _sex(court, b):
        return "same_sex"  # 18.2
    if not s.isdigit():
        return "royals_never_propose"  # 18.4.4
    if b.isdigit() and court.char(b).pc:
        return "pc_proposed_to"  # 18.4.1
    if not b.isdigit():
        if court.char(s).pc:
            return "pc_to_royal"  # 18.4.1, 18.4.4
        if b == "george":
            return "george_never_remarries"  # 18.5
        if court.status(s) < FARC_SUITOR_STATUS:
            return "status_below_four"  # 18.4.4, 18.4.5
    if _place(court, s) != _place(court, b):
        return "not_same_country"  # 18.4.2
    if not free and (_proposed(court, s) or _proposed(court, b)):
        return "once_a_turn"  # 18.4.3 (18.4.5: not for a free proposal)
    return None


def propose(court: Court, player: str, proposal: Proposal, free: str | None = None) -> None:
    """18.4: ``free`` names the Prestige result that accepts it at once (18.4.5)."""
    sweep(court)
    s = resolve_who(court, player, proposal.suitor)
    b = resolve_who(court, player, proposal.beloved)
    if s is None or b is None:
        raise Refused("not_yours")
    reason = _why_not(court, player, s, b, free is not None)
    if reason is not None:
        raise Refused(reason)
    cost = 0 if b.isdigit() else court.t.rule("proposal_farc_cost")
    pay(court, player, cost)  # 18.4.4: lost whether accepted or not
    args: dict[str, Any] = {"player": player, "suitor": s, "beloved": b, "ip": cost,
                            "free": free, "total": None, "result": "accepted"}
    if free is None:
        mod = modifier(court, player, "romance") - (1 if b == "anne" else 0)
        args["total"] = court.dice.roll("romance", "1d6", "Proposal (DWTK 18.4)",
                                        actor=player, modifier=mod).total
        rules = court.t.justice_rules  # 18.4: 3-6 accepted, 2 refused, 1 NC/NRC
        args["result"] = ("accepted" if args["total"] >= rules["proposal_accepted"]
                          else "spurned" if args["total"] <= rules["proposal_neutral"]
                          else "refused")
    court.emit(EventId.PROPOSAL, args, actor=player)
    if args["result"] == "accepted":
        _set(court, s, betrothed=b)
        _set(court, b, betrothed=s)
    elif args["result"] == "spurned":
        court.lose_member(player, b, "proposal_spurned")  # 18.4: a NC or NRC now


def free_proposal(court: Court, player: str, source: str) -> None:
    """18.4.5, 13.4.16: 'Proposal Automatically Accepted' — the first of his PROPOSE
    lines this turn that is legal now (18.4.3 ignored; a FARC still costs Five IP and
    needs Status 4); with none, the free proposal is lost."""
    orders = court.orders.get(player)
    for proposal in getattr(orders, "proposals", ()):
        try:
            propose(court, player, proposal, free=source)
            return
        except Refused:
            continue
    court.emit(EventId.FREE_PROPOSAL_LOST, {"player": player, "source": source}, actor=player)


# -- weddings (13.4.16, 18.3) -----------------------------------------------------------


def _marry(court: Court, a: str, b: str) -> None:
    _set(court, a, spouse=b, betrothed=None)
    _set(court, b, spouse=a, betrothed=None)


def _fits(court: Court, player: str, a: str, b: str) -> bool:
    """18.8, 35.4: his PP must allow the Status the marriage gives (`Court.fits` does not
    restore the royals, so they are put back here)."""
    royals = dict(court.royals)
    ok = court.fits(player, lambda: _marry(court, a, b))
    court.royals = royals
    return ok


def wedding(court: Court, player: str, a: Activity) -> None:
    """13.4.16, 18.3: the activity; then the guests' Socializing rolls."""
    sweep(court)
    x, y = (resolve_who(court, player, w) for w in a.who)
    if x is None or y is None or engaged_to(court, x) != y or _get(court, x).owner != player:
        raise Refused("no_accepted_proposal")
    for k in (x, y):
        if court.monarch() == k:
            raise Refused("farc_monarch")  # 36.10.5
        if k.isdigit() and court.char(k).abroad:
            raise Refused("not_in_fandonia")
        if k.isdigit() and court.char(k).situation in LOCKED:
            raise Refused("imprisoned_or_hiding")
        if k.isdigit() and court.at_sea(k):
            raise Refused("at_sea")  # 13.4.17.1
    if not _fits(court, player, x, y):
        raise Refused("pp")
    _marry(court, x, y)
    rolls = _guests(court, player, (x, y))
    court.emit(EventId.WEDDING, {"player": player, "a": x, "b": y,
                                 "guests": sorted({p for p, _ in rolls})}, actor=player)
    from moderator.games.dwtk.prestige import roll_on  # prestige imports this module

    for guest, cid in rolls:
        roll_on(court, guest, "socializing", 0, wedding=True, character=cid)


def _guests(court: Court, host: str, pair: tuple[str, str]) -> list[tuple[str, int]]:
    """13.4.16: in player order, each player whose PC attends (ATTEND WEDDINGS; the host
    whose PC marries always does) and is free in Fandonia: one roll for his PC, and one
    more for the spouse if his PC marries."""
    out: list[tuple[str, int]] = []
    for player in court.in_order():
        pc = court.pc_of(player)
        if pc is None or not pc.alive or pc.face_down_until is not None or not pc.free \
                or pc.abroad:
            continue
        marrying = player == host and pc.key in pair
        if not (marrying or getattr(court.orders.get(player), "attend", False)):
            continue
        out.append((player, pc.id))
        if marrying:
            out.append((player, int(pair[1] if pair[0] == pc.key else pair[0])))
    return out
