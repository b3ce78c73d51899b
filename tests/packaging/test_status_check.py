"""``moderator status --check``: one line per check and a monitoring exit status
(0 ok, 1 warning, 2 critical), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from moderator.cli import cli
from moderator.runners.schedule import HEARTBEAT
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.host import set_panic
from moderator.turn.deadlines import set_deadlines

from support import make_game, write_config

pytestmark = pytest.mark.backends


def check(config_path: Path) -> tuple[int, dict[str, str]]:
    result = CliRunner().invoke(cli, ["--config", str(config_path), "status", "--check"])
    levels = {}
    for line in result.output.strip().splitlines():
        level, rest = line.split(" ", 1)
        levels[rest.split(":", 1)[0]] = level
    return result.exit_code, levels


def _beat(db: Engine) -> None:
    with session_scope(db) as session:
        repo.set_status(session, HEARTBEAT, datetime.now(UTC).isoformat())


def test_no_running_service_is_critical_then_a_heartbeat_is_ok(db: Engine,
                                                                 config: Config) -> None:
    assert config.path is not None
    code, lines = check(config.path)
    assert code == 2 and lines["service"] == "CRITICAL" and lines["store"] == "OK"
    _beat(db)
    code, lines = check(config.path)
    assert (code, lines) == (0, {"store": "OK", "service": "OK", "host": "OK", "turns": "OK",
                                 "outbox": "OK"})


def test_panic_is_a_warning_and_an_overdue_turn_is_critical(db: Engine,
                                                             config: Config) -> None:
    assert config.path is not None
    make_game(db, config)
    _beat(db)
    with session_scope(db) as session:
        set_panic(session, "checking the tables")
    code, lines = check(config.path)
    assert code == 1 and lines["host"] == "WARNING"
    with session_scope(db) as session:
        set_panic(session, None)
        set_deadlines(session, repo.game_by_name(session, "paris"),
                      datetime.now(UTC) - timedelta(hours=1))
    result = CliRunner().invoke(cli, ["--config", str(config.path), "status", "--check"])
    assert result.exit_code == 2
    assert "CRITICAL turns: 1 turn(s) overdue: paris" in result.output
    relaxed = CliRunner().invoke(cli, ["--config", str(config.path), "status", "--check",
                                       "--late-minutes", "120"])
    assert relaxed.exit_code == 0, relaxed.output


def test_a_store_not_migrated_or_unreachable_is_critical(tmp_path: Path,
                                                         empty_database_url: str) -> None:
    path = write_config(tmp_path, database_url=empty_database_url)
    result = CliRunner().invoke(cli, ["--config", str(path), "status", "--check"])
    assert result.exit_code == 2
    assert "CRITICAL store: schema at nothing" in result.output
    (tmp_path / "gone").mkdir()
    gone = write_config(tmp_path / "gone",
                        database_url="postgresql://nobody:secret@127.0.0.1:1/none")
    result = CliRunner().invoke(cli, ["--config", str(gone), "status", "--check"])
    assert result.exit_code == 2 and "CRITICAL store: cannot open" in result.output
    assert "secret" not in result.output
