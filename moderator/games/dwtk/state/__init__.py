"""The game state: frozen values with a deterministic JSON form (to_dict/from_dict).

Modules: `people` (nobles, royals, players), `game` (`GameState`, `Phase`, the open
problems), `serial` (the JSON form, `evolve`); the working copy of one adjudication is
`court.Court`.

What the Record Sheet keeps (DWTK 2.4) lives here too: Monarch's Support, prestige and
Court Ball modifiers, bans, unresolved problems, Foreign Wars, counsels made.

Keys: noble cards by their id (``"23"`` in JSON), royals by key (``"alan"``), offices
by key (``"navy"``), Event cards by instance (``"treachery-3"``), Opportunity counters
by instance (``"gout-1"``), players by the service's character key.
"""

from __future__ import annotations

from moderator.games.dwtk.state.game import GameState, OpenProblem, Phase
from moderator.games.dwtk.state.people import (
    FANDONIA,
    Character,
    Fate,
    Player,
    Royal,
    Situation,
    Voyage,
)
from moderator.games.dwtk.state.serial import JSON, evolve

__all__ = ["FANDONIA", "JSON", "Character", "Fate", "GameState", "OpenProblem", "Phase",
           "Player", "Royal", "Situation", "Voyage", "evolve"]
