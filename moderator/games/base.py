"""The contract between the service and a game engine.

An engine is pure: it gets plain JSON-able data (state, orders, tables) and the
turn's `Dice`, and returns new data plus events.  It never touches the database,
email, templates or the scheduler; the service does all I/O around it.

Boundaries are JSON-shaped on purpose (``dict`` state, ``dict`` orders) so the
service can store and replay them without knowing any game; inside, an engine
works with its own frozen dataclasses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

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


@dataclass(frozen=True)
class Event:
    """Something that happened, as an id plus arguments; templates write the prose.

    ``actor`` is the character the event belongs to (None for world events);
    ``public`` events appear in the gazette, private ones only on the actor's turn
    sheet.  ``sp`` and ``crowns`` are the actor's gains (negative: losses) caused by
    this event, so the turn sheet's ledgers are just the actor's events.
    """

    id: str
    args: Mapping[str, Any] = field(default_factory=dict)
    actor: str | None = None
    public: bool = True
    sp: int = 0
    crowns: int = 0
    week: int | None = None

    def to_dict(self) -> JSON:
        return {
            "id": self.id,
            "args": dict(self.args),
            "actor": self.actor,
            "public": self.public,
            "sp": self.sp,
            "crowns": self.crowns,
            "week": self.week,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        return cls(
            id=data["id"],
            args=dict(data.get("args", {})),
            actor=data.get("actor"),
            public=data.get("public", True),
            sp=data.get("sp", 0),
            crowns=data.get("crowns", 0),
            week=data.get("week"),
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


class GameEngine(Protocol):
    """What every game under `moderator/games/` provides (see `games/__init__.py`)."""

    kind: str
    """Registry key and data/templates folder name, e.g. ``"engarde"``."""

    title: str
    """Human name, e.g. ``"En Garde!"``."""

    gazette_title: str
    """The public newsletter's name, e.g. ``"Le Sport de Paris"``."""

    def load_tables(self, raw: Mapping[str, Mapping[str, Any]]) -> Any:
        """Validate the game's tables (``{file stem: parsed TOML}``) into frozen values.

        Raises `TableError` listing every problem found.
        """
        ...

    def new_game(self, name: str, tables: Any, dice: Dice) -> JSON:
        """The state of a new game with no characters yet."""
        ...

    def add_character(
        self, state: JSON, key: str, name: str, tables: Any, dice: Dice
    ) -> tuple[JSON, tuple[Event, ...]]:
        """Create a player's character (rolling what the rules roll) and add it."""
        ...

    def parse_orders(self, text: str, state: JSON, character: str, tables: Any) -> ParsedOrders:
        """Parse a player's order text against the current state."""
        ...

    def adjudicate(
        self, state: JSON, orders: Mapping[str, JSON], tables: Any, dice: Dice
    ) -> TurnResult:
        """Resolve one turn. Characters absent from ``orders`` sent nothing (NMR)."""
        ...

    def turn_label(self, state: JSON) -> str:
        """The turn's name for people, e.g. ``"April 1625"``."""
        ...

    def character_name(self, state: JSON, character: str) -> str:
        ...

    def order_form(self, state: JSON, character: str, tables: Any) -> str:
        """A blank (or pre-filled) order form for this character's next turn."""
        ...

    def newsletter_context(
        self,
        before: JSON,
        after: JSON,
        events: Sequence[Event],
        characters: Sequence[str],
        tables: Any,
    ) -> NewsletterContext:
        """What the gazette template needs (e.g. the greasy pole) and, for each listed
        character, what his private turn sheet needs (accounts, SP ledger, notices)."""
        ...


class TableError(ValueError):
    """Game tables failed validation; ``problems`` lists every one found."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))
