"""The command lines the GM's documents show are commands that exist, with options that
exist: every ``moderator ...`` line in a code block of README.md and the deployment and
mail documents is resolved through the real command tree (each option it names must be
one of that command's, each argument count must fit), so a renamed or removed option
cannot leave an example behind that fails when pasted.  The same for the command lines
the moderator's own messages suggest (```moderator game resume paris```), which must
also give every option the command requires."""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import click
import pytest

from moderator.cli import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/deployment.md", "docs/gm-desk.md", "docs/site.md", "docs/outbox.md",
        "docs/imap-intake.md", "docs/fates-and-robots.md", "docs/mail-testing.md",
        "docs/dwtk-by-email.md", "docs/fief-by-email.md")
_BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
_ALTERNATIVES = re.compile(r"\b(\w+)(?:\|\w+)+")  # --format md|html|txt: the first
_OPERATORS = {"|", "||", "&&", ";", ">", ">>", "<", "&"}


def _invocation(line: str) -> list[str] | None:
    """The words after the ``moderator`` command word of one shell line, or None: the
    command word starts the line or follows ``sudo`` or an environment assignment
    (``journalctl -u moderator``, ``createuser moderator`` name a user, not the command)."""
    lexer = shlex.shlex(_ALTERNATIVES.sub(r"\1", line.replace("[", "").replace("]", "")),
                        posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:  # not a shell line (a quote in a TOML comment, a log line)
        return None
    for index, word in enumerate(words):
        before = words[index - 1] if index else ""
        if (word.rsplit("/", 1)[-1] == "moderator"
                and (index == 0 or before in ("sudo", "&&") or re.fullmatch(r"\w+=\S*", before))
                and not (index + 1 < len(words) and "=" in words[index + 1])):
            rest = words[index + 1:]
            ends = [i for i, w in enumerate(rest) if w in _OPERATORS]
            return rest[:ends[0]] if ends else rest
    return None


def _command_lines(text: str) -> list[str]:
    """The ``moderator ...`` invocations of the code blocks (continuation lines joined,
    comments and what follows a pipe or redirection cut off)."""
    found = []
    for block in _BLOCK.findall(text):
        for line in block.replace("\\\n", " ").splitlines():
            words = _invocation(line)
            if words is not None:
                found.append(shlex.join(words))
    return found


CASES = [(doc, line) for doc in DOCS
         for line in _command_lines((ROOT / doc).read_text(encoding="utf-8"))]
# The systemd units' ExecStart lines too.
CASES += [(unit.name, shlex.join(words)) for unit in sorted((ROOT / "contrib").glob("*.service"))
          for line in unit.read_text(encoding="utf-8").splitlines()
          if line.startswith("ExecStart=")
          and (words := _invocation(line.removeprefix("ExecStart="))) is not None]


def _resolve(words: list[str]) -> tuple[click.Command, list[str]]:
    """The (sub)command the words name, and the words left for it."""
    command: click.Command = cli
    ctx = click.Context(cli)
    while isinstance(command, click.Group) and words and not words[0].startswith("-"):
        found = command.get_command(ctx, words[0])
        assert found is not None, f"no command {words[0]!r} under {command.name!r}"
        command, words = found, words[1:]
    return command, words


def _check(line: str, *, complete: bool = False) -> None:
    words = shlex.split(line)
    while words and words[0].startswith("--") and words[0] in ("--config", "--as"):
        words = words[2:]  # the group's own options
    if not words or words[0] in ("--version", "-V", "--help"):
        return
    command, rest = _resolve(words)
    assert not isinstance(command, click.Group), f"{line!r} names a group, not a command"
    known = {name: p for p in command.params if isinstance(p, click.Option)
             for name in (*p.opts, *p.secondary_opts)}
    positional = [p for p in command.params if isinstance(p, click.Argument)]
    given: list[str] = []
    skip = False
    for word in rest:
        if skip:
            skip = False
            continue
        if word.startswith("--"):
            name = word.split("=")[0]
            assert name in known, f"{line!r}: {command.name} has no option {name}"
            option = known[name]
            skip = not option.is_flag and "=" not in word and not option.count
        elif word not in ("...", "…"):
            given.append(word)
    least = sum(1 for p in positional if p.required)
    most = sum(p.nargs if p.nargs > 0 else 99 for p in positional)
    assert least <= len(given) <= most, \
        f"{line!r}: {command.name} takes {least}..{most} arguments, not {given}"
    if complete:
        named = {word.split("=")[0] for word in rest if word.startswith("--")}
        for option in known.values():
            assert not option.required or named & set(option.opts), \
                f"{line!r}: {command.name} requires {option.opts[0]}"


def test_the_documents_show_commands() -> None:
    assert len(CASES) > 60  # the README's GM guide alone shows more


@pytest.mark.parametrize(("doc", "line"), CASES, ids=[f"{d}:{i}" for i, (d, _) in
                                                       enumerate(CASES)])
def test_a_documented_command_line_exists_with_its_options(doc: str, line: str) -> None:
    _check(line, complete=True)


_SUGGESTED = re.compile(r"`moderator ([^`]+)`")


def _message_texts(tree: ast.Module) -> list[str]:
    """The texts of a module's string literals but its docstrings, an f-string's fields
    written as a word (``x``)."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    parts: set[int] = set()
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts |= {id(v) for v in node.values}
            texts.append("".join(v.value if isinstance(v, ast.Constant) else "x"
                                 for v in node.values))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings and id(node) not in parts):
            texts.append(node.value)
    return texts


SUGGESTED = sorted({
    (path.relative_to(ROOT).as_posix(), _ALTERNATIVES.sub(r"\1", found.replace("[", "")
                                                           .replace("]", "")))
    for path in (ROOT / "moderator").rglob("*.py") if "migrations" not in path.parts
    for text in _message_texts(ast.parse(path.read_text(encoding="utf-8")))
    for found in _SUGGESTED.findall(text)
    if not found.startswith("x")})  # `moderator {command}`: whichever runs


@pytest.mark.parametrize(("where", "line"), SUGGESTED,
                         ids=[f"{w}:{i}" for i, (w, _) in enumerate(SUGGESTED)])
def test_a_command_line_a_message_suggests_runs_as_written(where: str, line: str) -> None:
    """A message that tells the GM what to type names a command (not a group) and, when it
    gives the arguments, every option the command requires.  `game pause` said
    `moderator game resume paris`, a stopped host `moderator panic --off` (both without
    their required --reason), `status --check` sent failed mail to `moderator outbox` (a
    group), a turn run's decisions to `moderator decide GAME KEY VALUE`."""
    command, rest = _resolve(shlex.split(line))
    if rest or isinstance(command, click.Group):  # else it names a command, as `moderator log`
        _check(line, complete=True)


def test_the_messages_suggest_commands() -> None:
    assert len(SUGGESTED) > 10


@pytest.mark.parametrize("line", ["game new paris --kind engarde --frobnicate 3",
                                  "turn rewind paris 2", "player add paris",
                                  "game show paris lyon"])
def test_a_wrong_command_line_is_caught(line: str) -> None:
    with pytest.raises(AssertionError):
        _check(line)
