"""Rule cases found by review: edges of the Player Turn (DWTK 11.2, 12.2, 12.3.2, 13.4.19,
14.5.19, 33.2.3, 35.4-35.5.4, 35.8, 24.9, 25.9, 29.9, 31.4, 13.4.17.1).

The dealt game (seed 1): Ann's PC Sir Charles (24), Bob's Baroness Eleanor (64), Cid's 26;
Earl Maxwell (32, Status 3), Duke Roland (42, Status 5), Sir Jeffrey (23, Status 1)."""

from __future__ import annotations

import pytest

from moderator.games.dwtk import faction, player, romance, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.invariants import check
from moderator.games.dwtk.justice import go_into_hiding
from moderator.games.dwtk.justice_acts import _restore
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.orders.social import Proposal
from moderator.games.dwtk.state import FANDONIA, Fate, Situation, Voyage
from tests.dwtk.conftest import TABLES, checked_court, events, with_player

MAXWELL, ROLAND, JEFFREY, SHERIFF = 32, 42, 23, 52


def _orders(text: str) -> TurnOrders:
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == (), parsed.errors
    return TurnOrders.from_dict(parsed.orders)


def test_a_player_without_a_player_turn_gives_his_counters_back() -> None:
    """11.2, 12.2: the counters drawn go back at the end of the turn even when his PC died
    before his Player Turn (31.5: no Player Turn) — none are carried into the next turn."""
    c = checked_court({})
    c.order = ("bob",)
    with_player(c, "bob", loyalty=(16,), opportunity=("scandal-3",), lost_turns=(c.turn,))
    c.opportunity_pool[:] = [x for x in c.opportunity_pool if x != "scandal-3"]
    c.loyalty_pool[:] = [x for x in c.loyalty_pool if x != 16]
    player.player_turns(c)
    assert c.players["bob"].loyalty == () and c.players["bob"].opportunity == ()
    assert 16 in c.loyalty_pool and "scandal-3" in c.opportunity_pool


def test_align_needs_the_farcs_full_status_even_in_a_crisis() -> None:
    """14.5.19 (enough PP to recruit him), 33.2.3 (only NRCs are halved): in a crisis Prince
    Alan (Status 10) still needs 10 PP free to be aligned; with BUY PP first (35.8) he may."""
    c = checked_court({})
    c.support = 0
    assert c.crisis
    with_player(c, "ann", pp=4 + status.faction_load(c, "ann") + 1, ip=20, ip_at_start=20,
                hand=("dwtk-1", "align_alan-1"))
    with pytest.raises(Refused, match="pp"):
        player.align(c, "ann", "alan")
    c.orders = {"ann": _orders("ALIGN Prince Alan\nBUY 5 PP")}
    c.order = ("ann",)
    player.player_turns(c)
    assert c.royals["alan"].owner == "ann"
    assert status.faction_load(c, "ann") <= c.players["ann"].pp


def test_the_pp_limit_takes_no_more_than_needed() -> None:
    """35.5.4: no FAC is given up while the PP keep him — over the limit by 4, losing Duke
    Roland (5) alone is enough; Earl Maxwell (3) and Sir Jeffrey (1) stay."""
    c = checked_court({})
    for cid in (MAXWELL, ROLAND, JEFFREY):
        c.set_char(cid, owner="ann")
    load = status.faction_load(c, "ann")
    with_player(c, "ann", pp=load - 4)
    faction.enforce_limit(c, "ann")
    assert [x.id for x in c.faction("ann") if not x.pc] == sorted([MAXWELL, JEFFREY])
    assert [e.args["member"] for e in events(c, "faction.lost")] == [str(ROLAND)]


def test_a_pardon_ends_the_manhunt_and_the_flight() -> None:
    """25.9 (no longer Manhunted once no wrongdoer), 24.9: a pardoned fugitive hiding abroad
    keeps no Manhunt and no stage to return to; a banished one comes home."""
    c = checked_court({})
    c.set_char(MAXWELL, owner="ann", location="epalin", situation=Situation.HIDING,
               wrongdoer=True, fate=Fate.TRIAL, hunted=("epalin",), charge=2)
    _restore(c, MAXWELL)
    m = c.char(MAXWELL)
    assert (m.situation, m.wrongdoer, m.fate, m.hunted, m.charge) == (
        Situation.NORMAL, False, None, (), 0)
    c.set_char(ROLAND, owner="ann", location="cronos", situation=Situation.HIDING,
               wrongdoer=True, fate=Fate.BANISHED)
    _restore(c, ROLAND)
    assert c.char(ROLAND).location == FANDONIA and c.char(ROLAND).fate is None


def test_a_dead_officials_counter_goes_back_once() -> None:
    """31.4: the Sheriff's heir comes at once and his Loyalty counter goes back to the
    container — out of the hand of the player who drew it this turn, and only once."""

    c = checked_court({})
    c.loyalty_pool[:] = [x for x in c.loyalty_pool if x != SHERIFF]
    with_player(c, "ann", loyalty=(SHERIFF,))
    kill_character(c, SHERIFF, "duel")
    assert SHERIFF not in c.players["ann"].loyalty
    player.end_player_turn(c, "ann", TurnOrders())
    assert c.loyalty_pool.count(SHERIFF) == 1


