"""Rule cases for Recruit A Character By Treachery, DWTK 13.4.14 (11.3, 12.3.1, 12.3.3,
14.5.7, 14.5.11, 17.4, 17.6, 18.7, 20.6.4, 35.4, 36.10.5, 7.10.1).

The dealt game (seed 1): Ann's PC Sir Charles (24), Bob's PC Baroness Eleanor (64).
Earl Maxwell (32, Status 3) is made Bob's FAC and henchman, Duke Roland (42) Ann's
henchman, Prince Alan Bob's FARC where needed.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import counters, player
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.state import Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import TABLES, checked_court, events, with_player

MAXWELL, ROLAND = 32, 42


def _court() -> Court:
    c = checked_court({})
    for p in c.players:
        with_player(c, p, pp=40, ip=10, opportunity=(),
                    hand=(f"dwtk-{'abc'.index(p[0]) + 1}",))
    with_player(c, "ann", opportunity=("intrigue-1",), hand=("dwtk-1", "treachery-1"))
    c.set_char(MAXWELL, owner="bob", henchman="henchman-3")
    if MAXWELL in c.loyalty_pool:
        c.loyalty_pool.remove(MAXWELL)  # a FAC's counter is on his card (11.3)
    c.set_char(ROLAND, owner="ann", henchman="henchman-6")
    return c


def _do(c: Court, text: str) -> None:
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    player.do(c, "ann", TurnOrders.from_dict(parsed.orders).activities[0])


def _refused(c: Court, text: str, reason: str) -> None:
    with pytest.raises(Refused) as refused:
        _do(c, text)
    assert refused.value.reason == reason


def test_an_eac_changes_sides_with_an_intrigue_counter_and_a_treachery_card() -> None:
    """13.4.14: no roll; the Treachery card is discarded, the Intrigue counter spent; his
    Loyalty counter stays on his card (11.3); no longer Bob's henchman (17.4)."""
    c = _court()
    _do(c, "DO TREACHERY Earl Maxwell")
    maxwell = c.char(MAXWELL)
    assert (maxwell.owner, maxwell.henchman) == ("ann", None)
    assert {"treachery-1", "henchman-3"} <= set(c.discards)
    assert MAXWELL not in c.loyalty_pool and c.players["ann"].hand == ("dwtk-1",)
    assert counters.unused(c, "ann", "intrigue") is None
    assert events(c, "activity.treachery")[0].args == {
        "character": str(MAXWELL), "former": "bob", "any_activity": False}


def test_what_an_attempt_needs_and_nothing_is_spent_when_refused() -> None:
    """13.4.14, 12.3.3: an Intrigue counter and a Treachery card; the PP for his Status
    (35.4); never a PC or an NC."""
    c = _court()
    with_player(c, "ann", opportunity=())
    _refused(c, "DO TREACHERY Earl Maxwell", "no_intrigue_counter")
    with_player(c, "ann", opportunity=("intrigue-1",), hand=("dwtk-1",))
    _refused(c, "DO TREACHERY Earl Maxwell", "no_card:treachery")
    with_player(c, "ann", hand=("dwtk-1", "treachery-1"), pp=2)
    _refused(c, "DO TREACHERY Earl Maxwell", "pp")
    with_player(c, "ann", pp=40)
    _refused(c, "DO TREACHERY Baroness Eleanor", "not_an_eac")  # Bob's PC
    _refused(c, "DO TREACHERY Earl Francis", "not_an_eac")  # an NC
    _refused(c, "DO TREACHERY Duke Roland", "not_an_eac")  # his own
    assert counters.unused(c, "ann", "intrigue") == "intrigue-1"
    assert c.players["ann"].hand == ("dwtk-1", "treachery-1")


