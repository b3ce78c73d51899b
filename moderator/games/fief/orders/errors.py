"""Typed parse errors: each knows its message and a hint for the receipt."""

from __future__ import annotations


class OrderParseError(ValueError):
    hint: str | None = None

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint


class UnknownOrder(OrderParseError):
    hint = "see docs/fief-orders.md or your order form for the orders and their spelling"


class UnknownName(OrderParseError):
    """A city, noble, region, unit, card or player the game does not know."""


class BadNumber(OrderParseError):
    hint = "write a whole number, e.g. BUY 2 KNIGHT AT London"


class BadSyntax(OrderParseError):
    """The words are known but not in an order's shape."""