def test_an_extra_activity_counter_drawn_by_an_activity_counts_this_turn() -> None:
    """12.3.2, 13.4.19: DO DRAW OPPORTUNITY brings an Extra Activity counter — one more
    activity this very turn (a third: the Title and the Travel after the draw)."""
    c = checked_court({})
    c.opportunity_pool[:] = ["extra_activity-1"]
    with_player(c, "ann", ip=20, opportunity=())
    c.orders = {"ann": _orders("DO DRAW OPPORTUNITY\nDO TITLE PC\nDO TRAVEL PC TO Epalin")}
    c.order = ("ann",)
    player.player_turns(c)
    assert events(c, "activity.title") and events(c, "activity.travel")
    assert not [e for e in events(c, "activity.skipped") if e.actor == "ann"]


def test_a_captain_at_sea_takes_part_in_no_wedding() -> None:
    """13.4.17.1: while at sea the captain takes part in no other action — no proposal."""

    c = checked_court({})
    c.set_char(ROLAND, owner="ann", henchman="henchman-1")
    c.set_char(61, owner="ann")
    with_player(c, "ann", voyage=Voyage(captain=ROLAND, launched=c.turn))
    with pytest.raises(Refused, match="at_sea"):
        romance.propose(c, "ann", Proposal(str(ROLAND), "61"))


def test_a_banished_character_who_hides_keeps_his_count_for_suicide() -> None:
    """29.9: three turns in banishment count from his banishment, also once he hides."""
    c = checked_court({})
    c.set_char(MAXWELL, owner="ann", location="cronos", situation=Situation.BANISHED,
               wrongdoer=True, since=c.turn - 4)
    go_into_hiding(c, MAXWELL, Fate.BANISHED)
    assert c.char(MAXWELL).since == c.turn - 4


def test_the_engine_still_does_one_activity_of_a_kind() -> None:
    """13.1 (an order sheet with two TRAVEL lines, written as two Activities)."""
    c = checked_court({})
    c.orders = {"ann": TurnOrders(activities=(
        Activity(ActivityKind.TRAVEL, ("pc",), place="epalin"),
        Activity(ActivityKind.TRAVEL, ("pc",), place=FANDONIA)))}
    c.order = ("ann",)
    player.player_turns(c)
    assert c.char(24).location == "epalin"
    assert events(c, "activity.skipped")[0].args["reason"] == "same_activity_twice"


def test_an_extra_activity_counter_drawn_by_the_last_allowed_activity_counts() -> None:
    """12.3.2, 13.4.19: drawn by his second (last allowed) activity, the Extra Activity
    counter still gives him a third this turn."""
    c = checked_court({})
    c.opportunity_pool[:] = ["extra_activity-1"]
    with_player(c, "ann", ip=20, opportunity=())
    c.orders = {"ann": _orders("DO TITLE PC\nDO DRAW OPPORTUNITY\nDO TRAVEL PC TO Epalin")}
    c.order = ("ann",)
    player.player_turns(c)
    assert events(c, "activity.title") and events(c, "activity.travel")


def test_a_gout_drawn_mid_turn_ends_every_activity_even_with_extra_cards() -> None:
    """13.4.19: "If a player draws a 'Gout' ... he loses any remaining activities" — no
    Extra Activity card is played for the lines after it (14.5.20)."""
    c = checked_court({})
    c.opportunity_pool[:] = ["gout-1"]
    with_player(c, "ann", ip=20, opportunity=(),
                hand=(*c.players["ann"].hand, "extra_activity-9"))
    c.orders = {"ann": _orders("DO DRAW OPPORTUNITY\nDO TITLE PC\nDO TRAVEL PC TO Epalin")}
    c.order = ("ann",)
    player.player_turns(c)
    assert not events(c, "activity.title") and not events(c, "activity.travel")
    assert "extra_activity-9" in c.players["ann"].hand


def test_a_loss_that_raises_an_earlier_players_load_is_enforced_too() -> None:
    """35.5, 18.10: Bob loses his FARC Princess Anne to the PP limit; her husband, Ann's FAC
    Sir Guy, no longer has Status 8 by her but his own — Ann (seated before Bob) is then over
    her PP and loses him, in the same enforcement and in the next ones."""

    guy = 12
    c = checked_court({})
    for k in c.players:
        with_player(c, k, pp=50)
    c.set_char(guy, owner="ann", spouse="anne")
    if guy in c.loyalty_pool:
        c.loyalty_pool.remove(guy)
    c.set_royal("anne", owner="bob", spouse=str(guy))
    with_player(c, "ann", pp=status.faction_load(c, "ann"))
    with_player(c, "bob", pp=status.faction_load(c, "bob") - 1, lose_first=("anne",))
    faction.enforce_all(c)
    faction.enforce_all(c)
    assert status.faction_load(c, "ann") <= c.players["ann"].pp
    assert [p for p in check(c.freeze(), TABLES) if "PP" in p] == []
