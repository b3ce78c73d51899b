"""Mercenary Crossbowmen hired from a player's card (FE 11.1): the checks and the payment
shared by the Phase 4 hire and the hire in the middle of a battle."""

from __future__ import annotations

from moderator.games.fief.state import Player


def refusal(p: Player, count: int, cost: int) -> str | None:
    """Why the player cannot hire ``count`` Crossbowmen for ``cost`` now, or None."""
    if p.slot is None or p.slot.startswith("Burgher"):
        return "you have no Mercenary card in play (FE 11.1)"
    if p.crossbows < count:
        return f"only {p.crossbows} Crossbowmen left on your card"
    if p.cash < cost:
        return f"costs {cost}, you have {p.cash}"
    return None


def take(p: Player, count: int, cost: int) -> None:
    """Pay for them and take them off the card."""
    p.cash -= cost
    p.crossbows -= count
