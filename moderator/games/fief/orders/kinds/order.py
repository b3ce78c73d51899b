"""The base of every Fief order, and the one order about orders (fief-email.md §2.4).

Each order is a frozen value with a ``kind``; `Order.to_dict` is its JSON form (read back by
`orders.values.order_from_dict`).  `Withdraw` drops a standing order by its number.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Order:
    kind: ClassVar[str] = ""
    standing: ClassVar[bool] = False
    family: str | None = None          # the family that gives it (two-player game, FE 13.7)
    at: str = ""                       # a window other than the order's own: "discard" (W4)

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if not self.at:
            del data["at"]      # the normal window: the stored form stays as it was
        data["kind"] = self.kind
        return data


@dataclass(frozen=True)
class Withdraw(Order):
    """Drop standing order number n (as numbered on the private sheet)."""
    kind: ClassVar[str] = "withdraw"
    number: int = 0
