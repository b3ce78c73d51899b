"""The GM's desk, turns and state: ``turn process|preview|rollback|rollforward`` and
``state amend``.  Every action takes ``--reason`` and is written to the audit log."""

from __future__ import annotations

import click
from sqlmodel import Session

from moderator.cli.app import App, console, desk, pass_app, send_option
from moderator.cli.newsletters import state
from moderator.cli.turns import _print_report, turn
from moderator.deadlines import now_utc
from moderator.desk import actions, amend, audit, rollback, runhooks
from moderator.desk.audit import DeskError
from moderator.desk.preview import preview
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.turns import archive_dir, run_turn, write_archive


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
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        t = repo.open_turn(session, g)
        due = runhooks.due_at(session, app.config, g, t)
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
    shown = preview(app.db, app.config, game_name)
    click.echo(f"=== PREVIEW of turn {shown.number} ({shown.label}); orders from "
               f"{', '.join(shown.orders_from) or 'nobody'}; nothing stored or sent ===\n")
    click.echo(f"--- {shown.rendered.gazette.subject} ---\n{shown.rendered.gazette.markdown}")
    for reader in shown.people:
        if email and reader.email != email.lower():
            continue
        sheet = shown.rendered.sheets[reader.player_id]
        click.echo(f"--- {sheet.subject} <{reader.email}> ---\n{sheet.markdown}")


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
@desk
@send_option
@pass_app
def turn_rollforward(app: App, game_name: str, reason: str, actor: str | None,
                     send: bool) -> None:
    """Replay the turns undone by `turn rollback`: unchanged turns come out byte for byte
    the same (and are not mailed again); changed ones are mailed as CORRECTIONs.

    \b
    moderator turn rollforward paris --reason "weapon corrected"
    """
    with session_scope(app.db) as session:
        replayed = rollback.rollforward(session, app.config,
                                        repo.game_by_name(session, game_name),
                                        app.who(actor), reason)
    for r in replayed:
        write_archive(archive_dir(app.config, game_name, r.number), r.rendered, r.people)
        console.print(f"Turn {r.number} ({r.label}): "
                      + ("identical, not mailed again" if r.identical
                         else "[yellow]CORRECTED[/], reissued to the players"))
    app.deliver(send)


@state.command("amend")
@click.argument("game_name", metavar="GAME")
@click.option("--set", "sets", multiple=True, metavar="PATH=VALUE",
              help="Set a value (VALUE is JSON; plain text is a string).")
@click.option("--grant", "grants", multiple=True, metavar="PATH=VALUE",
              help="Add to a number, append to a list, merge into a table.")
@click.option("--remove", "removes", multiple=True, metavar="PATH[=VALUE]",
              help="Delete a key, or remove VALUE from a list.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@desk
@pass_app
def state_amend(app: App, game_name: str, sets: tuple[str, ...], grants: tuple[str, ...],
                removes: tuple[str, ...], yes: bool, reason: str, actor: str | None) -> None:
    """Change the state GAME's open turn starts from; shows a diff and asks first.
    Announced in the next gazette's GM notes.

    \b
    moderator state amend paris --set characters.athos.crowns=500 --reason "bank error"
    moderator state amend paris --grant characters.athos.crowns=-50 --reason "fine"
    moderator state amend paris --remove decisions.cause:athos:rochefort --reason "moot"
    """
    changes = ([amend.parse_change("set", s) for s in sets]
               + [amend.parse_change("grant", g) for g in grants]
               + [amend.parse_change("remove", r) for r in removes])
    if not changes:
        raise click.UsageError("give at least one --set, --grant or --remove")

    def confirm(diff: str) -> bool:
        click.echo(diff)
        return yes or click.confirm("Apply this change?", default=False)

    with session_scope(app.db) as session:
        _diff, applied = actions.amend_state(session, app.config,
                                             repo.game_by_name(session, game_name),
                                             changes, app.who(actor), reason, confirm=confirm)
    console.print("Amended; the next gazette says so." if applied else "Nothing changed.")
