"""Rule cases for Seduce A Character, DWTK 13.4.15 (11.3, 12.3.1, 12.3.3, 14.5.11, 17.4,
18.7, 20.6.4, 35.4, 7.10.1), with scripted dice.

The dealt game (seed 1): Ann's PC Sir Charles (24), Bob's PC Baroness Eleanor (64,
Seduction 4).  Lady Victoria (56, Seduction 5) is made Ann's FAC and henchman; Earl
Maxwell (32) is Bob's FAC where needed; Sir Guy (12) is an NC whose Loyalty counter
is in the container.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import counters, player
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.state import Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import TABLES, checked_court, events, react, with_player

GUY, MAXWELL, VICTORIA = 12, 32, 56


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10, opportunity=(),
                    hand=(f"dwtk-{'abc'.index(p[0]) + 1}",))
    with_player(c, "ann", opportunity=("intrigue-1",))
    for cid, owner in ((VICTORIA, "ann"), (MAXWELL, "bob")):
        c.set_char(cid, owner=owner)
        if cid in c.loyalty_pool:
            c.loyalty_pool.remove(cid)
    c.set_char(VICTORIA, henchman="henchman-6")
    return c


def _do(c: Court, text: str, who: str = "ann") -> None:
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    player.do(c, who, TurnOrders.from_dict(parsed.orders).activities[0])


def _refused(c: Court, text: str, reason: str) -> None:
    with pytest.raises(Refused) as refused:
        _do(c, text)
    assert refused.value.reason == reason


def _result(c: Court) -> tuple[int | None, str]:
    args = events(c, "activity.seduction")[-1].args
    return args["roll"], args["result"]


def test_below_her_rating_an_nc_joins_and_his_counter_goes_on_his_card() -> None:
    """13.4.15: 1d6 below the Seduction Rating (5): he becomes a FAC; the NC's Loyalty
    counter leaves the container for his card; the Intrigue counter is spent."""
    c = _court(seduction=[4])
    assert GUY in c.loyalty_pool
    _do(c, "DO SEDUCE Sir Guy BY Lady Victoria")
    assert _result(c) == (4, "seduced")
    assert c.char(GUY).owner == "ann" and GUY not in c.loyalty_pool
    assert counters.unused(c, "ann", "intrigue") is None


def test_his_counter_drawn_by_another_player_this_turn_goes_on_his_card_too() -> None:
    """13.4.15: 'remove the character's Loyalty counter' — also from a player's draw."""
    c = _court(seduction=[1])
    c.loyalty_pool.remove(GUY)
    with_player(c, "cid", loyalty=(GUY, 43))
    _do(c, "DO SEDUCE Sir Guy BY Lady Victoria")
    assert c.char(GUY).owner == "ann" and c.players["cid"].loyalty == (43,)


def test_at_or_above_her_rating_nothing_happens() -> None:
    """13.4.15: equal to the rating (5) is no effect; an EAC stays his player's."""
    c = _court(seduction=[5])
    _do(c, "DO SEDUCE Earl Maxwell BY Lady Victoria")
    assert _result(c) == (5, "no_effect") and c.char(MAXWELL).owner == "bob"


def test_an_eac_seduced_leaves_his_henchman_card_and_keeps_his_counter() -> None:
    """13.4.15, 17.4, 11.3: Bob's henchman becomes Ann's FAC; the card is discarded."""
    c = _court(seduction=[2])
    c.set_char(MAXWELL, henchman="henchman-3")
    _do(c, "DO SEDUCE Earl Maxwell BY Lady Victoria")
    assert (c.char(MAXWELL).owner, c.char(MAXWELL).henchman) == ("ann", None)
    assert "henchman-3" in c.discards and MAXWELL not in c.loyalty_pool


def test_any_player_s_treachery_negates_it_before_the_die() -> None:
    """14.5.11, 13.4.15: Cid's SEDUCES reaction plays Treachery: no die is rolled; the
    Intrigue counter is spent all the same."""
    c = _court()
    with_player(c, "cid", hand=("dwtk-3", "treachery-1", "treachery-2"))
    react(c, "cid", "IF AN OPPONENT SEDUCES ANYONE THEN PLAY 2 Treachery")
    _do(c, "DO SEDUCE Earl Maxwell BY Lady Victoria")
    assert _result(c) == (None, "negated") and c.char(MAXWELL).owner == "bob"
    assert c.players["cid"].hand == ("dwtk-3", "treachery-2")  # one card is enough
    assert counters.unused(c, "ann", "intrigue") is None


