"""Rule cases for the Escape activity (DWTK 13.4.10, 14.5.13-14.5.15, 25.9, 30.6, 31.6).

The dealt game (seed 1): Ann's PC Sir Charles (24); Duke Roland (42) made Ann's FAC.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import player
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.state import FANDONIA, Fate, Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    events,
    react,
    with_player,
)

PC, ROLAND = 24, 42


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10, hand=(f"dwtk-{'abc'.index(p[0]) + 1}",))
    c.set_char(ROLAND, owner="ann")
    return c


def _do(c: Court, text: str) -> None:
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    player.do(c, "ann", TurnOrders.from_dict(parsed.orders).activities[0])


def test_an_imprisoned_pc_escapes_with_an_escape_card_and_is_a_hiding_wrongdoer() -> None:
    """30.3/30.6: an imprisoned PC may escape; he hides abroad, a wrongdoer who goes back to
    prison if he returns (fate); 31.6 one awaiting execution is executed on return."""
    c = _court()
    c.set_char(PC, situation=Situation.IMPRISONED, wrongdoer=True, since=c.turn - 1)
    with_player(c, "ann", hand=("dwtk-1", "escape-1", "escape-2"))
    _do(c, "DO ESCAPE PC TO Cronos")
    pc = c.char(PC)
    assert (pc.situation, pc.location, pc.fate, pc.wrongdoer) == (
        Situation.HIDING, "cronos", "prison", True)
    assert "escape-1" in c.discards and events(c, "justice.escape")[0].args["negated"] is False
    c.set_char(ROLAND, situation=Situation.AWAITING_EXECUTION, wrongdoer=True)
    _do(c, "DO ESCAPE Duke Roland TO Epalin")
    assert c.char(ROLAND).fate is Fate.EXECUTION


def test_prison_guards_free_from_prison_and_negate_an_escape_from_prison() -> None:
    """14.5.14: a Prison Guards card for the escape; any player's FREES reaction with
    Prison Guards negates it; the card is spent all the same; Port Guards do not help."""
    c = _court()
    c.set_char(ROLAND, situation=Situation.IMPRISONED, wrongdoer=True)
    with_player(c, "ann", hand=("dwtk-1", "prison_guards-1", "port_guards-1"))
    with_player(c, "bob", hand=("dwtk-2", "prison_guards-2", "port_guards-2"))
    react(c, "bob", "IF ANYONE FREES ANYONE THEN PLAY Port Guards",
          "IF ANYONE FREES ANYONE THEN PLAY Prison Guards")
    with pytest.raises(Refused, match="port_guards_only_from_hiding_in_fandonia"):
        _do(c, "DO ESCAPE 42 TO Epalin WITH PORT GUARDS")
    _do(c, "DO ESCAPE 42 TO Epalin WITH PRISON GUARDS")
    assert c.char(ROLAND).situation is Situation.IMPRISONED
    assert events(c, "justice.escape")[0].args["negated"] is True
    assert c.players["bob"].hand == ("dwtk-2", "port_guards-2")
    assert "prison_guards-1" in c.discards and "prison_guards-2" in c.discards


def test_from_hiding_in_fandonia_port_guards_and_the_any_activity_counter() -> None:
    """14.5.15 Port Guards from hiding in Fandonia; 12.3.1 the Any Activity counter needs
    no card; a non-wrongdoer stays one."""
    c = _court()
    c.set_char(ROLAND, situation=Situation.HIDING)
    with_player(c, "ann", opportunity=("any_activity-1",))
    _do(c, "DO ESCAPE 42 TO Sandarkan")
    roland = c.char(ROLAND)
    assert (roland.location, roland.wrongdoer) == ("sandarkan", False)
    assert events(c, "justice.escape")[0].args["card"] is None


def test_from_hiding_abroad_into_a_country_that_hunts_him_returns_him() -> None:
    """25.9: an Escape card from one country to another; never into a country already
    hunting him (back to Fandonia for justice, 25.10); never from a normal situation."""
    c = _court()
    with_player(c, "ann", hand=("dwtk-1", "escape-1", "escape-2"))
    with pytest.raises(Refused, match="not_imprisoned_or_hiding"):
        _do(c, "DO ESCAPE 42 TO Cronos")
    c.set_char(ROLAND, situation=Situation.HIDING, wrongdoer=True, fate=Fate.PRISON,
               location="epalin", hunted=("epalin", "cronos"))
    _do(c, "DO ESCAPE 42 TO Cronos")
    roland = c.char(ROLAND)
    assert (roland.location, roland.situation) == (FANDONIA, Situation.IMPRISONED)


def test_escape_orders_round_trip() -> None:
    parsed = parse_orders("DO ESCAPE PC TO the city states with prison guards\n"
                          "DO ESCAPE 42 TO Fandonia", TABLES)
    assert parsed.normal_form == ("DO ESCAPE PC TO The City States WITH PRISON GUARDS",)
    assert [e.line for e in parsed.errors] == [2]
    again = parse_orders(parsed.normal_form[0], TABLES)
    assert again.orders == parsed.orders and again.normal_form == parsed.normal_form
