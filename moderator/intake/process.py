"""Intake: one raw email in, a stored submission and a receipt out.

The order of the steps is the point of this module (Mailman's incoming runner and
Eressea's accept-orders are the models).  Before any step, the raw bytes are written to
the spool and stored in the database, committed (`moderator.intake.spool`), and a message
seen before (same Message-ID) stops there: it is processed once.  Then `INTAKE_STEPS` run
in the order they are declared, each on the same `Intake`; the first step that decides
the message's fate ends the run:

1. ``claim``: a second intake reading the same message at the same moment finds it taken;
2. ``robots``: mail from robots (bounces, vacation replies, lists) is never answered;
3. ``size``, ``commands`` and ``identify``: game, player, mail authentication and
   password are checked, a `Refusal` is answered and logged (`moderator.intake.identify`);
   player commands (HELP, ORDERS, CHECK ... `moderator.intake.commands`) are answered,
   and a message of nothing but commands ends there;
4. ``parse``: the text is parsed by the game's engine against the open turn;
5. ``store``: every version of the orders is kept (and press held for the GM);
6. ``answer``: the receipt reads them back (`moderator.publish.receipts`).

Any unexpected exception rolls back that one message, marks it failed, tells the GM, and
returns: the caller goes on with the next message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from sqlalchemy import Engine, update
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, select

from moderator import jsonio
from moderator.clock import as_utc, format_deadline
from moderator.desk import press
from moderator.faults import crash_point
from moderator.games import find_engine
from moderator.games.base import ParsedOrders
from moderator.intake.bounces import detect_bounce, find_recipient, record_bounce
from moderator.intake.commands import answer_commands, forecast_lines
from moderator.intake.context import forget_password
from moderator.intake.extract import ExtractedMessage, extract_message
from moderator.intake.identify import Refusal, check_size, game_name, identify
from moderator.intake.robots import own_address, refusal_allowed, robot_reason
from moderator.intake.route import Directives, set_aside_chatter
from moderator.intake.sender import mailbox_address, split_head
from moderator.intake.spool import content_digest, spool_raw, store_raw, usable_message_id
from moderator.intake.turnstate import TurnContext, turn_context
from moderator.publish import outgoing
from moderator.publish.receipts import (
    ReceiptFacts,
    Replying,
    queue_new_address_notice,
    queue_receipt,
    queue_refusal,
)
from moderator.settings.config import Config, game_tables
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Game, Player, ReceivedMessage, Submission, Turn
from moderator.store.statuses import IntakeFate, MessageStatus
from moderator.turn.inputs import cutoff, standing

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IntakeResult:
    message_id: str
    status: str  # accepted | refused | ignored | duplicate | failed
    detail: str = ""
    submission_id: int | None = None


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
    digest = content_digest(raw)
    message = read_message(config, raw, digest)
    stored = store_raw(db, message, raw, spool_path, now, digest)
    crash_point("intake.raw-stored")
    if stored is None:
        return IntakeResult(message.message_id, IntakeFate.DUPLICATE, "already processed")
    try:
        with session_scope(db) as session:
            result = _handle(session, config, stored, message, now)
        crash_point("intake.fate-committed")
        return result
    except OperationalError:
        raise
    except Exception as exc:  # one bad message must never stop the others
        log.exception("intake failed for %s", message.message_id)
        _mark_failed(db, config, stored, message, exc)
        return IntakeResult(message.message_id, IntakeFate.FAILED, repr(exc))


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
    return replace(message, sender=mailbox_address(raw),
                   message_id=usable_message_id(message.message_id, digest))


@dataclass
class Intake:
    """One message on its way through `INTAKE_STEPS`; each step adds what it found.

    Mutable on purpose: it is the working record of one run of the steps, never stored.
    """

    session: Session
    config: Config
    stored_id: int
    message: ExtractedMessage
    now: datetime
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

    def result(self, status: str, detail: str) -> IntakeResult:
        return IntakeResult(self.message.message_id, status, detail,
                            self.submission.id if self.submission else None)


Step = Callable[[Intake], IntakeResult | None]


def _claim(intake: Intake) -> IntakeResult | None:
    # A second intake reading it at the same moment (a GM's `inbox process` beside
    # `serve`) finds it taken.  A crash rolls the claim back, so a message stored but
    # never handled is still resumed on the next read.
    claimed = intake.session.execute(
        update(ReceivedMessage)
        .where(col(ReceivedMessage.id) == intake.stored_id,
               col(ReceivedMessage.status) == MessageStatus.RECEIVED)
        .values(status=MessageStatus.HANDLING)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        return intake.result(IntakeFate.DUPLICATE, "being handled elsewhere")
    intake.stored = intake.session.get(ReceivedMessage, intake.stored_id)
    assert intake.stored is not None
    return None


def _robots(intake: Intake) -> IntakeResult | None:
    message, stored = intake.message, _stored(intake)
    # An oversized message is refused on its headers alone: its body is never parsed.
    if len(stored.raw) <= intake.config.max_bytes:
        player = find_recipient(intake.session, message.sender).player if message.sender else None
        bounce = detect_bounce(stored.raw, person=player is not None)
        if bounce is not None:  # a mail of ours came back: the GM must see it
            record_bounce(intake.session, bounce)
            stored.status = MessageStatus.IGNORED
            stored.detail = f"bounce: {', '.join(bounce.recipients)}: {bounce.diagnostic}"
            return intake.result(IntakeFate.IGNORED, stored.detail)
    reason = message.auto_reason or robot_reason(
        message.subject, message.sender, intake.config.moderator_address)
    if not reason:
        return None
    # Answering a robot invites a mail loop; the GM still sees it.
    stored.status, stored.detail = MessageStatus.IGNORED, reason
    repo.log_gm(intake.session, "intake.ignored", f"{message.message_id}: {reason}")
    return intake.result(IntakeFate.IGNORED, reason)


def _size(intake: Intake) -> IntakeResult | None:
    check_size(intake.config, _stored(intake))
    return None


def _commands(intake: Intake) -> IntakeResult | None:
    # Player commands (moderator.intake.commands): answered here; orders sent beside
    # them go on through the steps below, already identified.
    done = answer_commands(intake.session, intake.config, intake.message, _stored(intake),
                           intake.now)
    if done is None:
        return None
    stored = _stored(intake)
    stored.game_id = done.game.id if done.game else None
    stored.player_id = done.player.id if done.player else None
    if done.rest is None:
        stored.status, stored.detail = MessageStatus.ACCEPTED, done.detail
        return intake.result(IntakeFate.ACCEPTED, done.detail)
    intake.game, intake.player, intake.directives = done.game, done.player, done.rest
    return None


def _identify(intake: Intake) -> IntakeResult | None:
    if intake.directives is not None:  # the commands step identified the sender
        return None
    stored = _stored(intake)
    try:
        game, player, directives = identify(intake.session, intake.config, intake.message,
                                            stored.raw)
    finally:  # checked, whatever the outcome: the stored copies keep all but the password
        forget_password(stored, intake.message.text)
    stored.game_id, stored.player_id = game.id, player.id
    intake.game, intake.player, intake.directives = game, player, directives
    return None


def _parse(intake: Intake) -> IntakeResult | None:
    game, player, directives = _who(intake)
    tables = game_tables(intake.config, game.name, game.kind)
    intake.turn = repo.open_turn_light(intake.session, game)
    intake.context = turn_context(intake.session, game, intake.turn)
    engine, state = find_engine(game.kind), intake.context.state
    intake.parsed, intake.chatter = set_aside_chatter(
        directives.text_for_parser,
        lambda text: engine.parse_orders(text, state, player.character_key, tables))
    return None


def _store(intake: Intake) -> IntakeResult | None:
    game, player, directives = _who(intake)
    parsed, turn = _parsed(intake), _turn(intake)
    # Workers: two messages of one player handled at once would both count the same
    # earlier versions; the player's row lock (PostgreSQL) makes the second wait.
    intake.session.exec(select(Player.id).where(col(Player.id) == player.id).with_for_update())
    intake.earlier = repo.submissions(intake.session, player, turn.number)
    # No orders read (none written, or every line an error): not a new version.  An empty
    # version would replace the orders that stand with nothing (a reply whose new lines
    # were lost); the receipt says nothing was found and that the earlier orders stand.
    if not parsed.normal_form:
        return None
    intake.submission = Submission(
        game_id=game.id,  # type: ignore[arg-type]
        player_id=player.id,  # type: ignore[arg-type]
        turn_number=turn.number,
        version=len(intake.earlier) + 1,
        message_id=intake.stored_id,
        sent_at=intake.message.date,
        received_at=intake.now,
        text=directives.text_for_parser,
        orders_json=jsonio.dumps(parsed.orders),
        normal_form_json=jsonio.dumps(list(parsed.normal_form)),
        errors_json=jsonio.dumps([e.to_dict() for e in parsed.errors]),
    )
    intake.session.add(intake.submission)
    intake.held = _hold_press(intake)
    return None


def _answer(intake: Intake) -> IntakeResult:
    game, player, directives = _who(intake)
    parsed, turn, submission = _parsed(intake), _turn(intake), intake.submission
    accepted = submission is not None
    count = len(intake.earlier)
    intake.session.flush()  # the new version takes part in choosing the orders that stand
    stands = standing(intake.session, intake.config, game, turn, player)
    facts = ReceiptFacts(
        accepted=accepted,
        version=count + 1 if accepted else count,
        standing=stands,
        submission_id=submission.id if submission else None,
        late=_is_late(intake.config, game, turn, intake.now),
        character_name=find_engine(game.kind).character_name(_context(intake).state,
                                                             player.character_key),
        deadline=format_deadline(turn.deadline, game.time_zone),
        notes=(*intake.message.notes, *directives.notes, *intake.chatter, *intake.held),
        forecast=forecast_lines(intake.config, game, player, _context(intake), parsed),
    )
    replying = Replying(intake.message.message_id, intake.message.references)
    queue_receipt(intake.session, intake.config, game, player, turn, parsed, facts, replying)
    _tell_owner_about_new_address(intake, game, player)
    stored = _stored(intake)
    stored.status = MessageStatus.ACCEPTED if accepted else MessageStatus.REFUSED
    stored.answered_at = intake.now
    if accepted or parsed.errors:
        stored.detail = _stored_detail(facts, len(parsed.hard_errors))
    else:
        stored.detail = "no orders found; the orders already sent stand"
    repo.log_gm(intake.session, f"intake.{stored.status}",
                f"{player.name} ({intake.message.message_id}): {stored.detail}", game=game)
    return intake.result(stored.status, stored.detail)


def _stored_detail(facts: ReceiptFacts, errors: int) -> str:
    """What the GM's table says: the version, whether it stands, its errors."""
    counted = f", {errors} error{'s' if errors != 1 else ''}" if errors else ""
    if not facts.accepted:
        return f"no valid orders{counted}"
    if facts.stands:
        return f"v{facts.version} stored, stands{counted}"
    if facts.standing is not None:
        return f"v{facts.version} stored{counted}; v{facts.standing.version} stands"
    return f"v{facts.version} stored{counted}; late"


