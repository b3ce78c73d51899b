"""The game's tables as frozen values (``Tables`` and what it holds).

The loader and validator (`loader.load_tables`) builds them from
``data/dwtk/*.toml``; rule modules only read them.  Effects of table rows come from one
vocabulary, `EFFECTS` (docs/dwtk-by-email.md, Tables).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any

# Effects a table row may carry, and the kind of argument each takes (after a colon).
EFFECTS: Mapping[str, str | None] = {
    "pp": "int", "ip": "int", "support": "int", "cargo": "int", "trial_mod": "int",
    "next_roll": "int", "discard": "card", "discharge": "office",
    "banned": None, "accused": None, "scandal": None, "duel": None, "duel_drunk": None,
    "free_counsel": None, "proposal": None, "hearing": None, "accuser_accused": None,
    "assassin_dies": None, "assassin_trial": None, "assassin_hearing": None,
    "assassin_accused": None, "target_dies": None, "dies": None, "implicates": None,
    "not_guilty": None, "banished": None, "imprisoned": None, "awaiting_execution": None,
    "executed": None, "farc_lost": None, "voyage_ends": None, "cargo_lost": None,
    "captain_dies": None, "storm": None, "returns": None, "armed_ship": None,
    "rejected": None, "accepted": None, "lose_office": None, "to_besyzan": None,
    "resolve": None, "resolve_quietly": None, "extradite_named": None,
    "accuse_named": None, "besyzan_named": None, "title_named": None,
    "office_named": None, "ban_named": None, "hearing_object": None, "ban_object": None,
    "purge_counselor_named": None,
}


class Sex(StrEnum):
    MALE = "m"
    FEMALE = "f"


class NobleKind(StrEnum):
    """Card groups of the Nobles Deck (DWTK 2.1.2, 16.1, 19.2, 20.7)."""

    NOBLE = "noble"  # 11-44: may hold office and duel
    OFFICIAL = "official"  # 45-54: Magistrate, Judges, Sheriff, General, Admiral
    CLERGY = "clergy"  # 55: the Archbishop
    LADY = "lady"  # 56, 61-66


class OfficeKind(StrEnum):
    MONARCH = "monarch"
    MINISTER = "minister"
    AMBASSADOR = "ambassador"


@dataclass(frozen=True)
class NobleCard:
    """One card of the Nobles Deck (DWTK 2.1.2): Status, Ability, Dueling (or Seduction)."""

    id: int
    name: str
    kind: NobleKind
    status: int
    ability: int | None = None
    dueling: int | None = None
    seduction: int | None = None
    trial_numbers: tuple[int, ...] = ()
    provenance: str = "rulebook"

    @property
    def key(self) -> str:
        return str(self.id)

    @property
    def sex(self) -> Sex:
        return Sex.FEMALE if self.kind is NobleKind.LADY else Sex.MALE

    @property
    def office_holder(self) -> bool:
        """DWTK 16.1: only characters 11-44 may hold office."""
        return self.kind is NobleKind.NOBLE

    @property
    def can_duel(self) -> bool:
        """DWTK 19.2: 11-44 and 52-54."""
        return self.dueling is not None

    @property
    def can_travel(self) -> bool:
        """DWTK 20.7: the Magistrate, Judges, Sheriff and Archbishop never leave Fandonia."""
        return self.kind in (NobleKind.NOBLE, NobleKind.LADY) or self.id in (53, 54)


@dataclass(frozen=True)
class RoyalCard:
    """One card of the Royalty Deck (DWTK 2.1.1)."""

    key: str
    name: str
    sex: Sex
    status: int
    dice: str
    times: int
    halve: bool
    deaths: tuple[int, ...]


@dataclass(frozen=True)
class Country:
    key: str
    name: str


@dataclass(frozen=True)
class Office:
    """One card of the Office Deck (DWTK 2.1.3)."""

    key: str
    name: str
    kind: OfficeKind
    status: int
    portfolio: str = ""
    country: str | None = None


@dataclass(frozen=True)
class SupportValue:
    """A Support card's Usurpation Value and what raises it (DWTK 14.5.2, 7.10.5, 7.11)."""

    dice: str
    times: int
    boosted: int
    when: tuple[str, ...]
    at_war: int | None = None
    pirates: int | None = None


@dataclass(frozen=True)
class CardKind:
    """A kind of Event card and how many the deck holds (DWTK 2.1.4, 14.5)."""

    key: str
    name: str
    count: int
    legal: bool = True
    support: SupportValue | None = None
    royal: str | None = None
    provenance: str = "rulebook"


@dataclass(frozen=True)
class Opportunity:
    key: str
    name: str
    count: int


@dataclass(frozen=True)
class Effect:
    """One effect of a table row: ``pp:-2`` is Effect("pp", -2)."""

    name: str
    arg: int | str | None = None

    @property
    def amount(self) -> int:
        return self.arg if isinstance(self.arg, int) else 0

    def __str__(self) -> str:
        return self.name if self.arg is None else f"{self.name}:{self.arg}"


