"""Press at the run: the announcements the engine gets under the game's press settings.

En Garde! announcements are order lines (``ANNOUNCE "..." [UNSIGNED|AS <alias>]``), so they
reach the engine inside a player's orders JSON as ``{"kind": "announce", ...}``.  The turn
runner filters the orders it hands over; the engine code is never edited:

* **Moderation on** (``press_moderation``): the orders keep only the announcements the GM
  approved (`moderator.desk.press`); rejected ones and those still pending are taken out
  (pending ones are marked expired).  The filtered orders are what the turn stores as its
  inputs, so a rerun or replay prints exactly the same press.
* **Press off** (``press = false``): every announcement is taken out.
* **No anonymous / alias press**: an unsigned or aliased announcement is printed signed
  (the flags are cleared in the orders handed over).

Announcements are found by walking the orders JSON in sorted-key order (the order in which
they are stored), so "the n-th announcement of a submission" is stable.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from sqlmodel import Session, select

from moderator.settings.game import GameSettings
from moderator.store.models import Game, PressItem
from moderator.store.statuses import PressStatus

PRESS_KINDS = frozenset({"announce"})


def announcements(orders: Any) -> Iterator[dict[str, Any]]:
    """Every announcement in an orders JSON, in a stable order."""
    if isinstance(orders, dict):
        if orders.get("kind") in PRESS_KINDS:
            yield orders
            return
        for key in sorted(orders):
            yield from announcements(orders[key])
    elif isinstance(orders, list):
        for item in orders:
            yield from announcements(item)


def _drop(orders: Any, keep: set[int]) -> Any:
    """A copy of the orders without the announcements whose ordinal is not in ``keep``."""
    counter = iter(range(1_000_000))

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if node.get("kind") in PRESS_KINDS:
                return node if next(counter) in keep else None
            return {k: walk(node[k]) for k in sorted(node)}
        if isinstance(node, list):
            return [x for x in (walk(item) for item in node) if x is not None]
        return node

    return walk(orders)


def filter_orders(session: Session, settings: GameSettings, submission_id: int,
                  orders: Any) -> tuple[Any, list[str]]:
    """The orders as the engine gets them under the game's press settings, and what
    was changed (for the GM log)."""
    found = list(announcements(orders))
    if not found:
        return orders, []
    changes: list[str] = []
    keep = set(range(len(found)))
    if not settings.press:
        keep, changes = set(), [f"{len(found)} announcement(s) dropped: press is off"]
    elif settings.press_moderation:
        approved = {item.ordinal for item in session.exec(select(PressItem).where(
            PressItem.submission_id == submission_id, PressItem.status == PressStatus.APPROVED))}
        keep = approved & keep
        if len(keep) < len(found):
            changes.append(f"{len(found) - len(keep)} announcement(s) not approved")
    result = _drop(orders, keep) if len(keep) < len(found) else copy.deepcopy(orders)
    for item in announcements(result):
        if item.get("unsigned") and not settings.anonymous_press:
            item["unsigned"] = False
            changes.append("an unsigned announcement signed: anonymous press is off")
        if item.get("alias") and not settings.alias_press:
            item["alias"] = None
            changes.append("an aliased announcement signed: alias press is off")
    return result, changes


def expire(session: Session, game: Game, turn_number: int) -> int:
    """Mark the turn's still-pending items expired (the run left them out)."""
    rows = list(session.exec(select(PressItem).where(
        PressItem.game_id == game.id, PressItem.turn_number == turn_number,
        PressItem.status == PressStatus.PENDING)))
    for row in rows:
        row.status = PressStatus.EXPIRED
        session.add(row)
    return len(rows)


