"""Orders of Fief: England: values, parse, format (docs/fief-orders.md)."""

from __future__ import annotations

from typing import Any

from moderator.games.base import OrderError, ParsedOrders, Severity
from moderator.games.fief.orders.format import format_order
from moderator.games.fief.orders.parse import Context, parse_text
from moderator.games.fief.orders.values import (
    STANDING,
    BuyTitle,
    Candidate,
    Decoy,
    Discard,
    Draw,
    Order,
    PlayTax,
    Start,
    TurnOrders,
    Withdraw,
)
from moderator.games.fief.state import TALLAGE_RULE, GameState, Phase
from moderator.games.fief.tables import Tables


def context(state: dict[str, Any], player: str, tables: Tables) -> Context:
    players = {k: str(p["name"]) for k, p in state.get("players", {}).items()}
    me = state.get("players", {}).get(player, {})
    return Context(tables, players, tuple(me.get("families", [])),
                   tuple(tables.setup.colours), tuple(me.get("hand", [])))


def parse_orders(text: str, state: dict[str, Any], player: str, tables: Tables) -> ParsedOrders:
    ctx = context(state, player, tables)
    lines, errors = parse_text(ctx, text)
    raw = text.splitlines()
    game = (GameState.from_dict(state) if state.get("nobles") and any(
        isinstance(o, Candidate | PlayTax) for _, o in lines) else None)
    titled = {o.noble.lower() for _, o in lines if isinstance(o, BuyTitle)}
    unfit = [OrderError(n, raw[n - 1].strip(), message, hint, severity=severity)
             for n, o in lines if (found := _candidacy(o, game, titled))
             for message, hint, severity in [found]]
    unfit += _second_decoys(lines, raw)
    unfit += [OrderError(n, raw[n - 1].strip(), *why, severity=Severity.WARNING)
              for n, o in lines if (why := _tallage(o, game, player, tables))]
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


def _candidacy(order: Order, game: GameState | None,
               titled: set[str]) -> tuple[str, str, Severity] | None:
    """FE 9.1 on the receipt: a candidate who may not stand as the state is now.  An
    error when he never can (dead, of the clergy); else a warning, for he may be a free
    Lord by the election (a ransom paid; not for the title these orders buy him), when
    the engine checks again."""
    if not isinstance(order, Candidate) or game is None:
        return None
    why = game.cannot_stand(order.lord)
    if why is None:
        return None
    noble = game.nobles.get(order.lord.lower())
    rule = ("a candidate is a Lord, not of the clergy, neither captive nor besieged "
            "when the election is held (FE 9.1)")
    if noble is not None and (not noble.alive or noble.clergy):
        return (f"{why}; {rule}", "name another Lord", Severity.ERROR)
    if order.lord.lower() in titled:
        return None
    return (f"as things stand, {why}; {rule}",
            "the line stands; at the election he is dropped, and you are told, unless he "
            "may stand by then", Severity.WARNING)


def _tallage(order: Order, game: GameState | None, player: str,
             tables: Tables) -> tuple[str, str] | None:
    """FE 2.8 on the receipt (found playing by mail: `PLAY TAX ON Midlands` by a player
    with no title was read back and only refused on the sheet).  A warning: the line
    stands, for the Lord may change before Phase 2D (a title granted by an ally)."""
    if not isinstance(order, PlayTax) or game is None or player not in game.players:
        return None
    region = tables.region(order.region)
    if game.may_tallage(player, region.key):
        return None
    return (f"as things stand, you are not the Lord of {region.name} nor a Sovereign on a "
            f"region with no Lord; {TALLAGE_RULE}",
            "the line stands; at Phase 2D it is refused, and you are told, unless it may "
            "be played then")


def _second_decoys(lines: list[tuple[int, Order]], raw: list[str]) -> list[OrderError]:
    """FE 9.1: each player has one DECOY marker; a second DECOY line is refused on the
    receipt rather than one of them silently ignored at the tally."""
    decoys = [n for n, o in lines if isinstance(o, Decoy)]
    return [OrderError(n, raw[n - 1].strip(), "you have one DECOY marker (FE 9.1): the "
                       f"DECOY on line {decoys[0]} places it", "leave one DECOY line")
            for n in decoys[1:]]


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
