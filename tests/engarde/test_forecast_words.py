"""The receipt's forecast, as a new player by mail read it (moderator/games/engarde/forecast.py):
a refusal for want of money says he runs out of money, in words, on the right weekend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from moderator.dice import Dice
from moderator.games.base import JSON, Event, TurnResult
from moderator.games.engarde.forecast import forecast

STATE: JSON = {"characters": {"louis": {"crowns": 40},
                              "henri-dupont": {"name": "Henri Dupont", "crowns": 0}}}


def _forecast(*events: Event) -> tuple[str, ...]:
    """Louis's forecast lines when his month, run alone, gives these events."""
    def adjudicate(state: JSON, orders: Mapping[str, JSON], tables: Any,
                   dice: Dice) -> TurnResult:
        return TurnResult(state, events)
    return forecast(STATE, {"louis": {}}, None, adjudicate)["louis"]


def test_a_bawdyhouse_he_cannot_pay_for_runs_him_out_of_money_in_words() -> None:
    """EG §M: company and drink each cost SL crowns; refused, he has run out of money.
    The old forecast said 'bawdyhouse: refused (cost 8)' and 'You end the month with
    about 1 crowns'."""
    lines = _forecast(
        Event("practice.week", {"weapon": "rapier"}, "louis", False, 1, {"crowns": -39}),
        Event("bawdyhouse.refused", {"cost": 8}, "louis", False, 3))
    assert "You run out of money: week 3." in lines
    assert "  - Week 3: BAWDYHOUSE: refused, company and drink cost 8 crowns (EG §M)" in lines


def test_support_and_drink_he_cannot_pay_run_him_out_of_money() -> None:
    """EG §F, §H: the worded refusals of support and carousing also mean he ran out
    (the old check looked for 'unpaid' in the words, which the words no longer held)."""
    assert "You run out of money: week 2." in _forecast(
        Event("carouse.unaffordable", {"venue": "red_phillips"}, "louis", False, 2))
    assert "You run out of money: before week 1." in _forecast(
        Event("support.unpaid", {"cost": 8}, "louis", False, None))


def test_a_house_he_cannot_buy_is_refused_on_its_weekend_in_words() -> None:
    """EG §P: 'Weekend 2: Town House in Passy: refused, needs 400 crowns', not
    'Week 2: housing: refused (area Passy, house Town House, reason needs 400 crowns)'."""
    lines = _forecast(Event("housing.refused", {"house": "Town House", "area": "Passy",
                                                "reason": "needs 400 crowns"}, "louis", False, 2))
    assert "  - Weekend 2: Town House in Passy: refused, needs 400 crowns" in lines
    assert "You run out of money: week 2." in lines


def test_a_courting_roll_the_fixed_dice_lost_is_not_forecast_as_refused() -> None:
    """EG §L: courting succeeds on a die roll; the forecast leaves chance out, yet it told
    Jacques 'The rules will refuse: mistress: court failed (face 2, ... reason roll)'."""
    lines = _forecast(Event("mistress.court_failed",
                            {"lady": "Mlle Adélaïde de Sully", "reason": "roll", "face": 2,
                             "modifier": 0, "needed": 4, "lover": None}, "louis", False, 2))
    assert not any("court" in line for line in lines)
    assert "The rules will refuse:" not in lines


def test_a_commission_without_a_regiment_is_refused_in_words() -> None:
    """Reference §4 (BUY COMMISSION): the forecast said '(rank Captain, reason no_regiment)'."""
    lines = _forecast(Event("regiment.commission_refused",
                            {"rank": "Captain", "reason": "no_regiment"}, "louis", False, None))
    assert ("  - Before week 1: BUY COMMISSION Captain: refused, you are in no regiment "
            "(JOIN REGIMENT first)") in lines


