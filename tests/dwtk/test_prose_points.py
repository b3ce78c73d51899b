"""DWTK 22 Scandal Table prose: a gain is never printed as a negative cost."""

from __future__ import annotations

import pytest

from tests.dwtk.conftest import EVENTS


@pytest.mark.parametrize(("pp", "ip", "said"), [
    (-2, -1, "costs 2 PP and 1 IP"),
    (-3, 0, "costs 3 PP"),
    (1, 0, "brings 1 PP"),
    (-1, 2, "costs 1 PP and brings 2 IP"),
    (0, 0, "dies down"),
])
def test_scandal_result_says_costs_or_brings(pp: int, ip: int, said: str) -> None:
    e = {"id": "scandal.result", "args": {"character": "12", "total": 7, "effects": [],
                                          "pp": pp, "ip": ip}}
    text = str(EVENTS.scandal_result(e, {"12": "Sir Drew"})).strip()
    assert text == f"The scandal about Sir Drew (rolled 7) {said}."
    assert "-" not in text
