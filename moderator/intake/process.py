"""Intake: one raw email in, a stored submission and a receipt out.

The order of the steps is the point of this module (Mailman's incoming runner and
Eressea's accept-orders are the models):

1. the raw bytes are written to the spool and stored in the database, committed,
   before anything can go wrong with them;
2. a message seen before (same Message-ID) stops here: it is processed once;
3. mail from robots (bounces, vacation replies, lists) is never answered;
4. game, player and password are checked; a refusal is answered and logged;
5. the text is extracted and parsed, every version of the orders is kept, and a
   receipt reads them back.

Any unexpected exception rolls back that one message, marks it failed, tells the
GM, and returns: the caller goes on with the next message.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, col

from moderator import jsonio
from moderator.clock import as_utc, format_deadline
from moderator.desk import press
from moderator.faults import crash_point
from moderator.games import find_engine
from moderator.games.base import Severity
from moderator.intake.bounces import detect_bounce, record_bounce
from moderator.intake.extract import ExtractedMessage, extract_message
from moderator.intake.identify import Refusal, check_size, game_name, identify
from moderator.intake.route import Directives
from moderator.publish import outgoing
from moderator.publish.render import render
from moderator.settings.config import Config, game_tables
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Game, Player, ReceivedMessage, Submission, Turn
from moderator.turn.inputs import cutoff

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IntakeResult:
    message_id: str
    status: str  # accepted | refused | ignored | duplicate | failed
    detail: str = ""
    submission_id: int | None = None


def spool_raw(config: Config, raw: bytes, now: datetime) -> Path:
    """Write the raw message to the spool (named by content, so rewriting is harmless)."""
    folder = config.spool_dir / now.strftime("%Y-%m")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(raw).hexdigest()[:24]}.eml"
    if not path.exists():
        # A private temporary name per writer: two intakes may spool the same message at once.
        handle, tmp_name = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(handle, "wb") as tmp:
            tmp.write(raw)
        os.replace(tmp_name, path)
    return path


def process_message(
    db: Engine, config: Config, raw: bytes, *, now: datetime | None = None
) -> IntakeResult:
    """Run one raw email through intake.  Never raises for bad input.

    A database that is unavailable (locked past its busy timeout, gone) is not bad
    input: `OperationalError` propagates, the message stays "received", and the
    caller leaves it where it is to be read again.
    """
    now = now or datetime.now(UTC)
    spool_path = spool_raw(config, raw, now)
    message = extract_message(raw, config.max_lines)
    stored = _store_raw(db, message, raw, spool_path, now)
    crash_point("intake.raw-stored")
    if stored is None:
        return IntakeResult(message.message_id, "duplicate", "already processed")
    try:
        with session_scope(db) as session:
            return _handle(session, config, stored, message, now)
    except OperationalError:
        raise
    except Exception as exc:  # one bad message must never stop the others
        log.exception("intake failed for %s", message.message_id)
        _mark_failed(db, config, stored, message, exc)
        return IntakeResult(message.message_id, "failed", repr(exc))


def _store_raw(
    db: Engine, message: ExtractedMessage, raw: bytes, spool_path: Path, now: datetime
) -> int | None:
    """Commit the raw message; None when this Message-ID was handled before.

    A row still marked "received" was stored by a run that died before handling it
    (handling commits the status with its results): it is handled now, not dropped.
    """
    with Session(db) as session:
        existing = repo.message_by_message_id(session, message.message_id)
        if existing is not None:
            return existing.id if existing.status == "received" else None
        row = ReceivedMessage(
            message_id=message.message_id,
            raw=raw,
            spool_path=str(spool_path),
            received_at=now,
            sender=message.sender,
            subject=message.subject,
        )
        session.add(row)
        try:
            session.commit()
        except IntegrityError:  # another worker stored it a moment ago
            session.rollback()
            return None
        return row.id


def _handle(
    session: Session, config: Config, stored_id: int, message: ExtractedMessage, now: datetime
) -> IntakeResult:
    # Claim the message: a second intake reading it at the same moment (a GM's `inbox
    # process` beside `serve`) finds it taken.  A crash rolls the claim back, so a
    # message stored but never handled is still resumed on the next read.
    claimed = session.execute(
        update(ReceivedMessage)
        .where(col(ReceivedMessage.id) == stored_id, col(ReceivedMessage.status) == "received")
        .values(status="handling")
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        return IntakeResult(message.message_id, "duplicate", "being handled elsewhere")
    stored = session.get(ReceivedMessage, stored_id)
    assert stored is not None
    if message.auto_reason:
        bounce = detect_bounce(stored.raw)
        if bounce is not None:  # a mail of ours came back: the GM must see it
            record_bounce(session, bounce)
            stored.status = "ignored"
            stored.detail = f"bounce: {', '.join(bounce.recipients)}: {bounce.diagnostic}"
            return IntakeResult(message.message_id, "ignored", stored.detail)
        # Answering a robot invites a mail loop; the GM still sees it.
        stored.status, stored.detail = "ignored", message.auto_reason
        repo.log_gm(session, "intake.ignored", f"{message.message_id}: {message.auto_reason}")
        return IntakeResult(message.message_id, "ignored", message.auto_reason)
    try:
        check_size(config, stored)
        game, player, directives = identify(session, config, message, stored.raw)
    except Refusal as refusal:
        return _refuse(session, config, stored, message, refusal)
    stored.game_id, stored.player_id = game.id, player.id
    submission = _submit(session, config, game, player, stored, message, directives, now)
    stored.status = "accepted" if submission else "refused"
    stored.detail = "orders stored" if submission else "no valid orders"
    return IntakeResult(
        message.message_id, stored.status, stored.detail, submission.id if submission else None
    )


def _submit(
    session: Session,
    config: Config,
    game: Game,
    player: Player,
    stored: ReceivedMessage,
    message: ExtractedMessage,
    directives: Directives,
    now: datetime,
) -> Submission | None:
    """Parse, keep the new version, and answer with a receipt."""
    engine = find_engine(game.kind)
    tables = game_tables(config, game.name, game.kind)
    turn = repo.open_turn(session, game)
    state = jsonio.loads(turn.state_before)
    text = directives.text_for_parser
    parsed = engine.parse_orders(text, state, player.character_key, tables)
    earlier = repo.submissions(session, player, turn.number)
    accepted = bool(parsed.normal_form) or not parsed.errors
    submission = None
    if accepted:
        submission = Submission(
            game_id=game.id,  # type: ignore[arg-type]
            player_id=player.id,  # type: ignore[arg-type]
            turn_number=turn.number,
            version=len(earlier) + 1,
            message_id=stored.id,
            sent_at=message.date,
            received_at=now,
            text=text,
            orders_json=jsonio.dumps(parsed.orders),
            normal_form_json=jsonio.dumps(list(parsed.normal_form)),
            errors_json=jsonio.dumps([e.to_dict() for e in parsed.errors]),
        )
        session.add(submission)
    held = _hold_press(session, config, game, player, submission, parsed.orders)
    receipt = render(
        config.templates_dir,
        "mail/receipt.txt.j2",
        accepted=accepted,
        version=len(earlier) + 1 if accepted else len(earlier),
        superseded_by=_written_later(earlier, message.date or now) if accepted else None,
        late=_is_late(config, game, turn, now),
        character_name=engine.character_name(state, player.character_key),
        turn_label=turn.label,
        game=game,
        normal_form=parsed.normal_form,
        errors=[e for e in parsed.errors if e.severity is Severity.ERROR],
        warnings=[e for e in parsed.errors if e.severity is Severity.WARNING],
        notes=(*message.notes, *directives.notes, *held),
        deadline=format_deadline(turn.deadline, game.time_zone),
    )
    word = f"Orders v{len(earlier) + 1}" if accepted else "Orders NOT accepted"
    outgoing.queue(
        session,
        config,
        game=game,
        kind="receipt",
        to=player.email,
        subject=f"[{game.name}] {word} for {player.name}, {turn.label}",
        text=receipt,
        in_reply_to=_bracketed(message.message_id),
        references=tuple(_bracketed(r) for r in message.references),
        auto_submitted="auto-replied",
    )
    _tell_owner_about_new_address(session, config, game, player, message.sender)
    return submission


def _hold_press(
    session: Session, config: Config, game: Game, player: Player,
    submission: Submission | None, orders: dict,
) -> tuple[str, ...]:
    """With press moderation on, queue the announcements for the GM (moderator.desk.press);
    the receipt says they are held."""
    if submission is None or not config.game(game.name).press_moderation:
        return ()
    session.flush()  # the submission's id
    count = press.hold(session, game, player, submission, orders)
    if not count:
        return ()
    return (f"{count} announcement(s) held for the GM's approval before printing.",)


def _is_late(config: Config, game: Game, turn: Turn, now: datetime) -> bool:
    """Past the deadline (and any grace the game allows): the receipt must say so."""
    last = cutoff(config, game, turn)
    return last is not None and as_utc(now) > last


def _written_later(earlier: list[Submission], written_at: datetime) -> Submission | None:
    """A version already received that was written after this message, if any.

    Mail can overtake mail: when an older message arrives after a newer one, the newer
    orders stand (see `repo.winning_submission`) and the receipt says so.
    """
    later = [s for s in earlier if repo.written_at(s) > as_utc(written_at)]
    return max(later, key=repo.written_at) if later else None


def _tell_owner_about_new_address(
    session: Session, config: Config, game: Game, player: Player, sender: str
) -> None:
    """Orders from another of the player's registered addresses: tell him, once per address."""
    if sender == player.email or repo.has_accepted_from(session, player, sender):
        return
    repo.log_gm(session, "intake.new-address", f"{player.name} wrote from {sender}", game=game)
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


