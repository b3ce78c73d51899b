"""``moderator deadline set|rule|show``: one-off deadlines or a recurring rule, entered
and shown in the game's time zone (see docs/scheduling.md)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import click
from sqlmodel import Session

from moderator.cli.app import WHEN, App, console, desk, pass_app, send_option
from moderator.clock import as_utc, format_deadline
from moderator.desk import actions
from moderator.settings.deadline_rule import WEEKDAYS, WEEKS, Rule
from moderator.settings.game import week_key, weekday_key
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Game, Turn
from moderator.store.statuses import GameStatus
from moderator.turn import deadlines

# What the players' mail about the new deadlines says; the --reason is the GM's only.
PLAYERS_NOTE = click.option("--note", default=None,
                            help="What the players are told with the new deadlines "
                                 "(the --reason stays in the audit log).")


@click.group()
def deadline() -> None:
    """Deadlines: one-off dates or a recurring rule, in the game's time zone."""


@deadline.command("set")
@click.argument("game_name", metavar="GAME")
@click.argument("when", metavar="WHEN", type=WHEN)
@click.option("--announcements", type=WHEN,
              help="Announcement and challenge deadline (En Garde!), before WHEN.")
@click.option("--force", is_flag=True, help="Allow a deadline in the past (the turn then "
              "runs at once).")
@click.option("--reason", default=None, help="Why, for the audit log (the GM's only).")
@PLAYERS_NOTE
@click.option("--as", "actor", metavar="NAME", help="Who acts (audit log).")
@send_option
@pass_app
def deadline_set(app: App, game_name: str, when: datetime, announcements: datetime | None,
                 force: bool, reason: str | None, note: str | None, actor: str | None,
                 send: bool) -> None:
    """Set the open turn's orders deadline to WHEN ('2026-12-12 18:00', game's zone).
    A moved deadline is announced to the players.

    \b
    moderator deadline set paris "2026-12-12 18:00" --reason "two players away" \\
        --note "two players are travelling"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = actions.move_deadlines(
            session, app.config, g, deadlines.local_to_utc(when, g),
            deadlines.local_to_utc(announcements, g) if announcements else None,
            app.who(actor), reason, force=force, note=note)
        print_deadlines(g, turn)
    app.deliver(send)


@deadline.command("rule")
@click.argument("game_name", metavar="GAME")
@click.option("--monthly-day", type=click.IntRange(1, 31),
              help="Day of the month (29-31 mean the last day in shorter months).")
@click.option("--weekday", callback=lambda ctx, p, v: _read(weekday_key, WEEKDAYS, v, p),
              help="Or: a weekday of the month, with --week (e.g. --week 2nd --weekday sat"
              "; 'saturday' is read as sat).")
@click.option("--week", callback=lambda ctx, p, v: _read(week_key, WEEKS, v, p),
              help="Which one: 1st ... 4th or last ('second' or 2 is read as 2nd).")
@click.option("--every-days", type=click.IntRange(1, 366),
              help="Or: this many days after the previous deadline.")
@click.option("--time", "at", default="18:00", show_default=True, help="Time of day, HH:MM.")
@click.option("--announcements-days-before", type=click.IntRange(1, 27),
              help="Announcement deadline this many days before, same time of day.")
@click.option("--apply-now", is_flag=True,
              help="Also replace the open turn's deadlines with the rule's next ones.")
@click.option("--clear", is_flag=True, help="Remove the rule (deadlines then set by hand).")
@click.option("--reason", default=None, help="Why, for the audit log (the GM's only).")
@PLAYERS_NOTE
@click.option("--as", "actor", metavar="NAME", help="Who acts (audit log).")
@send_option
@pass_app
def deadline_rule(
    app: App, game_name: str, monthly_day: int | None, weekday: str | None, week: str | None,
    every_days: int | None, at: str, announcements_days_before: int | None, apply_now: bool,
    clear: bool, reason: str | None, note: str | None, actor: str | None, send: bool,
) -> None:
    """Give GAME a recurring deadline; each turn run takes its next deadlines from it.
    The change is audited; a deadline it moves (--apply-now) is announced to the players.

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
    rule = None if clear else Rule(
        monthly_day=monthly_day, weekday=weekday, week=week, every_days=every_days, time=at,
        announcements_days_before=announcements_days_before,
    )
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = actions.change_rule(session, app.config, g, rule, app.who(actor), reason,
                                   apply_now=apply_now, note=note)
        console.print(f"{g.name}: {rule.describe() if rule else 'no rule'}")
        print_deadlines(g, turn)
    app.deliver(send)


def _read(read: Callable[[str], str | None], allowed: tuple[str, ...], value: str | None,
          param: click.Parameter) -> str | None:
    """A weekday or week as the rule stores it, or a usage error naming the value."""
    if value is None:
        return None
    found = read(value)
    if found is None:
        raise click.BadParameter(f"{value!r}: write one of {', '.join(allowed)}", param=param)
    return found


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
        rule = deadlines.rule_of(g)
        console.print(f"{g.name}: {rule.describe() if rule else 'no rule'} ({g.time_zone})")
        print_deadlines(g, turn)
        if rule and turn.deadline:
            _print_later(g, rule, as_utc(turn.deadline), count)


def _print_later(g: Game, rule: Rule, moment: datetime, count: int) -> None:
    """The ``count`` deadlines the rule gives after ``moment``, as the GM will see them."""
    zone = deadlines.game_zone(g)
    for _ in range(count):
        moment = rule.next_after(moment, zone)
        ann = rule.announcements_for(moment, zone)
        extra = f" (announcements {format_deadline(ann, g.time_zone)})" if ann else ""
        console.print(f"  then {format_deadline(moment, g.time_zone)}{extra}")


def print_deadlines(g: Game, turn: Turn) -> None:
    """The open turn's announcement and orders deadlines, in the game's zone."""
    if turn.announcement_deadline:
        console.print(f"Turn {turn.number} ({turn.label}): announcements due "
                      f"{format_deadline(turn.announcement_deadline, g.time_zone)}")
    console.print(f"Turn {turn.number} ({turn.label}): orders due "
                  f"{format_deadline(turn.deadline, g.time_zone) or 'not set'}")
    if g.status != GameStatus.ROLLBACK:
        return
    if actions.reopened_for_orders(g, turn):
        console.print(f"{g.name} is rolled back: {turn.label} takes orders again until "
                      "then (a moved deadline is mailed to the players); run `turn "
                      "rollforward` after the deadline (before it, it asks first).")
    else:
        console.print(f"{g.name} is rolled back and this deadline has passed: it only "
                      f"decides which stored orders `turn rollforward` reads for "
                      f"{turn.label}, and a change to it is not mailed to the players.")


@deadline.command("extend")
@click.argument("game_name", metavar="GAME")
@click.option("--hours", type=click.FloatRange(min=0, min_open=True), required=True,
              help="How much later (announcement deadline too).")
@desk
@PLAYERS_NOTE
@send_option
@pass_app
def deadline_extend(app: App, game_name: str, hours: float, reason: str,
                    note: str | None, actor: str | None, send: bool) -> None:
    """Move GAME's open turn deadlines HOURS later.

    \b
    moderator deadline extend paris --hours 48 --reason "Easter weekend" --note "Easter"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = actions.extend(session, app.config, g, hours, app.who(actor), reason,
                              note=note)
        print_deadlines(g, turn)
    app.deliver(send)
