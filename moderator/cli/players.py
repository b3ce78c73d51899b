"""``moderator player add|list``: sign players up and list them."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import click
from rich.table import Table
from sqlmodel import Session

from moderator.cli.app import App, console, desk, note_option, pass_app, send_option
from moderator.clock import as_utc, format_deadline
from moderator.desk import admin
from moderator.desk import players as desk_players
from moderator.desk.errors import DeskError
from moderator.store import audit, repo
from moderator.store.db import session_scope

OPTIONAL_REASON = click.option("--reason", default=None,
                               help="Why, for the audit log (`moderator log`).")


@click.group()
def player() -> None:
    """Players: sign them up, approve requests, replace, eject, passwords, absences."""


@player.command("add")
@click.argument("game_name", metavar="GAME")
@click.argument("email")
@click.option("--name", required=True, help="The character's name.")
@click.option("--password", help="Password for orders (default: generated and mailed).")
@click.option("--force", is_flag=True, help="Add even though the game is closed to joining.")
@OPTIONAL_REASON
@click.option("--as", "actor", metavar="NAME", help="Who acts (audit log).")
@send_option
@pass_app
def player_add(
    app: App, game_name: str, email: str, name: str, password: str | None, force: bool,
    reason: str | None, actor: str | None, send: bool,
) -> None:
    """Add a player to GAME; his character is rolled and a welcome mail is sent (audited
    as player.add)."""
    with session_scope(app.db) as session:
        new = admin.add_player(session, app.config, game_name, email, name, password=password,
                               force=force)
        audit.record(session, "player.add", reason or "player add", app.who(actor),
                     game=repo.game_by_name(session, game_name), player=new.player,
                     detail=f"{name} <{new.player.email}>" + (" (--force)" if force else ""))
    console.print(f"Added {name} <{email}> as {new.player.character_key}.")
    app.deliver(send)


@player.command("list")
@click.argument("game_name", metavar="GAME")
@pass_app
def player_list(app: App, game_name: str) -> None:
    """The players of GAME."""
    table = Table("name", "email", "character", "status")
    table.columns[1].no_wrap = True
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        for p in repo.players(session, g):
            status = p.status + (f", {p.missed_turns} missed" if p.missed_turns else "")
            if p.absent_until is not None:
                back = as_utc(p.absent_until).astimezone(ZoneInfo(g.time_zone))
                status += f", absent to {back:%Y-%m-%d}"
            table.add_row(p.name, p.email, p.character_key, status)
    console.print(table)


@player.command("address")
@click.argument("game_name", metavar="GAME")
@click.argument("email")
@click.argument("address")
@OPTIONAL_REASON
@click.option("--as", "actor", metavar="NAME", help="Who acts (audit log).")
@pass_app
def player_address(app: App, game_name: str, email: str, address: str, reason: str | None,
                   actor: str | None) -> None:
    """Let player EMAIL of GAME also send orders from ADDRESS (audited as player.address).

    Receipts still go to his main address, and the first orders from ADDRESS are
    announced to him there (so he notices if someone else uses it).
    """
    with session_scope(app.db) as session:
        link = admin.add_address(session, game_name, email, address)
        g = repo.game_by_name(session, game_name)
        audit.record(session, "player.address", reason or "player address", app.who(actor),
                     game=g, player=repo.player_by_email(session, g, email),
                     detail=f"may also send from {link.email}")
    console.print(f"{address} may now send orders for {email} in {game_name}.")


@player.command("act-as")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="PLAYER")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@note_option("that the GM entered the player's orders")
@desk
@send_option
@pass_app
def player_act_as(app: App, game_name: str, email: str, file: Path, note: str | None,
                  reason: str, actor: str | None, send: bool) -> None:
    """Enter the orders in FILE for PLAYER (absent, or his mail was lost), through the
    real parser; the player is told.

    \b
    moderator player act-as paris jacques@lyon.example orders.txt --reason "phoned them in"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        done = desk_players.act_as(session, app.config, g,
                                   repo.player_by_email(session, g, email),
                                   file.read_text(encoding="utf-8"), app.who(actor), reason,
                                   note=note)
        if done.submission is None:
            raise DeskError("no valid orders in the file:\n  " + "\n  ".join(done.errors))
        version = done.submission.version
    console.print(f"Stored as orders v{version} for {email}:")
    for line in done.normal_form:
        console.print(f"  {line}")
    for line in done.errors:
        console.print(f"  ! {line}", style="red")
    app.deliver(send)


