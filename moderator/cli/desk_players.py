"""The GM's desk, players: ``player act-as|replace|eject|absence`` and ``orders
accept-late``.  Every action takes ``--reason`` and is written to the audit log."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from moderator.cli.app import App, console, desk, pass_app, send_option
from moderator.cli.orders import orders
from moderator.cli.players import player
from moderator.clock import format_deadline
from moderator.desk import players as desk_players
from moderator.desk.errors import DeskError
from moderator.store import repo
from moderator.store.db import session_scope


@orders.command("accept-late")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="PLAYER")
@desk
@pass_app
def orders_accept_late(app: App, game_name: str, email: str, reason: str,
                       actor: str | None) -> None:
    """Let PLAYER's latest orders (received after the deadline) count in the next run.

    \b
    moderator orders accept-late paris jacques@lyon.example --reason "mail server down"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        sub = desk_players.accept_late(session, app.config, g,
                                       repo.player_by_email(session, g, email),
                                       app.who(actor), reason)
    console.print(f"Orders v{sub.version} of {email} will count.")


@player.command("act-as")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="PLAYER")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@desk
@send_option
@pass_app
def player_act_as(app: App, game_name: str, email: str, file: Path, reason: str,
                  actor: str | None, send: bool) -> None:
    """Enter the orders in FILE for PLAYER (absent, or his mail was lost), through the
    real parser; the player is told.

    \b
    moderator player act-as paris jacques@lyon.example orders.txt --reason "phoned them in"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        done = desk_players.act_as(session, app.config, g,
                                   repo.player_by_email(session, g, email),
                                   file.read_text(encoding="utf-8"), app.who(actor), reason)
        if done.submission is None:
            raise DeskError("no valid orders in the file:\n  " + "\n  ".join(done.errors))
        version = done.submission.version
    console.print(f"Stored as orders v{version} for {email}:", markup=False)
    for line in done.normal_form:
        console.print(f"  {line}", markup=False)
    for line in done.errors:
        console.print(f"  ! {line}", markup=False, style="red")
    app.deliver(send)


@player.command("replace")
@click.argument("game_name", metavar="GAME")
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@click.option("--name", help="The new player's name (default: keep the old one).")
@desk
@send_option
@pass_app
def player_replace(app: App, game_name: str, old: str, new: str, name: str | None,
                   reason: str, actor: str | None, send: bool) -> None:
    """NEW (an email address) takes over OLD's character; a welcome with a new password
    goes to NEW.

    \b
    moderator player replace paris porthos@musket.example anne@example.org \\
        --name "Anne" --reason "Porthos's player resigned"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        desk_players.replace(session, app.config, g, repo.player_by_email(session, g, old),
                             new, name, app.who(actor), reason)
    console.print(f"{new} now plays the character of {old}; welcome mail queued.")
    app.deliver(send)


@player.command("eject")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="PLAYER")
@desk
@pass_app
def player_eject(app: App, game_name: str, email: str, reason: str,
                 actor: str | None) -> None:
    """Remove PLAYER from GAME: his orders are refused, he gets no more mail.

    \b
    moderator player eject paris cheat@example.org --reason "two accounts"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        desk_players.eject(session, g, repo.player_by_email(session, g, email),
                           app.who(actor), reason)
    console.print(f"{email} is removed from {game_name}.")


@player.command("absence")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="PLAYER")
@click.option("--until", "until", required=True, type=click.DateTime(["%Y-%m-%d"]),
              help="Last day of the absence (within the game's absence_max_days).")
@desk
@pass_app
def player_absence(app: App, game_name: str, email: str, until: datetime, reason: str,
                   actor: str | None) -> None:
    """Mark PLAYER absent: no reminders, and missed turns do not count toward the NMR
    limit (his character follows his standing orders).

    \b
    moderator player absence paris jacques@lyon.example --until 2027-01-10 --reason "travel"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        end = desk_players.absence(session, app.config, g,
                                   repo.player_by_email(session, g, email), until,
                                   app.who(actor), reason)
        shown = format_deadline(end, g.time_zone)
    console.print(f"{email} is absent until {shown}.")
