"""Issue 5's property test: 200 seeded games (seeds 1-200, 2-6 players varying with the
seed) of 30 turns with random legal orders; after every turn IP and PP are never negative
(34.3, 35.3), each faction is within its PP limit (35.4), Monarch's Support is a multiple
of 5 in 0-120 (32.1), one holder per office and one office per holder (16.2), no dead
character acts or holds anything (31), and the 120 Event cards are accounted for (hands +
deck + discards + in play + removed; 2.1.4).

The invariants are `invariants.check` on the state after each turn (shared with
test_games.py through tests/dwtk/games.py).  The JSON round trip and rendering are not
repeated here (test_games.py covers them on 24 games), and each player sends his reaction
orders once and lets them stand (resending them every turn makes the engine's duplicate
check quadratic and the run twice as slow), and the games run on the engine's frozen values
from turn to turn (`Batching`, no JSON between turns), to keep the 6,000 turns cheap.
"""

from __future__ import annotations

import pytest

from moderator.games.capabilities import StateTurn
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.state import Character, GameState
from tests.dwtk.games import AfterTurn, play, players_for

TURNS = 30
# Events in which a character of the acting player does something (args["character"]).
ACTING = frozenset(e.value for e in (EventId.TITLE_ACQUIRED, EventId.COUNSELOR_MADE,
                                     EventId.HENCHMAN_MADE, EventId.RECRUITED,
                                     EventId.TRAVELLED))


def _dead(c: Character) -> bool:
    return not c.alive or c.face_down_until is not None


def _no_dead_actor(seed: int) -> AfterTurn:
    def after_turn(n: int, before: GameState, result: StateTurn[GameState]) -> None:
        for e in result.events:
            cid = e.args.get("character")
            if e.id in ACTING and cid is not None:
                c = before.characters.get(int(cid)) if str(cid).isdigit() else None
                assert c is None or not _dead(c), (
                    f"seed {seed}, turn {n}: dead character {cid} acts ({e.id})")
    return after_turn


@pytest.mark.parametrize("seed", range(1, 201))
def test_random_game_keeps_every_invariant(seed: int) -> None:
    play(seed, players_for(seed), TURNS, shuffle=True, resend=False,
         roundtrip=False,
         after_turn=_no_dead_actor(seed))
