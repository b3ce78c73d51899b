"""CLI start-up (issue 16, goal 5): `moderator --help` imports no command module and no
database library; the command list it prints is the commands' own help."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from moderator.cli import COMMANDS, cli


def test_help_imports_no_command_and_no_database_library() -> None:
    probe = ("import sys\nfrom moderator.cli import cli\n"
             "try:\n    cli(['--help'], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
             "heavy = sorted(m for m in sys.modules if m.startswith(('moderator.cli.games', "
             "'moderator.runners', 'moderator.store', 'sqlalchemy', 'sqlmodel', 'alembic', "
             "'jinja2', 'markdown')))\nprint('HEAVY', heavy)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert "HEAVY []" in out
    assert "status" in out and "Turns: preview, run, rerun, roll back and forward, inspect." in out


def test_the_listed_help_is_each_commands_own() -> None:
    for name, (_module, _attr, listed) in COMMANDS.items():
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None, name
        own = " ".join((command.help or "").split())
        assert own.startswith(listed), (name, listed, own)
    assert set(cli.list_commands(None)) == set(COMMANDS)  # type: ignore[arg-type]


def test_every_command_still_runs_through_the_lazy_group() -> None:
    result = CliRunner().invoke(cli, ["turn", "--help"])
    assert result.exit_code == 0 and "rerun" in result.output
