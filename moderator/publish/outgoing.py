"""Queueing outgoing mail: every email becomes one Outbox row before it is sent.

Mail from a game is sent as ``moderator+GAME@domain`` so that a player who simply
replies is routed to the right game.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlmodel import Session

from moderator.publish.compose import compose, new_message_id
from moderator.publish.render import render
from moderator.settings.config import Config
from moderator.store.models import Game, Outbox, Player


def game_address(config: Config, game: Game | None) -> str:
    if game is None:
        return config.moderator_address
    local, _, domain = config.moderator_address.partition("@")
    return f"{local}+{game.name}@{domain}"


def queue(
    session: Session,
    config: Config,
    *,
    game: Game | None,
    kind: str,
    to: str,
    subject: str,
    text: str,
    html: str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str | None = "auto-generated",
    extra_headers: Sequence[tuple[str, str]] = (),
    now: datetime | None = None,
) -> Outbox:
    message_id = new_message_id(config.moderator_address)
    raw = compose(
        sender=game_address(config, game),
        sender_name=f"Moderator of {game.name}" if game else "Moderator",
        to=to,
        subject=subject,
        text=text,
        html=html,
        message_id=message_id,
        date=now or datetime.now(UTC),
        in_reply_to=in_reply_to,
        references=references,
        auto_submitted=auto_submitted,
        extra_headers=extra_headers,
    )
    row = Outbox(
        message_id=message_id,
        game_id=game.id if game else None,
        kind=kind,
        to_addr=to,
        subject=subject,
        raw=raw,
    )
    session.add(row)
    return row


def queue_welcome(
    session: Session,
    config: Config,
    game: Game,
    player: Player,
    password: str,
    order_form: str,
    turn_label: str,
    deadline: str | None = None,
) -> Outbox:
    text = render(
        config.templates_dir,
        "mail/welcome.txt.j2",
        game=game,
        player=player,
        password=password,
        order_form=order_form,
        turn_label=turn_label,
        address=game_address(config, game),
        deadline=deadline,
    )
    return queue(
        session,
        config,
        game=game,
        kind="welcome",
        to=player.email,
        subject=f"[{game.name}] Welcome, {player.name}",
        text=text,
    )


def queue_gm_notice(
    session: Session, config: Config, game: Game | None, subject: str, text: str
) -> Outbox:
    return queue(
        session,
        config,
        game=game,
        kind="gm-notice",
        to=config.gm_address,
        subject=f"[{game.name if game else 'moderator'}] {subject}",
        text=text,
    )
