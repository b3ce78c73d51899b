"""The intake steps that read and keep the orders (``parse`` and ``store``).

``parse`` reads the text with the game's engine against the open turn (greetings and
sign-offs set aside); ``store`` keeps the new version of the orders beside the earlier
ones (nothing read: no new version) and, with press moderation on, holds its
announcements for the GM.
"""



from __future__ import annotations

from sqlmodel import col, select

from moderator import jsonio
from moderator.desk import press
from moderator.games import find_engine
from moderator.intake.record import (
    Intake,
    IntakeResult,
    identified,
    open_turn,
    parsed_orders,
)
from moderator.intake.route import set_aside_chatter
from moderator.intake.turnstate import open_turn_context
from moderator.settings.config import game_tables
from moderator.store import repo
from moderator.store.models import Player, Submission


def parse_step(intake: Intake) -> IntakeResult | None:
    game, player, directives = identified(intake)
    tables = game_tables(intake.config, game.name, game.kind)
    intake.turn, intake.context = open_turn_context(intake.session, game)
    engine, state = find_engine(game.kind), intake.context.state
    intake.parsed, intake.chatter = set_aside_chatter(
        directives.text_for_parser,
        lambda text: engine.parse_orders(text, state, player.character_key, tables))
    return None


def store_step(intake: Intake) -> IntakeResult | None:
    game, player, directives = identified(intake)
    parsed, turn = parsed_orders(intake), open_turn(intake)
    # Workers: two messages of one player handled at once would both count the same
    # earlier versions; the player's row lock (PostgreSQL) makes the second wait.  SQLite
    # has no row locks: there the claim, the transaction's first write, already holds the
    # database's one write lock until the fate is committed (or rolled back, storing none).
    if intake.session.get_bind().dialect.name != "sqlite":
        intake.session.exec(select(Player.id).where(col(Player.id) == player.id)
                            .with_for_update())
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
        received_at=intake.received,
        text=directives.text_for_parser,
        orders_json=jsonio.dumps(parsed.orders),
        normal_form_json=jsonio.dumps(list(parsed.normal_form)),
        errors_json=jsonio.dumps([e.to_dict() for e in parsed.errors]),
    )
    intake.session.add(intake.submission)
    intake.held = _hold_press(intake)
    return None


def _hold_press(intake: Intake) -> tuple[str, ...]:
    """With press moderation on, queue the announcements for the GM (moderator.desk.press);
    the receipt says they are held."""
    game, player, _ = identified(intake)
    if intake.submission is None or not intake.config.game(game.name).press_moderation:
        return ()
    intake.session.flush()  # the submission's id
    count = press.hold(intake.session, game, player, intake.submission,
                       parsed_orders(intake).orders)
    if not count:
        return ()
    return (f"{count} announcement(s) held for the GM's approval before printing.",)
