"""The intake steps before the orders: whose message it is, and whether it is answered.

``claim`` takes the stored message (a second intake finds it taken), ``robots`` sets
aside bounces and robots' mail unanswered, ``size`` refuses an oversized message,
``commands`` answers player commands (HELP, ORDERS, CHECK ...; those sent beside orders
once the orders are stored, ``commands-after-orders``), ``identify`` checks game,
player, mail authentication and password, and ``game-over`` refuses orders for a game
that has ended.  A `Refusal` any step raises is answered
and logged by `refuse`, within the refusal limit for its sender.
"""

from __future__ import annotations

from sqlalchemy import bindparam, update
from sqlmodel import col

from moderator.intake.bounces import detect_bounce, is_player_address, record_bounce
from moderator.intake.commands import answer_after_orders, answer_commands
from moderator.intake.context import (
    forget_password,
    forget_password_lines,
    forget_unread_password_lines,
)
from moderator.intake.identify import Refusal, check_size, game_name, identify
from moderator.intake.record import (
    Intake,
    IntakeResult,
    identified,
    stored_message,
)
from moderator.intake.robots import own_address, refusal_allowed, robot_reason
from moderator.publish.receipts import (
    Replying,
    queue_refusal,
)
from moderator.store import repo
from moderator.store.models import ReceivedMessage
from moderator.store.statuses import GameStatus, IntakeFate, MessageStatus
from moderator.turn.over import over_words

# Made once: a statement built per message costs as much again as running it.
_CLAIM = (update(ReceivedMessage)
          .where(col(ReceivedMessage.id) == bindparam("claimed_id"),
                 col(ReceivedMessage.status) == MessageStatus.RECEIVED)
          .values(status=MessageStatus.HANDLING))


def claim_step(intake: Intake) -> IntakeResult | None:
    # A second intake reading it at the same moment (a GM's `inbox process` beside
    # `serve`) finds it taken.  A crash rolls the claim back, so a message stored but
    # never handled is still resumed on the next read.
    claimed = intake.session.execute(_CLAIM, {"claimed_id": intake.stored_id})
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        return intake.result(IntakeFate.DUPLICATE, "being handled elsewhere")
    intake.stored = intake.session.get(ReceivedMessage, intake.stored_id)
    assert intake.stored is not None
    return None


def robots_step(intake: Intake) -> IntakeResult | None:
    message, stored = intake.message, stored_message(intake)
    # An oversized message is refused on its headers alone: its body is never parsed.
    if len(stored.raw) <= intake.config.max_bytes:
        person = bool(message.sender) and is_player_address(intake.session, message.sender)
        bounce = detect_bounce(stored.raw, person=person)
        if bounce is not None:  # a mail of ours came back: the GM must see it
            record_bounce(intake.session, bounce)
            intake.kept = forget_password_lines(stored)  # it may return a welcome
            stored.status = MessageStatus.IGNORED
            stored.detail = f"bounce: {', '.join(bounce.recipients)}: {bounce.diagnostic}"
            return intake.result(IntakeFate.IGNORED, stored.detail)
    reason = message.auto_reason or robot_reason(
        message.subject, message.sender, intake.config.moderator_address)
    if not reason:
        return None
    # Answering a robot invites a mail loop; the GM still sees it.
    intake.kept = forget_password_lines(stored)  # a vacation reply may quote a welcome
    stored.status, stored.detail = MessageStatus.IGNORED, reason
    repo.log_gm(intake.session, "intake.ignored", f"{message.message_id}: {reason}")
    return intake.result(IntakeFate.IGNORED, reason)


def size_step(intake: Intake) -> IntakeResult | None:
    stored = stored_message(intake)
    try:
        check_size(intake.config, stored)
    except Refusal:  # refused unread, but the copies keep no password its bytes show
        intake.kept = forget_unread_password_lines(stored) or intake.kept
        raise
    return None


def commands_step(intake: Intake) -> IntakeResult | None:
    # Player commands (moderator.intake.commands): answered here; orders sent beside
    # them go on through the steps below, already identified.
    stored = stored_message(intake)
    try:
        done = answer_commands(intake.session, intake.config, intake.message, stored,
                               intake.now)
    except Exception:  # refused (a wrong password too): the copies keep all but it
        _forget_password(intake)
        raise
    if done is None:  # no command: `identify_step` checks the password and masks it
        return None
    # The command's password was checked (and a new one set, `PASSWORD new`): the
    # stored copies keep the message but neither value, as after `identify_step`.
    _forget_password(intake)
    stored.game_id = done.game.id if done.game else None
    stored.player_id = done.player.id if done.player else None
    if done.rest is None:
        stored.status, stored.detail = MessageStatus.ACCEPTED, done.detail
        return intake.result(IntakeFate.ACCEPTED, done.detail)
    intake.game, intake.player, intake.directives = done.game, done.player, done.rest
    intake.commands = done.later
    return None


def commands_after_orders_step(intake: Intake) -> IntakeResult | None:
    """The commands sent beside orders, answered once the orders are stored: ORDERS and
    STATUS then read back what this mail made stand (`answer_after_orders`)."""
    if intake.commands:
        game, player, _ = identified(intake)
        answer_after_orders(intake.session, intake.config, intake.message, game, player,
                            intake.commands, intake.now)
    return None


def _forget_password(intake: Intake) -> None:
    """The password checked: the stored copies keep all but it (`forget_password`), and
    the inbox files the masked bytes (`Intake.kept`)."""
    intake.kept = forget_password(stored_message(intake), intake.message.text) or intake.kept


def identify_step(intake: Intake) -> IntakeResult | None:
    if intake.directives is not None:  # the commands step identified the sender
        return None
    stored = stored_message(intake)
    try:
        game, player, directives = identify(intake.session, intake.config, intake.message,
                                            stored.raw)
    finally:  # checked, whatever the outcome: the stored copies keep all but the password
        _forget_password(intake)
    stored.game_id, stored.player_id = game.id, player.id
    intake.game, intake.player, intake.directives = game, player, directives
    return None


def game_over_step(intake: Intake) -> IntakeResult | None:
    """Orders for a game that is over (its last turn ended it: DWTK 37, FE 8) are
    refused with the reason; commands (STATUS, RESEND ...) were answered before."""
    game, _player, _ = identified(intake)
    if game.status != GameStatus.FINISHED:
        return None
    raise Refusal("intake.game-over",
                  f"{over_words(intake.session, game)}; no more orders are read.",
                  "RESEND TURN n mails a printed issue again; for anything else write TO GM "
                  "and your message, with your PASSWORD line: the GM gets it.")


def refuse(intake: Intake, refusal: Refusal) -> IntakeResult:
    session, config, message, stored = intake.session, intake.config, intake.message, \
        stored_message(intake)
    stored.status, stored.detail = MessageStatus.REFUSED, refusal.reason
    game = intake.game or repo.find_game(session, game_name(session, config, message) or "")
    if game is not None and stored.game_id is None:  # `inbox process` shows the game
        stored.game_id = game.id
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
