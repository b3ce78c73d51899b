"""Dice: every random number in the service comes from here.

A turn's dice are derived from (game seed, turn number, subsystem): each subsystem
(gambling, theatre, birth of a character ...) has its own `random.Random`, so adding a
roll to one rule never shifts the rolls of another, and a turn rerun from its stored
inputs rolls exactly the same numbers.  Every roll is logged with its purpose, so the
turn sheet can show a player the dice rolled for him and the GM can audit a result.

Tests force outcomes with `ScriptedDice`, which hands out given faces in order.
"""

from __future__ import annotations

import functools
import hashlib
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

_DICE_SPEC = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class DiceSpec:
    """A dice expression such as ``3d6`` or ``2d6+4``."""

    count: int
    sides: int
    bonus: int = 0

    @classmethod
    @functools.lru_cache(maxsize=256)  # a few specs, parsed on every roll: parse each once
    def parse(cls, text: str) -> DiceSpec:
        """Parse ``"2d6+4"``; raises ValueError for anything else."""
        match = _DICE_SPEC.match(text)
        if not match:
            raise ValueError(f"not a dice expression: {text!r}")
        count = int(match.group(1) or 1)
        sides = int(match.group(2))
        bonus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        if count < 1 or sides < 2:
            raise ValueError(f"not a dice expression: {text!r}")
        return cls(count, sides, bonus)

    def __str__(self) -> str:
        bonus = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{bonus}"


