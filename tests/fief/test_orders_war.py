"""The war share's orders (FE 7.0-7.10, 10.2, 11.1) parse and format as a pair, and their
mistakes are told with a hint."""

from __future__ import annotations

from moderator.games.fief import ENGINE
from tests.fief.conftest import TABLES
from tests.fief.test_orders import _state, round_trip

LINES = (
    "JOIN bob AT Coventry",
    "JOIN bob AGAINST cid AT Coventry",
    "TRUCE WITH bob AT York",
    "TRUCE WITH bob AT York CEDE",
    "TARGET Hugh AT York",
    "TARGET LEADER AT York",
    "DESTROY ENGINES IF TROOPS BELOW 2",
    "SPOILS DESTROY",
    "WITHDRAW FROM York WITH PASSAGE",
    "WITHDRAW FROM York WITH PASSAGE TO Whitby",
    "SALLY London",
    "SALLY London BACK IF LOST 3",
    "HIRE 2 CROSSBOWMEN AT York IN BATTLE",
    "RANSOM Hugh OFFER 4",
    "ACCEPT RANSOM FOR Hugh AT LEAST 3",
    "BETRAY AT Coventry AFTER ROUND 1",
    "END BATTLE AT London",
    "LEND 2 CROSSBOWMEN TO bob FOR 3",
    "HIRE 2 CROSSBOWMEN FROM bob FOR 3 AT York",
    "AID INVADERS AT York WITH PASSAGE",
    "HELP INVADERS AT York WITH PASSAGE",
    "PILLAGE Oxford ENGINES",
    "WITHDRAW 2",
)


def test_every_war_order_reads_back_in_normal_form_and_parses_to_the_same_value() -> None:
    round_trip(LINES)


def test_bad_war_orders_are_reported_with_a_hint() -> None:
    state = _state()
    text = ("JOIN bob\nTRUCE bob\nTARGET Hugh\nDESTROY ENGINES\nSPOILS KEEP\n"
            "WITHDRAW FROM York\nRANSOM Hugh\nACCEPT RANSOM Hugh\nBETRAY Coventry\n"
            "END York\nLEND 2 CROSSBOWMEN TO bob\n")
    p = ENGINE.parse_orders(text, state, "ann", TABLES)  # type: ignore[arg-type]
    assert [e.line for e in p.errors] == list(range(1, 12))
    assert all(e.hint for e in p.errors), p.errors
