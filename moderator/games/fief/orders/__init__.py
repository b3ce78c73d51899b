"""Orders of Fief: England: values, parse, format (docs/fief-orders.md)."""

from __future__ import annotations

from typing import Any

from moderator.games.base import ParsedOrders
from moderator.games.fief.orders.format import format_order
from moderator.games.fief.orders.parse import Context, parse_text
from moderator.games.fief.orders.values import Order, TurnOrders
from moderator.games.fief.tables import Tables


def context(state: dict[str, Any], player: str, tables: Tables) -> Context:
    players = {k: str(p["name"]) for k, p in state.get("players", {}).items()}
    me = state.get("players", {}).get(player, {})
    return Context(tables, players, tuple(me.get("families", [])),
                   tuple(tables.setup.colours), tuple(me.get("hand", [])))


def parse_orders(text: str, state: dict[str, Any], player: str, tables: Tables) -> ParsedOrders:
    ctx = context(state, player, tables)
    lines, errors = parse_text(ctx, text)
    orders = TurnOrders(tuple(o for _, o in lines))
    return ParsedOrders(orders.to_dict(), tuple(format_order(tables, o) for _, o in lines),
                        tuple(errors))


__all__ = ["Order", "TurnOrders", "format_order", "parse_orders"]
