"""The GM's press queue: `press queue|approve|reject`."""

from __future__ import annotations

import click
from rich.table import Table
from sqlmodel import Session

from moderator.cli.app import App, console, desk, pass_app
from moderator.desk import press as desk_press
from moderator.store import audit, repo
from moderator.store.db import session_scope


@click.group()
def press() -> None:
    """Announcements held for the GM (when the game's press_moderation is on)."""


@press.command("queue")
@click.argument("game_name", metavar="GAME")
@click.option("--all", "everything", is_flag=True, help="Decided and expired ones too.")
@pass_app
def press_queue(app: App, game_name: str, everything: bool) -> None:
    """The announcements of GAME waiting for approval.

    \b
    moderator press queue paris
    """
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        if not app.config.game(g.name).press_moderation:
            console.print(f"(press_moderation is off for {g.name}: nothing is held)")
        names = {p.id: p.name for p in repo.players(session, g)}
        rows = desk_press.queue(session, g, everything)
        table = Table("id", "turn", "from", "signed", "status", "text")
        for item in rows:
            table.add_row(str(item.id), str(item.turn_number), names.get(item.player_id, "?"),
                          item.signed, item.status, item.text)
    console.print(table if rows else "No announcements waiting.")


def _decide(app: App, game_name: str, item_id: int, approve: bool, reason: str,
            actor: str | None) -> None:
    who = app.who(actor)
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        item = desk_press.decide(session, g, item_id, approve, who, reason)
        audit.record(session, "press.approve" if approve else "press.reject", reason, who,
                     game=g, turn_number=item.turn_number, detail=f"#{item.id}: {item.text}")
    console.print(f"Announcement {item_id} {'approved' if approve else 'rejected'}.")


@press.command("approve")
@click.argument("game_name", metavar="GAME")
@click.argument("item_id", metavar="ID", type=int)
@desk
@pass_app
def press_approve(app: App, game_name: str, item_id: int, reason: str,
                  actor: str | None) -> None:
    """Print announcement ID in the next gazette.

    \b
    moderator press approve paris 12 --reason "in character, no libel"
    """
    _decide(app, game_name, item_id, True, reason, actor)


@press.command("reject")
@click.argument("game_name", metavar="GAME")
@click.argument("item_id", metavar="ID", type=int)
@desk
@pass_app
def press_reject(app: App, game_name: str, item_id: int, reason: str,
                 actor: str | None) -> None:
    """Do not print announcement ID.

    \b
    moderator press reject paris 13 --reason "out of character"
    """
    _decide(app, game_name, item_id, False, reason, actor)
