"""Rule cases for Intrigue An Opponent's Card, DWTK 13.4.12 (12.3.1, 12.3.3, 14.5.7,
36.10.1).  The dealt game (seed 1): Ann, Bob and Cid; Bob's PC is 64."""

from __future__ import annotations

import pytest

from moderator.games.dwtk import player
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    events,
    with_player,
)

PLAYERS = {"ann": "Ann", "bob": "Bob", "cid": "Cid"}


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    with_player(c, "ann", hand=("dwtk-1", "intrigue-1"), opportunity=())
    with_player(c, "bob", hand=("dwtk-2", "informer-1", "evidence-1", "alibi-1"))
    return c


def _do(c: Court, text: str) -> None:
    parsed = parse_orders(text, TABLES, PLAYERS)
    assert parsed.errors == ()
    player.do(c, "ann", TurnOrders.from_dict(parsed.orders).activities[0])


def test_an_intrigue_card_takes_a_legal_card_from_an_opponent() -> None:
    """14.5.7: the Intrigue card is played (no counter); the card drawn at random from the
    sorted hand (alibi, dwtk, evidence, informer): 3 → evidence, discarded."""
    c = _court(intrigue=[3])
    _do(c, "DO INTRIGUE Bob")
    assert c.players["bob"].hand == ("dwtk-2", "informer-1", "alibi-1")
    assert c.players["ann"].hand == ("dwtk-1",) and "evidence-1" in c.discards
    assert events(c, "intrigue.drawn")[0].args["by"] == "ann"


def test_an_illegal_card_stays_and_its_owner_is_accused() -> None:
    """13.4.12: DOWN WITH THE KING stays in his hand; his PC is accused, +2 (23.3); the
    Intrigue counter spares the card (12.3.3).  1 + 2 ≥ Status 2: a hearing, 2 - 1 < 2."""
    c = _court(intrigue=[2], justice=[1, 1, 1])
    with_player(c, "ann", opportunity=("intrigue-1",))
    _do(c, "DO INTRIGUE Bob")
    assert "dwtk-2" in c.players["bob"].hand and "intrigue-1" in c.players["ann"].hand
    accused = events(c, "justice.accused")[0].args
    assert (accused["character"], accused["roll"], accused["result"]) == ("64", 3, "hearing")


def test_never_three_cards_or_fewer_nor_a_farc_monarch_s_player() -> None:
    c = _court()
    with_player(c, "cid", hand=("dwtk-3", "informer-2", "alibi-2"))
    with pytest.raises(Refused, match="spared"):
        _do(c, "DO INTRIGUE Cid")
    c.set_royal("george", owner="bob")
    with pytest.raises(Refused, match="spared"):
        _do(c, "DO INTRIGUE Bob")
    with pytest.raises(Refused, match="not_an_opponent"):
        _do(c, "DO INTRIGUE Ann")
    assert c.players["ann"].hand == ("dwtk-1", "intrigue-1")


def test_intrigue_orders_round_trip() -> None:
    parsed = parse_orders("DO INTRIGUE bob\nDO INTRIGUE Zed", TABLES, PLAYERS)
    assert parsed.normal_form == ("DO INTRIGUE Bob",) and [e.line for e in parsed.errors] == [2]
    again = parse_orders(parsed.normal_form[0], TABLES, PLAYERS)
    assert again.orders == parsed.orders and again.normal_form == parsed.normal_form
