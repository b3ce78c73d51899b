"""The store: schema created by migrations on first run, versioned, reopened safely."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.store.db import alembic_config, open_store
from moderator.store.models import ReceivedMessage

from support import store_at_revision


def test_first_run_creates_the_schema_at_a_recorded_version(db: Engine) -> None:
    tables = set(sa.inspect(db).get_table_names())
    assert {"game", "player", "receivedmessage", "submission", "turn", "outbox"} <= tables
    with db.connect() as conn:
        version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    assert version == ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_reopening_keeps_data(db: Engine, config) -> None:  # type: ignore[no-untyped-def]
    with Session(db) as session:
        session.add(ReceivedMessage(message_id="a@b", raw=b"raw bytes \xff"))
        session.commit()
    again = open_store(config.database_url)
    with Session(again) as session:
        row = session.exec(select(ReceivedMessage)).one()
        assert row.raw == b"raw bytes \xff"


def test_content_digest_is_unique_and_message_id_is_not(db: Engine) -> None:
    """Two mails may reuse one Message-ID (issue 13); one content is stored once."""
    with Session(db) as session:
        session.add(ReceivedMessage(message_id="dup@x", digest="d1", raw=b"1"))
        session.add(ReceivedMessage(message_id="dup@x", digest="d2", raw=b"2"))
        session.commit()
        session.add(ReceivedMessage(message_id="other@x", digest="d1", raw=b"1"))
        try:
            session.commit()
        except sa.exc.IntegrityError:
            session.rollback()
        else:
            raise AssertionError("a second row with the same content digest was stored")


def test_an_old_schema_is_upgraded_and_keeps_its_data(empty_database_url: str) -> None:
    """A host created at the first schema version keeps its rows when the code moves on."""
    url = empty_database_url
    store_at_revision(url, "0001",
                      "INSERT INTO outbox (message_id, kind, to_addr, subject, raw, created_at,"
                      " status, attempts) VALUES ('<m@x>', 'receipt', 'a@b', 's', :raw,"
                      " '2026-01-01', 'queued', 0)", {"raw": b"\x00"})
    new = open_store(url)
    with new.connect() as connection:
        row = connection.execute(sa.text("SELECT message_id, next_attempt_at FROM outbox")).one()
    assert row == ("<m@x>", None)