# The steps in the order they run; the first to return a result decides the fate.
INTAKE_STEPS: tuple[tuple[str, Step], ...] = (
    ("claim", _claim),
    ("robots", _robots),
    ("size", _size),
    ("commands", _commands),
    ("identify", _identify),
    ("parse", _parse),
    ("store", _store),
    ("answer", _answer),
)


def _handle(
    session: Session, config: Config, stored_id: int, message: ExtractedMessage, now: datetime
) -> IntakeResult:
    intake = Intake(session, config, stored_id, message, now)
    for _name, step in INTAKE_STEPS:
        try:
            fate = step(intake)
        except Refusal as refusal:
            return _refuse(intake, refusal)
        if fate is not None:
            return fate
    raise AssertionError("the last intake step always decides the message's fate")


def _stored(intake: Intake) -> ReceivedMessage:
    assert intake.stored is not None, "the claim step loads the stored message"
    return intake.stored


def _who(intake: Intake) -> tuple[Game, Player, Directives]:
    assert intake.game and intake.player and intake.directives, "identify runs first"
    return intake.game, intake.player, intake.directives


def _parsed(intake: Intake) -> ParsedOrders:
    assert intake.parsed is not None, "parse runs first"
    return intake.parsed


def _context(intake: Intake) -> TurnContext:
    assert intake.context is not None, "parse runs first"
    return intake.context


