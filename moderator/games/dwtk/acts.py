"""What every activity shares (DWTK 13): refusals, whose characters, paying, playing cards.

An activity that is not legal now raises `Refused`; its ``reason`` goes to the player's
sheet and the next activity in his priority order is tried (13.1).
"""

from __future__ import annotations

from moderator.games.dwtk import status
from moderator.games.dwtk.shared import can_spend, resolve_who, spend
from moderator.games.dwtk.state.court import Court


class Refused(Exception):
    """An activity that is not legal now; ``reason`` goes to the player's sheet."""

    def __init__(self, reason: str) -> None:
        # (no super().__init__: Exception.__new__ has stored the args already, so str() and
        # repr are the same; the call cost a tenth of each of the thousands of refusals)
        self.reason = reason


def mine(court: Court, player: str, who: str) -> int:
    """A PC or FAC of this player (the usual target of an activity)."""
    cid = resolve_who(court, player, who)
    if cid is None or not cid.isdigit():
        raise Refused("not_pc_or_fac")
    c = court.char(cid)
    if c.owner != player or not c.alive or c.face_down_until is not None:
        raise Refused("not_pc_or_fac")
    if status.at_sea(court, c.id):
        raise Refused("at_sea")  # 13.4.17.1: a privateer's captain takes part in nothing else
    return c.id


def pay(court: Court, player: str, amount: int) -> None:
    if amount and not can_spend(court, player, amount):
        raise Refused("ip")
    spend(court, player, amount)


def play_card(court: Court, player: str, kind: str) -> str:
    cards = court.cards_of(player, kind)
    if not cards:
        raise Refused(f"no_card:{kind}")
    court.take_from_hand(player, cards[0])
    return cards[0]