def test_a_six_wins_her_over_to_his_side_if_its_pp_allow() -> None:
    """13.4.15: a '6' — she becomes Bob's FAC (her Henchman card discarded, 17.4); if
    Bob's PP do not allow her she remains Ann's."""
    c = _court(seduction=[6, 6])
    with_player(c, "bob", pp=3)  # Maxwell's 3 already: no room for Victoria's 1
    _do(c, "DO SEDUCE Earl Maxwell BY Lady Victoria")
    assert _result(c) == (6, "love_no_pp") and c.char(VICTORIA).owner == "ann"
    with_player(c, "bob", pp=40, opportunity=())
    with_player(c, "ann", opportunity=("intrigue-2",))
    _do(c, "DO SEDUCE Earl Maxwell BY Lady Victoria")
    assert _result(c) == (6, "love")
    assert (c.char(VICTORIA).owner, c.char(VICTORIA).henchman) == ("bob", None)
    assert "henchman-6" in c.discards and c.char(MAXWELL).owner == "bob"


def test_a_six_with_an_nc_makes_her_an_nc_and_a_pc_is_never_won_over() -> None:
    """13.4.15 (PROPOSED reading): with an NC there is no opponent whose PP could fail:
    she becomes an NC and her Loyalty counter returns to the container (35.5.1).  Bob's
    PC (Seduction 4) seducing on a '6' stays his PC."""
    c = _court(seduction=[6, 6])
    _do(c, "DO SEDUCE Sir Guy BY Lady Victoria")
    assert _result(c) == (6, "love")
    assert c.char(VICTORIA).owner is None and VICTORIA in c.loyalty_pool
    assert c.char(GUY).owner is None
    with_player(c, "bob", opportunity=("any_activity-1",))
    _do(c, "DO SEDUCE Sir Guy BY PC", who="bob")
    assert _result(c) == (6, "love_pc_stays") and c.char(64).owner == "bob"


def test_who_may_seduce() -> None:
    """13.4.15, 12.3.3: an Intrigue counter; a female PC or FAC, unmarried, not held or
    stuck at war; PP for him (35.4).  Nothing is spent when refused."""
    c = _court()
    with_player(c, "ann", opportunity=())
    _refused(c, "DO SEDUCE Sir Guy BY Lady Victoria", "no_intrigue_counter")
    with_player(c, "ann", opportunity=("intrigue-1",))
    _refused(c, "DO SEDUCE Sir Guy BY PC", "not_female")
    _refused(c, "DO SEDUCE Sir Guy BY Baroness Eleanor", "not_pc_or_fac")
    c.set_char(VICTORIA, spouse="23")
    _refused(c, "DO SEDUCE Sir Guy BY Lady Victoria", "married")
    c.set_char(VICTORIA, spouse=None, situation=Situation.HIDING)
    _refused(c, "DO SEDUCE Sir Guy BY Lady Victoria", "situation")
    c.set_char(VICTORIA, situation=Situation.NORMAL)
    with_player(c, "ann", pp=1)  # Victoria's 1 already
    _refused(c, "DO SEDUCE Sir Guy BY Lady Victoria", "pp")
    assert counters.unused(c, "ann", "intrigue") == "intrigue-1"


def test_who_may_be_seduced() -> None:
    """13.4.15, 18.7, 20.6.4, 7.10.1: a male NC or EAC — never a royal, a PC, his own,
    the Archbishop, a woman or a married man; not held or stuck at war; in her place."""
    c = _court()
    _refused(c, "DO SEDUCE Prince Alan BY Lady Victoria", "not_a_noble")
    _refused(c, "DO SEDUCE Archbishop BY Lady Victoria", "not_a_man_to_seduce")
    _refused(c, "DO SEDUCE Lady Margaret BY Lady Victoria", "not_a_man_to_seduce")
    _refused(c, "DO SEDUCE Knight William BY Lady Victoria", "not_an_eac_or_nc")  # Cid's PC
    c.set_char(GUY, spouse="61")
    _refused(c, "DO SEDUCE Sir Guy BY Lady Victoria", "married")
    c.set_char(GUY, spouse=None, situation=Situation.IMPRISONED)
    _refused(c, "DO SEDUCE Sir Guy BY Lady Victoria", "situation")
    c.set_char(GUY, situation=Situation.NORMAL, location="epalin")
    _refused(c, "DO SEDUCE Sir Guy BY Lady Victoria", "not_in_the_same_country")
    c.set_char(VICTORIA, location="epalin")
    c.wars.append("epalin")
    _refused(c, "DO SEDUCE Sir Guy BY Lady Victoria", "situation")
    assert counters.unused(c, "ann", "intrigue") == "intrigue-1"


def test_seduce_orders_round_trip() -> None:
    """13.4.15: ``DO SEDUCE <man> BY <woman>`` in canonical form."""
    parsed = parse_orders("do seduce sir guy by lady victoria", TABLES)
    assert parsed.errors == ()
    assert parsed.normal_form == ("DO SEDUCE 12 BY 56",)
    again = parse_orders(parsed.normal_form[0], TABLES)
    assert again.orders == parsed.orders
