"""``moderator orders show``: the orders received for a game's open turn."""

from __future__ import annotations

import click
from sqlmodel import Session

from moderator import jsonio
from moderator.cli.app import App, console, pass_app
from moderator.store import repo
from moderator.store.models import Submission


@click.group()
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
                _print_submission(p.name, turn.label, sub)


def _print_submission(name: str, label: str, sub: Submission) -> None:
    """One version of a player's orders in normal form, with its errors."""
    console.print(f"[bold]{name}[/], {label}, v{sub.version}:")
    for line in jsonio.loads(sub.normal_form_json):
        console.print(f"    {line}", markup=False)
    for err in jsonio.loads(sub.errors_json):
        console.print(f"    ! line {err['line']}: {err['message']}", markup=False)
    console.print()
