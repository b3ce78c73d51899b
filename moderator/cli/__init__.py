"""The GM's command line: ``moderator [--config PATH] COMMAND ...``.

Thin on purpose: each command parses its arguments, calls one service function and
prints the result.  Mail queued by a command is delivered at its end (``--no-send``
keeps it queued), by the configured transport, unless a running `moderator serve`
owns the outbox.  One module per command group:

* `games` (game, with the desk's pause|resume|settings, and decide, log, panic), `players`
  (player, with act-as|replace|eject|absence), `mail` (inbox, outbox), `orders` (orders,
  with accept-late), `turns` (turn, with process|preview|rollback|rollforward),
  `newsletters` (newsletter with resend, state with amend), `deadlines` (deadline, with
  extend), `press` (press queue|approve|reject), `service` (serve, status), `site` (site
  build), `init` (init), `demo` (demo); `app` holds what they share.  Every GM action that
  changes a game is audited, with ``--reason``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from moderator import __version__
from moderator.cli import deadlines as deadline_commands
from moderator.cli import (
    demo,
    games,
    init,
    mail,
    newsletters,
    orders,
    players,
    press,
    service,
    site,
    turns,
)
from moderator.cli.app import App, console
from moderator.desk import admin
from moderator.settings.config import ConfigError
from moderator.settings.deadline_rule import ScheduleError
from moderator.store import repo
from moderator.store.audit import AuditError
from moderator.store.guard import AlreadyRunning
from moderator.store.host import HostStopped
from moderator.turn.run import TurnError

__all__ = ["App", "cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Settings file (default: $MODERATOR_CONFIG, else ./config.toml, else "
         "~/.config/moderator/config.toml, else /etc/xdg/moderator/config.toml).",
)
@click.version_option(__version__, "--version", "-V", package_name="moderator",
                      message="moderator %(version)s")
@click.option("--as", "actor", metavar="NAME",
              help="Who acts, for the audit log of GM actions (default: the OS user).")
@click.pass_context
def cli(ctx: click.Context, config_path: Path | None, actor: str | None) -> None:
    """moderator: play-by-email games of intrigue, moderated."""
    ctx.obj = App(config_path, actor)


for _command in (
    games.game, players.player, mail.inbox, orders.orders, turns.turn,
    newsletters.newsletter, newsletters.state, mail.outbox, deadline_commands.deadline,
    service.serve, service.status, demo.demo, games.panic, games.log, games.decide,
    press.press, site.site, init.init,
):
    cli.add_command(_command)


def main() -> None:
    """The console script: expected errors as one red line (exit 2), never a traceback."""
    try:
        cli(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        sys.exit(1)
    except (ConfigError, repo.NotFound, admin.AdminError, TurnError, ScheduleError,
            AuditError, HostStopped, AlreadyRunning, KeyError) as exc:
        console.print(f"[red]error:[/] {exc}", markup=True)
        sys.exit(2)
