"""``moderator turn run|rerun|show``: run, rerun and inspect turns."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click
from sqlmodel import Session

from moderator import jsonio
from moderator.cli.app import (
    App,
    console,
    desk,
    for_terminal,
    pass_app,
    send_option,
    styled,
)
from moderator.clock import as_utc, format_deadline
from moderator.desk import rollback
from moderator.desk.errors import DeskError
from moderator.desk.preview import preview
from moderator.publish.archive import archive_dir, write_archive
from moderator.publish.site.after_turn import rebuild_game_site
from moderator.store import audit, repo
from moderator.store.db import session_scope
from moderator.store.statuses import GameStatus
from moderator.turn.deadlines import now_utc
from moderator.turn.inputs import due_at
from moderator.turn.over import why_over
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import TurnReport, run_turn


@click.group()
def turn() -> None:
    """Turns: preview, run, rerun, roll back and forward, inspect."""


@turn.command("run")
@click.argument("game_name", metavar="GAME")
@click.option("--yes", "assume_yes", is_flag=True,
              help="Run before the deadline without asking.")
@click.option("--reason", default=None,
              help="Why it runs before its deadline (audit log; default: said so).")
@click.option("--as", "actor", metavar="NAME", help="Who acts, for the audit log.")
@send_option
@pass_app
def turn_run(app: App, game_name: str, assume_yes: bool, reason: str | None,
             actor: str | None, send: bool) -> None:
    """Adjudicate the open turn of GAME and publish its newsletters.  Before its
    deadline it asks first (or --yes) and the early run is audited, as
    `turn process --now` is."""
    reason = audit.checked(reason) if reason is not None else None
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        t = repo.open_turn(session, g)
        number, deadline, zone = t.number, t.deadline, g.time_zone
        active = g.status == GameStatus.ACTIVE  # else run_turn refuses, with the reason
        # A game whose engine says it is over runs no more turns (DWTK 37, FE 8).
        over = why_over(session, g, t)
    if over:
        raise DeskError(f"{game_name} is over: {over}; no turn runs any more")
    early = active and deadline is not None and as_utc(deadline) > now_utc()
    if early and not assume_yes:
        click.confirm(f"Turn {number} of {game_name} is due {format_deadline(deadline, zone)}"
                      "; run it now, before its deadline?", abort=True)
    report = run_turn(app.db, app.config, game_name, number=number)
    if early:
        with session_scope(app.db) as session:
            audit.record(session, "turn.run", reason or "run before its deadline (confirmed)",
                         app.who(actor), game=repo.game_by_name(session, game_name),
                         turn_number=number, detail="run before its deadline "
                         f"({format_deadline(deadline, zone)})")
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
    if report.finished:
        console.print(styled("[bold]The game is over[/]: {why}.  It is marked finished: no "
                             "deadline, no more orders (`turn rollback` takes it back).",
                             why=report.finished))
    _print_decisions_due(report.decisions_due, "the next run")
    following = report.next_deadlines
    if following.deadline is not None:
        console.print(f"Next orders due {format_deadline(following.deadline, report.time_zone)} "
                      f"({following.source})")


def _print_decisions_due(due: Sequence[str], which: str) -> None:
    """The GM's decisions a run looks for (never printed for players)."""
    if due:
        console.print(f"GM decisions {which} looks for (`moderator decide GAME KEY "
                      "VALUE --reason ...`; without one, the default applies):")
        for line in due:
            console.print(f"  {line}")


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
        console.print(f"  {e['id']} {e['actor'] or ''} {e['args']}")
    for d in data["dice"]:
        console.print(f"  {d['text']}", style="dim")


@turn.command("process")
@click.argument("game_name", metavar="GAME")
@click.option("--now", "at_once", is_flag=True,
              help="Run even though the deadline has not come (njudge's PROCESS).")
@desk
@send_option
@pass_app
def turn_process(app: App, game_name: str, at_once: bool, reason: str, actor: str | None,
                 send: bool) -> None:
    """Run GAME's open turn now: with --now before its deadline, else only once it is
    due (deadline plus grace).

    \b
    moderator turn process paris --now --reason "all orders in, players agreed"
    """
    reason = audit.checked(reason)  # before the run: it commits on its own
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        t = repo.open_turn(session, g)
        due = due_at(session, app.config, g, t)
        number = t.number
    if not at_once and (due is None or due > now_utc()):
        raise DeskError(f"turn {number} of {game_name} is not due yet; add --now to run it")
    report = run_turn(app.db, app.config, game_name, number=number)
    with session_scope(app.db) as session:
        audit.record(session, "turn.process", reason, app.who(actor),
                     game=repo.game_by_name(session, game_name), turn_number=number,
                     detail="run before its deadline (--now)" if at_once else "run when due")
    _print_report(report)
    app.deliver(send)


