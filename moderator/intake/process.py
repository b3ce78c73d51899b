"""Intake: one raw email in, a stored submission and a receipt out.

The order of the steps is the point of this module (Mailman's incoming runner and
Eressea's accept-orders are the models).  Before any step, the raw bytes are written to
the spool and stored in the database, committed (`moderator.intake.spool`), and a message
seen before (same Message-ID) stops there: it is processed once.  Then `INTAKE_STEPS` run
in the order they are declared, each on the same `Intake`; the first step that decides
the message's fate ends the run:

1. ``claim``: a second intake reading the same message at the same moment finds it taken;
2. ``robots``: mail from robots (bounces, vacation replies, lists) is never answered;
3. ``size``, ``commands``, ``identify`` and ``game-over``: game, player, mail
   authentication and password are checked, and orders for a game that has ended
   refused; a `Refusal` is answered and logged (`moderator.intake.identify`);
   player commands (HELP, ORDERS, CHECK ... `moderator.intake.commands`) are answered,
   and a message of nothing but commands ends there;
4. ``parse``: the text is parsed by the game's engine against the open turn;
5. ``store``: every version of the orders is kept (and press held for the GM);
6. ``commands-after-orders``: commands sent beside the orders are answered now, so
   ``ORDERS`` and ``STATUS`` read back what this mail made stand;
7. ``answer``: the receipt reads them back (`moderator.publish.receipts`).

Any unexpected exception rolls back that one message, marks it failed, tells the GM, and
returns: the caller goes on with the next message.

The steps themselves are in `moderator.intake.screen` (claim to identify, and the
refusal), `moderator.intake.orders` (parse, store) and `moderator.intake.answer`; the
record they share is `moderator.intake.record`.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime

from sqlalchemy import Engine, bindparam, update
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col

from moderator.clock import as_utc
from moderator.faults import crash_point
from moderator.intake.answer import answer_step
from moderator.intake.context import (
    forget_password,
    forget_password_in_spool,
)
from moderator.intake.extract import ExtractedMessage, extract_message
from moderator.intake.identify import Refusal
from moderator.intake.orders import parse_step, store_step
from moderator.intake.record import Intake, IntakeResult, Step
from moderator.intake.screen import (
    claim_step,
    commands_after_orders_step,
    commands_step,
    game_over_step,
    identify_step,
    refuse,
    robots_step,
    size_step,
)
from moderator.intake.sender import mailbox_address, split_head
from moderator.intake.spool import content_digest, spool_raw, store_raw, usable_message_id
from moderator.publish import outgoing
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import ReceivedMessage
from moderator.store.passwords import masked_subject
from moderator.store.statuses import IntakeFate, MessageStatus

log = logging.getLogger(__name__)


def process_message(
    db: Engine, config: Config, raw: bytes, *, now: datetime | None = None,
    received: datetime | None = None,
) -> IntakeResult:
    """Run one raw email through intake.  Never raises for bad input.

    ``now``: when intake reads it.  ``received``: when our mail server received it (the
    inbox says), the time its orders count as received, so mail that waited in the inbox
    (the service down, the server unreachable) is not late for having waited; never later
    than ``now``, and ``now`` when unknown.  The sender's Date never counts.

    A database that is unavailable (locked past its busy timeout, gone) is not bad
    input: `OperationalError` propagates, the message stays "received", and the
    caller leaves it where it is to be read again.
    """
    now = now or datetime.now(UTC)
    received = min(as_utc(received), now) if received is not None else now
    spool_path = spool_raw(config, raw, now)
    digest = content_digest(raw)
    message = read_message(config, raw, digest)
    stored = store_raw(db, message, raw, spool_path, now, digest)
    crash_point("intake.raw-stored")
    if stored is None:
        # Handled before: this delivery's own spool copy (under other trace headers it has
        # another name) is masked as the first copy was.
        return IntakeResult(message.message_id, IntakeFate.DUPLICATE, "already processed",
                            kept=forget_password_in_spool(spool_path, raw, message.text))
    try:
        with session_scope(db) as session:
            result = _handle(session, config, stored, message, now, received)
        crash_point("intake.fate-committed")
        return result
    except OperationalError:
        raise
    except Exception as exc:  # one bad message must never stop the others
        log.exception("intake failed for %s", message.message_id)
        kept = _mark_failed(db, config, stored, message, exc)
        return IntakeResult(message.message_id, IntakeFate.FAILED, repr(exc), kept=kept)


# The failure's fate, written only while the message has none (see `_mark_failed`).
_MARK_FAILED = (update(ReceivedMessage)
                .where(col(ReceivedMessage.id) == bindparam("failed_id"),
                       col(ReceivedMessage.status).in_([MessageStatus.RECEIVED,
                                                        MessageStatus.HANDLING]))
                .values(status=MessageStatus.FAILED, detail=bindparam("detail")))

# How much of an oversized message's header block is read to answer it.
_OVERSIZED_HEAD_BYTES = 64_000


def read_message(config: Config, raw: bytes, digest: str) -> ExtractedMessage:
    """The message as intake uses it: extracted, with the sender's address read as a mail
    server reads it (`mailbox_address`) and a usable Message-ID (derived from the content
    when the mail has none or a malformed one).

    The size is checked before any parsing: of a message over ``intake.max_bytes`` only
    the header block is read (enough to refuse it), never the body.
    """
    if len(raw) > config.max_bytes:
        head, _ = split_head(raw)
        message = extract_message(head[:_OVERSIZED_HEAD_BYTES] + b"\n\n", config.max_lines)
    else:
        message = extract_message(raw, config.max_lines)
    # A password written in the subject is read nowhere, and the subject is echoed (a
    # refusal's subject, the GM's table): it is masked from the start.
    return replace(message, sender=mailbox_address(raw), subject=masked_subject(message.subject),
                   message_id=usable_message_id(message.message_id, digest))


# The steps in the order they run; the first to return a result decides the fate.
INTAKE_STEPS: tuple[tuple[str, Step], ...] = (
    ("claim", claim_step),
    ("robots", robots_step),
    ("size", size_step),
    ("commands", commands_step),
    ("identify", identify_step),
    ("game-over", game_over_step),
    ("parse", parse_step),
    ("store", store_step),
    ("commands-after-orders", commands_after_orders_step),
    ("answer", answer_step),
)


def _handle(
    session: Session, config: Config, stored_id: int, message: ExtractedMessage, now: datetime,
    received: datetime,
) -> IntakeResult:
    intake = Intake(session, config, stored_id, message, now, received)
    fate = _run_steps(intake)
    # The message with its password masked, if the steps masked one: the inbox's copy.
    return fate if intake.kept is None else replace(fate, kept=intake.kept)


def _run_steps(intake: Intake) -> IntakeResult:
    for _name, step in INTAKE_STEPS:
        try:
            fate = step(intake)
        except Refusal as refusal:
            return refuse(intake, refusal)
        if fate is not None:
            return fate
    raise AssertionError("the last intake step always decides the message's fate")


def _mark_failed(
    db: Engine, config: Config, stored_id: int, message: ExtractedMessage, exc: Exception
) -> bytes | None:
    """Record the failure in a fresh transaction: the message stays, marked failed, and
    keeps all but its password (the rollback undid the masking `identify_step` did); the
    masked bytes, if there was a password to mask.

    The failed transaction's rollback undid the claim too, so another intake may have
    taken the message meanwhile: the fate is written only while the message has none
    (one conditional statement, which waits for such a run's commit and then finds its
    fate), so a message never ends with two."""
    kept = None
    with session_scope(db) as session:
        stored = session.get(ReceivedMessage, stored_id)
        if stored is not None:
            kept = forget_password(stored, message.text)
            session.flush()
        failed = session.execute(_MARK_FAILED, {"failed_id": stored_id, "detail": repr(exc)})
        repo.log_gm(session, "intake.failed", f"{message.message_id}: {exc!r}", level="error")
        if failed.rowcount != 1:  # type: ignore[attr-defined]
            return kept  # another run gave it its fate: nothing to tell the GM beyond the log
        outgoing.queue_gm_notice(
            session,
            config,
            None,
            "A message could not be processed",
            f"Message {message.message_id} from {message.sender} failed: {exc!r}\n"
            "It is kept in the store and the spool; nothing was sent to the player.",
        )
    return kept


__all__ = ["INTAKE_STEPS", "Intake", "IntakeResult", "process_message", "read_message"]
