"""`reserved_names` (FE 2.2, 2.12): the Noble and Retainer cards' names and every noble's
in the game, which no player may take (tests/players/test_npc_names.py: the desk's
refusals)."""

from __future__ import annotations

from moderator.games.fief import ENGINE
from tests.fief.conftest import TABLES, mustered


def test_the_nobles_dealt_and_the_cards_are_reserved() -> None:
    state = mustered()
    reserved = ENGINE.reserved_names(state, TABLES)
    assert {n["name"] for n in state["nobles"].values()} <= set(reserved)
    assert {n.name for n in TABLES.nobles} <= set(reserved)
    assert reserved["Mata"] == "the name of a retainer (FE 2.12)"
    assert reserved["William"] == "the name of a noble of England (FE 2.2)"
    assert not {"Ann", "Bob", "Cid", "Dan"} & set(reserved)
