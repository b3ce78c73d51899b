"""Rule cases for usurpation, DWTK 36 (scripted dice), the Support cards' Usurpation
Values (14.5.2, 7.10.5, 7.11, 33.4) and the victory count and draw (37).

The dealt game (seed 1): King George Monarch, married to Queen Catherine; Support 70;
Ann's PC Sir Charles (24), Bob's PC 64, Cid's PC 26; player order Ann, Bob, Cid.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import phases, player, status, usurpation
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.usurp import UsurpOrder
from moderator.games.dwtk.state import OpenProblem, Phase
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.succession import kill_royal
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    events,
    with_player,
)


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10, hand=(f"dwtk-{'abc'.index(p[0]) + 1}",))
    return c


def _orders(text: str) -> TurnOrders:
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    return TurnOrders.from_dict(parsed.orders)


def _attempt(c: Court) -> dict:  # type: ignore[type-arg]
    return events(c, "usurp.attempt")[0].args


def test_support_card_values_boosted_fixed_and_at_their_maximum_in_a_crisis() -> None:
    """14.5.2: a FAC, the Crown Event or a problem raises the multiplier; 7.10.5 war fixes
    Army Support at 1dx4 even with the General; 7.11 Pirates Navy Support at 1dx2; 33.4 a
    crisis gives the maximum (6 x the boosted multiplier, no roll)."""
    c = _court(usurpation=[2, 2, 2, 2, 2])
    army = TABLES.card_kind("army_support").support
    peasant = TABLES.card_kind("peasant_support").support
    navy = TABLES.card_kind("navy_support").support
    assert army and peasant and navy
    assert usurpation.multiplier(c, "ann", army) == 7
    c.set_char(53, owner="ann")
    assert usurpation.multiplier(c, "ann", army) == 10
    c.wars = ["epalin"]
    assert usurpation.multiplier(c, "ann", army) == 4
    assert usurpation.multiplier(c, "ann", peasant) == 4
    c.crown_event = "famine"
    assert usurpation.multiplier(c, "ann", peasant) == 8
    c.problems = [OpenProblem("pirates")]
    assert usurpation.multiplier(c, "ann", navy) == 2
    assert usurpation.support_value(c, "ann", "army_support-1") == 8
    c.support = 0
    assert usurpation.support_value(c, "ann", "army_support-1") == 60
    assert usurpation.support_value(c, "ann", "peasant_support-1") == 48
    c.support = 70
    for _ in range(4):
        usurpation.support_value(c, "ann", "navy_support-1")


def test_what_an_attempt_needs() -> None:
    """36.2-36.3: his FARC if he has one (Thomas then refused), never another's royal;
    the Support cards named must be in his hand; never against his own FARC Monarch."""
    c = _court()
    c.set_royal("alan", owner="ann", card="align_alan-1")
    with pytest.raises(Refused, match="has_farc"):
        usurpation.attempt(c, "ann", UsurpOrder("thomas"))
    with pytest.raises(Refused, match="not_farc"):
        usurpation.attempt(c, "ann", UsurpOrder("john"))
    with pytest.raises(Refused, match="no_card:army_support"):
        usurpation.attempt(c, "ann", UsurpOrder(None, ("army_support",)))
    c.offices["monarch"] = "alan"
    with pytest.raises(Refused, match="own_monarch"):
        usurpation.attempt(c, "ann", UsurpOrder())
    assert c.events == [] and c.players["ann"].hand == ("dwtk-1",)


def test_a_failed_usurpation_with_thomas_kills_the_pc_and_discards_the_cards() -> None:
    """36.3 Thomas half a die rounded up; 36.5 George's value, the NCs and NRCs, Catherine's
    value +10, Support 70 → +20; 36.7 the PC dies, the cards played are discarded, Thomas
    stays an NRC (31.2); his Player Turn ends there (31.5)."""
    c = _court(usurpation=[5, 2, 6, 6, 6])
    with_player(c, "ann", hand=("dwtk-1", "army_support-1"))
    c.orders = {"ann": _orders("USURP SUPPORT Army Support\nCOUNSEL Make An Example ON "
                               "Lawlessness NAMING 32")}
    player.player_turns(c)
    a = _attempt(c)
    assert a["attack"] == {"royal": 3, "pc": 2 * status.status(c, 24) if c.char(24).spouse
                           else status.status(c, 24), "faction": 0, "support_cards": 14}
    assert a["defence"]["monarch"] == 36 and a["defence"]["consort"] == 22
    assert a["defence"]["support"] == 20 and a["success"] is False
    assert a["total"] < a["against"] and c.monarch() == "george"
    assert c.char(24).face_down_until == c.turn + 2 and "army_support-1" in c.discards
    assert c.royals["thomas"].alive and c.royals["thomas"].owner is None
    assert not c.turn_over and [e.actor for e in events(c, "turn.player")] == [
        "ann", "bob", "cid"]
    assert events(c, "counsel.made") == [] and events(c, "counsel.refused") == []


def test_a_successful_usurpation_crowns_the_farc_and_the_turn_continues() -> None:
    """33.4 (crisis: Army Support at 60 each), 36.5.4 (Support 0: -25), 36.6: George dies
    with no succession, Alan is Monarch and a FARC, the Support is rolled again, the next
    Crown Event is a Court Ball, no office is emptied, the played cards stay in front; the
    turn goes on (9.4 not followed); 36.10.6 Ten PP and Ten IP."""
    c = _court(usurpation=[3, 3, 1, 1, 1], support=[5, 5])
    c.support = 0
    c.set_royal("alan", owner="ann", card="align_alan-1")
    with_player(c, "ann", hand=("dwtk-1", "army_support-1", "army_support-2"))
    offices = dict(c.offices)
    c.orders = {"ann": _orders("USURP WITH Alan SUPPORT ALL")}
    player.player_turns(c)
    a = _attempt(c)
    assert a["attack"]["royal"] == 12 and a["attack"]["support_cards"] == 120
    assert a["defence"]["support"] == -25 and a["success"] is True
    assert c.monarch() == "alan" and not c.royals["george"].alive
    assert c.royals["alan"].owner == "ann" and c.royals["alan"].usurper_of == "ann"
    assert c.players["ann"].supports_played == ("army_support-1", "army_support-2")
    assert (c.players["ann"].ip, c.players["ann"].pp) == (20, 50)
    assert c.support == 100 and c.next_crown_event == "court_ball"
    assert {k: v for k, v in c.offices.items() if k != "monarch"} == \
        {k: v for k, v in offices.items() if k != "monarch"}
    assert not c.turn_over and c.phase is Phase.ORDERS
    assert [e.actor for e in events(c, "turn.player")] == ["ann", "bob", "cid"]
    assert status.faction_load(c, "ann") == 0  # 36.10.6


def test_a_farc_monarch_is_defended_by_his_player_and_jane_halves_him() -> None:
    """36.8: the FARC Monarch's player counts his PC, FACs and every Support card (PROPOSED:
    all of his hand and those in front of him); Jane as the usurper's only FARC means
    Thomas is used (36.3) and the male Monarch's value is halved (36.8.1); 36.9: the FARC
    Monarch and his player's PC die, his Support cards are lost."""
    c = _court(usurpation=[6, 6, 5], support=[2, 2])
    c.support = 0
    kill_royal(c, "george", "test", succeed=False)
    c.offices["monarch"] = "alan"
    c.set_royal("alan", owner="bob", usurper_of="bob")
    c.set_royal("jane", owner="ann", card="align_jane-1")
    with_player(c, "bob", hand=("dwtk-2", "army_support-1"), supports_played=("navy_support-1",))
    with_player(c, "ann", hand=("dwtk-1", *(f"peasant_support-{i}" for i in range(1, 6))))
    usurpation.attempt(c, "ann", UsurpOrder(None, (), True))
    a = _attempt(c)
    assert a["royal"] == "thomas" and a["attack"]["royal"] == 3
    assert a["defence"]["monarch"] == 11 and a["defence"]["support_cards"] == 60 + 30
    assert a["attack"]["support_cards"] == 240 and a["success"] is True
    assert c.monarch() == "thomas" and c.royals["thomas"].owner == "ann"
    assert not c.royals["alan"].alive and c.char(64).face_down_until == c.turn + 2
    assert c.players["bob"].supports_played == ()
    assert {"army_support-1", "navy_support-1"} <= set(c.discards)


