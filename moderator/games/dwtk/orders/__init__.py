"""Orders: the values, their canonical syntax and the parser (docs/dwtk-orders.md).

One module per family, each with its values, its parser and its format: `activity`
(``DO``), `counsel` (``COUNSEL``), `reaction` (``IF ... THEN``, the standing reactions),
`usurp` (``USURP``), `social` (PROPOSE, ATTEND, SOLICIT, BRIBE); `turn` gathers them in
`TurnOrders` with the small lines; `parse` reads a whole sheet (`parse_orders`, with the
typed problems of `errors`); `names` reads and writes the names a player types.
"""

from __future__ import annotations

from moderator.games.dwtk.orders.activity import Activity, ActivityKind, Draw
from moderator.games.dwtk.orders.errors import (
    IllegalOrderError,
    OrderSyntaxError,
    ParseProblem,
    UnknownNameError,
)
from moderator.games.dwtk.orders.names import PC, Names
from moderator.games.dwtk.orders.parse import parse_orders, read_orders
from moderator.games.dwtk.orders.turn import Stance, TurnOrders, format_orders

__all__ = ["PC", "Activity", "ActivityKind", "Draw", "IllegalOrderError", "Names",
           "OrderSyntaxError", "ParseProblem", "Stance", "TurnOrders", "UnknownNameError",
           "format_orders", "parse_orders", "read_orders"]
