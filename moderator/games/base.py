"""The contract between the service and a game engine.

An engine is pure: it gets plain JSON-able data (state, orders, tables) and the
turn's `Dice`, and returns new data plus events.  It never touches the database,
email, templates or the scheduler; the service does all I/O around it.

Boundaries are JSON-shaped on purpose (``dict`` state, ``dict`` orders) so the
service can store and replay them without knowing any game; inside, an engine
works with its own frozen dataclasses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from moderator.dice import Dice

JSON = dict[str, Any]


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class OrderError:
    """A problem with one line of a player's orders, reported in the receipt."""

    line: int
    text: str
    message: str
    hint: str | None = None
    severity: Severity = Severity.ERROR

    def to_dict(self) -> JSON:
        return {
            "line": self.line,
            "text": self.text,
            "message": self.message,
            "hint": self.hint,
            "severity": self.severity.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OrderError:
        return cls(
            line=data["line"],
            text=data["text"],
            message=data["message"],
            hint=data.get("hint"),
            severity=Severity(data.get("severity", "error")),
        )


@dataclass(frozen=True)
class ParsedOrders:
    """What the parser made of one message.

    ``orders`` is the engine's JSON form of the accepted orders (what the turn
    runner hands back to `adjudicate`); ``normal_form`` is every accepted order
    read back in canonical syntax, one line each; ``errors`` holds every problem
    found (errors and warnings), never just the first.
    """

    orders: JSON
    normal_form: tuple[str, ...]
    errors: tuple[OrderError, ...] = ()

    @property
    def hard_errors(self) -> tuple[OrderError, ...]:
        return tuple(e for e in self.errors if e.severity is Severity.ERROR)


# The keys of an event's JSON form that are not ledger amounts (see `Event.to_dict`).
_EVENT_KEYS = frozenset({"id", "args", "actor", "public", "week"})


@dataclass(frozen=True)
class Event:
    """Something that happened, as an id plus arguments; templates write the prose.

    ``actor`` is the character the event belongs to (None for world events);
    ``public`` events appear in the gazette, private ones only on the actor's turn
    sheet.  ``ledger`` holds the actor's gains (negative: losses) caused by this event,
    by the game's own account names (En Garde!: ``sp`` and ``crowns``), so a turn
    sheet's ledgers are just the actor's events; a game without ledgers leaves it empty.
    """

    id: str
    args: Mapping[str, Any] = field(default_factory=dict)
    actor: str | None = None
    public: bool = True
    week: int | None = None
    ledger: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> JSON:
        """The stored JSON form: the ledger's accounts sit between ``public`` and
        ``week``, each a top-level key, in the engine's order (templates read
        ``e.sp``; stored turns compare byte for byte, so the order is part of the form)."""
        return {
            "id": self.id,
            "args": dict(self.args),
            "actor": self.actor,
            "public": self.public,
            **self.ledger,
            "week": self.week,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """Back from `to_dict`: every key that is not one of the fixed ones is a ledger
        amount."""
        return cls(
            id=data["id"],
            args=dict(data.get("args", {})),
            actor=data.get("actor"),
            public=data.get("public", True),
            week=data.get("week"),
            ledger={k: int(v) for k, v in data.items() if k not in _EVENT_KEYS},
        )


@dataclass(frozen=True)
class TurnResult:
    state: JSON
    events: tuple[Event, ...]


@dataclass(frozen=True)
class NewsletterContext:
    """Template contexts for one turn: the public gazette and each private turn sheet."""

    gazette: JSON
    sheets: Mapping[str, JSON]


TablesT = TypeVar("TablesT")
"""An engine's validated tables: whatever frozen value its `load_tables` builds."""

WorldT = TypeVar("WorldT")
"""What a phase works on: the engine's mutable working state for one turn."""


@dataclass(frozen=True)
class Phase(Generic[WorldT]):
    """One step of a turn: its priority (the run order), a name for people, the step."""

    priority: int
    name: str
    step: Callable[[WorldT], None]


@dataclass(frozen=True)
class PhaseTable(Generic[WorldT]):
    """A declared turn order (a rulebook's sequence of play).

    `run` takes the phases by ascending priority, so the numbers are the order and not
    labels; `problems` reports a table whose priorities repeat or whose rows are not
    written in that order (the table should read as it runs).
    """

    name: str
    phases: tuple[Phase[WorldT], ...]

    def ordered(self) -> tuple[Phase[WorldT], ...]:
        # sorted() is stable, but `problems` forbids ties: the order is never left to it.
        return tuple(sorted(self.phases, key=lambda p: p.priority))

    def run(self, world: WorldT) -> None:
        for phase in self.ordered():
            phase.step(world)

    def problems(self) -> list[str]:
        found: list[str] = []
        seen: dict[int, str] = {}
        for phase in self.phases:
            if phase.priority in seen:
                found.append(f"{self.name}: priority {phase.priority} of {phase.name!r} "
                             f"is {seen[phase.priority]!r}'s too")
            seen.setdefault(phase.priority, phase.name)
        if list(self.phases) != sorted(self.phases, key=lambda p: p.priority):
            found.append(f"{self.name}: phases are not written in ascending priority")
        return found


def load_problems(load: Callable[[JSON], object], state: JSON) -> list[str]:
    """`GameEngine.validate_state` for an engine that checks only that its state loader
    takes the state (a hand-amended one): what the loader rejects, nothing more."""
    try:
        load(state)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return [f"the state does not load: {exc.__class__.__name__} {exc}"]
    return []


def label_in_sentence(label: str) -> str:
    """A turn's name (`GameEngine.turn_label`) inside a sentence: "Orders for the muster",
    "for the court assembles": a name that opens with its article lowers it; a proper
    name ("Round 2", "April 1625") stays as it is."""
    return "t" + label[1:] if label.startswith("The ") else label


class GameEngine(Protocol[TablesT]):
    """What every game under `moderator/games/` provides (see `games/__init__.py`).

    Generic over the engine's tables type: the value `load_tables` returns is the one
    every other call gets back (the service only passes it through).
    """

    kind: str
    """Registry key and data/templates folder name, e.g. ``"engarde"``."""

    title: str
    """Human name, e.g. ``"En Garde!"``."""

    gazette_title: str
    """The public newsletter's name, e.g. ``"Le Sport de Paris"``."""

    takes_decisions: bool
    """Whether `adjudicate` reads the GM's decisions (``state["decisions"]``, set with
    `moderator decide`); an engine that does not is never given one to ignore."""

    @property
    def phases(self) -> Sequence[PhaseTable[Any]]:
        """The engine's declared turn order(s), as they run (checked by
        tests/test_phase_tables.py for every registered engine)."""
        ...

    def load_tables(self, raw: Mapping[str, Mapping[str, Any]]) -> TablesT:
        """Validate the game's tables (``{file stem: parsed TOML}``) into frozen values.

        Raises `TableError` listing every problem found.
        """
        ...

    def new_game(self, name: str, tables: TablesT, dice: Dice) -> JSON:
        """The state of a new game with no characters yet."""
        ...

    def add_character(
        self, state: JSON, key: str, name: str, tables: TablesT, dice: Dice
    ) -> tuple[JSON, tuple[Event, ...]]:
        """Create a player's character (rolling what the rules roll) and add it."""
        ...

    def parse_orders(self, text: str, state: JSON, character: str,
                     tables: TablesT) -> ParsedOrders:
        """Parse a player's order text against the current state."""
        ...

    def adjudicate(
        self, state: JSON, orders: Mapping[str, JSON], tables: TablesT, dice: Dice
    ) -> TurnResult:
        """Resolve one turn. Characters absent from ``orders`` sent nothing (NMR)."""
        ...

    def validate_state(self, state: JSON, tables: TablesT) -> list[str]:
        """Every problem with a state (e.g. one a GM amended by hand): the type of each
        field and the game's invariants.  Empty: the engine can run a turn on it."""
        ...

    def turn_label(self, state: JSON) -> str:
        """The turn's name for people, e.g. ``"April 1625"``."""
        ...

    def finished(self, state: JSON) -> str | None:
        """Why no turn may run any more, in words for the players ("Ann has won the
        game (DWTK 37)"), or None while the game goes on.  The turn that ends a game is
        its last: the service marks the game finished and reads no more orders."""
        ...

    def character_name(self, state: JSON, character: str) -> str:
        ...

    def reserved_names(self, state: JSON, tables: TablesT) -> Mapping[str, str]:
        """The names of the game's non-player characters: those they have (``state``) and
        those the rules may give them (``tables``, e.g. every name of En Garde!'s ladies'
        tables, EG §L), each -> what it is, for the refusal ("a name the ladies of
        Paris are given (EG §L)").  No player's character may take one
        (moderator/desk/names.py)."""
        ...

    def order_form(self, state: JSON, character: str, tables: TablesT) -> str:
        """A blank (or pre-filled) order form for this character's next turn."""
        ...

    def newsletter_context(
        self,
        before: JSON,
        after: JSON,
        events: Sequence[Event],
        characters: Sequence[str],
        tables: TablesT,
    ) -> NewsletterContext:
        """What the gazette template needs (e.g. the greasy pole) and, for each listed
        character, what his private turn sheet needs (accounts, SP ledger, notices)."""
        ...


class TableError(ValueError):
    """Game tables failed validation; ``problems`` lists every one found."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))
