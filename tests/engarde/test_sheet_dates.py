"""What a player reads: weekends as weekends, dates as game months, plurals right.

The turn sheet is rendered with the real templates (as the golden game does).  EG §D
splits the month into four weeks, each followed by its weekend (the first night of
EG §O is on a weekend); EG §S favours last to the end of a season, EG §Q a shylock's
loan six months: the sheet gives those as months of the game's calendar.
"""

from __future__ import annotations

from typing import Any

from moderator.dice import ScriptedDice
from moderator.games.base import TurnResult
from tests.engarde.conftest import dice, give_orders, make_char, make_state, run_month
from tests.engarde.test_golden import render


def _sheet(state: dict[str, Any], texts: dict[str, str], rolls: ScriptedDice,
           key: str = "a") -> str:
    result: TurnResult = run_month(state, give_orders(state, **texts), rolls)
    return render(state, result, rolls, 1)[key]


def test_first_night_is_told_as_a_weekend() -> None:
    """EG §D/§O: the first night is on weekend 1; the sheet says "Weekend 1", not "Week 1"."""
    state = make_state(make_char("a", sl=5, crowns=25))  # support 10, practice 10, the seat 30
    sheet = _sheet(state, {"a": "WEEK 1: PRACTICE rapier\nWEEKEND 1: THEATRE FIRST NIGHT"},
                   dice())
    assert "- Weekend 1: Could not afford the theatre seat" in sheet
    assert "- Week 1: Could not afford the theatre" not in sheet
    assert "- Week 1: A week of rapier practice" in sheet


def test_favour_expiry_is_a_month_of_the_game() -> None:
    """EG §S: an SL favour of April's season is good until the end of June, not "turn 3"."""
    state = make_state(make_char("a", sl=12), month=4)
    sheet = _sheet(state, {"a": "WEEK 1: REST"}, dice())
    assert "good until the end of June 1625" in sheet
    assert "until turn" not in sheet


def test_shylock_repayment_is_a_month_of_the_game() -> None:
    """EG §Q: a shylock's loan is repaid after six months: "by the end of October 1625"."""
    state = make_state(make_char("a", sl=5), month=4)
    sheet = _sheet(state, {"a": "ANYTIME: BORROW 100 FROM SHYLOCK"}, dice())
    assert "repay with interest by the end of October 1625" in sheet
    assert "by turn" not in sheet


def test_one_week_practised_is_singular() -> None:
    """EG §N: one week of practice reads "1 week practised"."""
    state = make_state(make_char("a", sl=5))
    sheet = _sheet(state, {"a": "WEEK 1: PRACTICE rapier"}, dice())
    assert "(1 week practised)" in sheet
    assert "1 weeks" not in sheet


def test_the_gazette_puts_weekend_news_under_the_weekend() -> None:
    """EG §D/§P: a house taken in weekend 2 is never gazetted under "Week 2".  The gazette
    tells the month's news by topic (houses and lodgings), not week by week."""
    state = make_state(make_char("a", sl=11, crowns=2000))
    gazette = _sheet(state, {"a": "WEEKEND 2: RENT Town House IN Belleville"}, dice(),
                     key="gazette")
    assert gazette.index("### Houses and lodgings") < gazette.index(
        "takes a Town House in Belleville")
    assert "Week 2" not in gazette
