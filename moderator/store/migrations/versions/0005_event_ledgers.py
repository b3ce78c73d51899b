"""event ledgers: stored events carry only their game's own ledger accounts

Until now every stored event carried En Garde!'s ``sp`` and ``crowns`` keys, zero for
games without those ledgers.  The engine contract now keeps game-specific ledgers out of
the shared event, so a Down with the King event is stored without them; this rewrites the
events already stored for non-En Garde! games the same way, so `turn rerun` still
compares byte for byte.  Values are unchanged; only the two zero keys go.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 21:00:00
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

_LEGACY = ("sp", "crowns")


def _dumps(value: object) -> str:
    # The same canonical form as moderator.jsonio.dumps (migrations import nothing of ours).
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def upgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT turn.id, turn.events_json FROM turn JOIN game ON game.id = turn.game_id "
        "WHERE game.kind != 'engarde' AND turn.events_json IS NOT NULL")).fetchall()
    for turn_id, events_json in rows:
        events = json.loads(events_json)
        trimmed = [{k: v for k, v in event.items() if k not in _LEGACY or v != 0}
                   for event in events]
        if trimmed != events:
            bind.execute(sa.text("UPDATE turn SET events_json = :e WHERE id = :i"),
                         {"e": _dumps(trimmed), "i": turn_id})


def downgrade() -> None:
    """Nothing to undo: old code reads an event without the zero keys as zero."""
