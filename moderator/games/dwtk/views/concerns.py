"""World events that name a player or his people: put on his own sheet too.

The publisher gives a sheet the events whose actor is its player.  Many events belong to
no one yet touch a player: an intrigue drawing a card from his hand (8.4.1, 13.4.12), his
PC placed in an office by the dice and sent abroad (6.1.2), his FAC Minister failing a
problem (7.8), his FAC in a duel (19), struck by the plague (8.4.3) or before the judges
(26-28); and another player's public act on his people: a scandal exposed about his PC
(22), an assassin striking at his FAC (13.4.8).  The actor of an event cannot change
without changing every recorded game, so the sheet tells these here, among his own
events in the order they happened: those of no one's, or another player's public ones,
whose arguments name this player or a character he held before or after the turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.games.base import Event
from moderator.games.dwtk.state import GameState

# Arguments that name a player (the intriguer and the robbed, a scandal's object's
# player, the player choosing a banishment's country) and arguments that name a
# character (a noble's id or a royal's key).
_PLAYER_ARGS = ("by", "player", "owner", "chooser")
_CHARACTER_ARGS = ("character", "holder", "minister", "a", "b", "opponent", "target")


def owners(*states: GameState) -> dict[str, set[str]]:
    """Character or royal key -> the players who held him in any of these states."""
    found: dict[str, set[str]] = {}
    for state in states:
        for c in state.characters.values():
            if c.owner is not None:
                found.setdefault(c.key, set()).add(c.owner)
        for r in state.royals.values():
            if r.owner is not None:
                found.setdefault(r.key, set()).add(r.owner)
    return found


def happened(events: Sequence[Event], key: str,
             held: Mapping[str, set[str]]) -> list[dict[str, Any]]:
    """What his sheet tells, in the order it happened: his own events, and the events
    of no one's, or another player's public ones (the Courier prints them: nothing
    private leaks), that name him or one of his people (not the turn's first player:
    the order of play is in the Courier's masthead)."""
    return [e.to_dict() for e in events
            if e.actor == key or ((e.actor is None or e.public)
                                  and not e.id.startswith("turn.") and _names(e, key, held))]


def _names(e: Event, key: str, held: Mapping[str, set[str]]) -> bool:
    if any(e.args.get(a) == key for a in _PLAYER_ARGS):
        return True
    return any(key in held.get(str(e.args.get(a)), ()) for a in _CHARACTER_ARGS
               if e.args.get(a) is not None)
