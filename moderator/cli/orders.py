"""``moderator orders show``: the orders received for a game's open turn."""

from __future__ import annotations

import click
from sqlmodel import Session

from moderator import jsonio
from moderator.cli.app import App, console, desk, note_option, pass_app, styled
from moderator.desk import players as desk_players
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Submission
from moderator.store.statuses import PlayerStatus
from moderator.turn.inputs import standing


@click.group()
def orders() -> None:
    """Orders received."""


@orders.command("show")
@click.argument("game_name", metavar="GAME")
@click.option("--player", "email", help="Only this player (email address).")
@click.option("--all-versions", is_flag=True, help="Every version, not only the one that stands.")
@pass_app
def orders_show(app: App, game_name: str, email: str | None, all_versions: bool) -> None:
    """The orders that stand for the open turn of GAME (the ones the turn will run); a
    removed player's count for nothing (named with --player, he is said to be removed)."""
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = repo.open_turn(session, g)
        people = [repo.player_by_email(session, g, email)] if email else repo.members(session, g)
        for p in people:
            if p.status == PlayerStatus.REMOVED:
                console.print(styled("[bold]{name}[/] was removed from {game}: no orders of "
                                     "his count\n", name=p.name, game=g.name))
                continue
            subs = repo.submissions(session, p, turn.number)
            stands = standing(session, app.config, g, turn, p)
            if not subs:
                console.print(styled("[bold]{name}[/]: no orders for {label}\n",
                                     name=p.name, label=turn.label))
                continue
            if stands is None:
                console.print(styled("[bold]{name}[/]: no orders in time for {label} "
                                     "(v{version} came late)\n", name=p.name,
                                     label=turn.label, version=subs[-1].version))
            for sub in subs if all_versions else ([stands.submission] if stands else []):
                _print_submission(p.name, turn.label, sub, stands)


def _print_submission(name: str, label: str, sub: Submission,
                      stands: repo.Standing | None) -> None:
    """One version of a player's orders in normal form, with its errors."""
    if stands is not None and stands.submission.id == sub.id:
        status = f"stands: {stands.reason}"
    else:
        status = "does not stand" + (f" (v{stands.version} does)" if stands else "")
    console.print(styled("[bold]{name}[/], {label}, v{version} {status}:", name=name,
                         label=label, version=sub.version, status=status))
    for line in jsonio.loads(sub.normal_form_json):
        console.print(f"    {line}")
    for err in jsonio.loads(sub.errors_json):
        console.print(f"    ! line {err['line']}: {err['message']}")
    console.print()


@orders.command("accept-late")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="PLAYER")
@note_option("that the late orders were accepted")
@desk
@pass_app
def orders_accept_late(app: App, game_name: str, email: str, note: str | None, reason: str,
                       actor: str | None) -> None:
    """Let PLAYER's latest orders (received after the deadline) count in the next run.

    \b
    moderator orders accept-late paris jacques@lyon.example --reason "mail server down"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        sub = desk_players.accept_late(session, app.config, g,
                                       repo.player_by_email(session, g, email),
                                       app.who(actor), reason, note=note)
    console.print(f"Orders v{sub.version} of {email} will count.")
