"""`reserved_names` (DWTK 2.1.1, 2.1.2): every character card's name, which no player may
take (tests/players/test_npc_names.py: the desk's refusals)."""

from __future__ import annotations

from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.orders.reaction import REACTION_WORDS
from tests.dwtk.conftest import TABLES, dealt


def test_every_card_of_both_decks_is_reserved_and_no_player() -> None:
    reserved = ENGINE.reserved_names(dealt(3), TABLES)
    cards = {n.name for n in TABLES.nobles} | {r.name for r in TABLES.royals}
    assert cards == set(reserved) - REACTION_WORDS
    assert reserved["King George"].endswith("(DWTK 2.1.1)")
    assert reserved["Sir Drew"] == "the name of a noble of Fandonia (DWTK 2.1.2)"
    assert not {"Ann", "Bob", "Cid"} & set(reserved)


def test_the_words_a_reaction_reads_for_a_player_are_no_players_name() -> None:
    """A player called "Me", "Anyone" or "Mine" could never be named in a reaction
    (``IF ME ...`` reads as the writer himself): those words are reserved too."""
    reserved = ENGINE.reserved_names(dealt(3), TABLES)
    assert {"Anyone", "Anybody", "An Opponent", "Opponent", "I", "Me", "Mine"} <= set(reserved)
    assert reserved["Me"].startswith("a word the reactions read")