def test_courting_he_cannot_pay_for_names_the_lady_not_her_key() -> None:
    """EG §L: courting costs 3 x her SL.  The forecast showed her internal key: '(cost 30,
    lady lady4, name Mme Constance de Noailles, reason funds)'."""
    lines = _forecast(Event("mistress.court_refused",
                            {"cost": 30, "lady": "lady4", "name": "Mme Constance de Noailles",
                             "reason": "funds"}, "louis", False, 2))
    assert ("  - Week 2: COURT Mme Constance de Noailles: refused, the gifts cost 30 crowns"
            in lines)
    assert not any("lady4" in line for line in lines)
    assert "You run out of money: week 2." in lines


def test_a_guest_is_not_told_he_is_nobody_s_guest() -> None:
    """EG §G: a guest enters when his host brings him; the forecast runs his orders alone,
    so it cannot see the host's BRING.  It said 'you are not a member (nor anyone's guest)'
    to Jacques, who wrote GUEST OF Henri Dupont."""
    lines = _forecast(Event("club.refused_entry", {"club": "Hunter's", "host": "henri-dupont"},
                            "louis", False, 2))
    assert ("  - Week 2: CLUB Hunter's: turned away unless Henri Dupont brings you the same "
            "week (BRING <you>)") in lines


def test_a_theatre_seat_he_cannot_pay_for_reads_in_words() -> None:
    """EG §O: first night 6 x SL.  The forecast said 'theatre: unaffordable (cost 6, what
    seat)'."""
    lines = _forecast(Event("theatre.unaffordable", {"what": "seat", "cost": 6}, "louis",
                            False, 1))
    assert "  - Weekend 1: THEATRE: you cannot pay for the seat (6 crowns)" in lines
    assert "You run out of money: week 1." in lines


@pytest.mark.parametrize(("event", "words"), [
    (Event("club.join_refused", {"club": "The Frog & Peach", "reason": "other_club",
                                 "other": "Red Phillips"}, "louis", False, None),
     "JOIN CLUB The Frog & Peach: refused, you already belong to Red Phillips; resign first "
     "(RESIGN CLUB"),
    (Event("proposal.refused", {"cost": 27, "reason": "too_soon"}, "louis", False, 1),
     "Weekend 1: PROPOSE: refused, you have not been going steady six months (EG §L)"),
    (Event("appointment.refused", {"position": "Military Governor of Paris", "reason": "rank"},
           "louis", False, None),
     "APPLY FOR Military Governor of Paris: refused, your rank (or title) is too low"),
    (Event("gambling.stopped", {"stake": 200, "venue": "Hunter's", "wager": 1}, "louis",
           False, 3),
     "Week 3: GAMBLE: you cannot cover wager 1 of 200 crowns at Hunter's and leave the table"),
])
def test_more_refusals_read_in_words(event: Event, words: str) -> None:
    """Found by mail in July: 'JOIN CLUB The Frog & Peach: refused' with no reason (he was
    in Red Phillips: one club at a time, EG §G), 'proposal: refused (cost 27, reason
    too_soon)' (EG §L), 'appointment: refused (..., reason rank)', 'gambling: stopped (stake
    200, venue Hunter's, wager 1)' (EG §K)."""
    lines = _forecast(event)
    assert any(words in line for line in lines), lines
    assert not any("reason" in line or "too_soon" in line for line in lines), lines


@pytest.mark.parametrize("event_id", ["mistress.courting", "mistress.escorted",
                                      "mistress.support"])
def test_what_a_lady_costs_is_counted_in_the_money(event_id: str) -> None:
    """EG §L: the gifts of courting are paid whatever the roll, escorting her costs the
    carousing, and a kept mistress her support.  The forecast left them out with the
    affairs of the heart the dice decide, and told a suitor he ended the month richer
    than he would."""
    lines = _forecast(Event(event_id, {"lady": "Mlle Anne", "cost": 15, "venue": "Hunter's"},
                            "louis", False, 2, {"crowns": -15}))
    assert any(line.startswith("Week 2: 40 -> 25 crowns") for line in lines), lines
    assert "You end the month with about 25 crowns (before any winnings)." in lines
