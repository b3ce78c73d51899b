"""What `moderator status` shows of a host of many games (`HostView`), and how it is
printed: the same for the rows read through ``sqlite3`` (`moderator.cli.status`) and
through the store's models (`moderator.cli.service.full_status`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

import click

from moderator.cli.app import console
from moderator.clock import as_utc, format_local
from moderator.store.statuses import OutboxStatus

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


def print_host(view: HostView, zone: str, limit: int, now: datetime) -> None:
    """The summary of a host: one line a game, the service, the latest problems."""
    print_summary(view, now)
    print_service(view.service, zone, now)
    print_problems(view.problems, {g.id: g.name for g in view.games}, zone, limit)


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
        note = _without_stamp(row.value)[:60]
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


def _without_stamp(value: str) -> str:
    """A status value without the time it starts with ("2026-12-07T21:00:47+00:00
    messages=1 accepted=1" or "...: sent 12"): the "last" column shows that time."""
    first, _, rest = value.partition(" ")
    return rest.strip() if _is_timestamp(first.rstrip(":")) else value


def _is_timestamp(value: str) -> bool:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def short(moment: datetime, zone: str) -> str:
    return format_local(moment, zone, "%Y-%m-%d %H:%M")


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
