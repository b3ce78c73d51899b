"""The game state: frozen dataclasses with a deterministic JSON form.

The service stores ``GameState.to_dict()``; every dict is emitted with sorted
keys and characters in key order, so the same game always serialises to the
same JSON (EG §A–B for the character fields, §P for housing, §O for the play).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

JSON = dict[str, Any]


class Tenure(StrEnum):
    """How a character holds the roof over his head (EG §P)."""

    RENTED = "rented"
    OWNED = "owned"
    FAMILY = "family"  # a title's family home: owned, never sold


@dataclass(frozen=True)
class Home:
    """Where a character lives (EG §P)."""

    area: str
    kind: str
    tenure: Tenure

    def to_dict(self) -> JSON:
        return {"area": self.area, "kind": self.kind, "tenure": self.tenure.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Home:
        return cls(data["area"], data["kind"], Tenure(data["tenure"]))


@dataclass(frozen=True)
class Property:
    """An owned house the character does not live in, perhaps on offer to let (EG §P)."""

    area: str
    kind: str
    family: bool = False
    letting: bool = False

    def to_dict(self) -> JSON:
        return {"area": self.area, "kind": self.kind, "family": self.family,
                "letting": self.letting}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Property:
        return cls(data["area"], data["kind"], data.get("family", False),
                   data.get("letting", False))


@dataclass(frozen=True)
class Character:
    """One player character (EG §A–B) and what he has accumulated since."""

    key: str
    name: str
    social_class: str
    sibling: str
    orphan: bool
    father: str
    title: str | None
    sl: int
    strength: int
    constitution: int
    endurance: int
    military_ability: int
    expertise: Mapping[str, int]
    crowns: int
    allowance: int
    practice_weeks: Mapping[str, int] = field(default_factory=dict)
    club: str | None = None
    rejoin_bars: Mapping[str, int] = field(default_factory=dict)  # club -> first week allowed
    home: Home | None = None
    properties: tuple[Property, ...] = ()
    lonely_months: int = 0  # consecutive months without female company (EG §L)
    missed_months: int = 0  # consecutive months without orders
    sp_month: int = 0  # SP of the last month adjudicated
    sl_change: int = 0  # -1, 0, +1 last month
    standing: JSON | None = None  # standing orders, kept until replaced
    nmr: JSON | None = None  # orders used when none arrive

    @property
    def noble(self) -> bool:
        return self.social_class == "noble"

    def to_dict(self) -> JSON:
        return {
            "key": self.key, "name": self.name, "social_class": self.social_class,
            "sibling": self.sibling, "orphan": self.orphan, "father": self.father,
            "title": self.title, "sl": self.sl, "strength": self.strength,
            "constitution": self.constitution, "endurance": self.endurance,
            "military_ability": self.military_ability,
            "expertise": dict(sorted(self.expertise.items())),
            "crowns": self.crowns, "allowance": self.allowance,
            "practice_weeks": dict(sorted(self.practice_weeks.items())),
            "club": self.club, "rejoin_bars": dict(sorted(self.rejoin_bars.items())),
            "home": self.home.to_dict() if self.home else None,
            "properties": [p.to_dict() for p in self.properties],
            "lonely_months": self.lonely_months, "missed_months": self.missed_months,
            "sp_month": self.sp_month, "sl_change": self.sl_change,
            "standing": self.standing, "nmr": self.nmr,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Character:
        home = data.get("home")
        return cls(
            key=data["key"], name=data["name"], social_class=data["social_class"],
            sibling=data["sibling"], orphan=data["orphan"], father=data["father"],
            title=data.get("title"), sl=data["sl"], strength=data["strength"],
            constitution=data["constitution"], endurance=data["endurance"],
            military_ability=data["military_ability"], expertise=dict(data["expertise"]),
            crowns=data["crowns"], allowance=data["allowance"],
            practice_weeks=dict(data.get("practice_weeks", {})), club=data.get("club"),
            rejoin_bars=dict(data.get("rejoin_bars", {})),
            home=Home.from_dict(home) if home else None,
            properties=tuple(Property.from_dict(p) for p in data.get("properties", ())),
            lonely_months=data.get("lonely_months", 0),
            missed_months=data.get("missed_months", 0),
            sp_month=data.get("sp_month", 0), sl_change=data.get("sl_change", 0),
            standing=data.get("standing"), nmr=data.get("nmr"),
        )


@dataclass(frozen=True)
class Theatre:
    """The current play (EG §O): a long run skips its first night."""

    play: int = 1
    long_run: bool = False  # this month continues last month's play
    run_months: int = 0  # months the current play has run before this one
    last_outcome: str | None = None  # the reception roll of the running play
    box_holders: tuple[str, ...] = ()  # who held a box last month

    def to_dict(self) -> JSON:
        return {"play": self.play, "long_run": self.long_run, "run_months": self.run_months,
                "last_outcome": self.last_outcome, "box_holders": list(self.box_holders)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Theatre:
        return cls(data.get("play", 1), data.get("long_run", False), data.get("run_months", 0),
                   data.get("last_outcome"), tuple(data.get("box_holders", ())))


@dataclass(frozen=True)
class GameState:
    """A whole game between two turns."""

    name: str
    month: int  # 1-12
    year: int
    turn: int  # 1 for the first month played
    characters: Mapping[str, Character]
    theatre: Theatre = Theatre()

    @property
    def week_base(self) -> int:
        """Absolute index of this month's week 0 (week n is week_base + n)."""
        return (self.turn - 1) * 4

    def to_dict(self) -> JSON:
        return {
            "game": "engarde",
            "name": self.name, "month": self.month, "year": self.year, "turn": self.turn,
            "characters": {k: self.characters[k].to_dict() for k in sorted(self.characters)},
            "theatre": self.theatre.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            name=data["name"], month=data["month"], year=data["year"], turn=data["turn"],
            characters={k: Character.from_dict(v) for k, v in data["characters"].items()},
            theatre=Theatre.from_dict(data.get("theatre", {})),
        )
