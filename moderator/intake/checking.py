"""The checker: orders read and forecast without being stored (``CHECK``), and the
forecast every receipt carries (`forecast_lines`).

`moderator.intake.commands` finds the CHECK line; the receipt is the one the orders'
steps queue (`moderator.publish.receipts`), marked "checked, not stored".
"""

from __future__ import annotations

import logging

from sqlmodel import Session

from moderator.clock import format_deadline
from moderator.games import find_engine
from moderator.games.base import ParsedOrders
from moderator.games.capabilities import PreparedForecasting, forecaster
from moderator.intake.extract import ExtractedMessage
from moderator.intake.route import Directives, set_aside_chatter
from moderator.intake.turnstate import TurnContext, turn_context
from moderator.publish.receipts import ReceiptFacts, Replying, queue_receipt
from moderator.settings.config import Config, game_tables
from moderator.store.models import Game, Player, Turn
from moderator.turn.inputs import standing

log = logging.getLogger(__name__)

__all__ = ["check_orders", "forecast_lines", "parse_orders"]


def parse_orders(session: Session, config: Config, game: Game, player: Player, turn: Turn,
                 text: str) -> tuple[ParsedOrders, tuple[str, ...]]:
    """The orders of ``text`` as the engine reads them against the open turn, and the
    lines set aside as chatter (greetings, signatures)."""
    engine, tables = find_engine(game.kind), game_tables(config, game.name, game.kind)
    state = turn_context(session, game, turn).state  # shared: read, never changed
    return set_aside_chatter(
        text, lambda t: engine.parse_orders(t, state, player.character_key, tables))


def check_orders(session: Session, config: Config, game: Game, player: Player, turn: Turn,
                 rest: Directives, message: ExtractedMessage) -> None:
    """CHECK: a receipt for the orders of this message, nothing stored (the checker)."""
    parsed, chatter = parse_orders(session, config, game, player, turn, rest.text_for_parser)
    engine = find_engine(game.kind)
    context = turn_context(session, game, turn)
    state = context.state
    facts = ReceiptFacts(
        accepted=False, version=0,
        standing=standing(session, config, game, turn, player), late=False,
        character_name=engine.character_name(state, player.character_key),
        deadline=format_deadline(turn.deadline, game.time_zone),
        notes=(*message.notes, *rest.notes, *chatter), checked_only=True,
        forecast=forecast_lines(config, game, player, context, parsed))
    queue_receipt(session, config, game, player, turn, parsed, facts,
                  Replying(message.message_id, message.references))


def forecast_lines(config: Config, game: Game, player: Player, context: TurnContext,
                   parsed: ParsedOrders) -> tuple[str, ...]:
    """The engine's forecast for a receipt, when the engine has one (an optional hook);
    with the turn's forecast index (`PreparedForecasting`) when the engine makes one."""
    engine = forecaster(find_engine(game.kind))
    if engine is None or not parsed.normal_form:
        return ()
    tables = game_tables(config, game.name, game.kind)
    orders = {player.character_key: parsed.orders}
    try:
        if isinstance(engine, PreparedForecasting) and context.prepared is not None:
            found = engine.forecast(context.state, orders, tables, context.prepared)
        else:
            found = engine.forecast(context.state, orders, tables)
    except Exception:  # a forecast is a courtesy: it must never cost a player his orders
        log.exception("forecast failed for %s in %s", player.character_key, game.name)
        return ("(no forecast this time)",)
    return tuple(found.get(player.character_key, ()))


