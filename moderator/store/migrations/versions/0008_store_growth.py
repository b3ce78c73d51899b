"""store growth: newsletters stored once and compressed, their mail by reference

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 00:30:00

Issue 16, goal 6 (a turn of a 30-character game adds at most 200 KiB):

* ``newsletter``: its Markdown, HTML and text columns become one zlib-compressed
  ``content`` (the format of `moderator.store.models.pack_texts`);
* ``turn``: the six JSON columns are stored zlib-compressed (`models.Compressed`);
* ``outbox``: ``newsletter_id`` (a gazette's or turn sheet's mail keeps its header block
  and this reference; the body is written again when it is sent).  Existing rows keep
  their whole bytes.

The downgrade writes every mail that refers to a newsletter out in full (the body
composed as `moderator.publish.compose.assemble` does), then undoes the rest.  The
helpers are copied here: a migration is a snapshot.
"""

from __future__ import annotations

import zlib
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default as default_policy

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None

LEVEL = 6
TURN_JSON = ("state_before", "state_after", "inputs_json", "events_json", "dice_json",
             "render_json")
NEWSLETTER_TEXTS = ("markdown", "html", "text")


def _utf8(value: str | bytes | memoryview) -> bytes:
    """A value as its UTF-8 bytes (SQLite hands back text kept in a BLOB column as str)."""
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _uncompressed(blob: bytes, as_text: bool) -> str | bytes:
    data = zlib.decompress(blob)
    return data.decode("utf-8") if as_text else data


def _pack(parts: list[str]) -> bytes:
    lengths = ",".join(str(len(part)) for part in parts)
    return zlib.compress(f"{lengths}\n{''.join(parts)}".encode(), LEVEL)


def _unpack(blob: bytes) -> list[str]:
    lengths, _, joined = zlib.decompress(blob).decode("utf-8").partition("\n")
    parts, start = [], 0
    for length in (int(n) for n in lengths.split(",")):
        parts.append(joined[start:start + length])
        start += length
    return parts


def _whole_mail(header_block: bytes, text: str, html: str) -> bytes:
    """`moderator.publish.compose.assemble` as of this revision."""
    headers = BytesHeaderParser(policy=default_policy).parsebytes(header_block + b"\n\n")
    content = EmailMessage()
    content.set_content(text, charset="utf-8")
    content.add_alternative(html, subtype="html", charset="utf-8")
    content.set_boundary(headers.get_boundary())
    wire = content.as_bytes(policy=content.policy.clone(max_line_length=998))
    return header_block + b"\n\n" + wire.split(b"\n\n", 1)[1]


def _rewrite(table: str, columns: tuple[str, ...], change) -> None:  # type: ignore[no-untyped-def]
    """Apply ``change`` to every non-null value of these columns, row by row (a large
    game's states are megabytes: never the whole table in memory)."""
    connection = op.get_bind()
    for column in columns:
        ids = [row[0] for row in connection.execute(sa.text(
            f"SELECT id FROM {table} WHERE {column} IS NOT NULL ORDER BY id"))]
        for row_id in ids:
            value = connection.execute(sa.text(f"SELECT {column} FROM {table} WHERE id = :i"),
                                       {"i": row_id}).scalar_one()
            connection.execute(sa.text(f"UPDATE {table} SET {column} = :v WHERE id = :i"),
                               {"v": change(value), "i": row_id})


def _retype(table: str, columns: tuple[str, ...], to_binary: bool) -> None:
    """Text <-> binary columns, the values kept as they are (their UTF-8 bytes)."""
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table(table) as batch:
        for column in columns:
            using = (f"convert_to({column}, 'UTF8')" if to_binary
                     else f"convert_from({column}, 'UTF8')")
            batch.alter_column(
                column,
                existing_type=sa.Text() if to_binary else sa.LargeBinary(),
                type_=sa.LargeBinary() if to_binary else sa.Text(),
                existing_nullable=column != "state_before",
                **({"postgresql_using": using} if postgres else {}),
            )


def _newsletters_packed() -> None:
    op.add_column("newsletter", sa.Column("content", sa.LargeBinary(), nullable=True))
    connection = op.get_bind()
    ids = [row[0] for row in connection.execute(sa.text("SELECT id FROM newsletter ORDER BY id"))]
    for row_id in ids:
        parts = connection.execute(sa.text(
            "SELECT markdown, html, text FROM newsletter WHERE id = :i"), {"i": row_id}).one()
        connection.execute(sa.text("UPDATE newsletter SET content = :c WHERE id = :i"),
                           {"c": _pack(list(parts)), "i": row_id})
    with op.batch_alter_table("newsletter") as batch:
        batch.alter_column("content", existing_type=sa.LargeBinary(), nullable=False)
        for column in NEWSLETTER_TEXTS:
            batch.drop_column(column)


def _newsletters_unpacked() -> None:
    with op.batch_alter_table("newsletter") as batch:
        for column in NEWSLETTER_TEXTS:
            batch.add_column(sa.Column(column, sa.Text(), nullable=True))
    connection = op.get_bind()
    ids = [row[0] for row in connection.execute(sa.text("SELECT id FROM newsletter ORDER BY id"))]
    for row_id in ids:
        blob = connection.execute(sa.text("SELECT content FROM newsletter WHERE id = :i"),
                                  {"i": row_id}).scalar_one()
        markdown, html, text = _unpack(bytes(blob))
        connection.execute(sa.text(
            "UPDATE newsletter SET markdown = :m, html = :h, text = :t WHERE id = :i"),
            {"m": markdown, "h": html, "t": text, "i": row_id})
    with op.batch_alter_table("newsletter") as batch:
        for column in NEWSLETTER_TEXTS:
            batch.alter_column(column, existing_type=sa.Text(), nullable=False)
        batch.drop_column("content")


def _mail_written_out() -> None:
    """Every mail that refers to a newsletter gets its whole bytes back."""
    connection = op.get_bind()
    rows = connection.execute(sa.text(
        "SELECT outbox.id, outbox.raw, newsletter.content FROM outbox JOIN newsletter "
        "ON newsletter.id = outbox.newsletter_id ORDER BY outbox.id")).all()
    for row_id, raw, content in rows:
        _markdown, html, text = _unpack(bytes(content))
        connection.execute(sa.text("UPDATE outbox SET raw = :r WHERE id = :i"),
                           {"r": _whole_mail(bytes(raw), text, html), "i": row_id})


def upgrade() -> None:
    # The newsletter table first: recreating it (SQLite) while mail refers to it would
    # trip the foreign key.
    _newsletters_packed()
    _retype("turn", TURN_JSON, to_binary=True)
    _rewrite("turn", TURN_JSON, lambda value: zlib.compress(_utf8(value), LEVEL))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("newsletter_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_outbox_newsletter_id_newsletter", "newsletter",
                                 ["newsletter_id"], ["id"])
        batch.create_index("ix_outbox_newsletter_id", ["newsletter_id"])


def downgrade() -> None:
    _mail_written_out()
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index("ix_outbox_newsletter_id")
        batch.drop_constraint("fk_outbox_newsletter_id_newsletter", type_="foreignkey")
        batch.drop_column("newsletter_id")
    # SQLite keeps a BLOB a BLOB in a TEXT column: the text goes back as text there;
    # PostgreSQL's bytea gets the UTF-8 bytes, which the retyping converts.
    as_text = op.get_bind().dialect.name == "sqlite"
    _rewrite("turn", TURN_JSON, lambda value: _uncompressed(_utf8(value), as_text))
    _retype("turn", TURN_JSON, to_binary=False)
    _newsletters_unpacked()
