"""Engines are pure: moderator/games imports no database, mail, template or scheduler code."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "moderator" / "games"
FORBIDDEN = (
    "sqlmodel", "sqlalchemy", "alembic", "jinja2", "markdown", "email", "smtplib", "imaplib",
    "imapclient", "mailbox", "apscheduler", "random", "moderator.store", "moderator.intake",
    "moderator.publish", "moderator.transport", "moderator.turn.run", "moderator.cli",
    "moderator.settings.config", "moderator.settings.tables", "moderator.desk.admin",
)


def _package_of(path: Path, root: Path) -> list[str]:
    """``moderator.games.engarde`` for moderator/games/engarde/x.py (to resolve ``from ..``)."""
    return list(path.relative_to(root).with_suffix("").parts[:-1])


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            # Resolve relative imports, and count `from pkg import name` as pkg.name
            # too: `from moderator import store` imports moderator.store.
            package = _package_of(path, root)
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
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
    assert offending(imported_modules(sample, root=tmp_path)) == {
        "random", "sqlmodel", "sqlmodel.Session"}


def test_the_purity_check_catches_package_and_relative_imports(tmp_path: Path) -> None:
    """`from moderator import store` and `from ...store import repo` are caught as well."""
    sample = tmp_path / "moderator" / "games" / "engarde" / "probe.py"
    sample.parent.mkdir(parents=True)
    sample.write_text("from moderator import store\nfrom ...store import repo\n")
    found = offending(imported_modules(sample, root=tmp_path))
    assert {"moderator.store", "moderator.store.repo"} <= found
