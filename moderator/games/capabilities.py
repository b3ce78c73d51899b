"""The OPTIONAL capabilities of an engine besides `GameEngine` (`moderator.games.base`),
each a runtime-checkable protocol the service asks for: the receipt's forecast
(`Forecasting`, with an index kept per turn: `PreparedForecasting`), the typed batch path
(`Batching`: the frozen state and orders from turn to turn, no JSON), the GM's
decisions a run looks for (`Deciding`), sheets that read the turn's whole record
(`RecordReading`) and the characters who owe no orders any more (`Retiring`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from moderator.dice import Dice
from moderator.games.base import JSON, Event, NewsletterContext, OrderError


@runtime_checkable
class Forecasting(Protocol):
    """An OPTIONAL capability of an engine: the forecast a receipt prints.

    ``forecast(state, orders, tables)`` is pure like the rest of the engine: for each
    character in ``orders`` (his parsed orders, as `parse_orders` gave them), the lines
    of what the rules will do with them this turn that do not depend on the dice or on
    other players (money week by week, the week it runs out, each action the rules will
    refuse).  An engine without it simply gets receipts without a forecast; use
    `forecaster` rather than testing for the method.
    """

    def forecast(self, state: JSON, orders: Mapping[str, JSON],
                 tables: Any) -> Mapping[str, Sequence[str]]:
        ...


@runtime_checkable
class PreparedForecasting(Protocol):
    """An OPTIONAL refinement of `Forecasting`: an engine whose forecast can use an index
    of the state, made once (``prepare_forecast``, O(world)) and handed to each
    ``forecast`` of that very state, so one receipt's forecast costs what one
    character's turn touches, not the whole world (intake keeps it per open turn)."""

    def prepare_forecast(self, state: JSON) -> Any:
        ...

    def forecast(self, state: JSON, orders: Mapping[str, JSON], tables: Any,
                 prepared: Any = None) -> Mapping[str, Sequence[str]]:
        ...


StateT = TypeVar("StateT")
"""An engine's own frozen game state (`Batching`)."""

OrdersT = TypeVar("OrdersT")
"""An engine's own frozen value of one player's orders for one turn (`Batching`)."""


@dataclass(frozen=True)
class ReadOrders(Generic[OrdersT]):
    """What `Batching.read_orders` made of one message: the orders as the engine's own
    value and every problem found (as `ParsedOrders`, without the JSON form and the
    canonical read-back, which only a receipt needs)."""

    orders: OrdersT
    errors: tuple[OrderError, ...] = ()


@dataclass(frozen=True)
class StateTurn(Generic[StateT]):
    """What `Batching.run_turn` returns: the new state as the engine's own value."""

    state: StateT
    events: tuple[Event, ...]


@runtime_checkable
class Batching(Protocol[StateT, OrdersT]):
    """An OPTIONAL capability of an engine: turns played on its own frozen values, for a
    caller that plays many turns in one process (a benchmark, a property test, a batch of
    simulated games) and stores the JSON only of the turns it keeps.

    ``run_turn(state, orders, tables, dice)`` is `GameEngine.adjudicate` without the JSON
    round trip: it takes the state that ``load_state`` or the previous ``run_turn`` gave
    and returns the new one, each a frozen value the engine never changes (nothing is
    remembered by the identity of what a caller holds: the value passed is the value
    played).  The results are exactly the per-turn JSON path's: ``store_state`` of each
    state is what `GameEngine.adjudicate` returns for the same turn, and
    ``load_state(store_state(s))`` equals ``s`` field by field, mappings in the same
    order.  ``read_orders`` is `GameEngine.parse_orders` to the engine's orders value
    (``store_orders`` gives its JSON form).  The per-turn JSON API stays the service's.
    """

    def load_state(self, state: JSON) -> StateT:
        ...

    def store_state(self, state: StateT) -> JSON:
        ...

    def read_orders(self, text: str, state: StateT, character: str,
                    tables: Any) -> ReadOrders[OrdersT]:
        ...

    def store_orders(self, orders: OrdersT) -> JSON:
        ...

    def run_turn(self, state: StateT, orders: Mapping[str, OrdersT], tables: Any,
                 dice: Dice) -> StateTurn[StateT]:
        ...


@runtime_checkable
class Deciding(Protocol):
    """An OPTIONAL capability of an engine that takes GM decisions (`takes_decisions`):
    the decisions the next run of ``state`` will look for, one line each (key, what it
    decides, its default).  The GM's side only (`turn run`, `turn preview`): a decision
    key is never shown to a player.  Use `decisions_due`."""

    def decisions_due(self, state: JSON) -> Sequence[str]:
        ...


def decisions_due(engine: object, state: JSON) -> tuple[str, ...]:
    """What `Deciding.decisions_due` lists for ``state``; nothing for other engines."""
    return tuple(engine.decisions_due(state)) if isinstance(engine, Deciding) else ()


@runtime_checkable
class Retiring(Protocol):
    """An OPTIONAL capability of an engine whose rules take characters out of the game
    (En Garde!'s dead, reference §5.5): the characters of ``state`` who send no more
    orders.  Their players are not missing orders: not reminded, not counted by the NMR
    policy, their sheets carry no no-orders notice.  Use `out_of_play`."""

    def out_of_play(self, state: JSON) -> Collection[str]:
        ...


def out_of_play(engine: object, state: JSON) -> frozenset[str]:
    """What `Retiring.out_of_play` lists for ``state``; nobody for other engines."""
    return frozenset(engine.out_of_play(state)) if isinstance(engine, Retiring) else frozenset()


def forecaster(engine: object) -> Forecasting | None:
    """The engine as a `Forecasting` one, or None when it makes no forecasts."""
    return engine if isinstance(engine, Forecasting) else None


@dataclass(frozen=True)
class TurnRecord:
    """What a run turn's record holds besides its states and events, for its newsletters:
    each player's own orders of the turn (by character, the JSON `parse_orders` gave;
    None: not known, e.g. a turn rendered outside the service) and the dice log
    (`Dice.log_dicts`, in the order rolled)."""

    orders: Mapping[str, JSON] | None
    dice: Sequence[Mapping[str, Any]]


@runtime_checkable
class RecordReading(Protocol):
    """An OPTIONAL capability of an engine: its newsletter contexts read the turn's whole
    record (`TurnRecord`), not only its events: a sheet may then word what the events
    leave out (a bid the Office Phase never reached is in the player's orders, not in
    an event) without a new event, which would change every recorded game.  The same
    contract as `GameEngine.newsletter_context` otherwise; the publisher calls it when
    the engine has it.  A private sheet may read only its own player's orders."""

    def record_newsletter_context(self, before: JSON, after: JSON, events: Sequence[Event],
                                  record: TurnRecord, characters: Sequence[str],
                                  tables: Any) -> NewsletterContext:
        ...
