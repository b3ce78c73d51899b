"""`FiefEngine`: the `GameEngine` the service calls (moderator.games.base).

Pure: plain data in, plain data and events out; dice only from the `Dice` given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.dice import Dice
from moderator.games.base import (
    JSON,
    Event,
    NewsletterContext,
    ParsedOrders,
    TurnResult,
    load_problems,
)
from moderator.games.fief import npcs, phases, setup
from moderator.games.fief.events import EventId
from moderator.games.fief.forms import order_form as build_form
from moderator.games.fief.orders import parse_orders
from moderator.games.fief.orders.values import TurnOrders
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState, Phase
from moderator.games.fief.tables import Tables, load_tables
from moderator.games.fief.views import newsletter_context


def _tables(tables: Any) -> Tables:
    if not isinstance(tables, Tables):
        raise TypeError("pass the value returned by ENGINE.load_tables(raw)")
    return tables


class FiefEngine:
    """Fief: England (2025), FE 1-13 in part: see docs/rules-coverage.md."""

    kind = "fief"
    title = "Fief: England"
    gazette_title = "Hear Ye! The Town Crier of England"
    takes_decisions = False
    # The adjudication's turn order (FE 1.0, fief-email.md §2.1.1), as `phases.run` runs it.
    phases = (phases.ROUND_TABLE, phases.NEXT_ROUND_TABLE)
    reserved_names = staticmethod(npcs.reserved_names)  # names no player may take

    def load_tables(self, raw: Mapping[str, Mapping[str, Any]]) -> Tables:
        return load_tables(raw)

    def new_game(self, name: str, tables: Any, dice: Dice) -> JSON:
        return setup.new_game(name, _tables(tables)).to_dict()

    def add_character(self, state: JSON, key: str, name: str, tables: Any,
                      dice: Dice) -> tuple[JSON, tuple[Event, ...]]:
        """A player takes a seat; the families are founded at the muster (Setup)."""
        game = setup.add_player(GameState.from_dict(state), key, name, _tables(tables))
        event = Event(EventId.PLAYER_JOINED.value, {"player": key, "seat": len(game.seats)},
                      actor=key)
        return game.to_dict(), (event,)

    def parse_orders(self, text: str, state: JSON, character: str,
                     tables: Any) -> ParsedOrders:
        return parse_orders(text, state, character, _tables(tables))

    def adjudicate(self, state: JSON, orders: Mapping[str, JSON], tables: Any,
                   dice: Dice) -> TurnResult:
        game = GameState.from_dict(state)
        if game.phase is Phase.OVER:
            return TurnResult(game.to_dict(), ())
        realm = Realm(game, _tables(tables), dice)
        realm.orders = {key: TurnOrders.from_dict(orders.get(key)) for key in game.seats}
        for key in game.seats:
            game.players[key].nmr = 0 if key in orders else game.players[key].nmr + 1
        phases.run(realm)
        return TurnResult(realm.s.to_dict(), tuple(realm.events))

    def validate_state(self, state: JSON, tables: Any) -> list[str]:
        """What the state loader rejects in a hand-amended state (`state amend`)."""
        return load_problems(GameState.from_dict, state)

    def finished(self, state: JSON) -> str | None:
        """FE 8.1-8.5: the round a player alone, or two allied by marriage, reach the
        Victory Points to win (from Round 5), or Round 7 whatever they hold, is the last."""
        game = GameState.from_dict(state)
        if game.phase is not Phase.OVER:
            return None
        names = [game.players[key].name for key in game.winners if key in game.players]
        if len(names) > 1:
            return f"{' and '.join(names)} have won the game as allies (FE 8)"
        return f"{names[0] if names else 'a player'} has won the game (FE 8)"

    def turn_label(self, state: JSON) -> str:
        if state.get("phase") == Phase.MUSTER.value:
            return "The muster"
        return f"Round {state.get('round', 0)}"

    def character_name(self, state: JSON, character: str) -> str:
        return str(state["players"][character]["name"])

    def order_form(self, state: JSON, character: str, tables: Any) -> str:
        return build_form(GameState.from_dict(state), character, _tables(tables))

    def newsletter_context(self, before: JSON, after: JSON, events: Sequence[Event],
                           characters: Sequence[str], tables: Any) -> NewsletterContext:
        gazette, sheets = newsletter_context(GameState.from_dict(before),
                                             GameState.from_dict(after), events, characters,
                                             _tables(tables))
        return NewsletterContext(gazette, sheets)
