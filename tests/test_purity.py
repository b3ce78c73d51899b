"""Engines are pure: moderator/games imports no database, mail, template or scheduler code."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "moderator" / "games"
FORBIDDEN = (
    "sqlmodel", "sqlalchemy", "alembic", "jinja2", "markdown", "email", "smtplib", "imaplib",
    "imapclient", "mailbox", "apscheduler", "random", "moderator.store", "moderator.intake",
    "moderator.publish", "moderator.transport", "moderator.turns", "moderator.cli",
    "moderator.config", "moderator.tables", "moderator.admin",
)


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def offending(names: set[str]) -> set[str]:
    return {n for n in names for f in FORBIDDEN if n == f or n.startswith(f + ".")}


def test_game_engines_import_no_io_modules() -> None:
    files = sorted(GAMES.rglob("*.py"))
    assert len(files) > 5, "the engines should be here"
    problems = {str(f.relative_to(ROOT)): offending(imported_modules(f)) for f in files}
    assert {f: bad for f, bad in problems.items() if bad} == {}


def test_the_purity_check_catches_an_io_import(tmp_path: Path) -> None:
    """The test above can fail: a module importing sqlmodel is caught."""
    sample = tmp_path / "bad.py"
    sample.write_text("import random\nfrom sqlmodel import Session\nimport moderator.dice\n")
    assert offending(imported_modules(sample)) == {"random", "sqlmodel"}
