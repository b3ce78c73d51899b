"""docs/rules-coverage.md stays true for Down with the King: every rule row is done, and
every test it names exists (DEVELOPERS.md: section → status → tests)."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"


def _dwtk_rows() -> list[list[str]]:
    text = DOC.read_text()
    section = text[text.index("# Down with the King rules coverage"):
                   text.index("# En Garde! rules coverage")]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]
             for row in rows[1:] if not set(row) <= set("|-: ")]
    for before, row in pairwise(cells):
        if row[3].strip("() ").startswith("same"):  # "(same)": the row above's tests
            row[3] = before[3]
    return cells


def _named_tests(cell: str) -> list[tuple[str, str | None]]:
    """``T: test_a::test_x, ::test_y, test_b (9 cases)`` -> [(file, test)...]."""
    out: list[tuple[str, str | None]] = []
    current = None
    for token in re.findall(r"(test_\w+)?::(test_\w+)|\b(test_\w+)\b", cell):
        file_, test, alone = token
        if file_:
            current = file_
            out.append((file_, test))
        elif test and current:
            out.append((current, test))
        elif alone:
            current = alone
            out.append((alone, None))
    return out


def test_every_rule_row_is_done_and_names_tests() -> None:
    rows = _dwtk_rows()
    assert len(rows) > 100
    for rule, status, _notes, tests in rows:
        assert status == "done", rule
        assert _named_tests(tests), f"{rule}: no test named"


def test_every_named_test_exists() -> None:
    missing = []
    for rule, _status, _notes, tests in _dwtk_rows():
        for file_, test in _named_tests(tests):
            path = next((p for p in (ROOT / "tests" / "dwtk" / f"{file_}.py",
                                     ROOT / "tests" / f"{file_}.py") if p.exists()), None)
            if path is None:
                missing.append(f"{rule}: {file_}")
            elif test is not None and f"def {test}(" not in path.read_text():
                missing.append(f"{rule}: {file_}::{test}")
    assert missing == []
