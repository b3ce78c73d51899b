"""The names of Fief: England's named characters, which no player may take
(`GameEngine.reserved_names`; moderator/desk/names.py).

The nobles of England are the Noble cards (FE 2.2), each named ("William", "Matilda"),
dealt to the families and married among them; the Retainer cards (FE 2.12) name theirs
("Mata").  Every card's name is reserved, and so is the name of every noble the state
holds now (the cards may have changed since he was dealt).  A player writes both in his
orders (``ctx.noble``, ``ctx.player``), so one name for both would read as either.
"""

from __future__ import annotations

from moderator.games.base import JSON
from moderator.games.fief.state import GameState
from moderator.games.fief.tables import Tables

NOBLE = "the name of a noble of England (FE 2.2)"
RETAINER = "the name of a retainer (FE 2.12)"


def reserved_names(state: JSON, tables: Tables) -> dict[str, str]:
    """Every Noble and Retainer card's name, and every noble's in the game -> what it
    names (`NOBLE`, `RETAINER`)."""
    held = GameState.from_dict(state).nobles.values()
    return {**{name: RETAINER for name, _count, _ability in tables.retainers},
            **{n.name: NOBLE for n in tables.nobles}, **{n.name: NOBLE for n in held}}
