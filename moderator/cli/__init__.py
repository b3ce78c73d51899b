"""The GM's command line: ``moderator [--config PATH] COMMAND ...``.

Thin on purpose: each command parses its arguments, calls one service function and
prints the result.  Mail queued by a command is delivered at its end (``--no-send``
keeps it queued), by the configured transport, unless a running `moderator serve`
owns the outbox.  One module per command group:

* `games` (game, with the desk's pause|resume|settings, and decide, log, panic), `players`
  (player, with act-as|replace|eject|absence), `mail` (inbox, outbox), `orders` (orders,
  with accept-late), `turns` (turn, with process|preview|rollback|rollforward),
  `newsletters` (newsletter with resend, state with amend), `deadlines` (deadline, with
  extend), `press` (press queue|approve|reject), `service` (serve), `status`
  (status, its many-games summary read through sqlite3), `demo` (demo), `backup`
  (backup create|verify|restore);
  `app` holds what they share.  Every GM action that changes a game is audited, with
  ``--reason``.
"""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import click

from moderator import __version__
from moderator.cli.app import App, console, styled

__all__ = ["App", "cli", "main"]

# Each command: its module and name, and the first line of its help (what `--help`
# lists).  A command's module is imported only when the command runs, so `--help` and
# `status` do not pay for every command's imports (tests/speed checks these lines match
# the commands' own help).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "game": ("games", "game", "Games: create, inspect, pause, resume and end them; write to "
             "their players."),
    "player": ("players", "player", "Players: sign them up, approve requests, replace, eject, "
               "passwords, absences."),
    "inbox": ("mail", "inbox", "Incoming mail: process the inbox, prune the spool."),
    "orders": ("orders", "orders", "Orders received."),
    "turn": ("turns", "turn", "Turns: preview, run, rerun, roll back and forward, inspect."),
    "newsletter": ("newsletters", "newsletter", "Published gazettes and turn sheets."),
    "state": ("newsletters", "state", "Game state."),
    "outbox": ("mail", "outbox", "Outgoing mail."),
    "deadline": ("deadlines", "deadline",
                 "Deadlines: one-off dates or a recurring rule, in the game's time zone."),
    "serve": ("service", "serve", "Run the service: read mail, send mail, and act at every "
              "deadline (until SIGTERM)."),
    "status": ("status", "status", "Games, deadlines, who has sent orders, the outbox, and "
               "the service's last activity."),
    "demo": ("demo", "demo", "Run a game by email on local Maildirs and show where to look:"
             " an En Garde! month, or (--kind) the deal and a turn of Down with the King, the"
             " muster and a round of Fief: England."),
    "panic": ("games", "panic",
              "Stop ALL processing on this host at once (or, with --off, resume it)."),
    "log": ("games", "log", "The audit trail of GAME: every GM action, who, when and why."),
    "decide": ("games", "decide", "Record a GM decision KEY = VALUE for GAME's next run (the "
               "rules' default applies without one; the turn sheet says which applied)."),
    "press": ("press", "press",
              "Announcements held for the GM (when the game's press_moderation is on)."),
    "site": ("site", "site", "The public archive as a static site."),
    "backup": ("backup", "backup", "Back the host up into one file, check a backup, restore "
               "one."),
    "init": ("init", "init",
             "Write a commented config.toml (every setting with its default) at PATH."),
}


class LazyGroup(click.Group):
    """A group whose commands are imported when used (`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attr, _help = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(f"moderator.cli.{module}"), attr)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from `COMMANDS`, without importing any command."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows: list[tuple[str, str]] = []
        for name in names:
            text = COMMANDS[name][2] if name in COMMANDS and name not in self.commands \
                else self.commands[name].get_short_help_str(limit)
            rows.append((name, textwrap.shorten(text, max(limit, 20), placeholder="...")))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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


def _expected_errors() -> tuple[type[BaseException], ...]:
    """The errors shown as one red line (imported only once one has happened)."""
    from moderator.desk import admin
    from moderator.settings.config import ConfigError
    from moderator.settings.deadline_rule import ScheduleError
    from moderator.store import repo
    from moderator.store.audit import AuditError
    from moderator.store.backup.manifest import BackupError
    from moderator.store.guard import AlreadyRunning
    from moderator.store.host import HostStopped
    from moderator.turn.run import TurnError

    return (ConfigError, repo.NotFound, admin.AdminError, TurnError, ScheduleError,
            AuditError, HostStopped, AlreadyRunning, BackupError, KeyError)


def main() -> None:
    """The console script: expected errors as one red line (exit 2), never a traceback."""
    # Everything the moderator writes (the database, the spool, the archive, the key file)
    # holds players' mail or secrets: private to the moderator's user (files 0600, 0700).
    os.umask(0o077)
    try:
        cli(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        sys.exit(1)
    except Exception as exc:
        if not isinstance(exc, _expected_errors()):
            raise
        console.print(styled("[red]error:[/] {exc}", exc=exc))
        sys.exit(2)


def __getattr__(name: str) -> Any:
    """The command modules as attributes (``moderator.cli.games``), imported on use."""
    if name in {module for module, _attr, _help in COMMANDS.values()} | {"app"}:
        return importlib.import_module(f"moderator.cli.{name}")
    raise AttributeError(name)
