"""Every data/engarde table loads; validation reports every problem at once."""

from __future__ import annotations

import copy

import pytest

from moderator.games.base import TableError
from moderator.games.engarde import ENGINE
from tests.engarde.conftest import raw_tables


def test_every_data_file_loads_and_has_provenance() -> None:
    raw = raw_tables()
    tables = ENGINE.load_tables(raw)
    assert next(c.name for c in tables.clubs) == "Bothwell's"
    for stem, data in raw.items():
        assert data["meta"]["provenance"] in ("rulebook", "sourced", "PROPOSED"), stem
        assert data["meta"]["source"], stem


def test_toady_table_matches_the_rulebook() -> None:
    """EG §I Toady table."""
    tables = ENGINE.load_tables(raw_tables())
    assert [tables.toady_sp(d) for d in (0, 3, 4, 6, 7, 8, 9, 10, 11, 20)] == \
        [1, 1, 0, 0, -1, -1, -2, -2, -3, -3]


def test_validation_reports_every_problem() -> None:
    raw = copy.deepcopy(raw_tables())
    raw["clubs"]["club"][0]["dues"] = "thirty"
    raw["clubs"]["club"][1]["divisor"] = 0
    raw["birth"]["class"][0]["faces"] = [1]          # face 2 now uncovered
    raw["housing"]["area"][0]["min_type"] = "castle"
    raw["theatre"]["meta"]["provenance"] = "guess"
    del raw["calendar"]
    with pytest.raises(TableError) as info:
        ENGINE.load_tables(raw)
    problems = info.value.problems
    joined = "\n".join(problems)
    assert "clubs.club[0]: dues must be an integer" in joined
    assert "clubs.club[1]: divisor must be positive" in joined
    assert "birth.class: face 2 is covered 0 times" in joined
    assert "min_type 'castle' is not a housing type" in joined
    assert "theatre.meta: provenance" in joined
    assert "calendar: file missing" in joined
    assert len(problems) >= 6


def test_society_tables_report_every_problem() -> None:
    """EG §L/§Q/§S tables: provenance per section and bad rows are all reported."""
    raw = copy.deepcopy(raw_tables())
    raw["courting"]["row"][1]["min_diff"] = -4         # gap after -6
    raw["mistresses"]["boredom"]["provenance"] = "hunch"
    raw["mistresses"]["generation"]["sl"] = "three dice"
    raw["influence"]["bribe"].pop()                    # class 9 missing
    raw["family"]["outcome"][-1]["max"] = 99
    del raw["loans"]
    with pytest.raises(TableError) as info:
        ENGINE.load_tables(raw)
    joined = "\n".join(info.value.problems)
    for expected in ("courting.row[1]: min_diff should be -5",
                     "mistresses.boredom: provenance must be one of",
                     "mistresses.generation: sl must be a dice expression",
                     "influence.bribe: classes must run 1..9",
                     "family.outcome: the d100 rows must end at 100",
                     "loans: file missing"):
        assert expected in joined, expected
