"""The press: each player's ANNOUNCE lines printed in *The Fandonian Courier*
(orders/press.py), signed with his name, unsigned, or under an alias.

The service has already applied the game's press settings (moderation, anonymous and
alias press) to the orders it hands over (moderator.turn.press).
"""

from __future__ import annotations

from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.press import MAX_CHARS
from moderator.games.dwtk.state.court import Court


def announce(court: Court) -> None:
    """Every announcement of the turn, players in seat order, each in the order written."""
    for player in court.seats:
        orders = court.orders.get(player)
        for a in getattr(orders, "announcements", ()):
            signed = None if a.unsigned or a.alias else player
            court.emit(EventId.PRESS_ANNOUNCEMENT, {"text": a.text[:MAX_CHARS],
                                                    "signed": signed, "alias": a.alias},
                       actor=player)
