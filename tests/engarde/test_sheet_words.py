"""What players read on their turn sheets and in Le Sport de Paris after a month by
mail: each statement made once, in words (never the engine's keys)."""

from __future__ import annotations

from moderator.dice import Dice
from moderator.games.engarde import ENGINE
from tests.engarde.conftest import _TABLES, give_orders, make_char, make_state
from tests.engarde.test_golden import render


def _month(state: dict, seed: int = 7, **texts: str) -> dict[str, str]:
    """One month run with the real parser, engine and templates: gazette and sheets."""
    orders = give_orders(state, **texts)
    dice = Dice.for_turn(seed, state["turn"])
    return render(state, ENGINE.adjudicate(state, orders, _TABLES, dice), dice, 1)


def _summary_sl(sheet: str) -> str:
    return next(line for line in sheet.splitlines() if line.startswith("- SL "))


def test_the_summary_does_not_say_held_when_the_month_says_stays_at_the_lowest() -> None:
    """EG §E: a man at SL 1 who fails to hold stays at SL 1.  The month says so ("stays
    at SL 1, the lowest"); the summary said "SL 1 (held)" beside it, which he had not."""
    sheet = _month(make_state(make_char("pierre", "Pierre", sl=1)), pierre="")["pierre"]
    assert "Pierre stays at SL 1, the lowest" in sheet
    assert _summary_sl(sheet) == "- SL 1, -2 SP this month"


def test_the_summary_says_a_change_of_sl_with_where_it_came_from() -> None:
    """EG §E: a fall is shown with the SL it fell from."""
    sheet = _month(make_state(make_char("pierre", "Pierre", sl=4)), pierre="")["pierre"]
    assert _summary_sl(sheet) == "- SL 3 (fell from 4), -2 SP this month"


def test_a_guest_seen_at_a_club_several_weeks_is_one_line_in_the_gazette() -> None:
    """EG §I: a guest each week at his host's club.  Le Sport de Paris tells the month
    without its weeks, so the same sentence came once a week: "Jacques is seen at
    Bothwell's as the guest of Cyrano." printed three times in "About town"."""
    state = make_state(make_char("cyrano", "Cyrano", sl=7, club="bothwells"),
                       make_char("jacques", "Jacques", sl=3))
    gazette = _month(state, cyrano="WEEK 1: CLUB; BRING Jacques\nWEEK 2: CLUB; BRING Jacques\n"
                     "WEEK 3: CLUB; BRING Jacques\n",
                     jacques="WEEK 1: CLUB Bothwell's; GUEST OF Cyrano\n"
                     "WEEK 2: CLUB Bothwell's; GUEST OF Cyrano\n"
                     "WEEK 4: CLUB Bothwell's; GUEST OF Cyrano\n")["gazette"]
    town = gazette.split("### About town", 1)[1].split("##", 1)[0]
    assert town.count("as the guest of Cyrano") == 1, town
    assert "Jacques is seen at Bothwell's as the guest of Cyrano (twice this month)." in town
