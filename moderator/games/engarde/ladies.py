"""The ladies of Paris (EG §L; reference §10.1): the monthly list, who keeps whom.

At the end of each month the unclaimed ladies of the list leave it and a new list
is drawn for next month: one lady per player character, SL 3d6, Beautiful,
Influential and Wealthy each on 1-2 on 1d6, a secret loyalty of 1d6 (PROPOSED),
and a name from ``names.toml``.  A lady who leaves her man (bored, dumped,
paid off ...) leaves the game with her favours (EG §S: saved "for the duration
of the affair").  All rolls are on the ``ladies`` dice stream.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.state import Lady


def lady_sp(m: Month, a: Actor, lady: Lady) -> int:
    """SP for keeping her (EG §L): 1, + the SL difference if hers is higher, +1 Beautiful."""
    s = m.tables.society
    return int(s.m("status", "base_sp") + max(0, lady.sl - a.sl)
               + (s.m("status", "beautiful_sp") if lady.beautiful else 0))


def mistress_of(m: Month, a: Actor) -> Lady | None:
    return m.ladies.get(a.c.mistress) if a.c.mistress else None


def wife_of(m: Month, a: Actor) -> Lady | None:
    return m.ladies.get(a.c.wife) if a.c.wife else None


def take(m: Month, a: Actor, key: str) -> None:
    """``a`` now keeps lady ``key`` (won by courting or fallen in love)."""
    m.keepers[key] = a.key
    m.ladies[key] = replace(m.ladies[key], since=m.turn, favour_turn=None, engaged=None)
    a.update(mistress=key)


def leave(m: Month, key: str, reason: str, *, public: bool = True) -> None:
    """Lady ``key`` leaves her man (if any) and Paris; her favours go with her."""
    lady = m.ladies.pop(key, None)
    man = m.keepers.pop(key, None)
    if lady is None or man is None:
        return
    a = m.actors[man]
    favours = tuple(f for f in a.c.favours if f.lady != key)
    if a.c.mistress == key:
        a.update(mistress=None, favours=favours)
    elif a.c.wife == key:
        a.update(wife=None, favours=favours)
    m.emit(man, EventId.MISTRESS_LOST, {"lady": lady.name, "reason": reason,
                                        "wife": lady.married}, public=public)


def set_lady(m: Month, key: str, **changes: object) -> Lady:
    lady = replace(m.ladies[key], **changes)  # type: ignore[arg-type]
    m.ladies[key] = lady
    return lady


def draw_list(m: Month) -> None:
    """Next month's list (EG §L; reference §10.1): the unclaimed leave, new ones arrive."""
    for key in [k for k, lady in m.ladies.items()
                if k not in m.keepers and lady.pregnant_by is None]:
        del m.ladies[key]
    s = m.tables.society
    gen = s.mistress["generation"]
    stream = m.dice.stream("ladies")
    taken = {lady.name for lady in m.ladies.values()}
    # Once every name of the tables is taken, `_name` would probe them all for each new
    # lady before falling back: counting the free ones skips that (quadratic) search.
    space = _space(m)
    free = len(space) - sum(1 for name in taken if name in space)
    for _ in range(gen["per_character"] * len(m.actors)):
        m.lady_serial += 1
        key = f"lady{m.lady_serial}"

        sl = stream.roll(gen["sl"], f"{key}: social level").total
        beautiful, influential, wealthy = (
            stream.roll(gen["attribute_die"], f"{key}: {what}?").total in gen["attribute_faces"]
            for what in ("beautiful", "influential", "wealthy"))
        loyalty = stream.roll(s.m("loyalty", "dice"), f"{key}: loyalty (secret)").total
        name = _name(m, key, taken, full=free == 0)
        if name in space:
            free -= 1
        taken.add(name)
        m.ladies[key] = Lady(key, name, sl, beautiful, influential, wealthy, loyalty,
                             m.turn + 1)
    m.ladies = dict(sorted(m.ladies.items(), key=lambda kv: _order(kv[0])))


def _order(key: str) -> tuple[int, str]:
    digits = key[4:] if key.startswith("lady") else ""
    return (int(digits), key) if digits.isdigit() else (0, key)


def _space(m: Month) -> frozenset[str]:
    """Every name `_name` can give before its fallback (each title with each pair)."""
    s = m.tables.society
    return _names(tuple(s.honorifics), tuple(s.given_names), tuple(s.family_names))


@lru_cache(maxsize=8)
def _names(honorifics: tuple[str, ...], given_names: tuple[str, ...],
           family_names: tuple[str, ...]) -> frozenset[str]:
    """`_space` of these lists, made once (thousands of names; a receipt's forecast runs
    a month, and so asked for it each time)."""
    return frozenset(f"{title} {given} {family}" for title in honorifics
                     for given in given_names for family in family_names)


def _name(m: Month, key: str, taken: set[str], full: bool = False) -> str:
    """A free name: roll a given and a family name, then step on until one is unused
    (``full``: every name of the tables is taken, go straight to the fallback)."""
    s = m.tables.society
    stream = m.dice.stream("ladies")
    given, family, hon = s.given_names, s.family_names, s.honorifics
    g = stream.roll(f"1d{len(given)}", f"{key}: given name").total - 1 if len(given) > 1 else 0
    f = stream.roll(f"1d{len(family)}", f"{key}: family name").total - 1 \
        if len(family) > 1 else 0
    total = len(given) * len(family)
    for step in range(0 if full else total * len(hon)):
        index = (g * len(family) + f + step) % total
        title = hon[(g + f + step // total) % len(hon)]
        name = f"{title} {given[index // len(family)]} {family[index % len(family)]}"
        if name not in taken:
            return name
    return f"{hon[0]} {given[g]} {family[f]} ({key[4:]})"
