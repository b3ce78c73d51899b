"""Issue 13: a first start of the service is not an outage (`schedule.start()` counted
everything since datetime.min as down, so a turn due just after a slow first start was
marked late and its next deadlines slid)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.runners.schedule import HEARTBEAT, DeadlineScheduler
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import ServiceStatus, Turn
from moderator.turn import deadlines

from support import make_game


def _turns(db: Engine) -> list[Turn]:
    with Session(db) as session:
        return list(session.exec(select(Turn)))


def _wait_for(check, seconds: float = 90.0) -> None:  # type: ignore[no-untyped-def]
    """Wait for a condition (generously: a loaded machine is slow), never a fixed time."""
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.05)


def _set_deadline(db: Engine, when: datetime) -> None:
    with session_scope(db) as session:
        deadlines.set_deadlines(session, repo.game_by_name(session, "paris"), when)


def test_a_first_start_records_no_outage(db: Engine, config: Config) -> None:
    make_game(db, config)
    now = datetime.now(UTC)
    _set_deadline(db, now - timedelta(seconds=5))  # due during a slow first start
    service = DeadlineScheduler(db, config)
    service.start(now)
    try:
        assert service.runtime.outages == []
        assert not service.runtime.missed(now - timedelta(seconds=5))
        _wait_for(lambda: len(_turns(db)) == 2)  # the due turn runs, on time
    finally:
        service.shutdown()
    with Session(db) as session:
        events = {e.event for e in repo.gm_log(session)}
    assert "turn.run" in events
    assert not events & {"service.outage", "deadline.missed", "deadline.slid"}


def test_a_start_after_a_real_gap_is_an_outage(db: Engine, config: Config) -> None:
    make_game(db, config)
    now = datetime.now(UTC)
    with session_scope(db) as session:
        session.add(ServiceStatus(key=HEARTBEAT, value="", updated_at=now - timedelta(hours=3)))
    service = DeadlineScheduler(db, config)
    service.start(now)
    try:
        assert service.runtime.missed(now - timedelta(hours=1))
        assert not service.runtime.missed(now - timedelta(hours=4))
        assert not service.runtime.missed(now + timedelta(seconds=1))
    finally:
        service.shutdown()
    with Session(db) as session:
        assert session.exec(select(ServiceStatus).where(ServiceStatus.key == HEARTBEAT)).one()
