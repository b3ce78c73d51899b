"""Names <-> keys for characters, clubs, areas, housing types and weapons.

Players type names loosely ("bothwells", "the frog and peach", "cyrano"); we
match case- and punctuation-insensitively and offer a difflib suggestion when
nothing matches (reference §12: "did you mean Red Phillips?").
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from moderator.games.engarde.tables import Tables

_THE = re.compile(r"^the\s+")
_NOT_ALNUM = re.compile(r"[^a-z0-9]")


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """Lower case, no accents, '&' as 'and', no leading 'the', letters and digits only."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = text.lower().replace("&", " and ").strip()
    return _NOT_ALNUM.sub("", _THE.sub("", text))


@dataclass(frozen=True)
class Table:
    """One lookup table: key -> display name, matched loosely."""

    what: str
    names: Mapping[str, str]
    _index: dict[str, str] = field(default_factory=dict, init=False, repr=False,
                                   compare=False)

    def find(self, text: str) -> str | None:
        if not self._index and self.names:  # built on first use: forms never need it
            self._index.update({normalise(key): key for key in self.names})
            self._index.update({normalise(name): key for key, name in self.names.items()})
        return self._index.get(normalise(text))

    def hint(self, text: str) -> str | None:
        """``did you mean X?`` for the closest name, if any is close."""
        by_norm = {normalise(n): n for n in self.names.values()}
        close = difflib.get_close_matches(normalise(text), list(by_norm), n=1, cutoff=0.5)
        return f"did you mean {by_norm[close[0]]}?" if close else None

    def name(self, key: str) -> str:
        return self.names.get(key, key)


@dataclass(frozen=True)
class LadyTable(Table):
    """Ladies are found by full name, with or without the honorific ("Roxanne de Blois"),
    or by "Mlle Roxanne" / "Roxanne" when unique.  ``listed``: the keys of the ladies the
    gazette lists this month (`listed_ladies`; None: all), the only ones a hint names."""

    listed: frozenset[str] | None = None

    def find(self, text: str) -> str | None:
        if not self._index and self.names:
            counts: dict[str, int] = {}
            aliases: dict[str, str] = {}
            for key, name in self.names.items():
                words = name.split()
                for alias in {" ".join(words[:2]), " ".join(words[1:2]), " ".join(words[1:])}:
                    norm = normalise(alias)
                    counts[norm] = counts.get(norm, 0) + 1
                    aliases[norm] = key
            self._index.update({a: k for a, k in aliases.items() if counts[a] == 1})
            self._index.update({normalise(key): key for key in self.names})
            self._index.update({normalise(name): key for key, name in self.names.items()})
        return self._index.get(normalise(text))

    def hint(self, text: str) -> str | None:
        """EG §L: the list of ladies changes every month.  Her own names are compared (not
        'Mlle ... de', which every lady shares: 'Mlle Adelaide de Sully' was offered 'Mlle
        Célestine de Clermont'); with none close, this month's ladies are listed."""
        by_own = {_own(n): n for n in self.names.values()}
        close = difflib.get_close_matches(_own(text), list(by_own), n=1, cutoff=0.6)
        if close:
            return f"did you mean {by_own[close[0]]}?"
        # Only the gazette's list: a kept or expecting lady is not named to a stranger.
        listed = ", ".join(sorted(n for k, n in self.names.items()
                                  if self.listed is None or k in self.listed))
        return ("the ladies change every month; this month's are "
                f"{listed}" if listed else "no lady is on this month's list")


_TITLES = re.compile(r"^(mlle|mme|mademoiselle|madame|lady)\s+|\s+(de|du|des|la|le)\s+",
                     re.IGNORECASE)


def _own(name: str) -> str:
    """Her given and family names, without the honorific and particles every lady shares."""
    return normalise(_TITLES.sub(" ", f"{name} "))


class Lookup:
    """All the tables a parser or a view needs, built once per call."""

    def __init__(self, characters: Mapping[str, str], tables: Tables,
                 ladies: Mapping[str, str] | None = None,
                 listed: frozenset[str] | None = None) -> None:
        """``characters`` maps key -> name (`character_names` builds it from a state);
        ``ladies`` likewise for the NPC ladies (`lady_names`); ``listed``: those the
        gazette lists (`listed_ladies`), the only ones a hint names."""
        self.characters = Table("character", dict(sorted(characters.items())))
        self.ladies = LadyTable("lady", dict(ladies or {}), listed)
        self.positions = Table("position", {p.key: p.name for p in tables.society.positions})
        self.clubs = Table("club", {c.key: c.name for c in tables.clubs})
        self.areas = Table("area", {a.key: a.name for a in tables.areas})
        self.houses = Table("housing type", {h.key: h.name for h in tables.housing_types})
        self.weapons = Table("weapon", {w: w for w in tables.weapons})
        army = tables.army
        self.regiments = Table("regiment", {r.key: r.name for r in army.regiments})
        self.ranks = Table("rank", {k: army.rank_name(k) for k in army.ranks})
        self.appointments = Table("position", {a.key: a.name for a in army.appointments})
        self.crimes = Table("crime", {c.key: c.name for c in army.crimes
                                      if c.kind != "divorce"})

    def regiment(self, key: str) -> str:
        return self.regiments.name(key)

    def rank(self, key: str) -> str:
        return self.ranks.name(key)

    def appointment(self, key: str) -> str:
        return self.appointments.name(key)

    def crime(self, key: str) -> str:
        return self.crimes.name(key)

    def character(self, key: str) -> str:
        return self.characters.name(key)

    def club(self, key: str) -> str:
        return self.clubs.name(key)

    def area(self, key: str) -> str:
        return self.areas.name(key)

    def housing(self, key: str) -> str:
        return self.houses.name(key)

    def lady(self, key: str) -> str:
        return self.ladies.name(key)

    def position(self, key: str) -> str:
        return self.positions.name(key)


def character_names(state: Mapping[str, Any]) -> dict[str, str]:
    """key -> name straight from a state dict (no need to build every `Character`)."""
    return {key: str(c["name"]) for key, c in state["characters"].items()}


def lady_names(state: Mapping[str, Any]) -> dict[str, str]:
    """lady key -> name straight from a state dict."""
    return {key: str(lady["name"]) for key, lady in state.get("ladies", {}).items()}


def listed_ladies(state: Mapping[str, Any]) -> frozenset[str]:
    """The ladies the gazette lists (EG §L, views `ladies_of_paris`): neither kept as a
    mistress or wife nor expecting a child."""
    kept = {k for c in state["characters"].values()
            for k in (c.get("mistress"), c.get("wife")) if k}
    return frozenset(key for key, lady in state.get("ladies", {}).items()
                     if key not in kept and lady.get("pregnant_by") is None)


def keyword_hint(word: str, keywords: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word.upper(), list(keywords), n=1, cutoff=0.6)
    return f"did you mean {close[0]}?" if close else None
