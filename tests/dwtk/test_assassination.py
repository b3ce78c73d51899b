"""Rule cases for assassination, DWTK 13.4.8 and 21 (scripted dice; the PROPOSED
Assassination Table: 2 trial, 3-4 hearing, 5-6 accused, 7-8 foiled, 9 kill and accused,
10+ kill).

The dealt game (seed 1): Ann's PC Sir Charles (24); NCs Earl Maxwell (32), Sir James
(22, Minister of Justice), Sir Jeffrey (23, Ambassador in Sandarkan), Duke Roland (42,
Status 5) made Ann's henchman where needed.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import player
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.state import Phase, Situation, Voyage
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    events,
    react,
    with_player,
)

JAMES, JEFFREY, MAXWELL, ROLAND = 22, 23, 32, 42


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10, hand=(f"dwtk-{'abc'.index(p[0]) + 1}",))
    with_player(c, "ann", opportunity=("intrigue-1",),
                hand=("dwtk-1", "assassination-1", "assassination-2"))
    c.set_char(ROLAND, owner="ann", henchman="henchman-1")
    return c


def _orders(text: str) -> TurnOrders:
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    return TurnOrders.from_dict(parsed.orders)


def _do(c: Court, text: str) -> None:
    player.do(c, "ann", _orders(text).activities[0])


def _result(c: Court) -> dict:  # type: ignore[type-arg]
    return events(c, "activity.assassination")[0].args


def test_what_an_attempt_needs() -> None:
    """13.4.8: an Intrigue counter and an Assassination card; never the imprisoned or
    hiding (30.7); abroad only from the same country (20.6.3, 29.6)."""
    c = _court()
    with_player(c, "ann", opportunity=())
    with pytest.raises(Refused, match="no_intrigue_counter"):
        _do(c, "DO ASSASSINATE Earl Maxwell")
    with_player(c, "ann", opportunity=("intrigue-1",))
    with pytest.raises(Refused, match="no_card"):
        _do(c, "DO ASSASSINATE Earl Maxwell WITH 3 CARDS")
    with pytest.raises(Refused, match="not_in_the_same_country"):
        _do(c, "DO ASSASSINATE Sir Jeffrey")
    c.set_char(MAXWELL, situation=Situation.IMPRISONED)
    with pytest.raises(Refused, match="target_out_of_reach"):
        _do(c, "DO ASSASSINATE Earl Maxwell")
    c.set_char(ROLAND, location="sandarkan")
    with pytest.raises(Refused, match="no_target"):
        _do(c, "DO ASSASSINATE Duke Roland BY Duke Roland")
    assert c.players["ann"].hand == ("dwtk-1", "assassination-1", "assassination-2")


def test_each_additional_card_adds_two_and_ten_kills() -> None:
    c = _court(assassination=[4, 4])
    _do(c, "DO ASSASSINATE Earl Maxwell WITH 2 CARDS")
    assert (_result(c)["modifier"], _result(c)["total"]) == (2, 10)
    assert not c.char(MAXWELL).alive and c.players["ann"].hand == ("dwtk-1",)


def test_guards_by_target_and_one_treachery_in_all() -> None:
    """Personal Guards only for a non-Office Holder, Palace Guards ±2 each for an Office
    Holder; one Treachery at most (13.4.8).  12 - 4 - 2 = 6: the assassin is accused."""
    c = _court(assassination=[6, 6], justice=[2])
    with_player(c, "bob", hand=("dwtk-2", "personal_guards-1", "treachery-1"))
    with_player(c, "cid", hand=("dwtk-3", "palace_guards-1", "palace_guards-2",
                                "treachery-2"))
    react(c, "bob", "IF ANYONE ASSASSINATES ANYONE THEN PLAY Personal Guards",
          "IF ANYONE ASSASSINATES ANYONE THEN PLAY Treachery")
    react(c, "cid", "IF AN OPPONENT ASSASSINATES ANYONE THEN PLAY 2 Palace Guards -",
          "IF ANYONE ASSASSINATES ANYONE THEN PLAY Treachery")
    _do(c, "DO ASSASSINATE Sir James BY Duke Roland")
    assert (_result(c)["modifier"], _result(c)["effects"]) == (-6, ["assassin_accused"])
    assert "personal_guards-1" in c.players["bob"].hand
    assert "treachery-2" in c.players["cid"].hand
    accused = events(c, "justice.accused")[0].args
    assert (accused["character"], accused["result"]) == (str(ROLAND), "innocent")


def test_an_assassin_caught_may_hide_before_his_hearing() -> None:
    """21, 24.2: 3-4 sends him to a hearing; his player's HIDE reaction applies."""
    c = _court(assassination=[1, 2])
    react(c, "ann", "IF ANYONE HEARS MINE THEN HIDE")
    _do(c, "DO ASSASSINATE Earl Maxwell BY Roland")
    assert c.char(ROLAND).situation is Situation.HIDING and c.char(MAXWELL).alive


