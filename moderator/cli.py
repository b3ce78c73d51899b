"""The GM's command line: ``moderator [--config PATH] COMMAND ...``.

Thin on purpose: each command parses its arguments, calls one service function and
prints the result.  Mail queued by a command is delivered at its end when the
transport is the embedded Maildir one (``--no-send`` keeps it queued).
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from functools import cached_property
from pathlib import Path
from zoneinfo import ZoneInfo

import click
from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from moderator import admin, jsonio, schedule
from moderator.clock import as_utc, format_deadline
from moderator.config import Config, ConfigError, load_config
from moderator.games import find_engine, game_kinds
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.store.models import Game, GmLog, Outbox, Turn
from moderator.transport.maildir import deliver_outbox, process_inbox
from moderator.turns import TurnError, rerun_turn, run_turn

console = Console(highlight=False)
DEFAULT_CONFIG = Path("config.toml")


class App:
    """What every command needs: the settings and the store, opened on first use."""

    def __init__(self, config_path: Path | None) -> None:
        self.config_path = config_path

    @cached_property
    def config(self) -> Config:
        path = self.config_path
        if path is None and DEFAULT_CONFIG.exists():
            path = DEFAULT_CONFIG
        return load_config(path)

    @cached_property
    def db(self) -> Engine:
        return open_store(self.config.database_url)

    def deliver(self, send: bool) -> None:
        if send:
            for delivery in deliver_outbox(self.db, self.config):
                console.print(f"  mailed {delivery.to}: {delivery.subject}", markup=False)


pass_app = click.make_pass_decorator(App)
send_option = click.option(
    "--send/--no-send", default=True, help="Deliver queued mail at the end (default: yes)."
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Settings file (default: ./config.toml if present).",
)
@click.pass_context
def cli(ctx: click.Context, config_path: Path | None) -> None:
    """moderator: play-by-email games of intrigue, moderated."""
    ctx.obj = App(config_path)


# --- games -------------------------------------------------------------------------


@cli.group()
def game() -> None:
    """Create and inspect games."""


@game.command("new")
@click.argument("name")
@click.option("--kind", type=click.Choice(game_kinds()), required=True, help="Which game.")
@click.option("--seed", type=int, help="Dice seed (default: random).")
@click.option(
    "--deadline",
    type=click.DateTime(["%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"]),
    help="First deadline, in the default time zone (e.g. '2026-12-12 18:00').",
)
@pass_app
def game_new(app: App, name: str, kind: str, seed: int | None, deadline: datetime | None) -> None:
    """Create game NAME with its first turn open for orders."""
    when = as_utc(deadline.replace(tzinfo=app.config.zone)) if deadline else None
    with session_scope(app.db) as session:
        created = admin.create_game(session, app.config, name, kind, seed=seed, deadline=when)
        schedule.note_change(session)
        turn = repo.open_turn(session, created)
    console.print(f"Created {kind} game [bold]{created.name}[/] (seed {created.seed}), "
                  f"taking orders for {turn.label}.")


@game.command("list")
@pass_app
def game_list(app: App) -> None:
    """All games on this host."""
    table = Table("game", "kind", "status", "turn", "deadline", "players")
    with Session(app.db) as session:
        for g in repo.games(session):
            turn = repo.open_turn(session, g)
            table.add_row(g.name, g.kind, g.status, f"{turn.number}: {turn.label}",
                          format_deadline(turn.deadline, g.time_zone) or "-",
                          str(len(repo.players(session, g))))
    console.print(table)


@game.command("show")
@click.argument("name")
@pass_app
def game_show(app: App, name: str) -> None:
    """One game: its turn, deadline and who has sent orders."""
    with Session(app.db) as session:
        g = repo.game_by_name(session, name)
        turn = repo.open_turn(session, g)
        console.print(f"[bold]{g.name}[/] ({find_engine(g.kind).title}), {g.status}, "
                      f"seed {g.seed}")
        console.print(f"Turn {turn.number}: {turn.label}; deadline "
                      f"{format_deadline(turn.deadline, g.time_zone) or 'not set'}")
        table = Table("player", "email", "character", "orders this turn")
        for p in repo.players(session, g):
            subs = repo.submissions(session, p, turn.number)
            table.add_row(p.name, p.email, p.character_key, f"v{subs[-1].version}" if subs else "-")
        console.print(table)


# --- players -----------------------------------------------------------------------


@cli.group()
def player() -> None:
    """Sign players up and list them."""


@player.command("add")
@click.argument("game_name", metavar="GAME")
@click.argument("email")
@click.option("--name", required=True, help="The character's name.")
@click.option("--password", help="Password for orders (default: generated and mailed).")
@send_option
@pass_app
def player_add(
    app: App, game_name: str, email: str, name: str, password: str | None, send: bool
) -> None:
    """Add a player to GAME; his character is rolled and a welcome mail is sent."""
    with session_scope(app.db) as session:
        new = admin.add_player(session, app.config, game_name, email, name, password=password)
    console.print(f"Added {name} <{email}> as {new.player.character_key}.")
    app.deliver(send)


@player.command("list")
@click.argument("game_name", metavar="GAME")
@pass_app
def player_list(app: App, game_name: str) -> None:
    """The players of GAME."""
    table = Table("name", "email", "character")
    with Session(app.db) as session:
        for p in repo.players(session, repo.game_by_name(session, game_name)):
            table.add_row(p.name, p.email, p.character_key)
    console.print(table)


# --- intake ------------------------------------------------------------------------


@cli.group()
def inbox() -> None:
    """Incoming mail."""


@inbox.command("process")
@send_option
@pass_app
def inbox_process(app: App, send: bool) -> None:
    """Read every waiting email: store, check, parse, and answer with a receipt."""
    results = process_inbox(app.db, app.config)
    table = Table("message", "result", "detail")
    for r in results:
        table.add_row(r.message_id[:48], r.status, r.detail[:60])
    console.print(table if results else "The inbox is empty.")
    app.deliver(send)


@cli.group()
def orders() -> None:
    """Orders received."""


@orders.command("show")
@click.argument("game_name", metavar="GAME")
@click.option("--player", "email", help="Only this player (email address).")
@click.option("--all-versions", is_flag=True, help="Every version, not only the latest.")
@pass_app
def orders_show(app: App, game_name: str, email: str | None, all_versions: bool) -> None:
    """The orders received for the open turn of GAME."""
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = repo.open_turn(session, g)
        people = [repo.player_by_email(session, g, email)] if email else repo.players(session, g)
        for p in people:
            subs = repo.submissions(session, p, turn.number)
            if not subs:
                console.print(f"[bold]{p.name}[/]: no orders for {turn.label}\n")
                continue
            for sub in subs if all_versions else subs[-1:]:
                console.print(f"[bold]{p.name}[/], {turn.label}, v{sub.version}:")
                for line in jsonio.loads(sub.normal_form_json):
                    console.print(f"    {line}", markup=False)
                for err in jsonio.loads(sub.errors_json):
                    console.print(f"    ! line {err['line']}: {err['message']}", markup=False)
                console.print()


# --- turns -------------------------------------------------------------------------


@cli.group()
def turn() -> None:
    """Run, rerun and inspect turns."""


@turn.command("run")
@click.argument("game_name", metavar="GAME")
@send_option
@pass_app
def turn_run(app: App, game_name: str, send: bool) -> None:
    """Adjudicate the open turn of GAME and publish its newsletters."""
    report = run_turn(app.db, app.config, game_name)
    following = schedule.after_turn(app.db, app.config, report.game, report.number)
    console.print(f"Ran turn {report.number} ({report.label}) of {report.game}: "
                  f"{report.events} events, {report.rolls} dice rolls.")
    console.print(f"Orders from: {', '.join(report.orders_from) or 'nobody'}")
    if report.no_orders_from:
        console.print(f"No orders (NMR): {', '.join(report.no_orders_from)}")
    console.print(f"Archive: {report.archive}")
    if following is not None and following.deadline is not None:
        with Session(app.db) as session:
            zone = repo.game_by_name(session, report.game).time_zone
        console.print(f"Next orders due {format_deadline(following.deadline, zone)} "
                      f"({following.source})")
    app.deliver(send)


@turn.command("rerun")
@click.argument("game_name", metavar="GAME")
@click.argument("number", type=int)
@pass_app
def turn_rerun(app: App, game_name: str, number: int) -> None:
    """Recompute turn NUMBER from its stored inputs and compare with the stored result."""
    report = rerun_turn(app.db, app.config, game_name, number)
    if report.identical:
        console.print(f"Turn {number}: byte-identical events, state, dice and newsletters.")
    else:
        console.print(f"Turn {number}: DIFFERENT: {', '.join(report.differences)}")
        sys.exit(1)


@turn.command("show")
@click.argument("game_name", metavar="GAME")
@click.argument("number", type=int)
@click.option("--json", "as_json", is_flag=True, help="Events and dice log as JSON.")
@pass_app
def turn_show(app: App, game_name: str, number: int, as_json: bool) -> None:
    """A finished turn: its events and every die rolled."""
    with Session(app.db) as session:
        t = repo.turn_by_number(session, repo.game_by_name(session, game_name), number)
        data = {
            "number": t.number,
            "label": t.label,
            "status": t.status,
            "seed": t.seed,
            "inputs": jsonio.loads(t.inputs_json),
            "events": jsonio.loads(t.events_json) or [],
            "dice": jsonio.loads(t.dice_json) or [],
        }
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    console.print(f"Turn {data['number']} ({data['label']}), {data['status']}")
    for e in data["events"]:
        console.print(f"  {e['id']} {e['actor'] or ''} {e['args']}", markup=False)
    for d in data["dice"]:
        console.print(f"  [dim]{d['text']}[/]")


# --- newsletters and state -----------------------------------------------------------


@cli.group()
def newsletter() -> None:
    """Published gazettes and turn sheets."""


@newsletter.command("show")
@click.argument("game_name", metavar="GAME")
@click.option("--turn", "number", type=int, help="Turn number (default: the last run).")
@click.option("--player", "email", help="This player's turn sheet instead of the gazette.")
@click.option("--format", "fmt", type=click.Choice(["md", "html", "txt"]), default="md")
@pass_app
def newsletter_show(
    app: App, game_name: str, number: int | None, email: str | None, fmt: str
) -> None:
    """Print a gazette or a turn sheet."""
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        if number is None:
            last = repo.last_done_turn(session, g)
            if last is None:
                raise click.ClickException(f"{g.name} has not run a turn yet")
            number = last.number
        reader = repo.player_by_email(session, g, email) if email else None
        rows = [n for n in repo.newsletters(session, g, number, reader)
                if n.kind == ("turnsheet" if reader else "gazette")]
        if not rows:
            raise click.ClickException(f"no newsletter for turn {number}")
        row = rows[-1]
        click.echo({"md": row.markdown, "html": row.html, "txt": row.text}[fmt], nl=False)


@cli.group()
def state() -> None:
    """Game state."""


@state.command("show")
@click.argument("game_name", metavar="GAME")
@click.option("--json", "as_json", is_flag=True, help="As JSON (the only format for now).")
@pass_app
def state_show(app: App, game_name: str, as_json: bool) -> None:
    """The state the open turn starts from."""
    with Session(app.db) as session:
        t = repo.open_turn(session, repo.game_by_name(session, game_name))
        click.echo(json.dumps(jsonio.loads(t.state_before), indent=2, ensure_ascii=False))


@cli.group()
def outbox() -> None:
    """Outgoing mail."""


@outbox.command("send")
@pass_app
def outbox_send(app: App) -> None:
    """Deliver every queued mail."""
    app.deliver(True)


# --- deadlines, the service and its status ----------------------------------------------

WHEN = click.DateTime(["%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"])


@cli.group()
def deadline() -> None:
    """Deadlines: one-off dates or a recurring rule, in the game's time zone."""