def test_a_farc_monarch_who_dies_costs_his_player_the_next_turn() -> None:
    """36.11: succeeded normally (9), and his player loses his next Player Turn."""
    c = _court(support=[3, 3])
    kill_royal(c, "george", "test", succeed=False)
    c.offices["monarch"] = "john"
    c.set_royal("john", owner="bob", usurper_of="bob")
    kill_royal(c, "john", "royal_death")
    assert c.monarch() == "alan" and c.turn + 1 in c.players["bob"].lost_turns
    assert c.phase is Phase.MOURNING


def test_three_full_turns_win_and_the_turn_of_the_usurpation_is_not_full() -> None:
    """37: the turn he takes the throne counts 0; the third full turn after it wins."""
    c = _court()
    c.farc_monarch_turns = -1  # as usurpation._crown leaves it
    c.offices["monarch"] = "alan"
    c.set_royal("alan", owner="ann", usurper_of="ann")
    for expected in (0, 1, 2):
        phases.end_of_turn(c)
        assert c.farc_monarch_turns == expected and c.winner is None
    phases.end_of_turn(c)
    assert c.winner == "ann" and c.phase is Phase.OVER


def test_the_last_rc_who_can_succeed_dies_and_the_game_is_drawn() -> None:
    """37: with Thomas on the throne by usurpation, the death of the last RC in the line
    of succession draws the game at once."""
    c = _court()
    c.offices["monarch"] = "thomas"
    c.set_royal("thomas", owner="ann", usurper_of="ann")
    for key in ("george", "alan", "anne", "john", "edward", "almery", "catherine"):
        kill_royal(c, key, "test")
    assert not c.drawn_game
    kill_royal(c, "alfred", "test")
    assert c.drawn_game and c.phase is Phase.OVER and events(c, "game.drawn")


def test_usurp_orders_round_trip_and_errors_are_collected() -> None:
    parsed = parse_orders("USURP WITH Prince Alan SUPPORT Army Support, army support", TABLES)
    assert parsed.normal_form == ("USURP WITH Prince Alan SUPPORT Army Support, Army Support",)
    again = parse_orders(parsed.normal_form[0], TABLES)
    assert again.orders == parsed.orders and again.normal_form == parsed.normal_form
    assert TurnOrders.from_dict(parsed.orders).to_dict() == parsed.orders
    for text in ("USURP", "USURP SUPPORT ALL", "USURP WITH Thomas (the Pretender)"):
        p = parse_orders(text, TABLES)
        assert p.errors == () and p.normal_form == (text,)
        assert parse_orders(p.normal_form[0], TABLES).orders == p.orders
    errors = parse_orders("USURP WITH Jane\nUSURP SUPPORT Pardon\nUSURP\nUSURP", TABLES).errors
    assert [e.line for e in errors] == [1, 2, 4] and all(e.hint for e in errors)
