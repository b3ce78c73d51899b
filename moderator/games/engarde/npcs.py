"""The names of En Garde!'s non-player characters, which no player's character may take
(`GameEngine.reserved_names`; moderator/desk/names.py).

The only named NPCs are the ladies of Paris (EG §L).  Each month's new ladies are drawn
from ``names.toml`` as "<honorific> <given> <family>" (`ladies.draw_list`), so every name
those tables can make is reserved, with and without its honorific ("Mlle Anne de Rohan",
"Anne de Rohan": a gentleman of that name would read as her in the gazette), and so is
the name of every lady the state holds now (one named before the tables changed, or
numbered when the names ran out).  Offices and titles name posts, not people.
"""

from __future__ import annotations

from functools import lru_cache

from moderator.games.base import JSON
from moderator.games.engarde.state import Lady
from moderator.games.engarde.tables import Tables

LADY = "a name the ladies of Paris are given (EG §L)"


def reserved_names(state: JSON, tables: Tables) -> dict[str, str]:
    """Every name a lady of Paris has or may be given -> what it names (`LADY`)."""
    s = tables.society
    held = (Lady.from_dict(lady).name for lady in state.get("ladies", {}).values())
    return dict.fromkeys((*_table_names(s.honorifics, s.given_names, s.family_names),
                          *(form for name in held
                            for form in _forms(name, s.honorifics))), LADY)


@lru_cache(maxsize=16)
def _table_names(honorifics: tuple[str, ...], given: tuple[str, ...],
                 family: tuple[str, ...]) -> tuple[str, ...]:
    """Every name the tables make, without an honorific and with each (once per table)."""
    return tuple(name for g in given for f in family
                 for name in (f"{g} {f}", *(f"{h} {g} {f}" for h in honorifics)))


def _forms(name: str, honorifics: tuple[str, ...]) -> tuple[str, ...]:
    """The name, and without its honorific when it has one."""
    title, _, rest = name.partition(" ")
    return (name, rest) if title in honorifics and rest else (name,)