@deadline.command("set")
@click.argument("game_name", metavar="GAME")
@click.argument("when", metavar="WHEN", type=WHEN)
@click.option("--announcements", type=WHEN,
              help="Announcement and challenge deadline (En Garde!), before WHEN.")
@pass_app
def deadline_set(app: App, game_name: str, when: datetime, announcements: datetime | None) -> None:
    """Set the open turn's orders deadline to WHEN ('2026-12-12 18:00', game's zone)."""
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = schedule.set_deadlines(
            session, g, schedule.local_to_utc(when, g),
            schedule.local_to_utc(announcements, g) if announcements else None,
        )
        _print_deadlines(g, turn)


@deadline.command("rule")
@click.argument("game_name", metavar="GAME")
@click.option("--monthly-day", type=click.IntRange(1, 31),
              help="Day of the month (29-31 mean the last day in shorter months).")
@click.option("--weekday", type=click.Choice(schedule.WEEKDAYS),
              help="Or: a weekday of the month, with --week (e.g. --week 2nd --weekday sat).")
@click.option("--week", type=click.Choice(schedule.WEEKS), help="Which one: 1st ... 4th or last.")
@click.option("--every-days", type=click.IntRange(1, 366),
              help="Or: this many days after the previous deadline.")
@click.option("--time", "at", default="18:00", show_default=True, help="Time of day, HH:MM.")
@click.option("--announcements-days-before", type=click.IntRange(1, 27),
              help="Announcement deadline this many days before, same time of day.")
