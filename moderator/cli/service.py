"""``moderator serve`` and ``moderator status``: run the service, and see what it and the
games are doing (deadlines, orders, the outbox, the last activity, recent problems)."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from typing import Any, TextIO
from zoneinfo import ZoneInfo

import click
from rich.table import Table
from sqlalchemy import func
from sqlmodel import Session, col, select

from moderator.cli import health
from moderator.cli.app import App, console, pass_app
from moderator.clock import as_utc, format_deadline
from moderator.games import find_engine
from moderator.runners.service import JsonLog
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.guard import single_instance
from moderator.store.models import Game, GmLog, Outbox, Turn
from moderator.turn import deadlines
from moderator.turn.inputs import standing

BACKLOG = ("queued", "sending", "failed", "bounced")
LEVELS = ("debug", "info", "warning", "error")
# With more games than this, `status` shows one line a game (`status GAME` for the rest):
# a thousand games of thirty players would be 30,000 rows to read, and to render.
SUMMARY_AFTER = 20
Backlog = dict[int | None, dict[str, int]]


@click.command()
@click.option("--log-level", type=click.Choice(LEVELS), default="info", show_default=True,
              help="The least severe log lines written.")
@click.option("--log-format", type=click.Choice(("json", "text")), default="json",
              show_default=True,
              help="json: one JSON object a line (for log collectors); text: one readable "
                   "line each (for a terminal, or the journal).")
@click.option("--worker", is_flag=True,
              help="Join as one of several workers sharing this database (PostgreSQL): "
                   "each message, turn and mail is still done once.")
@pass_app
def serve(app: App, log_level: str, log_format: str, worker: bool) -> None:
    """Run the service: read mail, send mail, and act at every deadline (until SIGTERM).

    One per database: a second `serve` on the same database refuses, naming the one that
    runs (moderator.store.guard), unless every one of them is started with --worker.
    """
    from moderator.runners.service import Service

    log = ServiceLog(log_level, log_format)
    with single_instance(app.db, "worker" if worker else "serve") as guard:
        code = Service(app.db, app.config, log, guard=guard).serve_forever()
    sys.exit(code)


class ServiceLog(JsonLog):
    """The service's log lines at ``level`` and above, as JSON or as text.

    Text lines read ``TIME LEVEL component event key=value ...`` (values with spaces
    quoted as JSON strings), so ``grep turn.run`` works on either format.
    """

    def __init__(self, level: str = "info", fmt: str = "json",
                 stream: TextIO | None = None) -> None:
        super().__init__(stream)
        self.least = LEVELS.index(level)
        self.fmt = fmt

    def __call__(self, level: str, component: str, event: str, **fields: Any) -> None:
        if level in LEVELS and LEVELS.index(level) < self.least:
            return
        if self.fmt == "json":
            super().__call__(level, component, event, **fields)
            return
        when = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        parts = [when, level.upper().ljust(7), component, event]
        parts += [f"{key}={_text_value(value)}" for key, value in fields.items()]
        with self._lock:
            self.stream.write(" ".join(parts) + "\n")
            self.stream.flush()


def _text_value(value: Any) -> str:
    shown = value if isinstance(value, str) else json.dumps(value, default=str,
                                                            ensure_ascii=False)
    if not shown or any(c.isspace() or c in "\"=" for c in shown):
        return json.dumps(shown, ensure_ascii=False)
    return shown


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
        sys.exit(health.report(app.config, timedelta(minutes=late_minutes), console.print))
    now = datetime.now(UTC)
    zone = app.config.zone.key
    with Session(app.db) as session:
        found = [repo.game_by_name(session, game_name)] if game_name else repo.games(session)
        if len(found) > SUMMARY_AFTER:
            _print_summary(session, found, now)
            _print_service(session, zone, now)
            _print_problems(session, zone, limit, None, only_game=False)
            return
        backlog = _backlog(session)
        # The job store read as rows, without importing (or unpickling for) the scheduler.
        jobs = dict(repo.scheduled_jobs(session))
        for g in found:
            _game_status(session, app.config, g, backlog.get(g.id, {}), jobs, now)
        _print_outbox(backlog, found, bool(game_name))
        _print_service(session, zone, now)
        game_id = found[0].id if game_name else None
        _print_problems(session, zone, limit, game_id, only_game=bool(game_name))


def _print_summary(session: Session, found: list[Game], now: datetime) -> None:
    """One line a game: its turn, orders deadline, orders in, mail not sent yet.  Plain
    aligned text: a rich table takes 10 ms a row to lay out, 10 s for a thousand games."""
    turns = repo.open_turns_light(session)
    counts = repo.order_counts(session)
    backlog = _backlog(session)
    rows = [("game", "status", "turn", "orders due", "left", "orders", "outbox")]
    for g in found:
        assert g.id is not None
        turn = turns.get(g.id)
        due = left = "-"
        if turn is not None and turn.deadline is not None:
            delta = as_utc(turn.deadline) - now
            due = _short(turn.deadline, g.time_zone)
            left = f"in {_ago(delta)}" if delta > timedelta(0) else f"{_ago(-delta)} ago"
        players, sent = counts.get(g.id, (0, 0))
        pending = sum(backlog.get(g.id, {}).get(s, 0) for s in BACKLOG)
        rows.append((g.name, g.status, turn.label if turn else "-", due, left,
                     f"{sent}/{players}", str(pending)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    click.echo(f"{len(found)} games (`moderator status GAME` for one game's players)\n\n"
               + "\n".join(lines) + "\n")


def _backlog(session: Session) -> Backlog:
    """Outbox rows per game and status."""
    rows = session.exec(
        select(Outbox.game_id, Outbox.status, func.count())
        .group_by(col(Outbox.game_id), col(Outbox.status))
    )
    counts: Backlog = {}
    for game_id, state, n in rows:
        counts.setdefault(game_id, {})[state] = n
    return counts


def _game_status(
    session: Session, config: Config, g: Game, backlog: dict[str, int],
    jobs: dict[str, datetime | None], now: datetime,
) -> None:
    """One game: its turn, deadlines, rule, jobs, outbox, and who has sent orders."""
    turn = repo.open_turn_light(session, g)  # the deadlines, not the game's state
    rule = deadlines.rule_of(g)
    console.print(f"\n[bold]{g.name}[/] ({find_engine(g.kind).title}), {g.status}: "
                  f"turn {turn.number}, {turn.label}")
    _print_due(g, turn, now)
    console.print(f"  rule: {rule.describe() if rule else 'none (deadlines set by hand)'}")
    if turn.reminded_at:
        console.print(f"  reminder sent {format_deadline(turn.reminded_at, g.time_zone)}")
    queued = {k.split(":", 1)[0]: v for k, v in jobs.items() if k.endswith(f":{g.name}")}
    if queued:
        console.print("  scheduled: " + ", ".join(
            f"{kind} {format_deadline(at, g.time_zone) if at else '-'}"
            for kind, at in queued.items()))
    pending = sum(backlog.get(s, 0) for s in BACKLOG)
    console.print(f"  outbox: {pending} not sent "
                  f"({', '.join(f'{s} {backlog.get(s, 0)}' for s in BACKLOG)})")
    console.print(_orders_table(session, config, g, turn))


def _print_due(g: Game, turn: Turn, now: datetime) -> None:
    """The open turn's deadlines with how long is left (or how long ago they passed)."""
    lines: list[tuple[str, datetime | None]] = []
    if turn.announcement_deadline:
        lines.append(("announcements due", turn.announcement_deadline))
    lines.append(("orders due", turn.deadline))
    for what, when in lines:
        shown = format_deadline(when, g.time_zone) or "not set"
        if when is not None:
            left = as_utc(when) - now
            shown += f" (in {_ago(left)})" if left > timedelta(0) else f" ({_ago(-left)} ago)"
        console.print(f"  {what}: {shown}")


