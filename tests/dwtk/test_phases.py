"""The turn table (DWTK 4; phases.py): its priorities are unique and ascending, and
`run` takes the phases by priority."""

from __future__ import annotations

from itertools import pairwise

import pytest

from moderator.games.dwtk import phases
from moderator.games.dwtk.state import Phase
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import court, dealt


def test_priorities_are_unique_and_ascending() -> None:
    priorities = [step.priority for step in phases.PHASES]
    assert len(set(priorities)) == len(priorities)
    assert all(a < b for a, b in pairwise(priorities))
    names = [step.name for step in phases.PHASES]
    assert len(set(names)) == len(names)
    assert names[:3] == ["reactions", "player_turns", "end_of_turn"]  # 14.1, 10-15, 37


def test_run_takes_the_phases_by_priority(monkeypatch: pytest.MonkeyPatch) -> None:
    """Listed out of order, the table still runs by priority (and 35.5 after each)."""
    c: Court = court(dealt())
    assert c.phase is not Phase.MUSTER
    ran: list[str] = []

    def step(priority: int, name: str) -> phases.Step:
        return phases.Step(priority, name, lambda _: ran.append(name))

    monkeypatch.setattr(phases, "PHASES", (step(30, "c"), step(10, "a"), step(20, "b")))
    phases.run(c)
    assert ran == ["a", "b", "c"]
