"""The game's tables (``data/engarde/*.toml``): raw TOML dicts in, frozen values out.

`core` has `Tables` (everything the engine reads), `load_tables` and the Paris tables
(birth, clubs, toadying, housing, the theatre, the rules' numbers); `society` the
mistresses, loans and influence (EG §L, §Q, §S); `army` the regiments, the front, duels,
appointments, titles and trials (reference §4-8, EG §R).  All read with the shared
collecting `moderator.games.table_reader.Reader`.
"""

from __future__ import annotations

from moderator.games.engarde.tables.army import Appointment, Army, Regiment
from moderator.games.engarde.tables.core import (
    Area,
    BirthRow,
    Club,
    HousingType,
    Outcome,
    Tables,
    load_tables,
)
from moderator.games.engarde.tables.society import Society

__all__ = ["Appointment", "Area", "Army", "BirthRow", "Club", "HousingType", "Outcome",
           "Regiment", "Society", "Tables", "load_tables"]
