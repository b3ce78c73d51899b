"""Order language for the army, duels, trials, offices, divorce, the press and deals
(reference §12; docs/engarde-orders.md): round trips and receipt warnings."""

from __future__ import annotations

import pytest

from moderator.games.engarde import ENGINE
from tests.engarde.conftest import _TABLES, make_char, make_lady, make_state

LINES = [
    "ANYTIME: JOIN REGIMENT 13th Fusiliers",
    "ANYTIME: JOIN REGIMENT Royal Foot Guards AS Captain",
    "ANYTIME: BUY COMMISSION Major",
    "ANYTIME: SELL COMMISSION",
    "ANYTIME: BUY HORSE 2",
    "ANYTIME: VOLUNTEER FOR THE FRONT",
    "ANYTIME: CHALLENGE Cyrano WEAPON sabre WEEK 2 TO THE DEATH",
    "ANYTIME: DUEL Cyrano: WEAPON rapier; SECONDS Athos, Porthos; TO FIRST BLOOD",
    "ANYTIME: ACCEPT CHALLENGE FROM Cyrano",
    "ANYTIME: REFUSE CHALLENGE FROM Athos",
    "ANYTIME: CHARGE Cyrano WITH blackmail",
    "ANYTIME: REQUEST WARRANT AGAINST Cyrano FOR treason",
    "ANYTIME: TESTIFY AGAINST Cyrano",
    "ANYTIME: TESTIFY FOR Athos",
    "ANYTIME: APPLY FOR Brigade Major",
    "ANYTIME: RESIGN POSITION",
    "ANYTIME: SUE FOR DIVORCE",
    "ANYTIME: CHAMPION Mlle Roxanne",
    'ANYTIME: ANNOUNCE "Cyrano is a poltroon; I say so." AS A Friend of Truth',
    'ANYTIME: ANNOUNCE "Wine at my house, week 2." UNSIGNED',
    "ANYTIME: SELL Town House IN Charonne TO Athos FOR 300",
    "ANYTIME: USE FAVOUR 3 ON TRIAL FOR Cyrano",
    "ANYTIME: USE FAVOUR 4 ON REGIMENT FOR Jacques",
    "WEEK 1: REGIMENTAL DUTY",
]


def _state() -> dict:
    return make_state(make_char("jacques", "Jacques", sl=8, title="baron", noble=True),
                      make_char("cyrano", "Cyrano"), make_char("athos", "Athos"),
                      make_char("porthos", "Porthos"),
                      ladies=[make_lady("roxanne", "Mlle Roxanne")])


@pytest.mark.parametrize("line", LINES)
def test_round_trip(line: str) -> None:
    """Each order parses, reads back in canonical form, and that parses to the same JSON."""
    state = _state()
    parsed = ENGINE.parse_orders(line, state, "jacques", _TABLES)
    assert not parsed.hard_errors, parsed.errors
    again = ENGINE.parse_orders("\n".join(parsed.normal_form), state, "jacques", _TABLES)
    assert again.orders == parsed.orders and again.normal_form == parsed.normal_form


@pytest.mark.parametrize(("line", "warning"), [
    ("ANYTIME: JOIN REGIMENT Royal Foot Guards", "takes no one below SL 7"),
    ("ANYTIME: CHALLENGE Cyrano", "without cause costs 2 SP"),
    ("ANYTIME: DUEL Cyrano: WEAPON cutlass", "never practised the cutlass"),
])
def test_receipt_warnings(line: str, warning: str) -> None:
    """Legal but probably mistaken: warned, and still carried out."""
    state = make_state(make_char("jacques", "Jacques", sl=3,
                                 expertise={"rapier": 12, "sabre": 9, "cutlass": 8}),
                       make_char("cyrano", "Cyrano"))
    parsed = ENGINE.parse_orders(line, state, "jacques", _TABLES)
    assert not parsed.hard_errors
    assert any(warning in e.message for e in parsed.errors), parsed.errors


@pytest.mark.parametrize(("alias", "why"), [
    ("Cyrano", "is the name of someone"),
    ("  CYRANO ", "is the name of someone"),
    ("cyrano", "is the name of someone"),
    ("Mlle Roxanne", "is the name of someone"),
    ("Cyr\u0430no", "U+0430"),  # a Cyrillic a: looks like "Cyrano" in the gazette
    ("Cyrano\u202e", "U+202E"),
    ("Cyra\u2060no", "U+2060"),  # invisible: the gazette shows "Cyrano"
    ("A Friend\u202e of Truth", "U+202E"),  # a bidi override reorders the signature
])
def test_an_alias_never_forges_another_characters_signature(alias: str, why: str) -> None:
    """Reference §13: an alias hides the writer; the gazette prints it where a signature
    goes, so one that reads as a character's name (or looks like one through an invisible
    character or a letter of another script) is refused with the reason."""
    parsed = ENGINE.parse_orders(f'ANYTIME: ANNOUNCE "Athos is a coward." AS {alias}',
                                 _state(), "jacques", _TABLES)
    assert parsed.hard_errors and not parsed.orders.get("announcements")
    assert why in parsed.hard_errors[0].message, parsed.errors
