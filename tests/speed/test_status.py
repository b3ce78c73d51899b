"""`moderator status` for a host of many games (issue 16, goal 5): on SQLite the summary is
read through ``sqlite3``, without SQLAlchemy, and prints exactly what the models' path
prints for the same store."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from moderator.cli import hostview
from moderator.cli import service as full
from moderator.cli import status as lite
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Submission
from moderator.turn import deadlines
from tests.support import make_game

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def host(db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Four games (the summary shown from two on), deadlines, orders, problems, a
    service status row and a removed player."""
    monkeypatch.setattr(hostview, "SUMMARY_AFTER", 1)
    for i, name in enumerate(("rome", "paris", "lyon", "arles")):
        make_game(db, config, name, seed=1700 + i)
    with session_scope(db) as session:
        paris, lyon = repo.game_by_name(session, "paris"), repo.game_by_name(session, "lyon")
        deadlines.set_deadlines(session, paris, NOW + timedelta(days=3),
                                NOW + timedelta(days=1))
        deadlines.set_deadlines(session, lyon, NOW - timedelta(hours=5))
        turn = repo.open_turn(session, paris)
        first, second, third = repo.players(session, paris)
        for player, version in ((first, 1), (first, 2), (second, 1), (third, 1)):
            session.add(Submission(game_id=paris.id, player_id=player.id,  # type: ignore[arg-type]
                                   turn_number=turn.number, version=version, text="x",
                                   orders_json="{}", normal_form_json="[]", errors_json="[]"))
        third.status = "removed"
        session.add(third)
        repo.log_gm(session, "intake.refused", "no such player", game=paris, level="warning")
        repo.log_gm(session, "outbox.failed", "connection refused", level="error")
        repo.set_status(session, "intake.polled", "3 messages")
    path = config.database_url.removeprefix("sqlite:///")
    return Path(path)


def test_both_paths_read_the_same_view(db: Engine, host: Path) -> None:
    thin = lite.read_sqlite(host, 10)
    assert thin is not None
    with Session(db) as session:
        models = full.host_view(session, repo.games(session), 10)
    assert thin == models
    assert [g.name for g in thin.games] == ["arles", "lyon", "paris", "rome"]
    paris = next(g.id for g in thin.games if g.name == "paris")
    assert thin.counts[paris] == (2, 2)  # the removed player neither counts nor sent
    assert [p.event for p in thin.problems] == ["outbox.failed", "intake.refused"]


def test_both_paths_print_the_same(db: Engine, config: Config, host: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    thin = lite.read_sqlite(host, 10)
    assert thin is not None
    hostview.print_host(thin, config.zone.key, 10, NOW)
    printed_thin = capsys.readouterr().out
    with Session(db) as session:
        hostview.print_host(full.host_view(session, repo.games(session), 10), config.zone.key,
                        10, NOW)
    assert capsys.readouterr().out == printed_thin
    assert "4 games" in printed_thin and "2/2" in printed_thin and "intake.polled" in printed_thin
    assert "5 h ago" in printed_thin and "in 3 d 0 h" in printed_thin


def test_a_few_games_or_one_game_take_the_full_path(host: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hostview, "SUMMARY_AFTER", 4)
    assert lite.read_sqlite(host, 10) is None  # four games: each one's players shown
    assert lite.read_sqlite(host.with_name("missing.sqlite"), 10) is None


def test_a_store_to_migrate_takes_the_full_path(db: Engine, host: Path) -> None:
    with session_scope(db) as session:
        session.connection().exec_driver_sql("UPDATE alembic_version SET version_num = '0006'")
    assert lite.read_sqlite(host, 10) is None


def test_the_summary_imports_no_database_library(host: Path, config: Config) -> None:
    probe = ("import sys\nfrom moderator.cli import cli, hostview\nhostview.SUMMARY_AFTER = 1\n"
             "cli(['--config', sys.argv[1], 'status'], standalone_mode=False)\n"
             "heavy = sorted(m for m in sys.modules if m.startswith(('sqlalchemy', 'sqlmodel', "
             "'alembic', 'moderator.store.models', 'moderator.runners')))\n"
             "print('HEAVY', heavy)\n")
    config_file = host.parent / "config.toml"
    out = subprocess.run([sys.executable, "-c", probe, str(config_file)], capture_output=True,
                         text=True, check=True, cwd=host.parent).stdout
    assert "HEAVY []" in out
    assert "4 games" in out and "paris" in out and "Recent problems" in out
