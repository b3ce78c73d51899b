"""The forecast's refusals and the turn sheet's say why in the same words.

The forecast (moderator/games/engarde/forecast.py) is part of the pure engine and cannot
render the event templates, so it words the reasons of refusals itself
(`refusal_words.REASON_WORDS`).  This test keeps the two in step: every reason worded on one
side is worded on the other, and both say the same (the forecast may add the order to
write or the rule, in parentheses)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moderator.games.base import Event
from moderator.games.engarde.events import EventId
from moderator.games.engarde.forecast import _REFUSALS
from moderator.games.engarde.refusal_words import REASON_WORDS, because
from tests.engarde.test_forecast_words import _forecast as _forecast_of
from tests.engarde.test_golden import ENV

TEMPLATE = Path(__file__).resolve().parents[2] / "templates" / "engarde" / "events.md.j2"
EVENTS = ENV.get_template("engarde/events.md.j2").module
ARGS = {"club": "Hunter's", "min_sl": 9, "other": "Red Phillips", "until": "week 3 of May",
        "until_week": 3, "cost": 27, "position": "Minister", "rank": "Captain",
        "name": "Mlle de Sully", "lady": "lady4", "amount": 300, "limit": 200,
        "accused": "henri"}
# Reasons the dice decide: the forecast's fixed dice say nothing of them (forecast.py).
BY_THE_DICE = {"roll", "natural", "king", "pope", "lady"}


def _macro_source(event_id: str) -> str:
    name = event_id.replace(".", "_")
    return next(line for line in TEMPLATE.read_text().splitlines()
                if line.startswith(f"{{% macro {name}("))


def _template_reasons(event_id: str) -> set[str]:
    source = _macro_source(event_id)
    return set(re.findall(r'reason == "(\w+)"', source)) | set(re.findall(r'"(\w+)": "',
                                                                          source))


def _plain(text: str) -> str:
    """The words that must agree: without the parentheses (an order to write, a rule)."""
    return re.sub(r"\s*\([^)]*\)", "", text).strip().rstrip(".").lower()


def _sheet_line(event_id: str, reason: str) -> str:
    event = {"id": event_id, "actor": "pierre", "args": {**ARGS, "reason": reason}}
    return str(getattr(EVENTS, event_id.replace(".", "_"))(event, {})).replace("&#39;", "'")


@pytest.mark.parametrize("event_id", sorted(REASON_WORDS))
def test_every_reason_is_worded_on_both_sides(event_id: str) -> None:
    forecast = set(REASON_WORDS[event_id])
    sheet = _template_reasons(event_id) - BY_THE_DICE
    assert sheet <= forecast, f"{event_id}: worded on the sheet only: {sheet - forecast}"
    assert forecast - {"funds"} <= sheet, f"{event_id}: worded by the forecast only: " \
        f"{forecast - sheet} (the sheet's last branch words 'funds')"


@pytest.mark.parametrize(("event_id", "reason"), [
    (event_id, reason) for event_id in sorted(REASON_WORDS) for reason in REASON_WORDS[event_id]])
def test_the_forecast_and_the_sheet_give_the_same_reason(event_id: str, reason: str) -> None:
    said = _plain(because(event_id, {**ARGS, "reason": reason}))
    line = _plain(_sheet_line(event_id, reason))
    assert said in line, f"{event_id} {reason}: forecast {said!r}, sheet {line!r}"


# Not refusals by the rules, though their ids say so: a challenged man's own REFUSE
# CHALLENGE (reference §6), and what the dice decide (a courting or liaison roll).
NOT_FORECAST = {"duel.refused", "trial.arrest_refused", "liaison.failed",
                "mistress.court_failed"}
SAMPLE = {**ARGS, "host": "henri", "over": 2, "limit": 20, "amount": 300, "cls": 3,
          "accused": "henri", "general": "henri", "how": "king", "wife": False,
          "needed": 7, "what": "seat", "wager": 1, "stake": 50, "venue": "Hunter's",
          "weapon": "rapier", "house": "Apartment", "area": "Passy"}


def _reasons(event_id: str) -> list[str]:
    return sorted(REASON_WORDS.get(event_id, {"other": ""}))


@pytest.mark.parametrize("event_id", sorted(
    e.value for e in EventId if any(w in e.value for w in _REFUSALS)
    and e.value not in NOT_FORECAST))
def test_every_refusal_the_forecast_reports_reads_as_words(event_id: str) -> None:
    """A receipt's "The rules will refuse:" list fell back to the event's id and args
    for 16 refusals ("loan: refused (amount 300, reason funds)")."""
    for reason in _reasons(event_id):
        lines = _forecast_of(Event(event_id, {**SAMPLE, "reason": reason}, "louis", False, 2))
        refused = [line for line in lines if line.startswith("  - ")]
        assert refused, (event_id, lines)
        for line in refused:
            assert "_" not in line and "reason" not in line and event_id not in line, line


@pytest.mark.parametrize(("event_id", "reason"), [("honour.pardon_refused", "king"),
                                                  ("divorce.refused", "pope"),
                                                  ("divorce.refused", "lady"),
                                                  ("title.refused", "roll"),
                                                  ("duel.refused", "")])
def test_what_the_dice_or_a_player_decide_is_not_forecast_as_refused(event_id: str,
                                                                     reason: str) -> None:
    """The forecast's dice are fixed: the King's refusal of a pardon (EG §S), the Pope's
    of a divorce, are not certain; a REFUSE CHALLENGE is his own choice (reference §6)."""
    lines = _forecast_of(Event(event_id, {**SAMPLE, "reason": reason}, "louis", False, 2))
    assert "The rules will refuse:" not in lines, lines