@dataclass(frozen=True)
class Roll:
    """One logged roll: what was rolled, why, for whom, and how it came out."""

    subsystem: str
    purpose: str
    spec: str
    faces: tuple[int, ...]
    modifier: int = 0
    actor: str | None = None
    needs: int | None = None

    @property
    def total(self) -> int:
        return sum(self.faces) + DiceSpec.parse(self.spec).bonus + self.modifier

    @property
    def success(self) -> bool | None:
        """True/False when the roll was made against a target number, else None."""
        return None if self.needs is None else self.total >= self.needs

    def describe(self) -> str:
        """``courting Mlle Roxanne: 1d6 = 4, needs 3: success``."""
        faces = "+".join(str(f) for f in self.faces)
        shown = faces if len(self.faces) == 1 else f"{faces} = {sum(self.faces)}"
        text = f"{self.purpose}: {self.spec} = {shown}"
        if self.modifier:
            text += f" {self.modifier:+d} = {self.total}"
        if self.needs is not None:
            text += f", needs {self.needs}: {'success' if self.success else 'failure'}"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "subsystem": self.subsystem,
            "purpose": self.purpose,
            "spec": self.spec,
            "faces": list(self.faces),
            "modifier": self.modifier,
            "actor": self.actor,
            "needs": self.needs,
            "total": self.total,
            "text": self.describe(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Roll:
        return cls(
            subsystem=data["subsystem"],
            purpose=data["purpose"],
            spec=data["spec"],
            faces=tuple(data["faces"]),
            modifier=data.get("modifier", 0),
            actor=data.get("actor"),
            needs=data.get("needs"),
        )


# Speed (a DWTK turn rolls some forty times; values and log the same as before):


@functools.lru_cache(maxsize=256)
def _parsed(spec: str) -> tuple[int, int, str]:
    """(count, sides, canonical text) of a dice expression, worked out once per text."""
    dice = DiceSpec.parse(spec)
    return dice.count, dice.sides, str(dice)


def _new_roll(subsystem: str, purpose: str, spec: str, faces: tuple[int, ...], modifier: int,
              actor: str | None, needs: int | None) -> Roll:
    """``Roll(...)`` with the same fields, without the frozen dataclass's ``__init__``
    (an ``object.__setattr__`` per field): stored straight into the new value's
    ``__dict__``, in field order, as that ``__init__`` would."""
    roll = object.__new__(Roll)
    roll.__dict__.update({"subsystem": subsystem, "purpose": purpose, "spec": spec,
                          "faces": faces, "modifier": modifier, "actor": actor,
                          "needs": needs})
    return roll


class FaceSource(Protocol):
    """Where faces come from: a seeded generator or a test script."""

    def face(self, subsystem: str, sides: int) -> int: ...


def derive_seed(game_seed: int, turn: int, subsystem: str) -> int:
    """A stable 64-bit seed for one subsystem of one turn (independent of PYTHONHASHSEED)."""
    digest = hashlib.sha256(f"{game_seed}:{turn}:{subsystem}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class SeededFaces:
    """Faces from one `random.Random` per subsystem, seeded by `derive_seed`."""

    game_seed: int
    turn: int
    _streams: dict[str, random.Random] = field(default_factory=dict)

    def face(self, subsystem: str, sides: int) -> int:
        stream = self._streams.get(subsystem)
        if stream is None:
            stream = random.Random(derive_seed(self.game_seed, self.turn, subsystem))
            self._streams[subsystem] = stream
        return stream.randint(1, sides)


class DiceExhausted(AssertionError):
    """A scripted test asked for more dice than it scripted."""


@dataclass
class ScriptedFaces:
    """Faces given in advance, in the order the rules will ask for them.

    Either one list for every subsystem, or a mapping subsystem -> list (with an
    optional ``"*"`` list used by subsystems that have none of their own).
    """

    script: dict[str, list[int]]

    def face(self, subsystem: str, sides: int) -> int:
        queue = self.script.get(subsystem) or self.script.get("*")
        if not queue:
            raise DiceExhausted(f"no scripted die left for {subsystem!r} (d{sides})")
        value = queue.pop(0)
        if not 1 <= value <= sides:
            raise ValueError(f"scripted face {value} impossible on a d{sides}")
        return value


class Dice:
    """The dice of one turn: rolls, logs, and hands out subsystem streams."""

    def __init__(self, faces: FaceSource) -> None:
        self._faces = faces
        self.log: list[Roll] = []

    @classmethod
    def for_turn(cls, game_seed: int, turn: int) -> Dice:
        return cls(SeededFaces(game_seed, turn))

    def stream(self, subsystem: str) -> DiceStream:
        return DiceStream(self, subsystem)

    def roll(
        self,
        subsystem: str,
        spec: str,
        purpose: str,
        *,
        actor: str | None = None,
        needs: int | None = None,
        modifier: int = 0,
    ) -> Roll:
        count, sides, text = _parsed(spec)
        face = self._faces.face
        faces = (face(subsystem, sides),) if count == 1 else tuple(
            [face(subsystem, sides) for _ in range(count)])
        roll = _new_roll(subsystem, purpose, text, faces, modifier, actor, needs)
        self.log.append(roll)
        return roll

    def log_dicts(self) -> list[dict[str, Any]]:
        return [roll.to_dict() for roll in self.log]


@dataclass(frozen=True)
class DiceStream:
    """The dice of one subsystem (``dice.stream("gambling").roll("1d6", ...)``)."""

    dice: Dice
    subsystem: str

    def roll(
        self,
        spec: str,
        purpose: str,
        *,
        actor: str | None = None,
        needs: int | None = None,
        modifier: int = 0,
    ) -> Roll:
        return self.dice.roll(
            self.subsystem, spec, purpose, actor=actor, needs=needs, modifier=modifier
        )


class ScriptedDice(Dice):
    """Dice for tests: ``ScriptedDice([6, 1, 4])`` or ``ScriptedDice({"theatre": [5]})``."""

    def __init__(self, script: Iterable[int] | Mapping[str, Iterable[int]]) -> None:
        if isinstance(script, Mapping):
            queues = {name: list(values) for name, values in script.items()}
        else:
            queues = {"*": list(script)}
        self.scripted = ScriptedFaces(queues)
        super().__init__(self.scripted)

    def remaining(self) -> dict[str, list[int]]:
        """What the test scripted but the rules never asked for."""
        return {name: values for name, values in self.scripted.script.items() if values}
