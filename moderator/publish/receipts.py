"""The answers intake sends at once: the receipt for orders, the refusal, and the notice
that orders came from another of the player's addresses.

Intake decides; this module only writes and queues the mail (`outgoing.queue`), so every
answer a player gets is composed in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from moderator.clock import format_deadline_for
from moderator.games.base import OrderError, ParsedOrders, Severity
from moderator.publish import outgoing
from moderator.publish.render import render
from moderator.publish.text import fit_lines
from moderator.settings.config import Config
from moderator.store.models import Game, Player, Submission, Turn
from moderator.store.repo import RECEIPT_HEADER, Standing


@dataclass(frozen=True)
class Replying:
    """The message being answered: what threads the answer under it."""

    message_id: str
    references: Sequence[str] = ()


@dataclass(frozen=True)
class ReceiptFacts:
    """What a receipt tells besides the orders read back."""

    accepted: bool
    version: int
    standing: Standing | None
    """The orders that stand now, this version included (`repo.standing_submission`)."""
    late: bool
    character_name: str
    deadline: str | None
    notes: Sequence[str]
    submission_id: int | None = None
    """The stored version this receipt reads back: a reply to it supersedes it."""
    forecast: Sequence[str] = ()
    """The engine's forecast of the month from these orders (empty: none)."""
    checked_only: bool = False
    """A CHECK: read back and forecast, but nothing stored."""

    @property
    def stands(self) -> bool:
        return (self.accepted and self.standing is not None
                and self.standing.version == self.version)

    @property
    def superseded_by(self) -> Submission | None:
        if not self.accepted or self.standing is None or self.stands:
            return None
        return self.standing.submission


def receipt_subject(game: Game, player: Player, turn: Turn, facts: ReceiptFacts,
                    errors: int) -> str:
    """``[paris] Orders v3 stand (2 errors): Jacques, April 1625``: which version
    stands is the first thing a player needs to know."""
    counted = f" ({errors} error{'s' if errors != 1 else ''})" if errors else ""
    if facts.checked_only:
        word = f"Orders checked, not stored{counted}"
    elif not facts.accepted:
        word = f"Orders NOT accepted{counted}"
    elif facts.stands:
        word = f"Orders v{facts.version} stand{counted}"
    elif facts.standing is not None:
        word = f"Orders v{facts.version} kept{counted}, v{facts.standing.version} stands"
    else:
        word = f"Orders v{facts.version} late{counted}"
    return f"[{game.name}] {word}: {player.name}, {turn.label}"


def bracketed(message_id: str) -> str:
    return message_id if message_id.startswith("<") else f"<{message_id}>"


def _of(errors: Sequence[OrderError], severity: Severity) -> list[OrderError]:
    return [e for e in errors if e.severity is severity]


def queue_receipt(
    session: Session, config: Config, game: Game, player: Player, turn: Turn,
    parsed: ParsedOrders, facts: ReceiptFacts, replying: Replying,
) -> None:
    """Every order read back in normal form, every error with its line and hint; its
    prose fitted to 78 columns (`fit_lines`), as a command reply's is."""
    errors = _of(parsed.errors, Severity.ERROR)
    text = fit_lines(render(
        config.templates_dir,
        "mail/receipt.txt.j2",
        accepted=facts.accepted,
        version=facts.version,
        stands=facts.stands,
        standing=facts.standing,
        superseded_by=facts.superseded_by,
        late=facts.late,
        checked_only=facts.checked_only,
        character_name=facts.character_name,
        turn_label=turn.label,
        game=game,
        normal_form=parsed.normal_form,
        errors=errors,
        warnings=_of(parsed.errors, Severity.WARNING),
        notes=tuple(facts.notes),
        forecast=tuple(facts.forecast),
        deadline=facts.deadline,
        own_deadline=format_deadline_for(turn.deadline, game.time_zone, player.time_zone),
    ))
    marks = () if facts.submission_id is None else (
        (RECEIPT_HEADER, str(facts.submission_id)),)
    outgoing.queue(
        session,
        config,
        game=game,
        kind="receipt",
        to=player.email,
        subject=receipt_subject(game, player, turn, facts, len(errors)),
        text=text,
        in_reply_to=bracketed(replying.message_id),
        references=tuple(bracketed(r) for r in replying.references),
        auto_submitted="auto-replied",
        extra_headers=marks,
    )


def queue_refusal(
    session: Session, config: Config, game: Game | None, to: str, subject: str | None,
    reason: str, hint: str | None, replying: Replying,
) -> None:
    """A message that cannot be used: the reason and, where there is one, what to do."""
    shown = subject or "(no subject)"
    text = render(config.templates_dir, "mail/refusal.txt.j2", subject=shown, reason=reason,
                  hint=hint)
    outgoing.queue(
        session,
        config,
        game=game,
        kind="refusal",
        to=to,
        subject=f"Not accepted: {shown}",
        text=text,
        in_reply_to=bracketed(replying.message_id),
        auto_submitted="auto-replied",
    )


def queue_new_address_notice(
    session: Session, config: Config, game: Game, player: Player, sender: str
) -> None:
    """Tell the player his orders came from another of his registered addresses."""
    outgoing.queue(
        session,
        config,
        game=game,
        kind="notice",
        to=player.email,
        subject=f"[{game.name}] Orders for {player.name} arrived from {sender}",
        text=render(config.templates_dir, "mail/new-address.txt.j2", game=game,
                    player=player, sender=sender),
    )
