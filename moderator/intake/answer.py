"""The last intake step: the receipt that reads the orders back (``answer``).

The receipt says which version stands, whether it came late, what the forecast shows and
what was set aside; the stored message gets its fate and the line the GM's table shows,
and a player writing from another of his addresses is told, once per address.
"""



from __future__ import annotations

from datetime import datetime

from moderator.clock import as_utc, format_deadline
from moderator.games import find_engine
from moderator.intake.checking import forecast_lines
from moderator.intake.record import (
    Intake,
    IntakeResult,
    identified,
    open_turn,
    open_turn_context,
    parsed_orders,
    stored_message,
)
from moderator.publish.receipts import (
    ReceiptFacts,
    Replying,
    queue_new_address_notice,
    queue_receipt,
)
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Game, Player, Turn
from moderator.store.statuses import MessageStatus
from moderator.turn.inputs import cutoff, standing


def answer_step(intake: Intake) -> IntakeResult:
    game, player, directives = identified(intake)
    parsed, turn, submission = parsed_orders(intake), open_turn(intake), intake.submission
    accepted = submission is not None
    count = len(intake.earlier)
    intake.session.flush()  # the new version takes part in choosing the orders that stand
    stands = standing(intake.session, intake.config, game, turn, player)
    facts = ReceiptFacts(
        accepted=accepted,
        version=count + 1 if accepted else count,
        standing=stands,
        submission_id=submission.id if submission else None,
        late=_is_late(intake.config, game, turn, intake.received),
        character_name=find_engine(game.kind).character_name(open_turn_context(intake).state,
                                                             player.character_key),
        deadline=format_deadline(turn.deadline, game.time_zone),
        notes=(*intake.message.notes, *directives.notes, *intake.chatter, *intake.held),
        forecast=forecast_lines(intake.config, game, player, open_turn_context(intake), parsed),
    )
    replying = Replying(intake.message.message_id, intake.message.references)
    queue_receipt(intake.session, intake.config, game, player, turn, parsed, facts, replying)
    _tell_owner_about_new_address(intake, game, player)
    stored = stored_message(intake)
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


def _is_late(config: Config, game: Game, turn: Turn, received: datetime) -> bool:
    """Received past the deadline (and any grace the game allows): the receipt must say
    so.  At the deadline's very second it is on time, as `standing` counts it."""
    last = cutoff(config, game, turn)
    return last is not None and as_utc(received) > last


def _tell_owner_about_new_address(intake: Intake, game: Game, player: Player) -> None:
    """Orders from another of the player's registered addresses: tell him, once per address."""
    sender, session = intake.message.sender, intake.session
    if sender == player.email or repo.has_accepted_from(session, player, sender):
        return
    repo.log_gm(session, "intake.new-address", f"{player.name} wrote from {sender}", game=game)
    queue_new_address_notice(session, intake.config, game, player, sender)