def _orders_table(session: Session, config: Config, g: Game, turn: Turn) -> Table:
    """Each player and the version of his orders that stands for the open turn, if any."""
    table = Table("player", "email", "orders", "received")
    sent = 0
    for p in repo.players(session, g):
        stands = standing(session, config, g, turn, p)
        if stands:
            sent += 1
            table.add_row(p.name, p.email, f"v{stands.version} stands",
                          _short(stands.submission.received_at, g.time_zone))
        else:
            table.add_row(p.name, p.email, "[red]none yet[/]", "")
    table.title = f"Orders for {turn.label}: {sent} of {len(table.rows)} players"
    return table


def _print_outbox(backlog: Backlog, found: list[Game], one_game: bool) -> None:
    """The outbox per game (with one game asked for: that game's row only)."""
    table = Table("outbox", *BACKLOG, "sent", title="Mail")
    for key, counts in sorted(backlog.items(), key=lambda kv: str(kv[0])):
        name = next((g.name for g in found if g.id == key), None)
        if key is None or name is not None or not one_game:
            label = name or ("(no game)" if key is None else f"game {key}")
            table.add_row(label, *(str(counts.get(s, 0)) for s in (*BACKLOG, "sent")))
    console.print(table if backlog else "Outbox: nothing queued or sent yet.")


def _print_service(session: Session, zone: str, now: datetime) -> None:
    """The service's status rows: last poll, last send, heartbeat, start and stop."""
    service = repo.service_status(session)
    table = Table("service", "last", "ago", "note", title="Service")
    for key, row in sorted(service.items()):
        note = "" if _is_timestamp(row.value) else row.value[:60]
        table.add_row(key, _short(row.updated_at, zone), _ago(now - as_utc(row.updated_at)),
                      note)
    console.print(table if service else "The service has not run yet (no `moderator serve`).")


def _print_problems(
    session: Session, zone: str, limit: int, game_id: int | None, *, only_game: bool
) -> None:
    """The latest warnings and errors from the GM log."""
    query = select(GmLog).where(col(GmLog.level).in_(("warning", "error")))
    if only_game:
        query = query.where(GmLog.game_id == game_id)
    problems = list(session.exec(query.order_by(col(GmLog.id).desc()).limit(limit)))
    if not problems:
        if limit:
            console.print("No warnings or errors in the GM log.")
        return
    names = {g.id: g.name for g in repo.games(session)}
    table = Table("when", "level", "game", "event", "detail", title="Recent problems")
    for entry in problems:
        table.add_row(_short(entry.at, zone), entry.level,
                      names.get(entry.game_id, "-"), entry.event, entry.detail[:200])
    console.print(table)


def _is_timestamp(value: str) -> bool:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _short(moment: datetime, zone: str) -> str:
    return as_utc(moment).astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M %Z")


def _ago(delta: timedelta) -> str:
    """A duration the way a GM reads it: 45 s, 12 min, 5 h, 3 d 4 h."""
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    if seconds < 172800:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} d {seconds % 86400 // 3600} h"
