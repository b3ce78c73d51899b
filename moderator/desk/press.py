"""Press: the game's press settings and the GM's press queue.

En Garde! announcements are order lines (``ANNOUNCE "..." [UNSIGNED|AS <alias>]``), so
they reach the engine inside a player's orders JSON as ``{"kind": "announce", ...}``.
The desk never edits engine code; it works on the orders the turn runner hands over:

* **Moderation on** (``press_moderation``): at intake every announcement of a stored
  submission becomes a `PressItem` (pending), and the receipt says it is held.  At the
  run, the orders given to the engine keep only the announcements the GM approved
  (`press approve`); rejected ones and those still pending are taken out (pending ones
  are marked expired).  The filtered orders are what the turn stores as its inputs, so
  a rerun or replay prints exactly the same press.
* **Press off** (``press = false``): every announcement is taken out.
* **No anonymous / alias press**: an unsigned or aliased announcement is printed
  signed (the flags are cleared in the orders handed over).

Announcements are found by walking the orders JSON in sorted-key order (the order in
which they are stored), so "the n-th announcement of a submission" is stable.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, select

from moderator.desk.audit import DeskError
from moderator.desk.settings import GameSettings
from moderator.store.models import Game, Player, PressItem, Submission

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


def _signed(item: dict[str, Any], character: str) -> str:
    if item.get("unsigned"):
        return "unsigned"
    return f"as {item['alias']}" if item.get("alias") else character


def hold(session: Session, game: Game, player: Player, submission: Submission,
         orders: Any) -> int:
    """Queue a new submission's announcements for the GM; how many were held."""
    held = 0
    for n, item in enumerate(announcements(orders)):
        session.add(PressItem(
            game_id=game.id, turn_number=submission.turn_number,  # type: ignore[arg-type]
            player_id=player.id, submission_id=submission.id,  # type: ignore[arg-type]
            ordinal=n, text=str(item.get("text", "")),
            signed=_signed(item, player.character_key)))
        held += 1
    return held


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
            PressItem.submission_id == submission_id, PressItem.status == "approved"))}
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
        PressItem.status == "pending")))
    for row in rows:
        row.status = "expired"
        session.add(row)
    return len(rows)


def queue(session: Session, game: Game, everything: bool = False) -> list[PressItem]:
    query = select(PressItem).where(PressItem.game_id == game.id)
    if not everything:
        query = query.where(PressItem.status == "pending")
    return list(session.exec(query.order_by(PressItem.id)))  # type: ignore[arg-type]


def decide(session: Session, game: Game, item_id: int, approve: bool, who: str,
           reason: str) -> PressItem:
    """Approve or reject one held announcement (only while its turn is open)."""
    item = session.get(PressItem, item_id)
    if item is None or item.game_id != game.id:
        raise DeskError(f"no press item {item_id} in {game.name}")
    if item.status not in ("pending", "approved", "rejected"):
        raise DeskError(f"press item {item_id} is {item.status}: its turn has run")
    item.status = "approved" if approve else "rejected"
    item.decided_by, item.decided_at, item.reason = who, datetime.now(UTC), reason
    session.add(item)
    return item
