"""Queueing outgoing mail: every email becomes one Outbox row before it is sent.

Mail from a game is sent as ``moderator+GAME@domain`` so that a player who simply
replies is routed to the right game.

A newsletter goes to every reader: its rows (`queue_newsletter`) keep the headers and a
reference to the one stored newsletter, and `mail_bytes` writes the body again when the
mail is sent (the same bytes, see `moderator.publish.compose`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, col, select

from moderator.publish.compose import assemble, compose, new_message_id
from moderator.publish.render import render
from moderator.publish.text import fit_lines
from moderator.settings.config import Config
from moderator.store.models import Game, Newsletter, Outbox, Player


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
    newsletter_id: int | None = None,
) -> Outbox:
    """Queue one mail; with ``newsletter_id`` (`queue_newsletter`) the row keeps only
    its header block, the body being that newsletter's."""
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
        head_only=newsletter_id is not None,
    )
    row = Outbox(
        message_id=message_id,
        game_id=game.id if game else None,
        kind=kind,
        to_addr=to,
        subject=subject,
        raw=raw,
        newsletter_id=newsletter_id,
    )
    session.add(row)
    return row


def queue_reply(session: Session, config: Config, *, text: str, **headers: Any) -> Outbox:
    """Queue an answer to a player's commands, its prose fitted to 78 columns
    (`fit_lines`)."""
    return queue(session, config, kind=REPLY_KIND, text=fit_lines(text), **headers)


REPLY_KIND = "command-reply"


def queue_newsletter(
    session: Session,
    config: Config,
    *,
    game: Game,
    kind: str,
    to: str,
    newsletter: Newsletter,
    extra_headers: Sequence[tuple[str, str]] = (),
) -> Outbox:
    """Queue a stored newsletter for one reader: the row keeps the mail's header block
    and the newsletter's id, not a copy of its body."""
    if newsletter.id is None:
        session.flush()  # the row refers to the newsletter by its id
    _markdown, html, text = newsletter.parts()
    return queue(session, config, game=game, kind=kind, to=to, subject=newsletter.subject,
                 text=text, html=html, extra_headers=extra_headers,
                 newsletter_id=newsletter.id)


def mail_bytes(session: Session, row: Outbox) -> bytes:
    """The whole mail of an outbox row, as it is handed to the sender."""
    if row.newsletter_id is None:
        return row.raw
    newsletter = session.get(Newsletter, row.newsletter_id)
    assert newsletter is not None  # a foreign key, and `detach` before a newsletter goes
    _markdown, html, text = newsletter.parts()
    return assemble(row.raw, text, html)


def detach(session: Session, game: Game, from_turn: int, kinds: Sequence[str]) -> int:
    """Give the mails that refer to the game's newsletters of these kinds, from turn
    ``from_turn`` on, their whole bytes again, before those newsletters are deleted
    (`turn rollback`); how many."""
    rows = list(session.exec(
        select(Outbox).join(Newsletter, col(Newsletter.id) == col(Outbox.newsletter_id))
        .where(Newsletter.game_id == game.id, Newsletter.turn_number >= from_turn,
               col(Newsletter.kind).in_(kinds))
        .order_by(col(Outbox.id))))
    for row in rows:
        row.raw, row.newsletter_id = mail_bytes(session, row), None
        session.add(row)
    session.flush()  # before the newsletters' rows are deleted
    return len(rows)


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
