"""Every reading the engine uses is written down: in data/dwtk/rules.toml [readings]
and in docs/dwtk-by-email.md (DWTK 36.5.2 and 6.1.2 were used but not documented)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READINGS = tomllib.loads((ROOT / "data" / "dwtk" / "rules.toml").read_text())["readings"]
DOC = (ROOT / "docs" / "dwtk-by-email.md").read_text()


@pytest.mark.parametrize(("name", "value", "rule"), [
    ("monarch_in_neutrals", "not_added", "36.5.2"),
    ("random_office_fill", "any_character", "6.1.2"),
])
def test_the_reading_is_recorded_and_documented(name: str, value: str, rule: str) -> None:
    assert READINGS[name] == value
    row = next((line for line in DOC.splitlines() if line.startswith(f"| {rule} ")), None)
    assert row is not None, rule
    assert f"`{name}`" in row
