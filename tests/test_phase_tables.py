"""Declared turn orders are the running order (moderator.games.base `PhaseTable`).

Every registered engine exposes its phase tables as ``ENGINE.phases``; each must have
unique priorities written in ascending order, and `PhaseTable.run` must take the
phases by priority, so the numbers in a table are never labels the code ignores.
"""

from __future__ import annotations

import pytest

from moderator.games import find_engine, game_kinds
from moderator.games.base import Phase, PhaseTable


@pytest.mark.parametrize("kind", game_kinds())
def test_every_engine_declares_phase_tables_in_priority_order(kind: str) -> None:
    engine = find_engine(kind)
    tables = engine.phases
    assert tables, f"{kind} declares no phase table"
    for table in tables:
        assert isinstance(table, PhaseTable)
        assert table.problems() == [], table.problems()
        assert table.ordered() == table.phases
        names = [p.name for p in table.phases]
        assert len(set(names)) == len(names), f"{kind}: a phase name repeats"


def test_run_takes_phases_by_priority_not_by_position() -> None:
    ran: list[str] = []
    table = PhaseTable[list[str]]("t", (
        Phase(20, "b", lambda w: w.append("b")),
        Phase(10, "a", lambda w: w.append("a")),
        Phase(30, "c", lambda w: w.append("c")),
    ))
    table.run(ran)
    assert ran == ["a", "b", "c"]
    assert table.problems() == ["t: phases are not written in ascending priority"]


def test_a_repeated_priority_is_reported() -> None:
    def step(w: object) -> None:
        return None

    table = PhaseTable[object]("month", (Phase(10, "a", step), Phase(10, "b", step)))
    assert table.problems() == ["month: priority 10 of 'b' is 'a''s too"]


def test_en_garde_month_runs_its_declared_table() -> None:
    """EG §C–E: the month table is the engine's only one, income first and the next
    month's ladies last."""
    from moderator.games.engarde import ENGINE
    from moderator.games.engarde.phases import MONTH

    assert tuple(ENGINE.phases) == (MONTH,)
    names = [p.name for p in MONTH.ordered()]
    assert names[0] == "income" and names[-2:] == ["wives", "ladies"]
    assert names.index("prison") < names.index("wounds") < names.index("adultery") \
        < names.index("companionship") < names.index("status")
