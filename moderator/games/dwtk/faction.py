"""The faction's PP limit (DWTK 34.3 and 35.3: IP and PP never negative; 35.4-35.6:
the limit and the members lost over it).

Functions over the `Court`; Status itself is `status.py`.  This module sits above
death, hiding and justice (a member lost may die, 35.5.3, or be forced out of hiding,
24.7, and that may bring him to justice); a PC's death, lower down, enforces the limit
through the court's `pp_limit`, which the engine sets to `enforce_limit` (31.5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.hiding import forced_out
from moderator.games.dwtk.shared import release_cards
from moderator.games.dwtk.state import Phase, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.status import faction_load, load_inputs, loads, royal_status, status


def gain(court: Court, player: str, *, ip: int = 0, pp: int = 0) -> tuple[int, int]:
    """Add (or take) IP and PP; a debt beyond what he has is forgiven (34.3, 35.3).

    Returns the amounts actually changed.  A loss of PP may force him to lose FACs
    (35.5): see `enforce_limit`.
    """
    p = court.players[player]
    new_ip, new_pp = max(0, p.ip + ip), max(0, p.pp + pp)
    court.set_player(player, ip=new_ip, pp=new_pp)
    if new_pp < p.pp:
        if court.told_later is not None:
            court.told_later.append(player)
        else:
            enforce_limit(court, player)
    return new_ip - p.ip, new_pp - p.pp


@contextmanager
def cause_first(court: Court) -> Iterator[None]:
    """Losses the PP limit forces (35.5) are applied after the block, so the event
    that cost the PP (a scandal, a Court Ball, a counsel) is told before them."""
    outer = court.told_later
    if outer is None:
        court.told_later = []
    try:
        yield
    finally:
        if outer is None:
            waiting, court.told_later = court.told_later or [], None
            for player in dict.fromkeys(waiting):
                enforce_limit(court, player)


def fits(court: Court, player: str, change: Callable[[], object]) -> bool:
    """Would the faction still fit the PP total after ``change``? (35.4)

    The change is tried on the court and undone; the caller then makes it for real.
    """
    saved = (dict(court.characters), dict(court.offices), dict(court.players),
             list(court.discards), list(court.removed), len(court.events))
    change()
    ok = faction_load(court, player) <= court.players[player].pp
    (court.characters, court.offices, court.players, court.discards, court.removed,
     events) = saved
    del court.events[events:]
    return ok


def enforce_all(court: Court) -> None:
    """35.5 for every player (after Status changed without anyone choosing it)."""
    if court.phase is Phase.MUSTER:
        return
    # Speed, no rule: when nothing a load depends on changed since the last call left
    # every faction within its PP, it would find nothing to do again.
    inputs = load_inputs(court)
    if inputs == court.loads_fit:
        return
    # A loss can raise another player's load (a FARC lost stops giving her FAC husband
    # Status 8, 18.10), also one seated earlier: again until a pass finds no one over.
    while True:
        now = loads(court, court.seats)
        over = [p for p in court.seats if now[p] > court.players[p].pp]
        if not over:
            break
        before = load_inputs(court)
        for player in over:
            enforce_limit(court, player)  # 35.5
        if load_inputs(court) == before:
            return  # no one could lose anyone more: nothing to record as fitting
    court.loads_fit = load_inputs(court)


def enforce_limit(court: Court, player: str) -> None:
    """DWTK 35.5: lose FACs/FARCs until the faction fits the PP total again; never
    one more (35.5.4: none is given up while the PP suffice).

    He chooses whom (35.5): the first still in his faction of his LOSE FIRST list;
    without one, the lowest-Status member goes (ties: FACs before FARCs, lower id
    first; PROPOSED default).
    """
    while faction_load(court, player) > court.players[player].pp:
        key = _next_to_lose(court, player)
        if key is None:
            return
        lose_member(court, player, key, reason="pp_limit")


def _next_to_lose(court: Court, player: str) -> str | None:
    """Only members who count against the PP total (35.6, 36.10.6) can be lost."""
    pc = court.pc_of(player)
    spouse = pc.spouse if pc is not None else None
    candidates: list[tuple[int, int, str]] = [
        (status(court, c.id), 0, c.key) for c in court.faction(player) if c.key != spouse]
    candidates += [(royal_status(court, r.key), 1, r.key) for r in court.farcs(player)
                   if r.key != spouse and court.monarch() != r.key]
    if not candidates:
        return None
    keys = {key for _, _, key in candidates}
    chosen = next((k for k in court.lose_first(player) if k in keys), None)
    if chosen is not None:
        return chosen
    # 35.5.4: no more than needed — the lowest Status whose loss alone brings him within
    # the limit; if none does, the highest, and so on (PROPOSED default)
    excess = faction_load(court, player) - court.players[player].pp
    enough = [c for c in candidates if c[0] >= excess]
    return (min(enough) if enough else max(candidates))[2]


def lose_member(court: Court, player: str, key: str, reason: str) -> None:
    """A FAC becomes an NC (35.5.1) or a FARC an NRC (35.5.2); a married FAC lost
    is taken to die, and the spouse may remarry (35.5.3, 18.6)."""
    if key.isdigit() and court.char(key).spouse is not None and court.char(key).alive:
        kill_character(court, int(key), reason)
        return
    if key.isdigit():
        c = court.char(key)
        release_cards(court, c.id, reason)  # 14.2.2, 14.2.4
        court.set_char(key, owner=None)
        if c.alive and c.id not in court.loyalty_pool:
            court.loyalty_pool.append(c.id)
    else:
        royal = court.royals[key]
        if royal.card is not None:
            court.discard(royal.card)
        court.set_royal(key, owner=None, card=None)
    court.emit(EventId.FACTION_LOST, {"player": player, "member": key, "reason": reason},
               actor=player)
    if key.isdigit() and court.char(key).situation is Situation.HIDING:
        forced_out(court, int(key))  # 24.7: an NC cannot hide
