"""Mail commands: the configured transport is used, and a running `serve` owns the outbox."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from moderator.cli import cli
from moderator.runners import schedule
from moderator.runners.outgoing import Outgoing, SendReport
from moderator.settings.config import load_config
from moderator.store.db import open_store, session_scope
from moderator.store.models import ServiceStatus

from support import write_config


def _imap_config(folder: Path) -> Path:
    path = write_config(folder)
    text = path.read_text(encoding="utf-8").replace("[mail]\n", '[mail]\ntransport = "imap"\n')
    path.write_text(text, encoding="utf-8")
    return path


def _invoke(path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--config", str(path), *args])
    return result.exit_code, result.output


def _db(path: Path) -> Engine:
    return open_store(load_config(path).database_url)


def _beat(db: Engine, at: datetime, *, stopped: datetime | None = None) -> None:
    with session_scope(db) as session:
        session.merge(ServiceStatus(key=schedule.HEARTBEAT, value=at.isoformat(), updated_at=at))
        if stopped is not None:
            session.merge(ServiceStatus(key=schedule.STOPPED, value=stopped.isoformat(),
                                        updated_at=stopped))


def test_outbox_send_is_refused_while_serve_is_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = _imap_config(tmp_path)
    db = _db(path)
    now = datetime.now(UTC)
    monkeypatch.setattr(Outgoing, "send_due", lambda self, now=None: pytest.fail("sent"))
    _beat(db, now - timedelta(seconds=20))
    code, out = _invoke(path, "outbox", "send")
    assert code == 1 and "moderator serve is running" in out
    # Other commands leave their mail to the service instead of sending it.
    assert _invoke(path, "game", "new", "paris", "--kind", "engarde",
                   "--seed", "7")[0] == 0
    code, out = _invoke(path, "player", "add", "paris", "jacques@lyon.example",
                        "--name", "Jacques de Lyon")
    assert code == 0 and "the running `moderator serve` sends it" in out


@pytest.mark.parametrize("state", ["stopped", "stale"])
def test_outbox_send_goes_ahead_once_serve_has_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, state: str,
) -> None:
    path = _imap_config(tmp_path)
    db = _db(path)
    now = datetime.now(UTC)
    if state == "stopped":  # a clean shutdown: last heartbeat, then service.stopped
        _beat(db, now - timedelta(seconds=2), stopped=now - timedelta(seconds=1))
    else:  # killed: the heartbeat is older than the outage limit
        _beat(db, now - schedule.OUTAGE_AFTER - timedelta(seconds=5))
    assert schedule.service_alive(db, now) is None
    calls: list[str] = []
    monkeypatch.setattr(Outgoing, "send_due",
                        lambda self, now=None: calls.append("send_due") or SendReport())
    code, out = _invoke(path, "outbox", "send")
    assert code == 0, out
    assert calls == ["send_due"]
