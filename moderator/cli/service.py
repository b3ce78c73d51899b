"""``moderator serve``: run the service; and `full_status`, what ``moderator status``
shows through the store's models (one game's players, a few games, PostgreSQL; the
command and its SQLite summary of many games are in `moderator.cli.status`)."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from typing import Any, TextIO

import click
from rich.table import Table
from sqlalchemy import func
from sqlmodel import Session, col, select

from moderator.cli import hostview
from moderator.cli.app import App, console, pass_app, styled
from moderator.cli.hostview import (
    BACKLOG,
    Backlog,
    GameRow,
    HostView,
    Problem,
    ServiceRow,
    TurnRow,
    ago,
    print_host,
    print_problems,
    print_service,
    short,
)
from moderator.clock import as_utc, format_deadline
from moderator.games import find_engine
from moderator.runners.service import JsonLog
from moderator.settings.config import Config
from moderator.store import hostreads, repo
from moderator.store.guard import single_instance
from moderator.store.models import Game, GmLog, Outbox, Turn
from moderator.store.statuses import GameStatus, LogLevel, OutboxStatus, PlayerStatus
from moderator.turn import deadlines
from moderator.turn.inputs import standing
from moderator.turn.over import why_over

LEVELS = ("debug", "info", "warning", "error")


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


def full_status(app: App, game_name: str | None, limit: int, now: datetime) -> None:
    """`status` through the store's models: one game, a few games, or a host whose store
    `moderator.cli.status.read_sqlite` does not read (PostgreSQL, a schema to migrate)."""
    zone = app.config.zone.key
    with Session(app.db) as session:
        found = [repo.game_by_name(session, game_name)] if game_name else repo.games(session)
        if len(found) > hostview.SUMMARY_AFTER:  # read at call time (tests lower it)
            print_host(host_view(session, found, limit), zone, limit, now)
            return
        backlog = _backlog(session)
        # The job store read as rows, without importing (or unpickling for) the scheduler;
        # only while `serve` runs: a stopped service's rows are what it last scheduled (a
        # paused game's deadline, a turn since run), and a starting one derives them anew.
        jobs = dict(hostreads.scheduled_jobs(session)) if app.running_service() else {}
        if not found:
            console.print("No games yet: `moderator game new NAME --kind engarde|dwtk|fief "
                          "--deadline 'YYYY-MM-DD HH:MM'` makes one.")
        for g in found:
            _game_status(session, app.config, g, backlog.get(g.id, {}), jobs, now)
        _print_outbox(backlog, found, bool(game_name))
        print_service(_service_rows(session), zone, now)
        game_id = found[0].id if game_name else None
        names = {g.id: g.name for g in repo.games(session)}
        print_problems(_problems(session, limit, game_id, only_game=bool(game_name)),
                       names, zone, limit)


def host_view(session: Session, found: list[Game], limit: int) -> HostView:
    """The summary of a host read through the models (what `read_sqlite` reads)."""
    games = tuple(GameRow(g.id, g.name, g.status, g.time_zone)  # type: ignore[arg-type]
                  for g in found)
    turns = {game_id: TurnRow(turn.label, turn.deadline)
             for game_id, turn in hostreads.open_turns_light(session).items()}
    return HostView(games, turns, hostreads.order_counts(session), _backlog(session),
                    _service_rows(session), _problems(session, limit, None, only_game=False))


def _service_rows(session: Session) -> tuple[ServiceRow, ...]:
    return tuple(ServiceRow(row.key, row.value, row.updated_at)
                 for row in repo.service_status(session).values())


def _problems(session: Session, limit: int, game_id: int | None, *,
              only_game: bool) -> tuple[Problem, ...]:
    """The latest warnings and errors from the GM log (of one game, with ``only_game``)."""
    query = select(GmLog).where(col(GmLog.level).in_((LogLevel.WARNING, LogLevel.ERROR)))
    if only_game:
        query = query.where(GmLog.game_id == game_id)
    return tuple(Problem(e.at, e.level, e.game_id, e.event, e.detail)
                 for e in session.exec(query.order_by(col(GmLog.id).desc()).limit(limit)))


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
    turn = hostreads.open_turn_light(session, g)  # the deadlines, not the game's state
    rule = deadlines.rule_of(g)
    if g.status == GameStatus.FINISHED:  # no turn runs any more: no deadline, no orders
        why, label = why_over(session, g), repo.last_done_turn_label(session, g)
        when = f"after turn {turn.number - 1} ({label})" if label else "before its first turn"
        console.print(styled("\n[bold]{name}[/] ({title}), finished {when}: {why}",
                             name=g.name, title=find_engine(g.kind).title, when=when,
                             why=why or "over"))
        _print_backlog(backlog)
        return
    console.print(styled("\n[bold]{name}[/] ({title}), {status}: turn {number}, {label}",
                         name=g.name, title=find_engine(g.kind).title, status=g.status,
                         number=turn.number, label=turn.label))
    _print_due(g, turn, now)
    console.print(f"  rule: {rule.describe() if rule else 'none (deadlines set by hand)'}")
    if turn.reminded_at:
        console.print(f"  reminder sent {format_deadline(turn.reminded_at, g.time_zone)}")
    queued = {k.split(":", 1)[0]: v for k, v in jobs.items() if k.endswith(f":{g.name}")}
    if queued:
        console.print("  scheduled: " + ", ".join(
            f"{kind} {format_deadline(at, g.time_zone) if at else '-'}"
            for kind, at in queued.items()))
    _print_backlog(backlog)
    console.print(_orders_table(session, config, g, turn))


def _print_backlog(backlog: dict[str, int]) -> None:
    pending = sum(backlog.get(s, 0) for s in BACKLOG)
    console.print(f"  outbox: {pending} not sent "
                  f"({', '.join(f'{s} {backlog.get(s, 0)}' for s in BACKLOG)})")


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
            shown += f" (in {ago(left)})" if left > timedelta(0) else f" ({ago(-left)} ago)"
        console.print(f"  {what}: {shown}")


def _orders_table(session: Session, config: Config, g: Game, turn: Turn) -> Table:
    """Each player and the version of his orders that stands for the open turn, if any."""
    table = Table("player", "email", "orders", "received")
    sent = playing = 0
    for p in repo.players(session, g):
        if p.status == PlayerStatus.REMOVED:  # the turn runs without his orders
            table.add_row(p.name, p.email, "removed", "")
            continue
        playing += 1
        stands = standing(session, config, g, turn, p)
        if stands:
            sent += 1
            table.add_row(p.name, p.email, f"v{stands.version} stands",
                          short(stands.submission.received_at, g.time_zone))
        else:
            table.add_row(p.name, p.email, styled("[red]none yet[/]"), "")
    table.title = f"Orders for {turn.label}: {sent} of {playing} players"
    return table


def _print_outbox(backlog: Backlog, found: list[Game], one_game: bool) -> None:
    """The outbox per game (with one game asked for: that game's row only)."""
    table = Table("outbox", *BACKLOG, OutboxStatus.SENT, title="Mail")
    for key, counts in sorted(backlog.items(), key=lambda kv: str(kv[0])):
        name = next((g.name for g in found if g.id == key), None)
        if key is None or name is not None or not one_game:
            label = name or ("(no game)" if key is None else f"game {key}")
            table.add_row(label, *(str(counts.get(s, 0)) for s in (*BACKLOG, OutboxStatus.SENT)))
    console.print(table if backlog else "Outbox: nothing queued or sent yet.")
