"""``moderator status``: the games, the outbox, the service's last activity, recent problems.

A host of many games (more than `SUMMARY_AFTER`) gets one line a game.  On SQLite that
summary is read through the standard ``sqlite3`` module (`read_sqlite`): importing
SQLAlchemy and SQLModel alone takes longer than the whole command may (issue 16, goal 5:
`status` for 1,000 games in a second, start-up in 0.3 s).  Everything else (one game's
players, a few games, PostgreSQL, a store that needs migrating, ``--check``) goes through
the store's models (`moderator.cli.service.full_status`).  Both read the same rows into
the same `HostView` and print it with the same functions here, so the output is the
same either way (tests/speed/test_status.py compares them).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import click

from moderator.cli.app import App, console, pass_app
from moderator.clock import as_utc
from moderator.store.db import engine_url, is_current, sqlite_path
from moderator.store.statuses import LogLevel, OutboxStatus, PlayerStatus, TurnStatus

# The outbox states of mail not sent yet.
BACKLOG = (OutboxStatus.QUEUED, OutboxStatus.SENDING, OutboxStatus.FAILED, OutboxStatus.BOUNCED)
# With more games than this, `status` shows one line a game (`status GAME` for the rest):
# a thousand games of thirty players would be 30,000 rows to read, and to render.
SUMMARY_AFTER = 20
Backlog = dict[int | None, dict[str, int]]


@dataclass(frozen=True)
class GameRow:
    id: int
    name: str
    status: str
    time_zone: str


@dataclass(frozen=True)
class TurnRow:
    """What the summary shows of a game's open turn."""

    label: str
    deadline: datetime | None


@dataclass(frozen=True)
class ServiceRow:
    key: str
    value: str
    updated_at: datetime


@dataclass(frozen=True)
class Problem:
    """A warning or error from the GM log."""

    at: datetime
    level: str
    game_id: int | None
    event: str
    detail: str


@dataclass(frozen=True)
class HostView:
    """What the summary of a host prints, however it was read."""

    games: tuple[GameRow, ...]
    turns: Mapping[int, TurnRow]
    counts: Mapping[int, tuple[int, int]]  # game id: (players still in, orders sent)
    backlog: Backlog
    service: tuple[ServiceRow, ...]
    problems: tuple[Problem, ...]


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
        print_host(view, app.config.zone.key, limit, now)
        return
    from moderator.cli.service import full_status

    full_status(app, game_name, limit, now)


def print_host(view: HostView, zone: str, limit: int, now: datetime) -> None:
    """The summary of a host: one line a game, the service, the latest problems."""
    print_summary(view, now)
    print_service(view.service, zone, now)
    print_problems(view.problems, {g.id: g.name for g in view.games}, zone, limit)


# --- reading SQLite without SQLAlchemy ---------------------------------------------------

_GAMES = "SELECT id, name, status, time_zone FROM game ORDER BY name"
# The same queries as `repo.open_turns_light`, `repo.order_counts` and the others the
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
        if len(games) <= SUMMARY_AFTER:
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


# --- printing ------------------------------------------------------------------------------


def print_summary(view: HostView, now: datetime) -> None:
    """One line a game: its turn, orders deadline, orders in, mail not sent yet.  Plain
    aligned text: a rich table takes 10 ms a row to lay out, 10 s for a thousand games."""
    rows = [("game", "status", "turn", "orders due", "left", "orders", "outbox")]
    for g in view.games:
        turn = view.turns.get(g.id)
        due = left = "-"
        if turn is not None and turn.deadline is not None:
            delta = as_utc(turn.deadline) - now
            due = short(turn.deadline, g.time_zone)
            left = f"in {ago(delta)}" if delta > timedelta(0) else f"{ago(-delta)} ago"
        players, sent = view.counts.get(g.id, (0, 0))
        pending = sum(view.backlog.get(g.id, {}).get(s, 0) for s in BACKLOG)
        rows.append((g.name, g.status, turn.label if turn else "-", due, left,
                     f"{sent}/{players}", str(pending)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    click.echo(f"{len(view.games)} games (`moderator status GAME` for one game's players)\n\n"
               + "\n".join(lines) + "\n")


def print_service(service: tuple[ServiceRow, ...], zone: str, now: datetime) -> None:
    """The service's status rows: last poll, last send, heartbeat, start and stop."""
    from rich.table import Table

    table = Table("service", "last", "ago", "note", title="Service")
    for row in sorted(service, key=lambda r: r.key):
        note = "" if _is_timestamp(row.value) else row.value[:60]
        table.add_row(row.key, short(row.updated_at, zone), ago(now - as_utc(row.updated_at)),
                      note)
    console.print(table if service else "The service has not run yet (no `moderator serve`).")


def print_problems(problems: tuple[Problem, ...], names: Mapping[int | None, str], zone: str,
                   limit: int) -> None:
    """The latest warnings and errors from the GM log."""
    from rich.table import Table

    if not problems:
        if limit:
            console.print("No warnings or errors in the GM log.")
        return
    table = Table("when", "level", "game", "event", "detail", title="Recent problems")
    for entry in problems:
        table.add_row(short(entry.at, zone), entry.level,
                      names.get(entry.game_id, "-"), entry.event, entry.detail[:200])
    console.print(table)


def _is_timestamp(value: str) -> bool:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def short(moment: datetime, zone: str) -> str:
    return as_utc(moment).astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M %Z")


def ago(delta: timedelta) -> str:
    """A duration the way a GM reads it: 45 s, 12 min, 5 h, 3 d 4 h."""
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    if seconds < 172800:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} d {seconds % 86400 // 3600} h"
