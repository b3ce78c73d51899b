"""The GM's command line, driven through click's runner against a real store."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from moderator.cli import cli
from moderator.cli.app import styled
from moderator.transport.maildir import open_maildir

from support import order_mail, write_config


@pytest.fixture
def run(tmp_path: Path):  # type: ignore[no-untyped-def]
    config = write_config(tmp_path)
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True) -> str:
        result = runner.invoke(cli, ["--config", str(config), *args], catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result.output

    invoke.folder = tmp_path  # type: ignore[attr-defined]
    return invoke


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    # Through list_commands/get_command, as click itself does: the top group is lazy
    # (`LazyGroup`), so its `commands` dict is empty until a command is used.
    found = [prefix]
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            found += _commands(command, (*prefix, name))
        else:
            found.append((*prefix, name))
    return found


def test_the_help_walk_reaches_every_command() -> None:
    """The walk below sees the lazy group's commands and their subcommands."""
    paths = _commands(cli)
    assert ("turn", "run") in paths and ("player", "add") in paths and len(paths) > 40


@pytest.mark.parametrize("path", _commands(cli))
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output and len(result.output.splitlines()) > 3


def test_a_month_through_the_cli(run) -> None:  # type: ignore[no-untyped-def]
    assert "Created engarde game paris" in run("game", "new", "paris", "--kind", "engarde",
                                               "--seed", "7", "--deadline", "2030-12-12 18:00")
    run("player", "add", "paris", "jacques@lyon.example", "--name", "Jacques de Lyon",
        "--password", "rapier")
    run("player", "add", "paris", "cyrano@bergerac.example", "--name", "Cyrano de Bergerac",
        "--password", "panache")
    assert "jacques@lyon.example" in run("player", "list", "paris")
    assert "may now send orders" in run("player", "address", "paris", "jacques@lyon.example",
                                        "jacques@work.example")
    assert "paris" in run("game", "list")

    inbox = open_maildir(run.folder / "mail" / "moderator")
    inbox.add(order_mail("jacques@lyon.example", "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"))
    assert "accepted" in run("inbox", "process")
    assert "PRACTICE" in run("orders", "show", "paris").upper()
    assert "v1" in run("game", "show", "paris")

    assert "Ran turn 1 (April 1625)" in run("turn", "run", "paris", "--yes")
    assert "byte-identical" in run("turn", "rerun", "paris", "1")
    shown = json.loads(run("turn", "show", "paris", "1", "--json"))
    assert shown["label"] == "April 1625" and shown["events"]
    assert all("text" in roll for roll in shown["dice"])
    assert "Le Sport de Paris" in run("newsletter", "show", "paris", "--turn", "1")
    assert "<html" in run("newsletter", "show", "paris", "--format", "html")
    sheet = run("newsletter", "show", "paris", "--player", "jacques@lyon.example",
                "--format", "txt")
    assert "Jacques de Lyon" in sheet
    state = json.loads(run("state", "show", "paris"))
    assert "jacques-de-lyon" in json.dumps(state)


def test_an_ejected_players_orders_are_not_shown_as_standing(run) -> None:  # type: ignore[no-untyped-def]
    """The turn runs without an ejected player's orders; `orders show`, `status` and `game
    show` listed them as standing ("the ones the turn will run"), and counted him."""
    run("game", "new", "paris", "--kind", "engarde", "--seed", "7")
    run("player", "add", "paris", "bo@lyon.example", "--name", "Bo", "--password", "x")
    orders = run.folder / "bo.txt"
    orders.write_text("WEEK 1: PRACTICE rapier\n", encoding="utf-8")
    run("player", "act-as", "paris", "bo@lyon.example", str(orders), "--reason", "phoned in")
    assert "Bo, April 1625, v1 stands" in run("orders", "show", "paris")
    run("player", "add", "paris", "al@lyon.example", "--name", "Al", "--password", "y")
    run("player", "eject", "paris", "bo@lyon.example", "--reason", "cheat")
    assert "Bo" not in run("orders", "show", "paris")
    # status, game show and game list count him out too (1 of 2 players had sent orders).
    status = run("status", "paris")
    assert "Orders for April 1625: 0 of 1 players" in status
    assert re.search(r"Bo +│ bo@lyon.example +│ removed", status)
    assert re.search(r"bo@lyon.example +│ bo +│ removed", run("game", "show", "paris"))
    assert re.search(r"paris +│ engarde .*│ 1 +│", run("game", "list"))
    assert "Bo was removed from paris: no orders of his count" in run(
        "orders", "show", "paris", "--player", "bo@lyon.example")


