"""Press: the GM's press queue (what the run does with it: `moderator.turn.press`).

At intake every announcement of a stored submission becomes a `PressItem` (pending) when
the game moderates its press, and the receipt says it is held; the GM approves or rejects
it here while its turn is open.  What the run then does with it is `moderator.turn.press`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, select

from moderator.desk.errors import DeskError
from moderator.store.models import Game, Player, PressItem, Submission
from moderator.store.statuses import PressStatus
from moderator.turn.press import announcements


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


def queue(session: Session, game: Game, everything: bool = False) -> list[PressItem]:
    query = select(PressItem).where(PressItem.game_id == game.id)
    if not everything:
        query = query.where(PressItem.status == PressStatus.PENDING)
    return list(session.exec(query.order_by(PressItem.id)))  # type: ignore[arg-type]


def decide(session: Session, game: Game, item_id: int, approve: bool, who: str,
           reason: str) -> PressItem:
    """Approve or reject one held announcement (only while its turn is open)."""
    item = session.get(PressItem, item_id)
    if item is None or item.game_id != game.id:
        raise DeskError(f"no press item {item_id} in {game.name}")
    if item.status not in (PressStatus.PENDING, PressStatus.APPROVED, PressStatus.REJECTED):
        raise DeskError(f"press item {item_id} is {item.status}: its turn has run")
    item.status = PressStatus.APPROVED if approve else PressStatus.REJECTED
    item.decided_by, item.decided_at, item.reason = who, datetime.now(UTC), reason
    session.add(item)
    return item
