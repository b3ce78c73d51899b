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
    free = FreeNames(s.given_names, s.family_names, s.honorifics,
                     {lady.name for lady in m.ladies.values()})
    for _ in range(gen["per_character"] * len(m.actors)):
        m.lady_serial += 1
        key = f"lady{m.lady_serial}"

        sl = stream.roll(gen["sl"], f"{key}: social level").total
        beautiful, influential, wealthy = (
            stream.roll(gen["attribute_die"], f"{key}: {what}?").total in gen["attribute_faces"]
            for what in ("beautiful", "influential", "wealthy"))
        loyalty = stream.roll(s.m("loyalty", "dice"), f"{key}: loyalty (secret)").total
        name = _name(m, key, free)
        m.ladies[key] = Lady(key, name, sl, beautiful, influential, wealthy, loyalty,
                             m.turn + 1)
    m.ladies = dict(sorted(m.ladies.items(), key=lambda kv: _order(kv[0])))


def _order(key: str) -> tuple[int, str]:
    digits = key[4:] if key.startswith("lady") else ""
    return (int(digits), key) if digits.isdigit() else (0, key)


class FreeNames:
    """The names of the tables not yet taken, for `_name`'s search: a given and a family
    name are rolled, then the pairs are stepped through from there (wrapping round), under
    one honorific after another, to the first free name.

    Stepping one by one grew with the square of the ladies once the names ran short (at
    5,000 characters there are more ladies than the 3,200 names: the last free ones took
    thousands of steps each); here each honorific keeps, for every taken pair, a pointer
    towards the next free pair (a "next free" forest, its paths shortened as they are
    walked; a pair is free while it has no pointer), so a search takes a few steps and finds the
    same name.  It is built from the taken names alone (through `_name_places`, made once
    per name table): a receipt's forecast draws a list every message (issue 16, goal 3)."""

    def __init__(self, given: tuple[str, ...], family: tuple[str, ...],
                 honorifics: tuple[str, ...], taken: set[str]) -> None:
        self.given, self.family, self.honorifics = given, family, honorifics
        self.pairs = len(given) * len(family)
        self.next: list[dict[int, int]] = [{} for _ in honorifics]
        self.places = _name_places(given, family, honorifics)
        for name in taken:
            self._take(name)

    def _take(self, name: str) -> None:
        """``name`` is taken, at every place the tables spell it."""
        for which, index in self.places.get(name, ()):
            self.next[which].setdefault(index, (index + 1) % self.pairs)

    def _text(self, title: str, index: int) -> str:
        return f"{title} {self.given[index // len(self.family)]} " \
               f"{self.family[index % len(self.family)]}"

    @staticmethod
    def _first_free(chain: dict[int, int], start: int) -> int:
        found = start
        while found in chain:
            found = chain[found]
        while start != found:  # every pointer walked now points at it
            chain[start], start = found, chain[start]
        return found

    def claim(self, g: int, f: int, key: str) -> str:
        """The first free name from given name ``g`` and family name ``f`` (EG §L), taken
        now; with none left, the rolled name with the lady's number."""
        start = (g * len(self.family) + f) % self.pairs
        for turn in range(len(self.honorifics)):
            which = (g + f + turn) % len(self.honorifics)
            if len(self.next[which]) < self.pairs:  # a pair free under this honorific
                name = self._text(self.honorifics[which],
                                  self._first_free(self.next[which], start))
                self._take(name)
                return name
        return f"{self.honorifics[0]} {self.given[g]} {self.family[f]} ({key[4:]})"


@lru_cache(maxsize=16)
def _name_places(given: tuple[str, ...], family: tuple[str, ...],
                 honorifics: tuple[str, ...]) -> dict[str, tuple[tuple[int, int], ...]]:
    """Every name the tables can make, with where it stands: (honorific, pair) for each
    place that spells it (a table may spell one name twice)."""
    places: dict[str, list[tuple[int, int]]] = {}
    for which, title in enumerate(honorifics):
        for g, given_name in enumerate(given):
            for f, family_name in enumerate(family):
                places.setdefault(f"{title} {given_name} {family_name}", []).append(
                    (which, g * len(family) + f))
    return {name: tuple(found) for name, found in places.items()}


def _name(m: Month, key: str, free: FreeNames) -> str:
    """A free name: roll a given and a family name, then step on until one is unused
    (`FreeNames.claim`)."""
    s = m.tables.society
    stream = m.dice.stream("ladies")
    given, family = s.given_names, s.family_names
    g = stream.roll(f"1d{len(given)}", f"{key}: given name").total - 1 if len(given) > 1 else 0
    f = stream.roll(f"1d{len(family)}", f"{key}: family name").total - 1 \
        if len(family) > 1 else 0
    return free.claim(g, f, key)