def test_names_in_tables_are_shown_as_written_never_as_markup(run) -> None:  # type: ignore[no-untyped-def]
    """A player's name is text: rich must not read "[b]…[/b]" in it as a style (it
    dropped the brackets and styled the name), nor the settings table's title
    "[games.paris]" as a tag (it dropped the title)."""
    run("game", "new", "paris", "--kind", "engarde", "--seed", "7")
    run("player", "add", "paris", "bo@lyon.example", "--name", "[b]Bo[/b]", "--password", "x")
    assert "[b]Bo[/b]" in run("player", "list", "paris")
    assert "[b]Bo[/b]" in run("game", "show", "paris")
    assert "[games.paris]" in run("game", "settings", "paris")


def test_names_in_lines_are_text_too(run) -> None:  # type: ignore[no-untyped-def]
    """The console reads no markup: a name with a stray closing tag "[/]" made rich raise
    MarkupError in `orders show` (the line printed "[bold]{name}[/]" with the name as
    markup), and "[i]" styled the rest of the line; the styled pieces are our own tags
    only (`styled`), and a name is printed as written: no emoji for ":skull:", and its
    last backslash (before our closing tag) neither lost nor doubled."""
    name = "Bo [/] [i]de Lyon :skull: \\"
    run("game", "new", "paris", "--kind", "engarde", "--seed", "7")
    run("player", "add", "paris", "bo@lyon.example", "--name", name, "--password", "x")
    assert f"{name}: no orders for April 1625" in run("orders", "show", "paris")
    assert name in run("status", "paris")


def test_an_error_naming_what_the_gm_typed_is_printed_as_written(tmp_path: Path) -> None:
    """`main` prints an expected error after "error:"; the error's text (here a game name
    with markup in it) is text, never a style or a crash."""
    config = write_config(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", "from moderator.cli import main; main()",
         "--config", str(config), "game", "show", "[/][b]nowhere"],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert "error:" in result.stdout and "[/][b]nowhere" in result.stdout


@pytest.mark.parametrize("template, values, plain, bold", [
    ("[bold]{n}[/]: x", {"n": "Bo\\"}, "Bo\\: x", "Bo\\"),
    ("[red]error:[/] {n}", {"n": "C:\\temp\\"}, "error: C:\\temp\\", ""),
    ("{a}{b}", {"a": "x\\", "b": "[b]y"}, "x\\[b]y", ""),
    ("[bold]{n}[/]", {"n": "a\\[b]z [/] :skull: [i]"}, "a\\[b]z [/] :skull: [i]",
     "a\\[b]z [/] :skull: [i]"),
])
def test_styled_values_read_back_as_written(template: str, values: dict[str, str],
                                            plain: str, bold: str) -> None:
    """`styled`: our tags style the line; a value is its own text, whatever it holds
    (tags, escapes, a backslash before one of our tags or at the end, emoji codes)."""
    line = styled(template, **values)
    assert line.plain == plain
    assert "".join(line.plain[s.start:s.end] for s in line.spans if s.style == "bold") == bold


def test_control_characters_in_a_name_reach_the_terminal_as_text(run) -> None:  # type: ignore[no-untyped-def]
    """A terminal escape in text the console prints (a name, a subject, an error quoting
    either) is shown as its escape, never sent raw: ESC [2J cleared the GM's screen,
    ESC ]0; retitled his window, the C1 CSI (0x9b) and a bidi override reordered the line.
    In lines, in tables and in the styled values of `styled` alike."""
    name = "Bo\x1b[2J\x1b]0;pwned\x07\x9b31m\u202eX"
    run("game", "new", "paris", "--kind", "engarde", "--seed", "7")
    run("player", "add", "paris", "bo@lyon.example", "--name", name, "--password", "x")
    for output in (run("player", "list", "paris"), run("orders", "show", "paris"),
                   run("status", "paris")):
        assert not any(c in output for c in "\x1b\x07\x9b\u202e"), output
        assert "\\x1b" in output  # a table may wrap the rest
    assert "Bo\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u202eX: no orders" in \
        run("orders", "show", "paris")


def test_inbox_process_shows_the_game_of_a_refused_message(run) -> None:  # type: ignore[no-untyped-def]
    """A refusal whose game is known (a wrong password for a game's player) records it on
    the stored message, so the table shows the game, not "-"."""
    run("game", "new", "paris", "--kind", "engarde", "--seed", "7")
    run("player", "add", "paris", "jacques@lyon.example", "--name", "Jacques de Lyon",
        "--password", "rapier")
    inbox = open_maildir(run.folder / "mail" / "moderator")
    inbox.add(order_mail("jacques@lyon.example", "PASSWORD: sabre\nWEEK 1: PRACTICE rapier\n"))
    shown = run("inbox", "process")
    row = next(line for line in shown.splitlines() if "jacques@lyon.example" in line)
    assert "refused" in row and " paris " in row, shown