def test_never_married_held_stuck_at_war_or_abroad_alone() -> None:
    """18.7 married; 13.4.14 imprisoned or hiding; 7.10.1 stuck at war; 17.6, 20.6.4:
    abroad only where his PC or a henchman is."""
    c = _court()
    c.set_char(MAXWELL, spouse="65")
    _refused(c, "DO TREACHERY Earl Maxwell", "married")
    c.set_char(MAXWELL, spouse=None, situation=Situation.HIDING)
    _refused(c, "DO TREACHERY Earl Maxwell", "situation")
    c.set_char(MAXWELL, situation=Situation.NORMAL, location="epalin")
    c.wars.append("epalin")
    _refused(c, "DO TREACHERY Earl Maxwell", "situation")
    c.wars.clear()
    _refused(c, "DO TREACHERY Earl Maxwell", "not_in_the_same_country")
    c.set_char(ROLAND, location="epalin")
    _do(c, "DO TREACHERY Earl Maxwell")  # Ann's henchman is in Epalin too
    assert c.char(MAXWELL).owner == "ann"


def test_an_earc_never_george_thomas_or_a_farc_monarch() -> None:
    """13.4.14, 36.10.5: an EARC comes over on his Royal Alignment card; King George,
    Thomas and a FARC Monarch never; an Intrigue card stands in for the counter (14.5.7)."""
    c = _court()
    for royal in ("george", "thomas", "alan"):
        c.set_royal(royal, owner="bob")
    c.set_royal("alan", card="align_alan-1")
    _refused(c, "DO TREACHERY King George", "never")
    _refused(c, "DO TREACHERY Thomas", "never")
    c.offices["monarch"] = "alan"
    _refused(c, "DO TREACHERY Prince Alan", "farc_monarch")
    c.offices["monarch"] = "george"
    with_player(c, "ann", opportunity=(), hand=("dwtk-1", "intrigue-1", "treachery-1"))
    _do(c, "DO TREACHERY Prince Alan")
    assert (c.royals["alan"].owner, c.royals["alan"].card) == ("ann", "align_alan-1")
    assert {"intrigue-1", "treachery-1"} <= set(c.discards)


def test_the_any_activity_counter_needs_no_card_but_the_pp() -> None:
    """12.3.1: the Any Activity counter alone; the FARC's Status must fit (35.4)."""
    c = _court()
    c.set_royal("alan", owner="bob", card="align_alan-1")
    with_player(c, "ann", opportunity=("any_activity-1",), hand=("dwtk-1",), pp=1)
    _refused(c, "DO TREACHERY Prince Alan", "pp")
    with_player(c, "ann", pp=40)
    _do(c, "DO TREACHERY Prince Alan")
    assert c.royals["alan"].owner == "ann"
    assert events(c, "activity.treachery")[0].args["any_activity"] is True
    assert counters.unused(c, "ann", "any_activity") is None


def test_treachery_orders_round_trip() -> None:
    """13.4.14: ``DO TREACHERY <who>``, a noble or a royal, in canonical form."""
    for text, canonical in (("DO TREACHERY prince alan", "DO TREACHERY Prince Alan"),
                            ("do treachery 32", "DO TREACHERY 32")):
        parsed = parse_orders(text, TABLES)
        assert parsed.errors == () and parsed.normal_form == (canonical,)
        again = parse_orders(canonical, TABLES)
        assert again.orders == parsed.orders and again.normal_form == parsed.normal_form


def test_his_counselor_card_goes_with_the_change_of_sides_and_is_shown() -> None:
    """14.2.4: a Monarch's Counselor card is discarded when he becomes an EAC (of the player
    who loses him); 14.2.2: the discard is shown to all as Bob's."""
    c = _court()
    c.set_char(MAXWELL, henchman=None, counselor="monarchs_counselor-2")
    _do(c, "DO TREACHERY Earl Maxwell")
    assert c.char(MAXWELL).counselor is None and "monarchs_counselor-2" in c.discards
    shown = events(c, "cards.discarded")
    assert [(e.args["player"], e.args["cards"], e.public) for e in shown] == [
        ("bob", ["monarchs_counselor"], True)]