def _turn(intake: Intake) -> Turn:
    assert intake.turn is not None, "parse runs first"
    return intake.turn


def _hold_press(intake: Intake) -> tuple[str, ...]:
    """With press moderation on, queue the announcements for the GM (moderator.desk.press);
    the receipt says they are held."""
    game, player, _ = _who(intake)
    if intake.submission is None or not intake.config.game(game.name).press_moderation:
        return ()
    intake.session.flush()  # the submission's id
    count = press.hold(intake.session, game, player, intake.submission, _parsed(intake).orders)
    if not count:
        return ()
    return (f"{count} announcement(s) held for the GM's approval before printing.",)


def _is_late(config: Config, game: Game, turn: Turn, now: datetime) -> bool:
    """Past the deadline (and any grace the game allows): the receipt must say so."""
    last = cutoff(config, game, turn)
    return last is not None and as_utc(now) > last


def _tell_owner_about_new_address(intake: Intake, game: Game, player: Player) -> None:
    """Orders from another of the player's registered addresses: tell him, once per address."""
    sender, session = intake.message.sender, intake.session
    if sender == player.email or repo.has_accepted_from(session, player, sender):
        return
    repo.log_gm(session, "intake.new-address", f"{player.name} wrote from {sender}", game=game)
    queue_new_address_notice(session, intake.config, game, player, sender)