def test_the_any_activity_counter_needs_no_card_and_each_card_adds_two() -> None:
    """12.3.1, 13.4.8."""
    c = _court(assassination=[4, 3])
    with_player(c, "ann", opportunity=("any_activity-1",), hand=("dwtk-1",))
    _do(c, "DO ASSASSINATE Earl Maxwell")
    assert _result(c)["modifier"] == 0
    c = _court(assassination=[3, 3])
    with_player(c, "ann", opportunity=("any_activity-1",))
    _do(c, "DO ASSASSINATE Earl Maxwell")
    assert _result(c)["modifier"] == 2


def test_one_attempt_per_counter_and_an_intrigue_card_in_its_place() -> None:
    """12.3.3 (one activity per counter), 14.5.7: the Intrigue counter is spent by the
    first attempt; an Intrigue card then stands in for it, with an Assassination card."""
    c = _court(assassination=[4, 4, 4, 4])  # 8: foiled
    _do(c, "DO ASSASSINATE Earl Maxwell")
    with pytest.raises(Refused, match="no_intrigue_counter"):
        _do(c, "DO ASSASSINATE Earl Maxwell")
    with_player(c, "ann", hand=("dwtk-1", "assassination-2", "intrigue-1"))
    _do(c, "DO ASSASSINATE Earl Maxwell")
    assert c.players["ann"].hand == ("dwtk-1",) and "intrigue-1" in c.discards
    assert [e.args["modifier"] for e in events(c, "activity.assassination")] == [0, 0]


def test_the_monarch_minus_one_and_his_death_ends_the_turn() -> None:
    """13.4.8 (-1), 9.2-9.4: the heir is crowned, every office vacant, the turn ends:
    no more activities nor Player Turns; the next turn is a Court Ball."""
    c = _court(assassination=[4, 6], support=[3, 4], justice=[2])
    c.orders = {"ann": _orders("DO ASSASSINATE King George BY Duke Roland\n"
                               "DO DRAW EVENT")}
    player.player_turns(c)
    assert _result(c)["modifier"] == -1 and not c.royals["george"].alive
    assert c.monarch() == "alan" and c.phase is Phase.MOURNING
    assert c.next_crown_event == "court_ball" and events(c, "activity.draw") == []
    assert [e.actor for e in events(c, "turn.player")] == ["ann"]
    assert c.players["bob"].opportunity == ()


def test_assassinate_orders_round_trip() -> None:
    parsed = parse_orders("DO ASSASSINATE King George BY Duke Roland WITH 2 CARDS\n"
                          "DO SCANDAL 32 WITH 2 CARDS", TABLES)
    assert parsed.normal_form == ("DO ASSASSINATE King George BY 42 WITH 2 CARDS",)
    assert [e.line for e in parsed.errors] == [2]
    again = parse_orders(parsed.normal_form[0], TABLES)
    assert again.orders == parsed.orders and again.normal_form == parsed.normal_form


def test_a_privateer_captain_at_sea_cannot_be_assassinated() -> None:
    """13.4.17.1: while he is captain of a privateer at sea he cannot be assassinated."""

    c = _court()
    c.set_char(MAXWELL, owner="bob", henchman="henchman-2")
    with_player(c, "bob", voyage=Voyage(captain=MAXWELL, launched=c.turn))
    with pytest.raises(Refused, match="target_out_of_reach"):
        _do(c, "DO ASSASSINATE Earl Maxwell")
    assert c.players["ann"].hand == ("dwtk-1", "assassination-1", "assassination-2")
