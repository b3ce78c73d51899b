"""docs/rules-coverage.md stays true for Fief: England: every numbered section of the
rulebook has a row with a status; done and partial rows name tests, and they exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"
RULES = Path("/work/shared/rules/fief-england.txt")
STATUSES = ("done", "partial", "not yet")


def _rows() -> list[list[str]]:
    text = DOC.read_text()
    section = text[text.index("# Fief: England rules coverage"):]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in row.strip().strip("|").split("|")]
            for row in rows[1:] if not set(row) <= set("|-: ")]


def _named(cell: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    current = None
    for file_, test, alone in re.findall(r"(test_\w+)?::(test_\w+)|\b(test_\w+)\b", cell):
        if file_:
            current = file_
            out.append((file_, test))
        elif test and current:
            out.append((current, test))
        elif alone:
            current = alone
            out.append((alone, None))
    return out


def test_every_row_has_a_status_and_done_rows_name_tests() -> None:
    rows = _rows()
    assert len(rows) > 90
    for rule, status, _notes, tests in rows:
        assert status in STATUSES, rule
        if status != "not yet":
            assert _named(tests), f"{rule}: no test named"


def test_every_named_test_exists() -> None:
    missing = []
    for rule, _status, _notes, tests in _rows():
        for file_, test in _named(tests):
            path = ROOT / "tests" / "fief" / f"{file_}.py"
            if not path.exists():
                missing.append(f"{rule}: {file_}")
            elif test is not None and f"def {test}(" not in path.read_text():
                missing.append(f"{rule}: {file_}::{test}")
    assert missing == []


def test_every_numbered_section_of_the_rulebook_has_a_row() -> None:
    if not RULES.exists():   # the shared rulebook is outside the repository
        return
    sections = set(re.findall(r"^(\d+\.\d+) ", RULES.read_text(), re.M))
    assert len(sections) == 95
    assert sections <= {r[0] for r in _rows()}
