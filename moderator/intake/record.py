"""The working record of one message's run through the intake steps, and its result.

`Intake` is what `moderator.intake.process` hands from step to step, each step adding
what it found; `IntakeResult` is the message's fate.  The accessors (`stored_message`,
`identified`, `parsed_orders`, `open_turn_context`, `open_turn`) read what an earlier
step must have found, and say which step that is when it did not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from moderator.games.base import ParsedOrders
from moderator.intake.commands import Command
from moderator.intake.extract import ExtractedMessage
from moderator.intake.route import Directives
from moderator.intake.turnstate import TurnContext
from moderator.settings.config import Config
from moderator.store.models import Game, Player, ReceivedMessage, Submission, Turn


@dataclass(frozen=True)
class IntakeResult:
    message_id: str
    status: str  # accepted | refused | ignored | duplicate | failed
    detail: str = ""
    submission_id: int | None = None
    # The message as intake keeps it, when that is not the bytes it read: its password
    # masked (`moderator.intake.context`).  An inbox of ours files this copy.
    kept: bytes | None = field(default=None, repr=False, compare=False)


@dataclass
class Intake:
    """One message on its way through `INTAKE_STEPS`; each step adds what it found.

    Mutable on purpose: it is the working record of one run of the steps, never stored.
    """

    session: Session
    config: Config
    stored_id: int
    message: ExtractedMessage
    now: datetime  # when intake reads the message
    received: datetime  # when our mail server received it: what deadlines judge
    stored: ReceivedMessage | None = None
    game: Game | None = None
    player: Player | None = None
    directives: Directives | None = None
    turn: Turn | None = None
    context: TurnContext | None = None  # the open turn's, shared (`turn_context`)
    parsed: ParsedOrders | None = None
    earlier: list[Submission] = field(default_factory=list)
    submission: Submission | None = None
    held: tuple[str, ...] = ()
    chatter: tuple[str, ...] = ()  # greetings and sign-offs not read as orders
    # Commands beside orders, answered once the orders are stored (`CommandsDone.later`).
    commands: tuple[Command, ...] = ()
    kept: bytes | None = None  # the message once its password is masked (`IntakeResult`)

    def result(self, status: str, detail: str) -> IntakeResult:
        return IntakeResult(self.message.message_id, status, detail,
                            self.submission.id if self.submission else None)


Step = Callable[[Intake], IntakeResult | None]


def stored_message(intake: Intake) -> ReceivedMessage:
    assert intake.stored is not None, "the claim step loads the stored message"
    return intake.stored


def identified(intake: Intake) -> tuple[Game, Player, Directives]:
    assert intake.game and intake.player and intake.directives, "identify runs first"
    return intake.game, intake.player, intake.directives


def parsed_orders(intake: Intake) -> ParsedOrders:
    assert intake.parsed is not None, "parse runs first"
    return intake.parsed


def open_turn_context(intake: Intake) -> TurnContext:
    assert intake.context is not None, "parse runs first"
    return intake.context


def open_turn(intake: Intake) -> Turn:
    assert intake.turn is not None, "parse runs first"
    return intake.turn
