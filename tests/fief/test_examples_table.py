"""docs/fief-examples.md stays true: the 56 worked examples and 20 FAQ answers of the
rulebook (fief-email.md §10) each have a row, every test a row names exists in tests/fief,
and its docstring cites the row's id (issue 17)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "fief-examples.md"

NUMBERED = ("5-1", "5-2", "5-3", "5-4", "5-5", "5-6", "6-1", "6-2", "6-3", "6-4", "6-5",
            "7-1", "7-2", "7-3", "7-4", "7-5", "7-6", "8-1", "8-2", "9-1", "9-2", "9-3",
            "10-1", "10-2", "10-3", "10-4", "10-5", "11-1", "13-1", "13-2", "13-3")
CONTINUATIONS = ("In Ex 5-1", "In Ex 5-2", "Ex 7-3 Continued")
IDS = ([f"Ex {n}" for n in NUMBERED] + list(CONTINUATIONS)
       + [f"U{i}" for i in range(1, 23)] + [f"F{i}" for i in range(1, 21)])


def _rows() -> list[tuple[str, str, list[tuple[str, str]]]]:
    rows = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or len(cells) != 3 or cells[0] == "Id":
            continue
        tests = re.findall(r"(test_\w+)::(test_\w+)", cells[2])
        rows.append((cells[0], cells[1], tests))
    return rows


def _docstrings(module: str) -> dict[str, str]:
    tree = ast.parse((ROOT / "tests" / "fief" / f"{module}.py").read_text())
    return {n.name: ast.get_docstring(n) or "" for n in tree.body
            if isinstance(n, ast.FunctionDef)}


def _cites(doc: str, id_: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(id_)}(?![\w-])", doc, re.IGNORECASE) is not None


def test_the_counts_are_the_specifications() -> None:
    assert len(NUMBERED) == 31 and len(IDS) == 76


def test_every_example_and_faq_answer_has_one_row() -> None:
    ids = [row[0] for row in _rows()]
    assert sorted(ids) == sorted(IDS)
    assert len(ids) == len(set(ids))


def test_every_row_names_a_test_that_exists_and_cites_the_id() -> None:
    wrong = []
    for id_, rule, tests in _rows():
        assert rule and tests, id_
        for module, name in tests:
            path = ROOT / "tests" / "fief" / f"{module}.py"
            doc = _docstrings(module).get(name) if path.exists() else None
            if doc is None:
                wrong.append(f"{id_}: {module}::{name} does not exist")
            elif not _cites(doc, id_):
                wrong.append(f"{id_}: {module}::{name} does not cite it")
    assert wrong == []


def test_every_test_citing_a_u_number_is_in_its_row() -> None:
    """A test whose name says u<n> is listed under U<n>: the names follow the spec's
    numbering (U1-U22 in the rulebook's text order)."""
    listed: dict[tuple[str, str], set[str]] = {}
    for id_, _rule, tests in _rows():
        for test in tests:
            listed.setdefault(test, set()).add(id_)
    stray = []
    for path in sorted((ROOT / "tests" / "fief").glob("test_rule_cases*.py")):
        for name in _docstrings(path.stem):
            found = re.match(r"test_u(\d+)_", name)
            if found and f"U{found[1]}" not in listed.get((path.stem, name), set()):
                stray.append(f"{path.stem}::{name}")
    assert stray == []
