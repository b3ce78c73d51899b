"""The store: schema created by migrations on first run, versioned, reopened safely."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.store.db import open_store
from moderator.store.models import ReceivedMessage


def test_first_run_creates_the_schema_at_a_recorded_version(db: Engine) -> None:
    tables = set(sa.inspect(db).get_table_names())
    assert {"game", "player", "receivedmessage", "submission", "turn", "outbox"} <= tables
    with db.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0001"


def test_reopening_keeps_data(db: Engine, config) -> None:  # type: ignore[no-untyped-def]
    with Session(db) as session:
        session.add(ReceivedMessage(message_id="a@b", raw=b"raw bytes \xff"))
        session.commit()
    again = open_store(config.database_url)
    with Session(again) as session:
        row = session.exec(select(ReceivedMessage)).one()
        assert row.raw == b"raw bytes \xff"


def test_message_id_is_unique(db: Engine) -> None:
    with Session(db) as session:
        session.add(ReceivedMessage(message_id="dup@x", raw=b"1"))
        session.commit()
        session.add(ReceivedMessage(message_id="dup@x", raw=b"2"))
        try:
            session.commit()
        except sa.exc.IntegrityError:
            session.rollback()
        else:
            raise AssertionError("a second row with the same Message-ID was stored")
