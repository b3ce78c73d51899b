"""Rule cases for Expose A Scandal, DWTK 13.4.9 and 22 (scripted dice).

The dealt game (seed 1): Ann's PC Sir Charles (24); Earl Maxwell (32) an NC; Duke
Roland (42, Status 5) an NC made Ann's henchman where needed.
"""

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
    react,
    with_player,
)

MAXWELL, ROLAND = 32, 42


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    with_player(c, "ann", pp=40, ip=10, opportunity=("scandal-1",))
    return c


def _do(c: Court, text: str) -> None:
    orders = TurnOrders.from_dict(parse_orders(text, TABLES).orders)
    player.do(c, "ann", orders.activities[0])


def test_a_scandal_counter_is_needed_and_rcs_are_never_objects() -> None:
    """13.4.9, 12.3.4, 22."""
    c = _court()
    with_player(c, "ann", opportunity=())
    with pytest.raises(Refused, match="no_scandal_counter"):
        _do(c, "DO SCANDAL Earl Maxwell")
    with_player(c, "ann", opportunity=("scandal-1",))
    with pytest.raises(Refused, match="not_a_noble"):
        _do(c, "DO SCANDAL Prince Alan")


def test_the_exposer_s_informers_subtract_one_each() -> None:
    """13.4.9: the exposing player's Informer -1 each (the object is an NC)."""
    c = _court(scandal=[5, 6])
    with_player(c, "ann", hand=("dwtk-1", "informer-1"))
    react(c, "ann", "IF I EXPOSE ANYONE THEN PLAY Informer")
    _do(c, "DO SCANDAL Earl Maxwell")
    assert events(c, "scandal.exposed")[0].args["accuser"] == "24"
    result = events(c, "scandal.result")[0].args
    assert result["total"] == 10 and result["effects"] == []


def test_eleven_or_more_accuses_the_exposing_henchman() -> None:
    """22 (PROPOSED rows 11-12), 17.2.1: the henchman who exposed it is accused."""
    c = _court(scandal=[5, 6], justice=[2])
    c.set_char(ROLAND, owner="ann", henchman="henchman-1")
    _do(c, "DO SCANDAL Earl Maxwell BY Duke Roland")
    accused = events(c, "justice.accused")[0].args
    assert (accused["character"], accused["cause"], accused["result"]) == (
        str(ROLAND), "scandal_exposed", "innocent")  # 2 < Status 5
    assert events(c, "rule.pending") == []


def test_a_henchman_abroad_cannot_expose_a_scandal() -> None:
    """17.6: abroad a henchman may only attempt assassinations."""
    c = _court()
    c.set_char(ROLAND, owner="ann", henchman="henchman-1", location="epalin")
    with pytest.raises(Refused, match="not_a_henchman"):
        _do(c, "DO SCANDAL 32 BY 42")


def test_scandal_orders_round_trip() -> None:
    parsed = parse_orders("DO SCANDAL Earl Maxwell BY Duke Roland\nDO SCANDAL 32, 33",
                          TABLES)
    assert parsed.normal_form == ("DO SCANDAL 32 BY 42",)
    assert [e.line for e in parsed.errors] == [2]
    again = parse_orders(parsed.normal_form[0], TABLES)
    assert again.orders == parsed.orders and again.errors == ()


def test_the_any_activity_counter_exposes_a_scandal_and_a_counter_serves_once() -> None:
    """12.3.1 (Expose A Scandal is one of the Any Activity counter's activities), 12.3.4:
    a counter serves one activity a turn — a second exposure with it is refused."""
    c = _court(scandal=[3, 4])
    with_player(c, "ann", opportunity=("any_activity-1",))
    _do(c, "DO SCANDAL Earl Maxwell")
    assert events(c, "scandal.exposed")
    with pytest.raises(Refused, match="no_scandal_counter"):
        _do(c, "DO SCANDAL Duke Roland")
