"""A player's own dice on his sheet, each roll said as the dice log has it and, for a
die he rolled for a character not his, whose die it was.

The first player rolls for the NCs (DWTK 5): an NC's Dueling die (19.8) went on his
sheet as "Dueling (DWTK 19.8): 1d6 = 3", the same words as his own PC's die.  The log's
purpose cannot change (it is part of every recorded game), so the owner is found here:
each duel rolls its two dice, first `a`'s then `b`'s, and then records them
(`EventId.DUEL_FOUGHT`), so the n-th pair of Dueling rolls in the log is the n-th duel's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from moderator.games.base import Event
from moderator.games.dwtk.duels import DUELING
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.state import GameState

JSON = dict[str, Any]


def own_dice(dice: Sequence[Mapping[str, Any]], events: Sequence[Event], before: GameState,
             characters: Sequence[str]) -> dict[str, list[JSON]]:
    """Each listed player's rolls, in the order rolled: the roll's ``text`` and ``whose``
    (the key of the character whose die a player rolled for another's: an NC's duel die,
    DWTK 5, 19.8; else None)."""
    wanted = set(characters)
    out: dict[str, list[JSON]] = {key: [] for key in characters}
    fighters = _duellists(events)
    for roll in dice:
        whose = next(fighters, None) if roll["purpose"] == DUELING else None
        actor = roll.get("actor")
        if actor not in wanted:
            continue
        owner = before.characters[int(whose)].owner if whose is not None and \
            int(whose) in before.characters else actor
        out[actor].append({"text": roll["text"], "whose": whose if owner != actor else None})
    return out


def _duellists(events: Sequence[Event]) -> Iterator[str]:
    """The fighters of the turn's duels, in the order their dice were rolled."""
    for e in events:
        if e.id == EventId.DUEL_FOUGHT:
            yield str(e.args["a"])
            yield str(e.args["b"])