@click.option("--apply-now", is_flag=True,
              help="Also replace the open turn's deadlines with the rule's next ones.")
@click.option("--clear", is_flag=True, help="Remove the rule (deadlines then set by hand).")
@pass_app
def deadline_rule(
    app: App, game_name: str, monthly_day: int | None, weekday: str | None, week: str | None,
    every_days: int | None, at: str, announcements_days_before: int | None, apply_now: bool,
    clear: bool,
) -> None:
    """Give GAME a recurring deadline; each turn run takes its next deadlines from it.

    \b
    moderator deadline rule paris --monthly-day 12 --time 18:00 --announcements-days-before 4
    moderator deadline rule paris --week 2nd --weekday sat --time 18:00
    moderator deadline rule paris --every-days 14 --time 20:00
    moderator deadline rule paris --clear
    """
    given = sum(x is not None for x in (monthly_day, weekday or week, every_days))
    if clear == bool(given) or given > 1:
        raise click.UsageError("give one of --monthly-day, --week/--weekday, --every-days "
                               "or --clear")
    rule = None if clear else schedule.Rule(
        monthly_day=monthly_day, weekday=weekday, week=week, every_days=every_days, time=at,
        announcements_days_before=announcements_days_before,
    )
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = schedule.set_rule(session, g, rule, apply_now=apply_now)
        console.print(f"{g.name}: {rule.describe() if rule else 'no rule'}")
        _print_deadlines(g, turn)


