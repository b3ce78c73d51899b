"""``moderator turn run|rerun|show``: run, rerun and inspect turns."""

from __future__ import annotations

import json
import sys

import click
from sqlmodel import Session

from moderator import jsonio
from moderator.cli.app import App, console, pass_app, send_option
from moderator.clock import format_deadline
from moderator.store import repo
from moderator.turn.run import TurnReport, rerun_turn, run_turn


@click.group()
def turn() -> None:
    """Run, rerun and inspect turns."""


@turn.command("run")
@click.argument("game_name", metavar="GAME")
@send_option
@pass_app
def turn_run(app: App, game_name: str, send: bool) -> None:
    """Adjudicate the open turn of GAME and publish its newsletters."""
    report = run_turn(app.db, app.config, game_name)
    _print_report(report)
    app.deliver(send)


def _print_report(report: TurnReport) -> None:
    """What the run did, and the next deadline it set (as printed in the newsletters)."""
    console.print(f"Ran turn {report.number} ({report.label}) of {report.game}: "
                  f"{report.events} events, {report.rolls} dice rolls.")
    console.print(f"Orders from: {', '.join(report.orders_from) or 'nobody'}")
    if report.no_orders_from:
        console.print(f"No orders (NMR): {', '.join(report.no_orders_from)}")
    console.print(f"Archive: {report.archive}")
    following = report.next_deadlines
    if following.deadline is not None:
        console.print(f"Next orders due {format_deadline(following.deadline, report.time_zone)} "
                      f"({following.source})")


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
