"""The answers intake sends at once: the receipt for orders, the refusal, and the notice
that orders came from another of the player's addresses.

Intake decides; this module only writes and queues the mail (`outgoing.queue`), so every
answer a player gets is composed in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from moderator.games.base import OrderError, ParsedOrders, Severity
from moderator.publish import outgoing
from moderator.publish.render import render
from moderator.settings.config import Config
from moderator.store.models import Game, Player, Submission, Turn


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
    superseded_by: Submission | None
    late: bool
    character_name: str
    deadline: str | None
    notes: Sequence[str]


def bracketed(message_id: str) -> str:
    return message_id if message_id.startswith("<") else f"<{message_id}>"


def _of(errors: Sequence[OrderError], severity: Severity) -> list[OrderError]:
    return [e for e in errors if e.severity is severity]


def queue_receipt(
    session: Session, config: Config, game: Game, player: Player, turn: Turn,
    parsed: ParsedOrders, facts: ReceiptFacts, replying: Replying,
) -> None:
    """Every order read back in normal form, every error with its line and hint."""
    text = render(
        config.templates_dir,
        "mail/receipt.txt.j2",
        accepted=facts.accepted,
        version=facts.version,
        superseded_by=facts.superseded_by,
        late=facts.late,
        character_name=facts.character_name,
        turn_label=turn.label,
        game=game,
        normal_form=parsed.normal_form,
        errors=_of(parsed.errors, Severity.ERROR),
        warnings=_of(parsed.errors, Severity.WARNING),
        notes=tuple(facts.notes),
        deadline=facts.deadline,
    )
    word = f"Orders v{facts.version}" if facts.accepted else "Orders NOT accepted"
    outgoing.queue(
        session,
        config,
        game=game,
        kind="receipt",
        to=player.email,
        subject=f"[{game.name}] {word} for {player.name}, {turn.label}",
        text=text,
        in_reply_to=bracketed(replying.message_id),
        references=tuple(bracketed(r) for r in replying.references),
        auto_submitted="auto-replied",
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
