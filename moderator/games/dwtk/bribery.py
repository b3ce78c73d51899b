"""DWTK 13.4.20 Bribery: taking bribes (13.4.20.1, ``SOLICIT BRIBE n``) and bribing an
NC Office Holder (13.4.20.2, ``BRIBE x WITH n IP [BY h]``).  Neither is an activity; by
email both are done before the activities (player.py).

Readings (PROPOSED; data/dwtk/rules.toml [readings] bribe_*):

- 13.4.20.2 rolls "less than or equal" first and "a 6" last; like 7.5 and 23.2 a 6
  always fails here: the bribe is exposed, whatever the amount.  Nothing is paid then.
- The bribe amount modifies the wrongdoing roll and the hearing roll of both accused
  (13.4.20 is specific; 23.3's "no other modifiers" yields to it).
- An accepted bribe buys **one** ±1: on the first roll it can influence, in the
  direction the briber's orders give (`PROBLEM x +/-` for a problem; his `MODIFY`
  reaction on COUNSELS, or +1 on his own counsel, for a counsel).  It holds for the
  counsels of the turn it was paid and the Political Problems of the next turn (solved
  at its start by email), then lapses; it lapses too if the holder leaves office or
  joins a faction.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from moderator.games.dwtk import duels, faction, justice
from moderator.games.dwtk.acts import Refused, mine
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.names import PC
from moderator.games.dwtk.orders.social import BribeOffer
from moderator.games.dwtk.shared import can_spend, resolve_who, spend
from moderator.games.dwtk.state import Character, Situation
from moderator.games.dwtk.state.court import Court

CAUSE = "bribery"
EXPOSED = 6  # 13.4.20.2: "On a '6', the bribe fails"


class BribeAnswer(StrEnum):
    """What the Office Holder does with the bribe (13.4.20.2: one die against it)."""

    ACCEPTED = "accepted"  # at most the amount offered
    REJECTED = "rejected"
    EXPOSED = "exposed"  # a 6: both accused of the wrongdoing


LASTS = {"counsel": 0, "problem": 1}  # turns after the bribe a roll may use it (PROPOSED)


def solicit(court: Court, player: str, amount: int) -> None:
    """13.4.20.1: a PC holding an office or counselorship asks 1-6 IP; a die greater
    than the amount brings them, otherwise he is accused, the amount added to the
    wrongdoing roll and to the hearing roll."""
    pc = court.pc_of(player)
    if pc is None or not pc.alive or pc.face_down_until is not None:
        raise Refused("no_pc")
    if court.office_of(pc.key) is None and pc.counselor is None:
        raise Refused("no_office")
    roll = court.dice.roll("bribery", "1d6", "Taking a bribe (DWTK 13.4.20.1)", actor=player)
    received = roll.total > amount
    args = {"player": player, "character": pc.key, "amount": amount, "roll": roll.total,
            "result": "received" if received else "accused"}
    if received:
        faction.gain(court, player, ip=amount)
        court.emit(EventId.BRIBE_SOLICITED, args, actor=player, public=False)
        return
    court.emit(EventId.BRIBE_SOLICITED, args, actor=player)
    justice.accuse(court, pc.id, CAUSE, charge=amount)


def offer(court: Court, player: str, bribe: BribeOffer) -> None:
    """13.4.20.2: once a turn, an NC Office Holder in the same country as the PC (or the
    henchman who tenders it); a die at most the amount: accepted and paid; above it but
    below 6: rejected, nothing lost; a 6: both accused, the amount on their rolls."""
    target = _target(court, player, bribe.target)
    tenderer = _tenderer(court, player, bribe.by)
    if tenderer.location != target.location:
        raise Refused("not_same_country")
    if target.bribed_on == court.turn:
        raise Refused("already_bribed")  # successfully bribed once a turn at most
    if not can_spend(court, player, bribe.amount):
        raise Refused("ip")  # he must be able to pay if it is accepted (34.6, 33.2.1)
    roll = court.dice.roll("bribery", "1d6", "Bribing an Office Holder (DWTK 13.4.20.2)",
                           actor=player)
    face = roll.faces[0]
    result = BribeAnswer.EXPOSED if face == EXPOSED else BribeAnswer.ACCEPTED \
        if face <= bribe.amount else BribeAnswer.REJECTED
    court.emit(EventId.BRIBE_OFFERED, {"player": player, "by": tenderer.key,
                                       "target": target.key, "amount": bribe.amount,
                                       "roll": face, "result": result.value},
               actor=player, public=result is BribeAnswer.EXPOSED)
    if result is BribeAnswer.ACCEPTED:
        spend(court, player, bribe.amount)
        court.set_char(target.id, bribed_by=player, bribed_on=court.turn)
    elif result is BribeAnswer.EXPOSED:
        justice.accuse(court, target.id, CAUSE, charge=bribe.amount)
        justice.accuse(court, tenderer.id, CAUSE, charge=bribe.amount)


def _target(court: Court, player: str, who: str) -> Character:
    cid = resolve_who(court, player, who)
    if cid is None or not cid.isdigit() or int(cid) not in court.characters:
        raise Refused("not_an_nc_office_holder")
    c = court.char(cid)
    if c.owner is not None or not c.alive or c.face_down_until is not None or \
            court.office_of(c.key) is None:
        raise Refused("not_an_nc_office_holder")
    return c


def _tenderer(court: Court, player: str, by: str | None) -> Character:
    """His PC, or the henchman named BY (17.2.5 reading: a henchman may tender it);
    never one in prison (30.3)."""
    cid = mine(court, player, by if by is not None else PC)
    c = court.char(cid)
    if by is not None and c not in duels.henchmen(court, player):
        raise Refused("not_a_henchman")
    if c.situation in (Situation.IMPRISONED, Situation.AWAITING_EXECUTION):
        raise Refused("imprisoned")
    return c


def briber(court: Court, holder: str | None, roll: str) -> str | None:
    """The player whose accepted bribe ``holder`` still honours on a ``roll`` ("problem"
    or "counsel"): an NC still in office, within the time the bribe lasts (`LASTS`)."""
    if holder is None or not holder.isdigit():
        return None
    c = court.char(holder)
    if c.bribed_by is None or c.owner is not None or not c.alive or \
            court.office_of(c.key) is None:
        return None
    return c.bribed_by if 0 <= court.turn - c.bribed_on <= LASTS[roll] else None


def influence(court: Court, holder: str | None, roll: str, key: str,
              sign_of: Callable[[str], int]) -> int:
    """13.4.20.2: a bribed NC's ±1 on a roll he could influence as a FAC; ``sign_of``
    gives the briber's direction.  A direction spends the bribe (one roll)."""
    who = briber(court, holder, roll)
    if who is None or holder is None:
        return 0
    sign = sign_of(who)
    if sign:
        court.set_char(holder, bribed_by=None)
        court.emit(EventId.BRIBE_USED, {"character": holder, "player": who, "roll": roll,
                                        "key": key, "sign": sign}, actor=who, public=False)
    return sign
