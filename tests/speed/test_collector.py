"""The collector paused around a turn's adjudication (issue 16, goal 2): the month's
growth past linear was CPython's collector walking the surviving objects again and
again (a 5,000-character month 6.4x a 1,000-character one; 4.6x with it paused)."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from moderator.games.base import TurnResult
from moderator.turn.collector import collector_paused
from moderator.turn.run import adjudicate


def test_the_collector_is_off_inside_and_back_on_after_even_on_an_error() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the inner one leaves it to the outer
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("the engine broke")
    assert gc.isenabled()


def test_a_collector_switched_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


class _Engine:
    def __init__(self) -> None:
        self.seen: list[bool] = []

    def adjudicate(self, state: Any, orders: Any, tables: Any, dice: Any) -> Any:
        self.seen.append(gc.isenabled())
        return TurnResult(state, ())


def test_a_turn_is_adjudicated_with_the_collector_paused() -> None:
    engine = _Engine()
    result = adjudicate(engine, None, 1, 1, {"x": 1}, {})  # type: ignore[arg-type]
    assert engine.seen == [False] and result.state == {"x": 1} and gc.isenabled()
