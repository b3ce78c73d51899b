"""``moderator newsletter show`` and ``moderator state show``: what was published, and
the state the open turn starts from."""

from __future__ import annotations

import json

import click
from sqlmodel import Session

from moderator import jsonio
from moderator.cli.app import App, pass_app
from moderator.store import repo


@click.group()
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


@click.group()
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
