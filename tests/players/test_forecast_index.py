"""The forecast index (`forecast.index`) walks the characters once: each walk is
O(world), and intake builds an index for each open turn's state.  What the index holds is
checked by tests/players/test_forecast_neighbourhood.py (the neighbourhood's forecast is
the whole world's) and tests/intake/test_turnstate.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from moderator.games.engarde import forecast
from tests.players.test_forecast_neighbourhood import MONTHS


class _Walked(Mapping[str, Any]):
    """The characters of a state, counting the walks over them."""

    def __init__(self, characters: dict[str, Any]) -> None:
        self.characters, self.walks = characters, 0

    def __getitem__(self, key: str) -> Any:
        return self.characters[key]

    def __iter__(self) -> Iterator[str]:
        self.walks += 1
        return iter(self.characters)

    def __len__(self) -> int:
        return len(self.characters)


def test_the_index_walks_the_characters_once() -> None:
    _, state, _ = MONTHS[-1]
    walked = _Walked(state["characters"])
    world = forecast.index({**state, "characters": walked})
    assert walked.walks == 1
    plain = forecast.index(state)
    for part in dataclasses.fields(forecast.World):
        if part.name != "state":
            assert getattr(world, part.name) == getattr(plain, part.name), part.name
