"""The world between two turns: the play (EG §O), the ladies of Paris (EG §L) and
`GameState`, the whole game with its deterministic JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.games.engarde.state.character import JSON, Character
from moderator.games.engarde.state.records import Challenge, Charge, Loan, Matter


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
class Lady:
    """An NPC lady (EG §L; reference §10.1): on the list, kept, or married.

    Who keeps her is stored on the man (`Character.mistress` / `.wife`); a lady no
    man names is available and appears in "Ladies of Paris".  ``loyalty`` is secret.
    """

    key: str
    name: str
    sl: int
    beautiful: bool
    influential: bool
    wealthy: bool
    loyalty: int
    listed: int  # turn she was put on the list
    since: int | None = None  # turn the present affair (or marriage) began
    married: bool = False
    favour_turn: int | None = None  # turn her last yearly favours were given (EG §S)
    engaged: int | None = None  # last turn the announced wedding may take place
    pregnant_by: str | None = None  # the father (reference §10.4)
    conceived: int | None = None  # turn of conception; birth at conceived + 9
    answered: str | None = None  # the father's answer to the news (EG §L)

    def to_dict(self) -> JSON:
        return {"key": self.key, "name": self.name, "sl": self.sl,
                "beautiful": self.beautiful, "influential": self.influential,
                "wealthy": self.wealthy, "loyalty": self.loyalty, "listed": self.listed,
                "since": self.since, "married": self.married, "favour_turn": self.favour_turn,
                "engaged": self.engaged, "pregnant_by": self.pregnant_by,
                "conceived": self.conceived, "answered": self.answered}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Lady:
        return cls(data["key"], data["name"], data["sl"], data.get("beautiful", False),
                   data.get("influential", False), data.get("wealthy", False),
                   data["loyalty"], data.get("listed", 0), data.get("since"),
                   data.get("married", False), data.get("favour_turn"), data.get("engaged"),
                   data.get("pregnant_by"), data.get("conceived"), data.get("answered"))


@dataclass(frozen=True)
class GameState:
    """A whole game between two turns."""

    name: str
    month: int  # 1-12
    year: int
    turn: int  # 1 for the first month played
    characters: Mapping[str, Character]
    theatre: Theatre = Theatre()
    ladies: Mapping[str, Lady] = field(default_factory=dict)
    lady_serial: int = 0  # numbers the ladies' keys
    loans: tuple[Loan, ...] = ()
    loan_serial: int = 0
    matters: tuple[Matter, ...] = ()
    # Duels (reference §6) and trials (EG §R) waiting for next month.
    challenges: tuple[Challenge, ...] = ()
    charges: tuple[Charge, ...] = ()
    charge_serial: int = 0
    # The GM's decisions (GM's desk: ``moderator decide GAME KEY VALUE``): key -> value.
    # Each rule that needs one reads it here, uses a documented default when it is
    # missing, says on the turn sheet which applied, and removes the key it used.
    decisions: Mapping[str, str] = field(default_factory=dict)
    # Reference §5: this season's deployed brigades and the NPC commanders' MA.
    campaign: Mapping[str, Any] = field(default_factory=dict)

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
            "ladies": {k: self.ladies[k].to_dict() for k in sorted(self.ladies)},
            "lady_serial": self.lady_serial,
            "loans": [loan.to_dict() for loan in self.loans],
            "loan_serial": self.loan_serial,
            "matters": [m.to_dict() for m in self.matters],
            "challenges": [c.to_dict() for c in self.challenges],
            "charges": [c.to_dict() for c in self.charges],
            "charge_serial": self.charge_serial,
            "decisions": dict(sorted(self.decisions.items())),
            "campaign": _sorted(self.campaign),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            name=data["name"], month=data["month"], year=data["year"], turn=data["turn"],
            characters={k: Character.from_dict(v) for k, v in data["characters"].items()},
            theatre=Theatre.from_dict(data.get("theatre", {})),
            ladies={k: Lady.from_dict(v) for k, v in data.get("ladies", {}).items()},
            lady_serial=data.get("lady_serial", 0),
            loans=tuple(Loan.from_dict(v) for v in data.get("loans", ())),
            loan_serial=data.get("loan_serial", 0),
            matters=tuple(Matter.from_dict(v) for v in data.get("matters", ())),
            challenges=tuple(Challenge.from_dict(v) for v in data.get("challenges", ())),
            charges=tuple(Charge.from_dict(v) for v in data.get("charges", ())),
            charge_serial=data.get("charge_serial", 0),
            decisions={str(k): str(v) for k, v in data.get("decisions", {}).items()},
            campaign=dict(data.get("campaign", {})),
        )


def _sorted(value: Any) -> Any:
    """Dicts with sorted keys, all the way down (deterministic JSON)."""
    if isinstance(value, Mapping):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [_sorted(v) for v in value]
    return value
