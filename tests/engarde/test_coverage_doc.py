"""docs/rules-coverage.md stays true for En Garde!: every lettered section of the Elan
rulebook (EG §A–S) has a row with a status, and every test a row names exists.

A row names tests as `test_file.py`, `test_file.py::test_name`, `::test_name` (the file
named before it in the same cell) or `test_file.py::test_prefix…` (every test whose name
starts so)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"
TESTS = ROOT / "tests" / "engarde"
RULES = Path("/work/shared/rules/en-garde-elan.txt")
STATUSES = ("done", "partial", "not yet")
CELL_BORDER = re.compile(r"(?<!\\)\|")  # a pipe written \| stays in its cell
NAMED = re.compile(r"`(test_\w+\.py)?(?:::(test_\w+)(…)?)?`")


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("# En Garde! rules coverage")
    return text[start:text.index("# Fief: England rules coverage")]


def _rows() -> list[list[str]]:
    rows = [line for line in _section().splitlines() if line.startswith("| ")]
    cells = [[c.strip() for c in CELL_BORDER.split(row.strip().strip("|"))] for row in rows]
    assert all(len(row) == 5 for row in cells), "a row with a stray '|'"
    return [row for row in cells if row[0] not in ("§", "Ref") and set(row[0]) != {"-"}]


def _named(cell: str) -> list[tuple[str, str | None, bool]]:
    """(file, test or None, prefix?) for each test the cell names, in order."""
    named: list[tuple[str, str | None, bool]] = []
    current: str | None = None
    for file_, test, ellipsis in NAMED.findall(cell):
        current = file_ or current
        if current is None:
            continue
        named.append((current, test or None, bool(ellipsis)))
    return named


def _exists(file_: str, test: str | None, prefix: bool) -> bool:
    path = TESTS / file_
    if not path.exists():
        return False
    if test is None:
        return True
    source = path.read_text(encoding="utf-8")
    return (f"def {test}" if prefix else f"def {test}(") in source


def test_every_lettered_section_has_a_row_with_a_status_and_tests() -> None:
    """EG §A–S: one row each, a known status, and at least one test named."""
    rows = {row[0]: row for row in _rows()}
    letters = [chr(c) for c in range(ord("A"), ord("S") + 1)]
    if RULES.exists():   # the shared rulebook lies outside the repository
        assert re.findall(r"^([A-Z])\.$", RULES.read_text(encoding="utf-8"), re.M) == letters
    assert [letter for letter in letters if letter not in rows] == []
    for letter in letters:
        _topic, status, _implemented, tests = rows[letter][1:]
        assert status in STATUSES, letter
        if status != "not yet":
            assert _named(tests), f"§{letter}: no test named"


def test_every_named_test_exists() -> None:
    """A renamed or deleted test leaves no row pointing at nothing."""
    missing = [f"{row[0]}: {file_}{'::' + test if test else ''}"
               for row in _rows() for file_, test, prefix in _named(row[4])
               if not _exists(file_, test, prefix)]
    assert missing == []


def test_the_check_sees_a_missing_test() -> None:
    """The check itself can fail: a name that is not there is reported."""
    assert _exists("test_status.py", None, False)
    assert not _exists("test_status.py", "test_no_such_test", False)
    assert not _exists("test_no_such_file.py", None, False)
    assert _named("`test_a.py::test_b`, `::test_c…`") == [
        ("test_a.py", "test_b", False), ("test_a.py", "test_c", True)]
