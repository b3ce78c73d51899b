"""`reserved_names` (DWTK 2.1.1, 2.1.2): every character card's name, which no player may
take (tests/players/test_npc_names.py: the desk's refusals)."""

from __future__ import annotations

from moderator.games.dwtk import ENGINE
from tests.dwtk.conftest import TABLES, dealt


def test_every_card_of_both_decks_is_reserved_and_no_player() -> None:
    reserved = ENGINE.reserved_names(dealt(3), TABLES)
    assert {n.name for n in TABLES.nobles} | {r.name for r in TABLES.royals} == set(reserved)
    assert reserved["King George"].endswith("(DWTK 2.1.1)")
    assert reserved["Sir Drew"] == "the name of a noble of Fandonia (DWTK 2.1.2)"
    assert not {"Ann", "Bob", "Cid"} & set(reserved)
