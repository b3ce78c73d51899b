"""``moderator serve`` and ``moderator status``: run the service, and see what it and the
games are doing (deadlines, orders, the outbox, the last activity, recent problems)."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import click
from rich.table import Table
from sqlalchemy import func
from sqlmodel import Session, col, select

from moderator.cli.app import App, console, pass_app
from moderator.clock import as_utc, format_deadline
from moderator.games import find_engine
from moderator.runners import schedule
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Game, GmLog, Outbox, Turn
from moderator.turn import deadlines
from moderator.turn.inputs import standing

BACKLOG = ("queued", "sending", "failed", "bounced")
Backlog = dict[int | None, dict[str, int]]


@click.command()
@pass_app
def serve(app: App) -> None:
    """Run the service: read mail, send mail, and act at every deadline (until SIGTERM)."""
    from moderator.runners.service import serve as run_service

    sys.exit(run_service(app.db, app.config))


@click.command()
@click.argument("game_name", metavar="[GAME]", required=False)
@click.option("--problems", "limit", type=click.IntRange(0, 200), default=10, show_default=True,
              help="How many recent warnings and errors from the GM log to show.")
@pass_app
def status(app: App, game_name: str | None, limit: int) -> None:
    """Games, deadlines, who has sent orders, the outbox, and the service's last activity."""
    now = datetime.now(UTC)
    zone = app.config.zone.key
    with Session(app.db) as session:
        found = [repo.game_by_name(session, game_name)] if game_name else repo.games(session)
        backlog = _backlog(session)
        jobs = dict(schedule.scheduled(app.db))
        for g in found:
            _game_status(session, app.config, g, backlog.get(g.id, {}), jobs, now)
        _print_outbox(backlog, found, bool(game_name))
        _print_service(session, zone, now)
        game_id = found[0].id if game_name else None
        _print_problems(session, zone, limit, game_id, only_game=bool(game_name))


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
    turn = repo.open_turn(session, g)
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
