"""message digest and answered_at: one row per distinct message, not per Message-ID

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 21:10:00

A Message-ID is not unique in practice (clients and gateways reuse them, "edit and
resend" keeps them): the content digest becomes the unique key and the Message-ID an
ordinary index.  Existing rows get the digest of their raw bytes under the same algorithm
as `moderator.intake.spool.content_digest` (copied here: a migration is a snapshot).
"""

from __future__ import annotations

import hashlib
import re

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

_CONTENT_HEADERS = (
    b"from", b"sender", b"to", b"cc", b"subject", b"date", b"message-id", b"in-reply-to",
    b"references", b"mime-version", b"content-type", b"content-transfer-encoding",
)


def _digest(raw: bytes) -> str:
    gap = re.search(rb"\r?\n\r?\n", raw)
    head, body = (raw[:gap.start()], raw[gap.end():]) if gap else (raw, b"")
    kept = []
    for line in re.sub(rb"\r?\n[ \t]+", b" ", head).splitlines():
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() in _CONTENT_HEADERS:
            kept.append(name.strip().lower() + b":" + b" ".join(value.split()))
    lines = [line.rstrip() for line in body.replace(b"\r\n", b"\n").split(b"\n")]
    text = b"\n".join(sorted(kept)) + b"\n\n" + b"\n".join(lines).rstrip(b"\n")
    return hashlib.sha256(text).hexdigest()


def upgrade() -> None:
    with op.batch_alter_table('receivedmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('digest', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.drop_index('ix_receivedmessage_message_id')
        batch_op.create_index('ix_receivedmessage_message_id', ['message_id'], unique=False)
        batch_op.create_index('ix_receivedmessage_digest', ['digest'], unique=True)
    connection = op.get_bind()
    table = sa.table('receivedmessage', sa.column('id', sa.Integer), sa.column('raw'),
                     sa.column('digest', sa.String))
    seen: set[str] = set()
    for row_id, raw in connection.execute(sa.select(table.c.id, table.c.raw).order_by(table.c.id)):
        digest = _digest(bytes(raw))
        if digest in seen:  # two stored copies of one message: keep the key on the first
            digest = f"{digest}-{row_id}"
        seen.add(digest)
        connection.execute(table.update().where(table.c.id == row_id).values(digest=digest))


def downgrade() -> None:
    with op.batch_alter_table('receivedmessage', schema=None) as batch_op:
        batch_op.drop_index('ix_receivedmessage_digest')
        batch_op.drop_index('ix_receivedmessage_message_id')
        batch_op.create_index('ix_receivedmessage_message_id', ['message_id'], unique=True)
        batch_op.drop_column('answered_at')
        batch_op.drop_column('digest')
