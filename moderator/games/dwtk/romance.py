"""Romance and marriage (DWTK 18): proposals; the wedding itself is `wedding.py`.

``PROPOSE <suitor> TO <beloved>`` (18.4, not an activity; before the activities): two of
his unmarried characters (FACs, or his PC proposing, or a FARC proposed to), one die +
his Romance Prestige modifier (-1 to Princess Anne): 3+ accepted, 2 refused, 1 or less
and the beloved leaves his faction.  An accepted proposal is kept on both characters
(`betrothed`) until the wedding or its negation (18.4.6: a death, or either leaving the
faction).  'Proposal Automatically Accepted' (18.4.5) takes the first of his PROPOSE
lines this turn that is legal then (PROPOSED: by email he names the pair in advance).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from moderator.games.dwtk import faction, status
from moderator.games.dwtk.acts import Refused, pay
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.social import Proposal
from moderator.games.dwtk.privateering import modifier
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.state import Character, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import NobleKind, Sex

NEVER_MARRY = ("thomas", "jane")  # 18.1 (and the Archbishop, NobleKind.CLERGY)
FARC_SUITOR_STATUS = 4  # 18.4.4
LOCKED = (Situation.IMPRISONED, Situation.AWAITING_EXECUTION, Situation.HIDING)


class ProposalAnswer(StrEnum):
    """The beloved's answer (18.4: 3-6 accepted, 2 refused, 1 or less spurned)."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    SPURNED = "spurned"  # and the beloved leaves his faction


# -- who is who (nobles by id, royals by key) ------------------------------------------


def person(court: Court, key: str) -> Any:
    """The noble (by id) or royal (by key)."""
    return court.char(key) if key.isdigit() else court.royals[key]


def set_person(court: Court, key: str, **changes: Any) -> None:
    if key.isdigit():
        court.set_char(key, **changes)
    else:
        court.set_royal(key, **changes)


def _up(x: Any) -> bool:
    """Alive and, a noble, face up (a dead PC's card turned down, 31.5, is no one)."""
    return x.alive and (not isinstance(x, Character) or x.face_down_until is None)


def _sex(court: Court, key: str) -> Sex:
    return court.t.noble(int(key)).sex if key.isdigit() else court.t.royal(key).sex


def _place(court: Court, key: str) -> str:
    """RCs are always in Fandonia (20.7)."""
    return court.char(key).location if key.isdigit() else "fandonia"


def engaged_to(court: Court, key: str) -> str | None:
    """His standing accepted proposal (18.4.6: negated if either dies or leaves the
    faction of the player who made it)."""
    return _engaged(court, key, person(court, key))


def _engaged(court: Court, key: str, a: Any) -> str | None:
    """`engaged_to` of ``a``, the person of ``key`` (speed: each looked up once; this
    runs for every betrothed person before every proposal, `sweep`)."""
    other: str | None = a.betrothed
    if other is None:
        return None
    b = person(court, other)
    if b.betrothed != key or a.owner is None or a.owner != b.owner \
            or not (_up(a) and _up(b)):
        return None
    return other


def sweep(court: Court) -> None:
    """18.4.6: clear proposals negated since (a character left the faction or died)."""
    # Speed, no rule: a sweep depends on the nobles and royals alone and leaves none to
    # clear, so when every one is the same value as after the last sweep (frozen values:
    # compared by identity first, in C) this one would find nothing: the proposals of a
    # sheet come one after the other, most of them refused without changing anyone.
    people = (list(court.characters.values()), list(court.royals.values()))
    if people == court.swept:
        return
    _sweep(court)
    court.swept = (list(court.characters.values()), list(court.royals.values()))


def _sweep(court: Court) -> None:
    keys = [c.key for c in court.characters.values() if c.betrothed is not None]
    keys += [r.key for r in court.royals.values() if r.betrothed is not None]
    for key in keys:
        a = person(court, key)  # again: an earlier key's negation may have cleared his
        other = a.betrothed
        if other is None or _engaged(court, key, a) is not None:
            continue
        set_person(court, key, betrothed=None)
        if person(court, other).betrothed == key:
            set_person(court, other, betrothed=None)
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
        x = person(court, k)
        if x.owner != player or not _up(x):
            return "not_yours"
        if k in NEVER_MARRY or (k.isdigit() and court.t.noble(int(k)).kind is NobleKind.CLERGY):
            return "may_never_marry"  # 18.1
        if x.spouse is not None:
            return "married"
        if _engaged(court, k, x) is not None:
            return "already_betrothed"  # 18.4.6
        if court.monarch() == k:
            return "farc_monarch"  # 36.10.5
        if k.isdigit() and status.at_sea(court, k):
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
        if status.status(court, s) < FARC_SUITOR_STATUS:
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
    answer = ProposalAnswer.ACCEPTED
    args: dict[str, Any] = {"player": player, "suitor": s, "beloved": b, "ip": cost,
                            "free": free, "total": None}
    if free is None:
        mod = modifier(court, player, "romance") - (1 if b == "anne" else 0)
        args["total"] = court.dice.roll("romance", "1d6", "Proposal (DWTK 18.4)",
                                        actor=player, modifier=mod).total
        rules = court.t.justice_rules  # 18.4: 3-6 accepted, 2 refused, 1 NC/NRC
        answer = (ProposalAnswer.ACCEPTED if args["total"] >= rules["proposal_accepted"]
                  else ProposalAnswer.SPURNED if args["total"] <= rules["proposal_neutral"]
                  else ProposalAnswer.REFUSED)
    args["result"] = answer.value  # (events carry plain strings)
    court.emit(EventId.PROPOSAL, args, actor=player)
    if answer is ProposalAnswer.ACCEPTED:
        set_person(court, s, betrothed=b)
        set_person(court, b, betrothed=s)
    elif answer is ProposalAnswer.SPURNED:
        faction.lose_member(court, player, b, "proposal_spurned")  # 18.4: a NC or NRC now


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
