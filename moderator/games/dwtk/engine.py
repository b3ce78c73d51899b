"""`DwtkEngine`: the `GameEngine` the service calls (moderator.games.base).

Pure: plain data in, plain data and events out; dice only from the `Dice` given.  It is
`Batching` too: the same turns on the frozen `GameState` and `TurnOrders`, for a caller
that plays many turns in one process (`adjudicate` is `run_turn` between two JSON forms).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from moderator.dice import Dice
from moderator.games.base import JSON, Event, NewsletterContext, ParsedOrders, TurnResult
from moderator.games.capabilities import (
    Batching,
    ReadOrders,
    RecordReading,
    StateTurn,
    TurnRecord,
)
from moderator.games.dwtk import faction, forecast, npcs, phases, press, setup
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders import TurnOrders, parse_orders, read_orders
from moderator.games.dwtk.state import GameState, Phase
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import Tables
from moderator.games.dwtk.tables.loader import load_tables
from moderator.games.dwtk.validate_state import validate_state
from moderator.games.dwtk.views import newsletter_context
from moderator.games.dwtk.views import order_form as build_form


def _tables(tables: Any) -> Tables:
    if not isinstance(tables, Tables):
        raise TypeError("pass the value returned by ENGINE.load_tables(raw)")
    return tables


_NO_ORDERS = TurnOrders()  # what a player who sent nothing does (NMR)


class DwtkEngine:
    """Down with the King (Avalon Hill 1981): the court of Fandonia, DWTK 1-37 in part."""

    kind = "dwtk"
    title = "Down with the King"
    gazette_title = "The Fandonian Courier"
    takes_decisions = False
    phases = (phases.table(),)  # the adjudication's turn order (DWTK 4), as `adjudicate` runs it
    reserved_names = staticmethod(npcs.reserved_names)  # names no player may take

    def load_tables(self, raw: Mapping[str, Mapping[str, Any]]) -> Tables:
        return load_tables(raw)

    def new_game(self, name: str, tables: Any, dice: Dice) -> JSON:
        return setup.new_game(name, _tables(tables)).to_dict()

    def add_character(self, state: JSON, key: str, name: str, tables: Any,
                      dice: Dice) -> tuple[JSON, tuple[Event, ...]]:
        """A player takes a seat; his noble is dealt when the court assembles (DWTK 3)."""
        game = setup.add_player(GameState.from_dict(state), key, name, _tables(tables))
        event = Event(EventId.PLAYER_JOINED.value, {"player": key, "seat": len(game.players)},
                      actor=key)
        return game.to_dict(), (event,)

    def parse_orders(self, text: str, state: JSON, character: str,
                     tables: Any) -> ParsedOrders:
        players = {k: str(p["name"]) for k, p in state.get("players", {}).items()}
        return parse_orders(text, _tables(tables), players)

    def adjudicate(self, state: JSON, orders: Mapping[str, JSON], tables: Any,
                   dice: Dice) -> TurnResult:
        game = GameState.from_dict(state)
        turn = self.run_turn(game, {key: TurnOrders.from_dict(orders.get(key))
                                    for key in game.players}, tables, dice)
        return TurnResult(turn.state.to_dict(), turn.events)

    # -- `Batching` (moderator.games.base): the same turns on the frozen values ----------

    def load_state(self, state: JSON) -> GameState:
        return GameState.from_dict(state)

    def store_state(self, state: GameState) -> JSON:
        return state.to_dict()

    def read_orders(self, text: str, state: GameState, character: str,
                    tables: Any) -> ReadOrders[TurnOrders]:
        players = {k: p.name for k, p in state.players.items()}
        orders, errors = read_orders(text, _tables(tables), players)
        return ReadOrders(orders, errors)

    def store_orders(self, orders: TurnOrders) -> JSON:
        return orders.to_dict()

    def run_turn(self, state: GameState, orders: Mapping[str, TurnOrders], tables: Any,
                 dice: Dice) -> StateTurn[GameState]:
        """One turn from the frozen state to the next (`Court.freeze` gives it in the
        order `GameState.from_dict` reads its JSON form, so a turn run on it does what
        one run on the stored state does).  A player absent from ``orders`` sent nothing."""
        if state.phase is Phase.OVER:
            return StateTurn(state, ())
        court = Court(state, _tables(tables), dice, pp_limit=faction.enforce_limit)
        court.orders = {key: orders.get(key, _NO_ORDERS) for key in state.players}
        press.announce(court)  # the Courier prints the turn's announcements first
        phases.run(court)
        return StateTurn(court.freeze(), tuple(court.events))

    def finished(self, state: JSON) -> str | None:
        """DWTK 37: why no turn may run any more ("Ann has won the game", "the game is
        drawn"), or None while it goes on; the desk's `turn run` refuses on it."""
        game = GameState.from_dict(state)
        if game.phase is not Phase.OVER:
            return None
        if game.winner is not None and game.winner in game.players:
            return f"{game.players[game.winner].name} has won the game (DWTK 37)"
        return "the game is drawn: the line of succession is extinct (DWTK 37)"

    def validate_state(self, state: JSON, tables: Tables) -> list[str]:
        return validate_state(state, _tables(tables))

    def turn_label(self, state: JSON) -> str:
        game = GameState.from_dict(state)
        if game.phase is Phase.MUSTER:
            return "The court assembles"
        return f"Turn {game.turn}"

    def character_name(self, state: JSON, character: str) -> str:
        return str(state["players"][character]["name"])

    def order_form(self, state: JSON, character: str, tables: Any) -> str:
        return build_form(GameState.from_dict(state), character, _tables(tables))

    def newsletter_context(self, before: JSON, after: JSON, events: Sequence[Event],
                           characters: Sequence[str], tables: Any) -> NewsletterContext:
        """Without the turn's record: its sheets list no dice and know no orders."""
        gazette, sheets = newsletter_context(GameState.from_dict(before),
                                             GameState.from_dict(after), events, characters,
                                             _tables(tables))
        return NewsletterContext(gazette, sheets)

    def record_newsletter_context(self, before: JSON, after: JSON, events: Sequence[Event],
                                  record: TurnRecord, characters: Sequence[str],
                                  tables: Any) -> NewsletterContext:
        """`RecordReading` (moderator.games.capabilities): the sheets read the dice log
        (whose each die was, DWTK 5, 19.8) and the player's own orders."""
        gazette, sheets = newsletter_context(GameState.from_dict(before),
                                             GameState.from_dict(after), events, characters,
                                             _tables(tables), record)
        return NewsletterContext(gazette, sheets)

    def forecast(self, state: JSON, orders: Mapping[str, JSON],
                 tables: Any) -> dict[str, tuple[str, ...]]:
        """The optional `Forecasting` capability (moderator.games.base): see forecast.py."""
        return forecast.forecast(state, orders, _tables(tables), self.adjudicate)


if TYPE_CHECKING:  # mypy --strict: the engine keeps the optional capability's contract
    _BATCHING: Batching[GameState, TurnOrders] = DwtkEngine()
    _RECORD_READING: RecordReading = DwtkEngine()
