"""Orders of Fief: England: values, parse, format (docs/fief-orders.md)."""

from __future__ import annotations

from typing import Any

from moderator.games.base import OrderError, ParsedOrders, Severity
from moderator.games.fief.orders.checks import state_checks
from moderator.games.fief.orders.format import format_order
from moderator.games.fief.orders.parse import Context, parse_text
from moderator.games.fief.orders.values import (
    STANDING,
    Discard,
    Draw,
    Order,
    Start,
    TurnOrders,
    Withdraw,
)
from moderator.games.fief.state import Phase
from moderator.games.fief.tables import Tables


def context(state: dict[str, Any], player: str, tables: Tables) -> Context:
    players = {k: str(p["name"]) for k, p in state.get("players", {}).items()}
    me = state.get("players", {}).get(player, {})
    owners = {colour: str(f["player"]) for colour, f in state.get("families", {}).items()}
    living = [n for n in state.get("nobles", {}).values() if n.get("status") != "dead"]
    mine = sorted(str(n["name"]) for n in living if n.get("family") in me.get("families", []))
    return Context(tables, players, tuple(me.get("families", [])),
                   tuple(tables.setup.colours), tuple(me.get("hand", [])), owners,
                   tuple(mine), tuple(sorted(str(n["name"]) for n in living)))


def parse_orders(text: str, state: dict[str, Any], player: str, tables: Tables) -> ParsedOrders:
    ctx = context(state, player, tables)
    lines, errors = parse_text(ctx, text)
    raw = text.splitlines()
    unfit = state_checks(lines, raw, state, player, tables)
    refused = {e.line for e in unfit if e.severity is Severity.ERROR}
    errors = [*errors, *unfit]
    lines = [(n, o) for n, o in lines if n not in refused]
    orders = TurnOrders(tuple(o for _, o in lines))
    muster = state.get("phase", Phase.MUSTER.value) == Phase.MUSTER.value
    warnings = [OrderError(n, raw[n - 1].strip(), *why, severity=Severity.WARNING)
                for n, o in lines if (why := _out_of_window(o, muster))]
    normal = tuple(format_order(tables, o, ctx.players) for _, o in lines)
    return ParsedOrders(orders.to_dict(), normal,
                        tuple(sorted([*errors, *warnings], key=lambda e: e.line)))


# What the muster reads (Setup, FE 1.0: it founds the families and plays Round 1's
# Phase 2A-2C, FE 2.0); the standing orders are stored then too.
MUSTER_ORDERS: tuple[type[Order], ...] = (Start, Draw, Discard, Withdraw, *STANDING)


def _out_of_window(order: Order, muster: bool) -> tuple[str, str] | None:
    """Why a well-formed line will do nothing this turn (a warning on the receipt)."""
    if muster and not isinstance(order, MUSTER_ORDERS):
        return ("does nothing at the muster, which only founds the families and plays "
                "Round 1's draws", "send it with your Round 1 orders, after the muster")
    if not muster and isinstance(order, Start):
        return ("START is read only at the muster; your family has started",
                "leave it out, or MOVE your nobles")
    return None


__all__ = ["Order", "TurnOrders", "format_order", "parse_orders"]