@turn.command("preview")
@click.argument("game_name", metavar="GAME")
@click.option("--player", "email", help="Only this player's turn sheet (and the gazette).")
@pass_app
def turn_preview(app: App, game_name: str, email: str | None) -> None:
    """Dry run: GAME's open turn as it would run now, its gazette and every turn sheet.
    Nothing is stored and nothing is sent.

    \b
    moderator turn preview paris | less
    """
    if email:  # his main address (he may be named by another), or an error for no player
        with Session(app.db) as session:
            email = repo.player_by_email(session, repo.game_by_name(session, game_name),
                                         email).email
    shown = preview(app.db, app.config, game_name)
    rolled = " (rolled back: `turn rollforward` reissues it)" if shown.rolled_back else ""
    click.echo(f"=== PREVIEW of turn {shown.number} ({shown.label}){rolled}; orders from "
               f"{', '.join(shown.orders_from) or 'nobody'}; nothing stored or sent ===\n")
    _print_decisions_due(shown.decisions_due, "this run")
    gazette = shown.rendered.gazette  # player text in it: shown, never acted on
    click.echo(for_terminal(f"--- {gazette.subject} ---\n{gazette.markdown}"))
    for reader in shown.people:
        if email and reader.email != email:
            continue
        sheet = shown.rendered.sheets[reader.player_id]
        click.echo(for_terminal(f"--- {sheet.subject} <{reader.email}> ---\n{sheet.markdown}"))


@turn.command("rollback")
@click.argument("game_name", metavar="GAME")
@click.argument("number", type=int)
@desk
@pass_app
def turn_rollback(app: App, game_name: str, number: int, reason: str,
                  actor: str | None) -> None:
    """Take GAME back to the start of turn NUMBER, keeping its orders; the game waits
    for `turn rollforward` (after any correction: state amend, decide, act-as ...).

    \b
    moderator turn rollback paris 2 --reason "duel fought with the wrong weapon"
    """
    with session_scope(app.db) as session:
        undone = rollback.rollback(session, repo.game_by_name(session, game_name), number,
                                   app.who(actor), reason)
    console.print(f"{game_name} is back at the start of turn {number} (undone: "
                  f"{', '.join(map(str, undone))}).  Correct what needs correcting, then "
                  f"`moderator turn rollforward {game_name} --reason ...`.")


@turn.command("rollforward")
@click.argument("game_name", metavar="GAME")
@click.option("--yes", "assume_yes", is_flag=True,
              help="Replay before the reopened turn's deadline without asking.")
@desk
@send_option
@pass_app
def turn_rollforward(app: App, game_name: str, assume_yes: bool, reason: str,
                     actor: str | None, send: bool) -> None:
    """Replay the turns undone by `turn rollback`: unchanged turns come out byte for byte
    the same (and are not mailed again); changed ones are mailed as CORRECTIONs.  While
    the reopened turn's deadline is ahead its players may still send orders, so it asks
    first (or --yes).

    \b
    moderator turn rollforward paris --reason "weapon corrected"
    """
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        t = repo.open_turn(session, g)
        waiting = g.status == GameStatus.ROLLBACK  # else rollforward refuses, with why
        label, deadline, zone = t.label, t.deadline, g.time_zone
    if waiting and deadline is not None and as_utc(deadline) > now_utc() and not assume_yes:
        # Orders sent until the deadline count at the replay; replaying now cuts them off.
        click.confirm(f"{label} of {game_name} takes orders until "
                      f"{format_deadline(deadline, zone)}; replay it now, before then?",
                      abort=True)
    with session_scope(app.db) as session:
        replayed = rollback.rollforward(session, app.config,
                                        repo.game_by_name(session, game_name),
                                        app.who(actor), reason)
    for r in replayed:
        write_archive(archive_dir(app.config, game_name, r.number), r.rendered, r.people)
        console.print(styled("Turn {number} ({label}): ", number=r.number, label=r.label)
                      + (styled("identical, not mailed again") if r.identical
                         else styled("[yellow]CORRECTED[/], reissued to the players")))
    if replayed:  # the site shows the correction beside the original it supersedes
        rebuild_game_site(app.db, app.config, game_name)
    app.deliver(send)
