"""The typed problems an order line can have (style rule 5; the pattern of En Garde!'s
`parser.common`).

A family parser raises one for the line it reads; `parse.parse_orders` collects them,
each as an `OrderError` with its line number, so a player gets every mistake in one
receipt.  The message and the hint are what the receipt shows.
"""

from __future__ import annotations

from moderator.games.base import Severity


class ParseProblem(ValueError):
    """A problem with one order line; ``hint`` tells the player how to write it."""

    severity = Severity.ERROR

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class OrderSyntaxError(ParseProblem):
    """The words do not make an order: an unknown keyword, a part missing."""


class UnknownNameError(OrderSyntaxError):
    """A name (character, royal, player, office, card, table, country) that is no one's."""


class IllegalOrderError(ParseProblem):
    """A well-formed order the rules do not allow (twice a turn, the wrong character ...)."""
