"""Orders that are not activities: proposals (18.4), attending weddings (13.4.16) and
bribes (13.4.20) — the values, their canonical lines and their parsers.

``PROPOSE <suitor> TO <beloved>``, ``ATTEND WEDDINGS``, ``SOLICIT BRIBE <n>`` and
``BRIBE <NC office holder> WITH <n> IP [BY <henchman>]``; see docs/dwtk-orders.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moderator.games.dwtk.orders.errors import IllegalOrderError, OrderSyntaxError
from moderator.games.dwtk.orders.names import PC, Names

JSON = dict[str, Any]
MAX_BRIBE = 6  # 13.4.20.1: one to six IP


@dataclass(frozen=True)
class Proposal:
    """``PROPOSE a TO b [IF FREE]`` (18.4): ``suitor`` proposes to ``beloved``; with
    ``free_only`` only when a Prestige result accepts a proposal at once (18.4.5), never
    rolled for."""

    suitor: str
    beloved: str
    free_only: bool = False

    def to_dict(self) -> JSON:
        return {"suitor": self.suitor, "beloved": self.beloved, "free_only": self.free_only}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Proposal:
        return cls(d["suitor"], d["beloved"], bool(d.get("free_only", False)))


@dataclass(frozen=True)
class BribeOffer:
    """``BRIBE x WITH n IP [BY h]`` (13.4.20.2): an NC Office Holder offered ``amount`` IP,
    tendered by the PC or by henchman ``by``."""

    target: str
    amount: int
    by: str | None = None

    def to_dict(self) -> JSON:
        return {"target": self.target, "amount": self.amount, "by": self.by}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BribeOffer:
        return cls(d["target"], int(d["amount"]), d.get("by"))


def format_proposal(p: Proposal, n: Names) -> str:
    line = f"PROPOSE {n.who(p.suitor)} TO {n.who(p.beloved)}"
    return line + (" IF FREE" if p.free_only else "")


def format_bribe(b: BribeOffer, n: Names) -> str:
    line = f"BRIBE {n.who(b.target)} WITH {b.amount} IP"
    return line + (f" BY {n.who(b.by)}" if b.by is not None else "")


def parse_proposal(rest: str, n: Names) -> Proposal:
    m = _PROPOSE.match(rest.strip())
    suitor = n.read_who(m.group(1)) if m else None
    beloved = n.read_who(m.group(2)) if m else None
    if suitor is None or beloved is None:
        raise OrderSyntaxError("PROPOSE needs who proposes and TO whom",
                               "e.g. PROPOSE PC TO Lady Anne (DWTK 18.4)")
    if suitor == beloved:
        raise IllegalOrderError("a character cannot propose to himself", "DWTK 18.2")
    return Proposal(suitor, beloved, bool(m and m.group(3)))


def parse_solicit(rest: str) -> int:
    m = _SOLICIT.match(rest.strip())
    if not m or not 1 <= int(m.group(1)) <= MAX_BRIBE:
        raise OrderSyntaxError("SOLICIT BRIBE needs an amount from 1 to 6 IP",
                               "e.g. SOLICIT BRIBE 3 (DWTK 13.4.20.1)")
    return int(m.group(1))


def parse_bribe(rest: str, n: Names) -> BribeOffer:
    m = _BRIBE.match(rest.strip())
    target = n.read_who(m.group(1)) if m else None
    by = n.read_who(m.group(3)) if m and m.group(3) else None
    if m is None or target is None or (m.group(3) and by is None):
        raise OrderSyntaxError("BRIBE needs an NC Office Holder and WITH an amount of IP",
                               "e.g. BRIBE 23 WITH 3 IP, or BRIBE 23 WITH 3 IP BY Duke Roland "
                               "(DWTK 13.4.20.2)")
    if target == PC or int(m.group(2)) < 1:
        raise IllegalOrderError("BRIBE an NC Office Holder with at least 1 IP", "DWTK 13.4.20.2")
    return BribeOffer(target, int(m.group(2)), by)


# Precompiled (speed: re.match with flags looks the pattern up in re's cache each line).
_PROPOSE = re.compile(r"^(.+?)\s+TO\s+(.+?)(\s+IF\s+FREE)?$", re.IGNORECASE)
_SOLICIT = re.compile(r"^BRIBE\s+(\d+)(?:\s*IP)?$", re.IGNORECASE)
_BRIBE = re.compile(r"^(.+?)\s+WITH\s+(\d+)\s*IP(?:\s+BY\s+(.+))?$", re.IGNORECASE)
