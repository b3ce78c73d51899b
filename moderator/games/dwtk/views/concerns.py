"""World events that name a player: put on his own sheet too (DWTK 13.4.12, 8.4.1, 22, 29.1).

The publisher gives a sheet the events whose actor is its player.  A few events belong to
no one yet name players in their arguments: an intrigue drawing a card from a hand (the
intriguer and the player robbed), the hand spared, the object of a scandal's player, the
player choosing a banishment's country.  Their actor cannot change without changing
every recorded game, so the sheet adds them here, from the public events of the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moderator.games.base import Event
from moderator.games.dwtk.events import EventId

# event id -> the arguments that name a player it concerns
_NAMES_PLAYERS: dict[str, tuple[str, ...]] = {
    EventId.INTRIGUE_DRAWN: ("by", "player"),  # 8.4.1, 13.4.12
    EventId.INTRIGUE_SPARED: ("player",),  # 8.4.1
    EventId.SCANDAL_OBJECT: ("owner",),  # 8.4.5, 22
    EventId.JUSTICE_BANISHED: ("chooser",),  # 29.1
}


def concerning(events: Sequence[Event], key: str) -> list[dict[str, Any]]:
    """The turn's events of no one's that name this player, in the order they happened."""
    return [e.to_dict() for e in events
            if e.actor is None and any(e.args.get(a) == key
                                       for a in _NAMES_PLAYERS.get(e.id, ()))]