def _refuse(intake: Intake, refusal: Refusal) -> IntakeResult:
    session, config, message, stored = intake.session, intake.config, intake.message, \
        _stored(intake)
    stored.status, stored.detail = MessageStatus.REFUSED, refusal.reason
    game = repo.find_game(session, game_name(session, config, message) or "")
    repo.log_gm(
        session,
        refusal.event,
        f"{message.sender or '?'} ({message.message_id}): {refusal.reason}",
        game=game,
        level="warning",
    )
    if not message.sender or own_address(message.sender, config.moderator_address):
        return intake.result(IntakeFate.REFUSED, refusal.reason)
    if not refusal_allowed(session, message.sender, intake.now, config.refusals_per_hour):
        # Forged senders and robots would get a refusal for every mail (backscatter).
        stored.detail = f"{refusal.reason} (not answered: refusal limit for this sender)"
        repo.log_gm(session, "intake.refusal-suppressed",
                    f"{message.sender} ({message.message_id}): already refused within the hour;"
                    " not answered", game=game)
        return intake.result(IntakeFate.REFUSED, stored.detail)
    queue_refusal(session, config, game, message.sender, message.subject, refusal.reason,
                  refusal.hint, Replying(message.message_id))
    stored.answered_at = intake.now
    return intake.result(IntakeFate.REFUSED, refusal.reason)


def _mark_failed(
    db: Engine, config: Config, stored_id: int, message: ExtractedMessage, exc: Exception
) -> None:
    """Record the failure in a fresh transaction: the message stays, marked failed."""
    with session_scope(db) as session:
        stored = session.get(ReceivedMessage, stored_id)
        if stored is not None:
            stored.status, stored.detail = MessageStatus.FAILED, repr(exc)
        repo.log_gm(session, "intake.failed", f"{message.message_id}: {exc!r}", level="error")
        outgoing.queue_gm_notice(
            session,
            config,
            None,
            "A message could not be processed",
            f"Message {message.message_id} from {message.sender} failed: {exc!r}\n"
            "It is kept in the store and the spool; nothing was sent to the player.",
        )