def _refuse(
    session: Session,
    config: Config,
    stored: ReceivedMessage,
    message: ExtractedMessage,
    refusal: Refusal,
) -> IntakeResult:
    stored.status, stored.detail = "refused", refusal.reason
    game = repo.find_game(session, game_name(session, config, message) or "")
    repo.log_gm(
        session,
        refusal.event,
        f"{message.sender or '?'} ({message.message_id}): {refusal.reason}",
        game=game,
        level="warning",
    )
    if message.sender:
        text = render(
            config.templates_dir,
            "mail/refusal.txt.j2",
            subject=message.subject or "(no subject)",
            reason=refusal.reason,
            hint=refusal.hint,
        )
        outgoing.queue(
            session,
            config,
            game=game,
            kind="refusal",
            to=message.sender,
            subject=f"Not accepted: {message.subject or '(no subject)'}",
            text=text,
            in_reply_to=_bracketed(message.message_id),
            auto_submitted="auto-replied",
        )
    return IntakeResult(message.message_id, "refused", refusal.reason)


def _mark_failed(
    db: Engine, config: Config, stored_id: int, message: ExtractedMessage, exc: Exception
) -> None:
    """Record the failure in a fresh transaction: the message stays, marked failed."""
    with session_scope(db) as session:
        stored = session.get(ReceivedMessage, stored_id)
        if stored is not None:
            stored.status, stored.detail = "failed", repr(exc)
        repo.log_gm(session, "intake.failed", f"{message.message_id}: {exc!r}", level="error")
        outgoing.queue_gm_notice(
            session,
            config,
            None,
            "A message could not be processed",
            f"Message {message.message_id} from {message.sender} failed: {exc!r}\n"
            "It is kept in the store and the spool; nothing was sent to the player.",
        )


def _bracketed(message_id: str) -> str:
    return message_id if message_id.startswith("<") else f"<{message_id}>"