@player.command("replace")
@click.argument("game_name", metavar="GAME")
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@click.option("--name", help="The new player's name (default: keep the old one).")
@note_option("who now plays the character")
@desk
@send_option
@pass_app
def player_replace(app: App, game_name: str, old: str, new: str, name: str | None,
                   note: str | None, reason: str, actor: str | None, send: bool) -> None:
    """NEW (an email address) takes over OLD's character; a welcome with a new password
    goes to NEW.

    \b
    moderator player replace paris porthos@musket.example anne@example.org \\
        --name "Anne" --reason "Porthos's player resigned" \\
        --note "Porthos du Vallon's player has handed him over to Anne."
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        desk_players.replace(session, app.config, g, repo.player_by_email(session, g, old),
                             new, name, app.who(actor), reason, note=note)
    console.print(f"{new} now plays the character of {old}; welcome mail queued.")
    app.deliver(send)


@player.command("eject")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="PLAYER")
@note_option("that the player has left the game")
@desk
@pass_app
def player_eject(app: App, game_name: str, email: str, note: str | None, reason: str,
                 actor: str | None) -> None:
    """Remove PLAYER from GAME: his orders are refused, he gets no more mail.

    \b
    moderator player eject paris cheat@example.org --reason "two accounts"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        desk_players.eject(session, g, repo.player_by_email(session, g, email),
                           app.who(actor), reason, note=note)
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
    limit (his character goes on as without orders: En Garde! his NMR orders, else
    indisposed; DWTK and Fief his standing orders).

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


@player.command("password")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="PLAYER")
@click.option("--reset", is_flag=True, required=True,
              help="Make a new password and mail it to the player (it is never shown).")
@desk
@send_option
@pass_app
def player_password(app: App, game_name: str, email: str, reset: bool, reason: str,
                    actor: str | None, send: bool) -> None:
    """Give PLAYER a new password, mailed to his registered address only.

    \b
    moderator player password paris jacques@lyon.example --reset --reason "lost it"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        desk_players.reset_password(session, app.config, g,
                                    repo.player_by_email(session, g, email),
                                    app.who(actor), reason)
    console.print(f"A new password for {email} is mailed to him.")
    app.deliver(send)


@player.command("requests")
@click.argument("game_name", metavar="GAME")
@pass_app
def player_requests(app: App, game_name: str) -> None:
    """The JOIN GAME requests waiting for `player approve|reject` (joining = "approval")."""
    with Session(app.db) as session:
        waiting = desk_players.pending_joins(session, repo.game_by_name(session, game_name))
    if not waiting:
        console.print(f"No join requests wait in {game_name}.")
    for request in waiting:
        console.print(f"  {request.name} <{request.email}>")


def _decide(app: App, game_name: str, email: str, approve: bool, reason: str,
            actor: str | None, send: bool) -> None:
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        request = desk_players.decide_join(session, app.config, g, email, approve,
                                           app.who(actor), reason)
    done = "joins" if approve else "is refused"
    console.print(f"{request.name} <{request.email}> {done} {game_name}.")
    app.deliver(send)


@player.command("approve")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="ADDRESS")
@desk
@send_option
@pass_app
def player_approve(app: App, game_name: str, email: str, reason: str, actor: str | None,
                   send: bool) -> None:
    """Accept the JOIN GAME request from ADDRESS: the character is created and the
    welcome mailed.

    \b
    moderator player approve paris aramis@example.org --reason "a friend of Porthos"
    """
    _decide(app, game_name, email, True, reason, actor, send)


@player.command("reject")
@click.argument("game_name", metavar="GAME")
@click.argument("email", metavar="ADDRESS")
@desk
@send_option
@pass_app
def player_reject(app: App, game_name: str, email: str, reason: str, actor: str | None,
                  send: bool) -> None:
    """Refuse the JOIN GAME request from ADDRESS; he is told the reason.

    \b
    moderator player reject paris spam@example.org --reason "the game is full"
    """
    _decide(app, game_name, email, False, reason, actor, send)
