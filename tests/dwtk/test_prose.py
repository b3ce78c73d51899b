"""The event prose names women as women (templates/dwtk/events.md.j2 with views.names)."""

from __future__ import annotations

import re

import pytest

from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.tables import Sex
from moderator.games.dwtk.views import names
from tests.dwtk.conftest import EVENTS, TABLES, dealt


def _hearing(character: str) -> str:
    nm = names(GameState.from_dict(dealt(3)), TABLES)
    e = {"id": "justice.hearing", "args": {"character": character, "total": 7, "modifier": 0,
                                           "status": 5, "result": "trial"}}
    return str(EVENTS.justice_hearing(e, nm)).strip()


def test_her_hearing_and_his_hearing() -> None:
    """A woman's hearing is "her" hearing; a man's "his" (DWTK 26 prose)."""
    woman = next(n for n in TABLES.nobles if n.sex is Sex.FEMALE)
    man = next(n for n in TABLES.nobles if n.sex is Sex.MALE)
    assert _hearing(str(woman.id)).startswith(f"At her hearing {woman.name} rolls 7")
    assert _hearing(str(man.id)).startswith(f"At his hearing {man.name} rolls 7")


_MASCULINE = re.compile(r"\b(he|him|his|himself)\b")
_WOMAN = next(n for n in TABLES.nobles if n.sex is Sex.FEMALE)


@pytest.mark.parametrize(("macro", "args"), [
    ("justice_accused", {"cause": cause, "roll": 3, "status": 2, "result": "hearing"})
    for cause in ("scandal_exposed", "intrigue", "duel", "carousing", "prestige:privateering")
] + [
    ("justice_escape", {"from": "fandonia", "to": "epalin", "card": None, "negated": True}),
    ("justice_returned", {"fate": "trial"}),
    ("justice_extradition", {"by": "ann", "where": "epalin", "result": "returned"}),
    ("justice_extradition", {"by": "ann", "where": "epalin", "result": "refused"}),
    ("bribe_solicited", {"amount": 2, "roll": 1, "result": "caught"}),
])
def test_a_woman_is_never_he_or_him(macro: str, args: dict[str, object]) -> None:
    """Lady Isabella was "accused of wrongdoing (the scandal he exposed came back on him)";
    Baroness Eleanor of "an illegal card drawn from his hand" (DWTK 13.4.9, 22, 23.1)."""
    nm = names(GameState.from_dict(dealt(3)), TABLES)
    e = {"id": macro.replace("_", ".", 1), "args": {"character": str(_WOMAN.id), **args}}
    line = str(getattr(EVENTS, macro)(e, nm)).strip()
    assert _WOMAN.name in line and not _MASCULINE.search(line), line


@pytest.mark.parametrize(("roll", "accused", "end"), [
    (2, False, "after the kill (DWTK 19.10): not accused."),
    (1, True, "after the kill (DWTK 19.10): accused of wrongdoing.")])
def test_the_roll_after_a_kill_says_what_it_decided(roll: int, accused: bool,
                                                    end: str) -> None:
    """DWTK 19.10: a player read 'Earl Maxwell rolls 2 after the kill.' and no more: what
    the roll was for and what came of it."""
    nm = names(GameState.from_dict(dealt(3)), TABLES)
    e = {"id": "duel.killer_roll", "args": {"character": "32", "roll": roll,
                                            "accused": accused}}
    assert str(EVENTS.duel_killer_roll(e, nm)).strip() == f"Earl Maxwell rolls {roll} {end}"


@pytest.mark.parametrize(("what", "words"), [
    ("event", "an Event card"), ("loyalty", "a Loyalty counter"),
    ("opportunity", "an Opportunity counter")])
def test_a_paid_draw_names_what_was_drawn_in_words(what: str, words: str) -> None:
    """DWTK 13.4.19: the sheet said 'You paid 1 IP for another draw (event).'  Then
    'You draw ... Lord Mortimer (35). You paid 1 IP for another draw: a Loyalty counter.
    You draw ... Sir Charles (24).' read as if the next draw (the turn's own) were the
    paid one: the line comes after the draw it paid for, and says so."""
    e = {"id": "activity.draw", "args": {"cost": 1, "what": what}}
    assert str(EVENTS.activity_draw(e, {})).strip() == (
        f"You paid 1 IP for the extra draw above: {words} (DWTK 13.4.19).")
