"""``moderator newsletter show`` and ``moderator state show``: what was published, and
the state the open turn starts from."""

from __future__ import annotations

import json

import click
from sqlmodel import Session

from moderator import jsonio
from moderator.cli.app import App, console, desk, for_terminal, pass_app, send_option
from moderator.desk import actions, amend
from moderator.store import repo
from moderator.store.db import session_scope


@click.group()
def newsletter() -> None:
    """Published gazettes and turn sheets."""


@newsletter.command("show")
@click.argument("game_name", metavar="GAME")
@click.option("--turn", "number", type=int, help="Turn number (default: the last run).")
@click.option("--player", "email", help="This player's turn sheet instead of the gazette.")
@click.option("--format", "fmt", type=click.Choice(["md", "html", "txt"]), default="md",
              show_default=True, help="md: the Markdown it was written in; html, txt: the "
              "two parts of the mail sent.")
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
        click.echo(for_terminal({"md": row.markdown, "html": row.html, "txt": row.text}[fmt]),
                   nl=False)


@click.group()
def state() -> None:
    """Game state."""


@state.command("show")
@click.argument("game_name", metavar="GAME")
@pass_app
def state_show(app: App, game_name: str) -> None:
    """The state the open turn starts from, as JSON."""
    with Session(app.db) as session:
        t = repo.open_turn(session, repo.game_by_name(session, game_name))
        click.echo(json.dumps(jsonio.loads(t.state_before), indent=2, ensure_ascii=False))


@newsletter.command("resend")
@click.argument("game_name", metavar="GAME")
@click.option("--turn", "number", type=int, help="Turn number (default: the last run).")
@click.option("--player", "email", help="Only to this player (his sheet and the gazette).")
@desk
@send_option
@pass_app
def newsletter_resend(app: App, game_name: str, number: int | None, email: str | None,
                      reason: str, actor: str | None, send: bool) -> None:
    """Mail stored newsletters again (new Message-IDs, subject marked "(resent)").

    \b
    moderator newsletter resend paris --turn 3 --player jacques@lyon.example \\
        --reason "his mailbox was full"
    """
    with session_scope(app.db) as session:
        queued = actions.resend(session, app.config, repo.game_by_name(session, game_name),
                                number, email, app.who(actor), reason)
    console.print(f"{len(queued)} mail(s) queued again.")
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
@click.option("--note", help="What the next gazette prints about it (public). Without it "
                             "the gazette says only that the state was amended; the values "
                             "and the --reason stay in the audit log.")
@desk
@pass_app
def state_amend(app: App, game_name: str, sets: tuple[str, ...], grants: tuple[str, ...],
                removes: tuple[str, ...], yes: bool, note: str | None, reason: str,
                actor: str | None) -> None:
    """Change the state GAME's open turn starts from; shows a diff and asks first.
    The next gazette says the state was amended (or prints --note); never the values.

    \b
    moderator state amend paris --set characters.athos.crowns=500 --reason "bank error"
    moderator state amend paris --grant characters.athos.crowns=-50 --reason "fine" \\
        --note "Athos is fined fifty crowns for brawling."
    moderator state amend paris --remove decisions.cause:athos:rochefort --reason "moot"
    """
    changes = ([amend.parse_change("set", s) for s in sets]
               + [amend.parse_change("grant", g) for g in grants]
               + [amend.parse_change("remove", r) for r in removes])
    if not changes:
        raise click.UsageError("give at least one --set, --grant or --remove")

    def confirm(diff: str) -> bool:
        click.echo(for_terminal(diff))
        return yes or click.confirm("Apply this change?", default=False)

    with session_scope(app.db) as session:
        _diff, applied = actions.amend_state(session, app.config,
                                             repo.game_by_name(session, game_name),
                                             changes, app.who(actor), reason, confirm=confirm,
                                             note=note)
    console.print("Amended; the next gazette says so." if applied else "Nothing changed.")
