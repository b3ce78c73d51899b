"""Rule cases for the justice orders that are not activities: HIDE/UNHIDE (24.2, 24.8),
hiding while banished (29.5), SUICIDE (29.9, 30.10), and the FARC Monarch's RESTORE
(36.10.4) and DISSOLVE/APPOINT (36.14).

The dealt game (seed 1): Ann's PC Sir Charles (24); Duke Roland (42) made Ann's FAC;
Earl Maxwell (32) an NC; Sir Peter (13) High Minister.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import fugitives, hiding, player, start
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.state import FANDONIA, Fate, Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    events,
    with_player,
)

PC, ROLAND, MAXWELL, HIGH = 24, 42, 32, 13


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10, hand=(f"dwtk-{'abc'.index(p[0]) + 1}",))
    c.set_char(ROLAND, owner="ann")
    return c


def _orders(text: str) -> TurnOrders:
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    return TurnOrders.from_dict(parsed.orders)


def test_hiding_a_non_wrongdoer_in_the_player_turn_and_not_out_the_same_turn() -> None:
    """24.2: not an activity, no wrongdoer for it; never in and out the same turn; 24.4 an
    Office Holder hides only from a hearing; 30.6 never from prison."""
    c = _court()
    c.set_char(HIGH, owner="ann")
    assert parse_orders("HIDE 42\nUNHIDE 42", TABLES).errors[0].line == 2
    c.orders = {"ann": _orders("HIDE 42\nHIDE 13")}
    player.player_turns(c)
    roland = c.char(ROLAND)
    assert roland.situation is Situation.HIDING and not roland.wrongdoer
    skipped = [e.args for e in events(c, "activity.skipped") if e.actor == "ann"]
    assert {"what": "hide:13", "reason": "office_holder"} in skipped
    with pytest.raises(Refused, match="same_turn"):
        hiding.unhide(c, "ann", str(ROLAND))
    c.turn += 1
    hiding.unhide(c, "ann", str(ROLAND))
    assert c.char(ROLAND).situation is Situation.NORMAL
    with pytest.raises(Refused, match="same_turn"):
        hiding.hide(c, "ann", str(ROLAND))
    c.set_char(PC, situation=Situation.IMPRISONED)
    with pytest.raises(Refused, match="imprisoned"):
        hiding.hide(c, "ann", "pc")


def test_a_wrongdoer_out_of_hiding_comes_home_to_his_hearing_or_his_prison() -> None:
    """24.8: abroad he is returned to Fandonia and heard (2 - 1 without Evidence: innocent);
    an escaped prisoner goes back to prison (30.6)."""
    c = _court(justice=[1, 1])
    c.set_char(ROLAND, situation=Situation.HIDING, wrongdoer=True, fate=Fate.HEARING,
               location="epalin", since=c.turn - 1)
    hiding.unhide(c, "ann", str(ROLAND))
    roland = c.char(ROLAND)
    assert roland.location == FANDONIA and roland.situation is Situation.NORMAL
    assert not roland.wrongdoer and events(c, "justice.returned")[0].args["fate"] == "hearing"
    c.set_char(ROLAND, situation=Situation.HIDING, wrongdoer=True, fate=Fate.PRISON,
               since=c.turn - 1)
    hiding.unhide(c, "ann", str(ROLAND))
    assert c.char(ROLAND).situation is Situation.IMPRISONED


def test_a_banished_character_may_hide_and_comes_out_banished() -> None:
    """29.5 may hide; 24.8 a banished character out of hiding stays where he is; he is not
    extraditable while hiding (PROPOSED)."""
    c = _court()
    c.set_char(ROLAND, situation=Situation.BANISHED, wrongdoer=True, location="epalin",
               since=c.turn - 3)
    hiding.hide(c, "ann", str(ROLAND))
    assert c.char(ROLAND).situation is Situation.HIDING and c.char(ROLAND).fate is Fate.BANISHED
    assert not fugitives.extraditable(c, ROLAND)
    c.turn += 1
    hiding.unhide(c, "ann", str(ROLAND))
    roland = c.char(ROLAND)
    assert (roland.situation, roland.location) == (Situation.BANISHED, "epalin")


def test_suicide_after_three_turns_at_the_end_of_all_player_turns() -> None:
    """29.9, 30.10: three turns or more banished or imprisoned; he dies at the end of all
    Player Turns (31.5 for a PC)."""
    c = _court()
    c.set_char(PC, situation=Situation.IMPRISONED, wrongdoer=True, since=c.turn - 3)
    c.set_char(ROLAND, situation=Situation.BANISHED, wrongdoer=True, location="epalin",
               since=c.turn - 2)
    c.orders = {"ann": _orders("SUICIDE PC\nSUICIDE Duke Roland")}
    hiding.suicides(c)
    assert c.char(PC).face_down_until == c.turn + 2 and c.char(ROLAND).alive
    assert [e.args["character"] for e in events(c, "justice.suicide")] == [str(PC)]
    assert events(c, "activity.skipped")[0].args["reason"] == "too_soon"


def test_the_farc_monarch_restores_his_own_and_dissolves_the_government() -> None:
    """36.10.4: not an activity, only with a FARC Monarch; 36.14: every office vacant, up
    to three filled by him at no cost, the others normally."""
    c = _court()
    c.set_char(ROLAND, situation=Situation.IMPRISONED, wrongdoer=True)
    with pytest.raises(Refused, match="no_farc_monarch"):
        hiding.restore(c, "ann", str(ROLAND))
    c.set_royal("george", owner="ann")
    hiding.restore(c, "ann", str(ROLAND))
    assert c.char(ROLAND).situation is Situation.NORMAL and not c.char(ROLAND).wrongdoer
    c.orders = {"ann": _orders("DISSOLVE\nAPPOINT High Minister : 42\n"
                               "APPOINT Justice : Earl Maxwell\nAPPOINT Navy : 56")}
    ip = c.players["ann"].ip
    start.dissolve(c, c.orders)
    held = {o: h for o, h in c.offices.items() if h is not None}
    assert held == {"monarch": "george", "high_minister": str(ROLAND), "justice": str(MAXWELL)}
    assert c.players["ann"].ip == ip and c.char(23).location == FANDONIA
    assert events(c, "office.bid_refused")[0].args["office"] == "navy"


def test_the_orders_round_trip_and_errors_are_collected() -> None:
    text = "HIDE PC\nUNHIDE 42\nSUICIDE Sir Jeffrey\nRESTORE PC, 42\nDISSOLVE\n" \
           "APPOINT High Minister : 42"
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    assert parsed.normal_form == ("HIDE PC", "UNHIDE 42", "SUICIDE 23", "RESTORE PC",
                                  "RESTORE 42", "DISSOLVE", "APPOINT High Minister : 42")
    again = parse_orders("\n".join(parsed.normal_form), TABLES)
    assert again.orders == parsed.orders and again.normal_form == parsed.normal_form
    assert TurnOrders.from_dict(parsed.orders).to_dict() == parsed.orders
    bad = parse_orders("HIDE Prince Alan\nAPPOINT Nowhere : 42\nAPPOINT navy : 1\n"
                       "DISSOLVE NOW", TABLES).errors
    assert [e.line for e in bad] == [1, 2, 3, 4] and all(e.hint for e in bad[:3])
