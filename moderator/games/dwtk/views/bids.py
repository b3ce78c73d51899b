"""Lost office bids on the loser's own sheet (DWTK 6.1.1, 6.1.2).

The Office Phase asks the players in player order and only the one who fills an office
pays Two IP (6.1.1); an office no bid fills goes to the dice (6.1.2).  The engine records
the fills (public) and each bid it tried and refused (private); a bid never reached
leaves no event (one more event would change every recorded game).  So a player's lost
bids are worded here from what the turn's events already hold: for each office filled in
the Office Phase and not by him, either his own refused bid for it, or his place after
the winner in player order (then any bid of his for it was never reached).  Where his
orders of the turn are known (`TurnRecord`, the publisher has them) a bid never reached
is one he made, named with whom he bid, and an office he did not bid for is not his loss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.games.base import Event
from moderator.games.dwtk.events import EventId

JSON = dict[str, Any]
_FILLS = (EventId.OFFICE_FILLED, EventId.OFFICE_RANDOM, EventId.OFFICE_UNFILLED)
_PHASE = (*_FILLS, EventId.OFFICE_BID_REFUSED, EventId.GOVERNMENT_DISSOLVED)


def office_phase(events: Sequence[Event]) -> tuple[list[str], list[Event]]:
    """The player order and the events of the Office Phase (those after the first player
    is chosen: DWTK 4; an office filled by an activity, 13.4.2, comes before)."""
    start = next((i for i, e in enumerate(events) if e.id == EventId.FIRST_PLAYER), None)
    if start is None:
        return [], []
    order = [str(k) for k in events[start].args.get("order", ())]
    return order, [e for e in events[start + 1:] if e.id in _PHASE]


def lost_bids(events: Sequence[Event], key: str,
              bids: Mapping[str, str] | None = None) -> list[JSON]:
    """Each office this player may have bid for and did not get: the office, who holds
    it now, the player whose bid placed him (None: the dice or no one), what that player
    paid, whether this player's own bid was tried and refused, and ``bid``: whom his bid
    never reached named (None: not known); and, when another's Monarch dissolved the
    government (36.14), one entry listing the offices he filled by appointment before
    any bid.  ``bids``: his own bids, office -> the character he bid (None: his orders
    are not known; then any office filled before his turn to bid may have been his)."""
    order, phase = office_phase(events)
    refused = {str(e.args["office"]) for e in phase
               if e.id == EventId.OFFICE_BID_REFUSED and e.actor == key}
    out: list[JSON] = []
    appointed: JSON | None = None
    for e in phase:
        if e.id == EventId.GOVERNMENT_DISSOLVED and e.args.get("player") != key:
            appointed = {"office": None, "holder": None, "by": e.args.get("player"),
                         "cost": 0, "tried": False, "appointed": [], "bid": None}
            out.append(appointed)
        if e.id not in _FILLS:
            continue
        office, holder, by = str(e.args["office"]), e.args.get("holder"), e.args.get("player")
        if appointed is not None and by == appointed["by"] and e.args.get("cost") == 0:
            if bids is None or office in bids:
                appointed["appointed"].append({"office": office, "holder": holder})  # 36.14
            continue
        tried = office in refused
        if by == key or not (tried or _after(order, key, by)) or \
                not (tried or bids is None or office in bids):
            continue
        out.append({"office": office, "holder": holder, "by": by,
                    "cost": e.args.get("cost", 0), "tried": tried, "appointed": [],
                    "bid": None if tried or bids is None else bids[office]})
    return [b for b in out if b["office"] or b["appointed"]]


def _after(order: Sequence[str], key: str, by: Any) -> bool:
    """Whether `key` comes after the bidder `by` in player order (his bid never reached)."""
    if by is None or by not in order or key not in order:
        return False
    return order.index(key) > order.index(by)

