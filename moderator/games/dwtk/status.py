"""Status Ratings and the faction's load on its PP (DWTK 2.1.2, 13.4.1, 13.4.3, 16.3,
18.9-18.10, 33.2.3, 35.4, 35.6, 36.10.6): reads of the court, no change to it.

Low in the rules: justice, the Office Phase, the views and the invariants read Status;
the PP limit that acts on the load is `faction.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from moderator.games.dwtk.state import Character, Situation
from moderator.games.dwtk.state.court import Court


def base_status(court: Court, c: Character) -> int:
    if c.fixed_status is not None:
        return c.fixed_status
    return court.t.noble(c.id).status + c.titles


def status(court: Court, cid: int | str) -> int:
    """A noble's Status Rating for all game purposes (16.3)."""
    c = court.char(cid)
    return _status(court, c, court.office_of(c.key))


def _status(court: Court, c: Character, office: str | None) -> int:
    """`status` of ``c``, who holds ``office`` (`office_of`, given: the loads below
    look the offices up once for the whole court)."""
    own = base_status(court, c)
    if c.spouse is not None:
        partner = _partner_base(court, c.spouse)
        if partner is not None and _spouse_benefits(court, c.spouse):
            own = max(own, partner)
    if c.counselor is not None:
        own += 2  # 13.4.3
    if office is not None:
        own += court.t.office(office).status
        if court.crisis:
            own //= 2  # 33.2.3
    return own


def _partner_base(court: Court, spouse: str) -> int | None:
    if spouse.isdigit():
        return base_status(court, court.char(spouse))
    royal = court.royals.get(spouse)
    if royal is None or not royal.alive:
        return None
    return 8 if royal.owner is not None else court.t.royal(spouse).status  # 18.10


def _spouse_benefits(court: Court, spouse: str) -> bool:
    """18.9: no benefit while the partner is banished, imprisoned or a wrongdoer."""
    if not spouse.isdigit():
        return True
    partner = court.char(spouse)
    return partner.situation not in (Situation.BANISHED, Situation.IMPRISONED,
                                     Situation.AWAITING_EXECUTION) \
        and not partner.wrongdoer


def at_sea(court: Court, cid: int | str) -> bool:
    """13.4.17.1: the captain of a privateer at sea takes part in no other action and
    cannot be assassinated (privateering.py keeps the voyage on `Player.voyage`)."""
    captain = int(cid)
    for p in court.players.values():  # a plain loop: asked for every PC or FAC an order names
        voyage = p.voyage
        if voyage is not None and voyage.captain == captain:
            return True
    return False


def royal_status(court: Court, key: str) -> int:
    status = court.t.royal(key).status
    if court.crisis and court.royals[key].owner is None:
        status //= 2  # 33.2.3: all NRCs
    return status


def faction_load(court: Court, player: str) -> int:
    """DWTK 35.4/35.6/36.10.6: Status of FACs and FARCs that count against PP."""
    return loads(court, (player,))[player]


def loads(court: Court, players: Iterable[str]) -> dict[str, int]:
    """`faction_load` of these players, in one pass over the court (plain loops: this
    runs for every player after every phase): his FACs and FARCs but his PC's spouse
    (35.6) and a FARC Monarch (36.10.6)."""
    nobles = court.characters
    spouse: dict[str, str | None] = {}
    for key in players:
        pc = court.players[key].pc  # (`pc_of`, inline)
        spouse[key] = None if pc is None else nobles[pc].spouse
    out = dict.fromkeys(spouse, 0)
    held: dict[str, str] | None = None  # holder -> his office, as `office_of` finds it
    for c in nobles.values():
        owner = c.owner
        if owner in out and not c.pc and c.alive:
            key = str(c.id)  # (`c.key`, without the property's call)
            if key != spouse[owner]:
                if held is None:  # looked up once, and only when someone counts
                    held = _holders(court.offices)
                out[owner] += _status(court, c, held.get(key))
    monarch = court.monarch()
    for r in court.royals.values():
        owner = r.owner
        if owner in out and r.alive and r.key != spouse[owner] and monarch != r.key:
            out[owner] += royal_status(court, r.key)
    return out


def _holders(offices: Mapping[str, str | None]) -> dict[str, str]:
    """Each office holder's office (his first, as `Court.office_of` finds it)."""
    held: dict[str, str] = {}
    for office, holder in offices.items():
        if holder is not None and office != "monarch":
            held.setdefault(holder, office)
    return held


def load_inputs(court: Court) -> tuple[Any, ...]:
    """Everything `faction_load` reads (Status 16.3, the PP limit 35.4): equal inputs
    give equal loads.  The values are frozen, so unchanged ones compare by identity
    (cheap).  Of a player only his PC (whose spouse does not count, 35.6) and his PP
    matter: his IP, hand and counters change all the time and move no load.  Keep this
    in step with `status` and `faction_load`."""
    return (list(court.characters.values()), list(court.royals.values()),
            [(key, p.pc, p.pp) for key, p in court.players.items()], dict(court.offices),
            court.crisis)
