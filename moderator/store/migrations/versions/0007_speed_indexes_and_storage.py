"""speed: indexes for every poll and scan; sent mail masked and compacted

The outgoing loop polls queued outbox rows every second, `moderator status` counts the
outbox per game and status and reads the latest GM-log problems, the scheduler's sync
looks at every open turn and its orders and at the announcements sent, and bounces look
up the last mail sent to an address.  Without these indexes each was a full table scan
(42-47 ms for the outbox poll at 7,350 rows).  The outbox gains ``masked_at`` (a sent
welcome's password masked in its stored copy) and ``compacted_at`` (a sent mail's body
dropped after ``service.outbox_compact_days``).  No row is rewritten here.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 22:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

# (index, table, columns): the same as the models' __table_args__.
INDEXES = (
    ("ix_receivedmessage_player_sender", "receivedmessage", ["player_id", "sender", "status"]),
    ("ix_submission_game_turn", "submission", ["game_id", "turn_number"]),
    ("ix_turn_status_game", "turn", ["status", "game_id"]),
    ("ix_newsletter_game_turn", "newsletter", ["game_id", "turn_number"]),
    ("ix_outbox_status_created", "outbox", ["status", "created_at", "id"]),
    ("ix_outbox_game_status", "outbox", ["game_id", "status"]),
    ("ix_outbox_status_sent", "outbox", ["status", "sent_at"]),
    ("ix_outbox_kind_status", "outbox", ["kind", "status", "masked_at"]),
    ("ix_gmlog_game_event", "gmlog", ["game_id", "event"]),
    ("ix_gmlog_level", "gmlog", ["level", "id"]),
)


def upgrade() -> None:
    for column in ("masked_at", "compacted_at"):
        op.add_column("outbox", sa.Column(column, sa.DateTime(timezone=True), nullable=True))
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("compacted_at")
        batch.drop_column("masked_at")
    for name, table, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