@dataclass(frozen=True)
class RangeRow:
    """A row over a modified dice total; ``low``/``high`` None mean open-ended."""

    low: int | None
    high: int | None
    effects: tuple[Effect, ...]
    mod: int = 0

    def has(self, name: str) -> bool:
        return any(e.name == name for e in self.effects)

    def total(self, name: str) -> int:
        return sum(e.amount for e in self.effects if e.name == name)


@dataclass(frozen=True)
class RangeTable:
    key: str
    rows: tuple[RangeRow, ...]

    def lookup(self, total: int) -> RangeRow:
        for row in self.rows:
            if (row.low is None or total >= row.low) and (row.high is None or total <= row.high):
                return row
        raise LookupError(f"{self.key}: no row for {total}")  # validation prevents this


@dataclass(frozen=True)
class Problem:
    """A row of the Political Problems Table (DWTK 7.1; PROPOSED)."""

    key: str
    name: str
    minister: str
    modifiers: tuple[str, ...]
    rolls: tuple[int, ...]


@dataclass(frozen=True)
class PrestigeTable:
    key: str
    name: str
    cost: int
    male_only: bool
    table: RangeTable


@dataclass(frozen=True)
class Counsel:
    key: str
    name: str
    modifiers: tuple[str, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Title:
    male: str
    female: str
    status: int
    cost: int


@dataclass(frozen=True)
class Tables:
    """Everything the engine reads from data files."""

    royals: tuple[RoyalCard, ...]
    nobles: tuple[NobleCard, ...]
    succession: tuple[str, ...]
    countries: tuple[Country, ...]
    offices: tuple[Office, ...]
    cards: tuple[CardKind, ...]
    opportunities: tuple[Opportunity, ...]
    setup: Mapping[str, Any]
    turn: Mapping[str, Any]
    readings: Mapping[str, Any]
    support_value: tuple[tuple[int, int], ...]
    crown_events: Mapping[int, str]
    problems: tuple[Problem, ...]
    wars: Mapping[int, tuple[str, ...]]
    court_ball: RangeTable
    prestige: Mapping[str, PrestigeTable]
    privateering: Mapping[str, int]
    justice: Mapping[str, RangeTable]
    justice_rules: Mapping[str, int]
    counseling_results: RangeTable
    counseling: Mapping[str, tuple[Counsel, ...]]
    titles: tuple[Title, ...]
    no_titles: tuple[int, ...]

    def noble(self, cid: int | str) -> NobleCard:
        return self._nobles[int(cid)]

    def royal(self, key: str) -> RoyalCard:
        found = self._by_key["royals"].get(key)
        return found if found is not None else next(r for r in self.royals if r.key == key)

    def office(self, key: str) -> Office:
        found = self._by_key["offices"].get(key)
        return found if found is not None else next(o for o in self.offices if o.key == key)

    def country(self, key: str) -> Country:
        found = self._by_key["countries"].get(key)
        return found if found is not None else next(c for c in self.countries if c.key == key)

    def card_kind(self, key: str) -> CardKind:
        found = self._by_key["cards"].get(key)
        return found if found is not None else next(c for c in self.cards if c.key == key)

    def problem(self, key: str) -> Problem:
        found = self._by_key["problems"].get(key)
        return found if found is not None else next(p for p in self.problems if p.key == key)

    @cached_property
    def _by_key(self) -> dict[str, dict[str, Any]]:
        """Pure lookups by key, built once (the first of equal keys wins, as `next` did)."""
        out: dict[str, dict[str, Any]] = {}
        for name in ("royals", "offices", "countries", "cards", "problems"):
            index: dict[str, Any] = {}
            for item in getattr(self, name):
                index.setdefault(item.key, item)
            out[name] = index
        return out

    def problem_for_roll(self, total: int) -> Problem:
        return next(p for p in self.problems if total in p.rolls)

    def ambassador_of(self, country: str) -> Office:
        return next(o for o in self.offices if o.country == country)

    @cached_property
    def _nobles(self) -> dict[int, NobleCard]:
        return {n.id: n for n in self.nobles}

    def card_instances(self) -> tuple[str, ...]:
        """Every physical Event card: ``treachery-1`` ... (the 120 of DWTK 2.1.4)."""
        return tuple(f"{c.key}-{n}" for c in self.cards for n in range(1, c.count + 1))

    def opportunity_instances(self) -> tuple[str, ...]:
        return tuple(f"{o.key}-{n}" for o in self.opportunities
                     for n in range(1, o.count + 1))

    def rule(self, name: str) -> int:
        return int(self.turn[name])

    def reading(self, name: str) -> Any:
        return self.readings[name]


@lru_cache(maxsize=4096)  # speed: called for every card in every hand, many times a turn
def kind_of(card: str) -> str:
    """``treachery-3`` -> ``treachery``."""
    return card.rsplit("-", 1)[0]
