"""Reference §7 appointments (PROPOSED favours per season) and §8 titles (EG §E, §P)."""

from __future__ import annotations

import pytest

from moderator.games.engarde import ENGINE
from tests.engarde.conftest import (
    _TABLES,
    assert_event,
    dice,
    give_orders,
    make_char,
    make_state,
    run_month,
)


@pytest.mark.parametrize(("key", "sp", "pay", "favour"), [
    ("regimental_adjutant", 3, 0, 1), ("brigade_major", 4, 0, 1), ("aide_general", 6, 0, 2),
    ("commissioner", 6, 50, 3), ("minister_of_war", 18, 100, 6),
    ("minister_of_state", 20, 150, 6), ("military_governor", 10, 75, 3)])
def test_appointments_table_rows(key: str, sp: int, pay: int, favour: int) -> None:
    """Reference §7: SP and pay (S6), favours per season (PROPOSED)."""
    post = _TABLES.army.appointment(key)
    assert (post.sp, post.pay, post.favour) == (sp, pay, favour)


def test_apply_roll_pay_sp_and_seasonal_favour_then_resign() -> None:
    """Reference §7: 6+ on 1d6 at the appointer's level; SP and pay a month; a favour a season."""
    captain = make_char("a", sl=6, regiment="13f", rank="captain", horses=1, military_ability=4)
    state = make_state(captain, month=6)
    result = run_month(state, give_orders(state, a="ANYTIME: APPLY FOR Regimental Adjutant"),
                       dice(offices=[6]))
    assert_event(result, "appointment.granted", "a", position="Regimental Adjutant")
    assert assert_event(result, "appointment.pay", "a").sp == 3
    july = run_month(result.state, give_orders(result.state, a="WEEK 4: REST"))
    assert_event(july, "favour.received", "a", source="appointment", cls=1)
    resigned = run_month(july.state, give_orders(july.state, a="ANYTIME: RESIGN POSITION"))
    assert_event(resigned, "appointment.resigned", "a")


@pytest.mark.parametrize(("extra", "reason"), [
    ({"rank": "subaltern"}, "rank"), ({"military_ability": 2}, "ma"),
    ({"disgraced": "debt"}, "disgraced"), ({"appointment": "brigade_major"}, "holds_one")])
def test_apply_requirements(extra: dict, reason: str) -> None:
    """Reference §7 requirements; §9 PROPOSED: no post while disgraced; one post at a time."""
    captain = make_char("a", sl=6, **{"regiment": "13f", "rank": "captain", "horses": 1,
                                      "military_ability": 4, **extra})
    state = make_state(captain)
    result = run_month(state, give_orders(state, a="ANYTIME: APPLY FOR Regimental Adjutant"))
    assert_event(result, "appointment.refused", "a", reason=reason)


def test_applying_while_holding_a_post_is_warned_on_the_receipt() -> None:
    """Reference §7 (PROPOSED, `offices.py`): one post at a time, so an APPLY FOR while he
    holds a post is refused at the turn (reason "holds_one") unless a RESIGN POSITION in the
    same orders frees it first: the month's applications are decided after every anytime
    order, so the RESIGN line may come before or after the APPLY line.  Found by mail: the
    receipt said nothing and the sheet said "you already hold a post"."""
    captain = make_char("a", sl=6, regiment="13f", rank="captain", horses=1,
                        military_ability=4, appointment="brigade_major")
    state = make_state(captain)
    parsed = ENGINE.parse_orders("ANYTIME: APPLY FOR Regimental Adjutant", state, "a", _TABLES)
    warned = [e for e in parsed.errors if "Brigade Major" in e.message]
    assert warned and "RESIGN POSITION" in str(warned[0].hint), parsed.errors
    assert not parsed.hard_errors
    for text in ("ANYTIME: RESIGN POSITION\nANYTIME: APPLY FOR Regimental Adjutant",
                 "ANYTIME: APPLY FOR Regimental Adjutant\nANYTIME: RESIGN POSITION"):
        resigned = ENGINE.parse_orders(text, state, "a", _TABLES)
        assert not any("Brigade Major" in e.message for e in resigned.errors), text
        result = run_month(state, give_orders(state, a=text), dice(offices=[6]))
        assert_event(result, "appointment.granted", "a", position="Regimental Adjutant")


@pytest.mark.parametrize(("title", "sl", "raised", "sp", "home"), [
    (None, 8, 10, 10, "fine_house"), ("chevalier", 9, 11, 10, "fine_house"),
    ("baron", 12, 12, 15, "mansion"), ("comte", 13, 14, 20, "palace")])
def test_titles_table(title: str | None, sl: int, raised: int, sp: int, home: str) -> None:
    """Reference §8: the next title up on 6 on 1d6 (+1 per 3 SL above its minimum); SL raised
    at once (EG §E exception), its SP that month, the family home (EG §P)."""
    state = make_state(make_char("a", sl=sl, crowns=2000, title=title, noble=True,
                                 qualified="mentions"))
    result = run_month(state, {}, dice(offices=[6]))
    granted = assert_event(result, "title.granted", "a")
    assert (granted.args["sl_after"], granted.sp) == (raised, sp)
    assert result.state["characters"]["a"]["home"]["kind"] == home


def test_title_refused_low_sl_and_failed_roll_counts() -> None:
    """Reference §8: below the title's minimum SL, no title; a failed roll -1 next time."""
    low = make_state(make_char("a", sl=5, qualified="mentions"))
    assert_event(run_month(low, {}, dice()), "title.refused", "a", reason="sl")
    state = make_state(make_char("a", sl=6, qualified="victory"))
    failed = run_month(state, {}, dice(offices=[5]))
    assert_event(failed, "title.refused", "a", reason="roll")
    assert failed.state["characters"]["a"]["title_tries"] == 1
