"""player time zone: the zone a player names by mail (TIME ZONE), shown beside the game's

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-08 00:45:00

``player.time_zone``: the tz database name a player chose with the ``TIME ZONE``
command (`moderator.intake.selfservice.set_time_zone`); NULL, as every existing player
has it, means the game's zone only.
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('time_zone', sqlmodel.sql.sqltypes.AutoString(),
                                      nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # Not the batch copy-and-move: dropping the old ``player`` table it makes fails
        # while other rows refer to players (foreign keys are on).  SQLite drops a plain
        # column itself since 3.35.
        op.execute("ALTER TABLE player DROP COLUMN time_zone")
        return
    op.drop_column('player', 'time_zone')