@deadline.command("show")
@click.argument("game_name", metavar="GAME")
@click.option("--next", "count", type=click.IntRange(0, 24), default=3, show_default=True,
              help="Also list this many later deadlines the rule will give.")
@pass_app
def deadline_show(app: App, game_name: str, count: int) -> None:
    """GAME's deadlines and rule, and the rule's next deadlines."""
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = repo.open_turn(session, g)
        rule = schedule.rule_of(g)
        console.print(f"{g.name}: {rule.describe() if rule else 'no rule'} ({g.time_zone})")
        _print_deadlines(g, turn)
        if rule and turn.deadline:
            moment = as_utc(turn.deadline)
            for _ in range(count):
                moment = rule.next_after(moment, schedule.game_zone(g))
                ann = rule.announcements_for(moment, schedule.game_zone(g))
                extra = f" (announcements {format_deadline(ann, g.time_zone)})" if ann else ""
                console.print(f"  then {format_deadline(moment, g.time_zone)}{extra}")


def _print_deadlines(g: Game, turn: Turn) -> None:
    if turn.announcement_deadline:
        console.print(f"Turn {turn.number} ({turn.label}): announcements due "
                      f"{format_deadline(turn.announcement_deadline, g.time_zone)}")
    console.print(f"Turn {turn.number} ({turn.label}): orders due "
                  f"{format_deadline(turn.deadline, g.time_zone) or 'not set'}")


@cli.command()
@pass_app
def serve(app: App) -> None:
    """Run the service: read mail, send mail, and act at every deadline (until SIGTERM)."""
    from moderator.service import serve as run_service

    sys.exit(run_service(app.db, app.config))


