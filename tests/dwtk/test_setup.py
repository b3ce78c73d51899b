"""DWTK 1-3: players joining by email, the deal, the two-player variant."""

from __future__ import annotations

import pytest

from moderator.dice import Dice
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.invariants import check
from moderator.games.dwtk.state import GameState, Phase
from tests.dwtk.conftest import TABLES, dealt, muster, run


def test_new_game_has_george_and_catherine() -> None:
    """DWTK 3.5, 18.5: King George on the throne, married to Queen Catherine."""
    state = GameState.from_dict(muster(0))
    assert state.offices["monarch"] == "george"
    assert state.royals["george"].spouse == "catherine"
    assert ENGINE.turn_label(state.to_dict()) == "The court assembles"


def test_a_seventh_player_is_refused() -> None:
    """DWTK 1: two to six players."""
    state = muster(6)
    with pytest.raises(ValueError, match="at most 6"):
        ENGINE.add_character(state, "gus", "Gus", TABLES, Dice.for_turn(1, 0))


def test_one_player_cannot_start() -> None:
    """DWTK 1: the court waits for a second player; nothing is dealt."""
    result = run(muster(1))
    assert result.state["phase"] == "muster"
    assert result.events[0].args == {"started": False, "players": 1}


def test_the_deal() -> None:
    """DWTK 3.1-3.11: PCs, office holders, 2 IP 10 PP, DWTK card + 9, Support x10."""
    state = GameState.from_dict(dealt(4))
    assert state.phase is Phase.ORDERS and state.turn == 1
    pcs = [p.pc for p in state.players.values()]
    assert all(pc in TABLES.setup["pc_cards"] for pc in pcs)
    assert len(set(pcs)) == 4
    holders = [h for o, h in state.offices.items() if o != "monarch"]
    assert all(h is not None and int(h) not in pcs for h in holders)
    for p in state.players.values():
        assert sum(c.startswith("dwtk-") for c in p.hand) == 1
        assert len(p.hand) == 11  # 1 DWTK + 9 dealt + 1 drawn for turn 1
    assert len([c for c in state.removed if c.startswith("dwtk-")]) == 2
    assert state.support % 10 == 0 and 20 <= state.support <= 120
    assert not [pc for pc in pcs if pc in state.loyalty_pool]
    assert check(state, TABLES) == []


def test_two_player_game_uses_the_smaller_pile_and_countesses() -> None:
    """DWTK 3.1.1: PCs from 11-24 and 56-66; every female PC a Countess of Status 3."""
    for seed in range(40):
        state = GameState.from_dict(dealt(2, seed))
        for p in state.players.values():
            assert p.pc in TABLES.setup["pc_cards_two_players"]
            c = state.characters[p.pc]
            if p.pc >= 56:
                assert c.fixed_status == 3
                return
    pytest.fail("no female PC dealt in 40 seeds")
