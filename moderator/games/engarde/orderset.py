"""Sets of orders: one month's, the standing set and the NMR set (EG §D; reference §12).

`MonthOrders` is the JSON the turn runner stores per submission and hands back to
`adjudicate`; the ``format_*`` helpers write a set back in canonical syntax.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.games.engarde.orders import WEEKS, Names, Order, Support, order_from_dict

JSON = dict[str, Any]


@dataclass(frozen=True)
class OrderSet:
    """One set of orders for a month: start-of-month, weekends and weeks."""

    premonth: tuple[Order, ...] = ()
    anytime: tuple[Order, ...] = ()
    weekends: Mapping[int, Order] = field(default_factory=dict)
    weeks: Mapping[int, Order] = field(default_factory=dict)

    def is_empty(self) -> bool:
        return not (self.premonth or self.anytime or self.weekends or self.weeks)

    def to_dict(self) -> JSON:
        return {
            "premonth": [o.to_dict() for o in self.premonth],
            "anytime": [o.to_dict() for o in self.anytime],
            "weekends": {str(n): self.weekends[n].to_dict() for n in sorted(self.weekends)},
            "weeks": {str(n): self.weeks[n].to_dict() for n in sorted(self.weeks)},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> OrderSet:
        if not data:
            return cls()
        return cls(
            premonth=tuple(order_from_dict(o) for o in data.get("premonth", ())),
            anytime=tuple(order_from_dict(o) for o in data.get("anytime", ())),
            weekends={int(n): order_from_dict(o) for n, o in data.get("weekends", {}).items()},
            weeks={int(n): order_from_dict(o) for n, o in data.get("weeks", {}).items()},
        )

    def filled_from(self, standing: OrderSet) -> OrderSet:
        """These orders with empty slots filled from standing orders (EG §D; reference §12)."""
        premonth = self.premonth
        if not any(isinstance(o, Support) for o in premonth):
            premonth = premonth + tuple(o for o in standing.premonth if isinstance(o, Support))
        premonth = premonth + tuple(
            o for o in standing.premonth if not isinstance(o, Support) and o not in premonth)
        return OrderSet(premonth, self.anytime, {**standing.weekends, **self.weekends},
                        {**standing.weeks, **self.weeks})


@dataclass(frozen=True)
class MonthOrders:
    """The orders JSON of one submission: this month, plus standing and NMR replacements.

    ``standing``/``nmr`` are None when the submission did not mention them (the stored
    ones are kept); an empty `OrderSet` clears them (``STANDING: NONE``).
    """

    month: OrderSet = OrderSet()
    standing: OrderSet | None = None
    nmr: OrderSet | None = None

    def to_dict(self) -> JSON:
        return {
            "version": 1,
            "month": self.month.to_dict(),
            "standing": None if self.standing is None else self.standing.to_dict(),
            "nmr": None if self.nmr is None else self.nmr.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MonthOrders:
        standing, nmr = data.get("standing"), data.get("nmr")
        return cls(
            OrderSet.from_dict(data.get("month")),
            None if standing is None else OrderSet.from_dict(standing),
            None if nmr is None else OrderSet.from_dict(nmr),
        )


def format_line(prefix: str, slot: str, order: Order, names: Names) -> str:
    """One canonical order line, e.g. ``STANDING WEEK 4: BAWDYHOUSE``."""
    head = f"{prefix} {slot}".strip()
    return f"{head}: {order.format(names)}"


def format_order_set(orders: OrderSet, names: Names, prefix: str = "") -> list[str]:
    """Every order of a set in canonical syntax, one per line, in month order."""
    lines = [format_line(prefix, "PREMONTH", o, names) for o in orders.premonth]
    lines += [format_line(prefix, "ANYTIME", o, names) for o in orders.anytime]
    for n in WEEKS:
        if n in orders.weeks:
            lines.append(format_line(prefix, f"WEEK {n}", orders.weeks[n], names))
        if n in orders.weekends:
            lines.append(format_line(prefix, f"WEEKEND {n}", orders.weekends[n], names))
    return lines


def format_month_orders(orders: MonthOrders, names: Names) -> list[str]:
    """The normal form of a whole submission."""
    lines = format_order_set(orders.month, names)
    for prefix, extra in (("STANDING", orders.standing), ("NMR", orders.nmr)):
        if extra is not None:
            lines += format_order_set(extra, names, prefix) or [f"{prefix}: NONE"]
    return lines