BACKLOG = ("queued", "sending", "failed", "bounced")


@cli.command()
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
            _game_status(session, g, backlog.get(g.id, {}), jobs, now)
        table = Table("outbox", *BACKLOG, "sent", title="Mail")
        for key, counts in sorted(backlog.items(), key=lambda kv: str(kv[0])):
            name = next((g.name for g in found if g.id == key), None)
            if key is None or name is not None or not game_name:
                label = name or ("(no game)" if key is None else f"game {key}")
                table.add_row(label, *(str(counts.get(s, 0)) for s in (*BACKLOG, "sent")))
        console.print(table if backlog else "Outbox: nothing queued or sent yet.")
        service = repo.service_status(session)
        table = Table("service", "last", "ago", "note", title="Service")
        for key, row in sorted(service.items()):
            note = "" if _is_timestamp(row.value) else row.value[:60]
            table.add_row(key, _short(row.updated_at, zone), _ago(now - as_utc(row.updated_at)),
                          note)
        console.print(table if service else "The service has not run yet (no `moderator serve`).")
        query = select(GmLog).where(col(GmLog.level).in_(("warning", "error")))
        if game_name:
            query = query.where(GmLog.game_id == found[0].id)
        problems = list(session.exec(query.order_by(col(GmLog.id).desc()).limit(limit)))
        if problems:
            names = {g.id: g.name for g in repo.games(session)}
            table = Table("when", "level", "game", "event", "detail", title="Recent problems")
            for entry in problems:
                table.add_row(_short(entry.at, zone), entry.level,
                              names.get(entry.game_id, "-"), entry.event, entry.detail[:200])
            console.print(table)
        elif limit:
            console.print("No warnings or errors in the GM log.")


def _backlog(session: Session) -> dict[int | None, dict[str, int]]:
    rows = session.exec(
        select(Outbox.game_id, Outbox.status, func.count()).group_by(Outbox.game_id, Outbox.status)
    )
    counts: dict[int | None, dict[str, int]] = {}
    for game_id, state, n in rows:
        counts.setdefault(game_id, {})[state] = n
    return counts


def _game_status(
    session: Session, g: Game, backlog: dict[str, int], jobs: dict[str, datetime | None],
    now: datetime,
) -> None:
    turn = repo.open_turn(session, g)
    rule = schedule.rule_of(g)
    console.print(f"\n[bold]{g.name}[/] ({find_engine(g.kind).title}), {g.status}: "
                  f"turn {turn.number}, {turn.label}")
    lines = []
    if turn.announcement_deadline:
        lines.append(("announcements due", turn.announcement_deadline))
    lines.append(("orders due", turn.deadline))
    for what, when in lines:
        shown = format_deadline(when, g.time_zone) or "not set"
        if when is not None:
            left = as_utc(when) - now
            shown += f" (in {_ago(left)})" if left > timedelta(0) else f" ({_ago(-left)} ago)"
        console.print(f"  {what}: {shown}")
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
    table = Table("player", "email", "orders", "received")
    sent = 0
    for p in repo.players(session, g):
        subs = repo.submissions(session, p, turn.number)
        if subs:
            sent += 1
            table.add_row(p.name, p.email, f"v{subs[-1].version}",
                          _short(subs[-1].received_at, g.time_zone))
        else:
            table.add_row(p.name, p.email, "[red]none yet[/]", "")
    table.title = f"Orders for {turn.label}: {sent} of {len(table.rows)} players"
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
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    if seconds < 172800:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} d {seconds % 86400 // 3600} h"


@cli.command()
@click.option("--dir", "folder", type=click.Path(path_type=Path, file_okay=False),
              default=Path("var/demo"), show_default=True, help="Where the demo lives.")
def demo(folder: Path) -> None:
    """Run a whole En Garde! month by email on local Maildirs and show where to look."""
    from moderator.demo import run_demo

    run_demo(folder.resolve(), console)


def main() -> None:
    try:
        cli(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        sys.exit(1)
    except (ConfigError, repo.NotFound, admin.AdminError, TurnError, schedule.ScheduleError,
            KeyError) as exc:
        console.print(f"[red]error:[/] {exc}", markup=True)
        sys.exit(2)
