"""``moderator game new|list|show``: create and inspect games."""

from __future__ import annotations

from datetime import datetime

import click
from rich.table import Table
from sqlmodel import Session

from moderator.cli.app import App, console, pass_app
from moderator.clock import as_utc, format_deadline
from moderator.desk import admin
from moderator.games import find_engine, game_kinds
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.turn.deadlines import note_change


@click.group()
def game() -> None:
    """Create and inspect games."""


@game.command("new")
@click.argument("name")
@click.option("--kind", type=click.Choice(game_kinds()), required=True, help="Which game.")
@click.option("--seed", type=int, help="Dice seed (default: random).")
@click.option(
    "--deadline",
    type=click.DateTime(["%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"]),
    help="First deadline, in the default time zone (e.g. '2026-12-12 18:00').",
)
@pass_app
def game_new(app: App, name: str, kind: str, seed: int | None, deadline: datetime | None) -> None:
    """Create game NAME with its first turn open for orders."""
    when = as_utc(deadline.replace(tzinfo=app.config.zone)) if deadline else None
    with session_scope(app.db) as session:
        created = admin.create_game(session, app.config, name, kind, seed=seed, deadline=when)
        note_change(session)
        turn = repo.open_turn(session, created)
    console.print(f"Created {kind} game [bold]{created.name}[/] (seed {created.seed}), "
                  f"taking orders for {turn.label}.")


@game.command("list")
@pass_app
def game_list(app: App) -> None:
    """All games on this host."""
    table = Table("game", "kind", "status", "turn", "deadline", "players")
    with Session(app.db) as session:
        for g in repo.games(session):
            turn = repo.open_turn(session, g)
            table.add_row(g.name, g.kind, g.status, f"{turn.number}: {turn.label}",
                          format_deadline(turn.deadline, g.time_zone) or "-",
                          str(len(repo.players(session, g))))
    console.print(table)


@game.command("show")
@click.argument("name")
@pass_app
def game_show(app: App, name: str) -> None:
    """One game: its turn, deadline and who has sent orders."""
    with Session(app.db) as session:
        g = repo.game_by_name(session, name)
        turn = repo.open_turn(session, g)
        console.print(f"[bold]{g.name}[/] ({find_engine(g.kind).title}), {g.status}, "
                      f"seed {g.seed}")
        console.print(f"Turn {turn.number}: {turn.label}; deadline "
                      f"{format_deadline(turn.deadline, g.time_zone) or 'not set'}")
        table = Table("player", "email", "character", "orders this turn")
        for p in repo.players(session, g):
            subs = repo.submissions(session, p, turn.number)
            table.add_row(p.name, p.email, p.character_key, f"v{subs[-1].version}" if subs else "-")
        console.print(table)
