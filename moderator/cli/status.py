"""``moderator status``: the games, the outbox, the service's last activity, recent problems.

A host of many games (more than `hostview.SUMMARY_AFTER`) gets one line a game.  On
SQLite that summary is read through the standard ``sqlite3`` module (`read_sqlite`):
importing SQLAlchemy and SQLModel alone takes longer than the whole command may (issue
16, goal 5: `status` for 1,000 games in a second, start-up in 0.3 s).  Everything else
(one game's players, a few games, PostgreSQL, a store that needs migrating, ``--check``)
goes through the store's models (`moderator.cli.service.full_status`).  Both read the
same rows into the same `HostView` and print it with the same functions
(`moderator.cli.hostview`), so the output is the same either way
(tests/speed/test_status.py compares them).
"""

from __future__ import annotations

import sqlite3
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import click

from moderator.cli import hostview
from moderator.cli.app import App, console, pass_app
from moderator.cli.hostview import Backlog, GameRow, HostView, Problem, ServiceRow, TurnRow
from moderator.store.db import engine_url, is_current, sqlite_path
from moderator.store.statuses import LogLevel, PlayerStatus, TurnStatus


@click.command()
@click.argument("game_name", metavar="[GAME]", required=False)
@click.option("--problems", "limit", type=click.IntRange(0, 200), default=10, show_default=True,
              help="How many recent warnings and errors from the GM log to show.")
@click.option("--check", is_flag=True,
              help="Health check for monitoring: one line per check; exit 0 ok, 1 warning, "
                   "2 critical (store unreachable or not migrated, no running serve, a turn "
                   "overdue).")
@click.option("--late-minutes", type=click.IntRange(1), default=15, show_default=True,
              help="With --check: a turn this long past its due time is critical.")
@pass_app
def status(app: App, game_name: str | None, limit: int, check: bool, late_minutes: int) -> None:
    """Games, deadlines, who has sent orders, the outbox, and the service's last activity."""
    if check:
        from moderator.cli import health

        sys.exit(health.report(app.config, timedelta(minutes=late_minutes), console.print))
    now = datetime.now(UTC)
    path = sqlite_path(engine_url(app.config.database_url))
    view = read_sqlite(path, limit) if path is not None and not game_name else None
    if view is not None:
        hostview.print_host(view, app.config.zone.key, limit, now)
        return
    from moderator.cli.service import full_status

    full_status(app, game_name, limit, now)


# --- reading SQLite without SQLAlchemy ---------------------------------------------------

_GAMES = "SELECT id, name, status, time_zone FROM game ORDER BY name"
# The same queries as `hostreads.open_turns_light`, `hostreads.order_counts` and the others the
# full path uses (the statuses are StrEnums of plain words, safe to write into SQL).
_TURNS = f"SELECT game_id, label, deadline FROM turn WHERE status = '{TurnStatus.OPEN}'"
_MEMBERS = (f"SELECT game_id, count(*) FROM player WHERE status != '{PlayerStatus.REMOVED}' "
            "GROUP BY game_id")
_SENT = ("SELECT s.game_id, count(DISTINCT s.player_id) FROM submission s "
         "JOIN turn t ON t.game_id = s.game_id AND t.number = s.turn_number "
         "JOIN player p ON p.id = s.player_id "
         f"WHERE t.status = '{TurnStatus.OPEN}' AND p.status != '{PlayerStatus.REMOVED}' "
         "GROUP BY s.game_id")
_BACKLOG = "SELECT game_id, status, count(*) FROM outbox GROUP BY game_id, status"
_SERVICE = "SELECT key, value, updated_at FROM servicestatus"
_PROBLEMS = ("SELECT at, level, game_id, event, detail FROM gmlog "
             f"WHERE level IN ('{LogLevel.WARNING}', '{LogLevel.ERROR}') "
             "ORDER BY id DESC LIMIT ?")


def read_sqlite(path: Path, limit: int) -> HostView | None:
    """The host's summary read with ``sqlite3``, in one read transaction; None when the
    summary is not what to show (a few games only) or this is not the way to read it
    (no such file, a schema not at head: the full path migrates it)."""
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(path, timeout=10, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        conn.execute("BEGIN")
        if not is_current(row[0] for row in conn.execute(
                "SELECT version_num FROM alembic_version")):
            return None
        games = tuple(GameRow(*row) for row in conn.execute(_GAMES))
        if len(games) <= hostview.SUMMARY_AFTER:
            return None
        return _read_view(conn, games, limit)
    except sqlite3.Error:  # no alembic_version (an empty or foreign file), or locked
        return None
    finally:
        conn.close()


def _read_view(conn: sqlite3.Connection, games: tuple[GameRow, ...], limit: int) -> HostView:
    turns = {game_id: TurnRow(label, _stamp(deadline))
             for game_id, label, deadline in conn.execute(_TURNS)}
    sent = dict(conn.execute(_SENT).fetchall())
    counts = {game_id: (n, sent.get(game_id, 0)) for game_id, n in conn.execute(_MEMBERS)}
    backlog: Backlog = {}
    for game_id, state, n in conn.execute(_BACKLOG):
        backlog.setdefault(game_id, {})[state] = n
    service = tuple(ServiceRow(key, value, _moment(at))
                    for key, value, at in conn.execute(_SERVICE))
    problems = tuple(Problem(_moment(at), level, game_id, event, detail)
                     for at, level, game_id, event, detail
                     in conn.execute(_PROBLEMS, (limit,)))
    return HostView(games, turns, counts, backlog, service, problems)


def _stamp(text: str | None) -> datetime | None:
    return None if text is None else _moment(text)


def _moment(text: str) -> datetime:
    # SQLAlchemy keeps SQLite datetimes as "YYYY-MM-DD HH:MM:SS.ffffff" (UTC, naive).
    return datetime.fromisoformat(text)
