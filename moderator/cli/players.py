"""``moderator player add|list``: sign players up and list them."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import click
from rich.table import Table
from sqlmodel import Session

from moderator.cli.app import App, console, pass_app, send_option
from moderator.clock import as_utc
from moderator.desk import admin
from moderator.store import repo
from moderator.store.db import session_scope


@click.group()
def player() -> None:
    """Sign players up and list them."""


@player.command("add")
@click.argument("game_name", metavar="GAME")
@click.argument("email")
@click.option("--name", required=True, help="The character's name.")
@click.option("--password", help="Password for orders (default: generated and mailed).")
@click.option("--force", is_flag=True, help="Add even though the game is closed to joining.")
@send_option
@pass_app
def player_add(
    app: App, game_name: str, email: str, name: str, password: str | None, force: bool,
    send: bool,
) -> None:
    """Add a player to GAME; his character is rolled and a welcome mail is sent."""
    with session_scope(app.db) as session:
        new = admin.add_player(session, app.config, game_name, email, name, password=password,
                               force=force)
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
@pass_app
def player_address(app: App, game_name: str, email: str, address: str) -> None:
    """Let player EMAIL of GAME also send orders from ADDRESS.

    Receipts still go to his main address, and the first orders from ADDRESS are
    announced to him there (so he notices if someone else uses it).
    """
    with session_scope(app.db) as session:
        admin.add_address(session, game_name, email, address)
    console.print(f"{address} may now send orders for {email} in {game_name}.")
