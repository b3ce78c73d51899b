"""`TurnOrders`: one player's orders for one turn, their JSON and canonical lines.

The value of every line family in one record: the activities (`activity`), counsels
(`counsel`), reactions (`reaction`), the usurpation (`usurp`), the social orders
(`social`) and the small lines read in `parse` (BUY, ALIGN, DISCARD, KEEP, BID, PROBLEM,
DRAW ONLY, WITHDRAW, HIDE, UNHIDE, SUICIDE, RESTORE, DISSOLVE, APPOINT, LOSE FIRST).
`format_orders` writes the lines that `parse.parse_orders` reads back to the same value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from moderator.games.dwtk.frozen import fast_init
from moderator.games.dwtk.orders.activity import Activity, Draw, format_activity
from moderator.games.dwtk.orders.counsel import CounselOrder, format_counsel
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.orders.press import Announcement, format_announcement
from moderator.games.dwtk.orders.reaction import Reaction, format_reaction
from moderator.games.dwtk.orders.social import (
    BribeOffer,
    Proposal,
    format_bribe,
    format_proposal,
)
from moderator.games.dwtk.orders.usurp import UsurpOrder, format_usurp

JSON = dict[str, Any]


class Stance(StrEnum):
    """What a PC/FAC Minister or modifier does about a political problem (7.4, 7.6)."""

    FAIL = "fail"  # the responsible Minister deliberately lets it stand
    PLUS = "+"
    MINUS = "-"


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class TurnOrders:
    """One player's orders for one turn (JSON via to_dict/from_dict)."""

    activities: tuple[Activity, ...] = ()
    buy_pp: int = 0  # 35.8
    align: tuple[str, ...] = ()  # royals to align by card (14.5.19)
    discard: tuple[str, ...] = ()  # card kinds, voluntary discards in order (14.2.1)
    keep_last: tuple[str, ...] = ()  # hand-limit and forced discards: these kinds last
    bids: tuple[tuple[str, str], ...] = ()  # (office, who) for the next Office Phase (6.1)
    stances: tuple[tuple[str, Stance], ...] = ()  # (problem, stance) (7.4, 7.6)
    draw_only: Draw | None = None  # 24.3, 29.2, 30.2: the one draw allowed
    reactions: tuple[Reaction, ...] = ()  # new standing reactions (14.1, orders/reaction.py)
    withdraw: tuple[int, ...] = ()  # WITHDRAW REACTION n
    counsels: tuple[CounselOrder, ...] = ()  # COUNSEL lines in priority order (15)
    usurp: UsurpOrder | None = None  # USURP (36, orders/usurp.py)
    hide: tuple[str, ...] = ()  # HIDE x (24.2, 29.5; hiding.py)
    unhide: tuple[str, ...] = ()  # UNHIDE x (24.8)
    suicide: tuple[str, ...] = ()  # SUICIDE x (29.9, 30.10)
    restore: tuple[str, ...] = ()  # RESTORE x (36.10.4)
    dissolve: bool = False  # DISSOLVE (36.14)
    appoint: tuple[tuple[str, str], ...] = ()  # APPOINT office : who (36.14)
    proposals: tuple[Proposal, ...] = ()  # PROPOSE a TO b (18.4; orders/social.py)
    attend: bool = False  # ATTEND WEDDINGS (13.4.16)
    solicit: int = 0  # SOLICIT BRIBE n (13.4.20.1)
    bribe: BribeOffer | None = None  # BRIBE x WITH n IP (13.4.20.2)
    lose_first: tuple[str, ...] | None = None  # LOSE FIRST (35.5); () = NONE, clears it
    announcements: tuple[Announcement, ...] = ()  # ANNOUNCE (the press, orders/press.py)

    def to_dict(self) -> JSON:
        # ANNOUNCE only when sent: orders stored before the press keep their JSON.
        press = {"announcements": [a.to_dict() for a in self.announcements]} \
            if self.announcements else {}
        return {
            "activities": [a.to_dict() for a in self.activities],
            "buy_pp": self.buy_pp,
            "align": list(self.align),
            "discard": list(self.discard),
            "keep_last": list(self.keep_last),
            "bids": [list(b) for b in self.bids],
            "stances": [[p, s.value] for p, s in self.stances],
            "draw_only": self.draw_only.value if self.draw_only else None,
            "reactions": [r.to_dict() for r in self.reactions],
            "withdraw": list(self.withdraw),
            "counsels": [c.to_dict() for c in self.counsels],
            "usurp": self.usurp.to_dict() if self.usurp else None,
            "hide": list(self.hide), "unhide": list(self.unhide),
            "suicide": list(self.suicide), "restore": list(self.restore),
            "dissolve": self.dissolve, "appoint": [list(a) for a in self.appoint],
            "proposals": [p.to_dict() for p in self.proposals], "attend": self.attend,
            "solicit": self.solicit, "bribe": self.bribe.to_dict() if self.bribe else None,
            "lose_first": None if self.lose_first is None else list(self.lose_first),
            **press,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> TurnOrders:
        if not d:
            return cls()
        return cls(
            tuple(Activity.from_dict(a) for a in d.get("activities", ())),
            int(d.get("buy_pp", 0)),
            tuple(d.get("align", ())),
            tuple(d.get("discard", ())),
            tuple(d.get("keep_last", ())),
            tuple((b[0], b[1]) for b in d.get("bids", ())),
            tuple((p, Stance(s)) for p, s in d.get("stances", ())),
            Draw(d["draw_only"]) if d.get("draw_only") else None,
            tuple(Reaction.from_dict(r) for r in d.get("reactions", ())),
            tuple(int(n) for n in d.get("withdraw", ())),
            tuple(CounselOrder.from_dict(c) for c in d.get("counsels", ())),
            UsurpOrder.from_dict(d["usurp"]) if d.get("usurp") else None,
            tuple(d.get("hide", ())), tuple(d.get("unhide", ())),
            tuple(d.get("suicide", ())), tuple(d.get("restore", ())),
            bool(d.get("dissolve", False)),
            tuple((a[0], a[1]) for a in d.get("appoint", ())),
            tuple(Proposal.from_dict(p) for p in d.get("proposals", ())),
            bool(d.get("attend", False)), int(d.get("solicit", 0)),
            BribeOffer.from_dict(d["bribe"]) if d.get("bribe") else None,
            None if d.get("lose_first") is None else tuple(d["lose_first"]),
            tuple(Announcement.from_dict(a) for a in d.get("announcements", ())),
        )


def format_orders(o: TurnOrders, n: Names) -> tuple[str, ...]:
    """Canonical lines; `parse_orders` reads them back to the same `TurnOrders`.
    (The lines of the values read once per distinct line are written once per value,
    `Names.written`.)"""
    lines = [n.written(a, format_activity) for a in o.activities]
    if o.buy_pp:
        lines.append(f"BUY {o.buy_pp} PP")
    lines += [f"ALIGN {n.who(r)}" for r in o.align]
    lines += [f"DISCARD {n.card(c)}" for c in o.discard]
    lines += [f"KEEP {n.card(c)}" for c in o.keep_last]
    lines += [f"BID {n.office(office)} : {n.who(who)}" for office, who in o.bids]
    for problem, stance in o.stances:
        word = "FAIL" if stance is Stance.FAIL else stance.value
        lines.append(f"PROBLEM {n.problem(problem)} {word}")
    if o.draw_only:
        lines.append(f"DRAW ONLY {o.draw_only.value.upper()}")
    lines += [n.written(r, format_reaction) for r in o.reactions]
    lines += [f"WITHDRAW REACTION {k}" for k in o.withdraw]
    lines += [n.written(c, format_counsel) for c in o.counsels]
    if o.usurp is not None:
        lines.append(format_usurp(o.usurp, n))
    for word, who in (("HIDE", o.hide), ("UNHIDE", o.unhide), ("SUICIDE", o.suicide),
                      ("RESTORE", o.restore)):
        lines += [f"{word} {n.who(w)}" for w in who]
    if o.dissolve:
        lines.append("DISSOLVE")
    lines += [f"APPOINT {n.office(office)} : {n.who(who)}" for office, who in o.appoint]
    lines += [n.written(p, format_proposal) for p in o.proposals]
    if o.attend:
        lines.append("ATTEND WEDDINGS")
    if o.solicit:
        lines.append(f"SOLICIT BRIBE {o.solicit}")
    if o.bribe is not None:
        lines.append(format_bribe(o.bribe, n))
    if o.lose_first is not None:  # 35.5: LOSE FIRST NONE clears the standing list
        lines.append("LOSE FIRST " + (", ".join(n.who(k) for k in o.lose_first) or "NONE"))
    lines += [format_announcement(a) for a in o.announcements]
    return tuple(lines)
