"""Rule cases for the Player Turns: DWTK 10-14, 35.8 (orders in, scripted dice)."""

from __future__ import annotations

from moderator.dice import ScriptedDice
from moderator.games.dwtk import player, status
from tests.dwtk.conftest import court, dealt, events, give_card, with_player


def _court(orders: dict[str, str], **ann: object):  # type: ignore[no-untyped-def]
    c = court(dealt(3), orders=orders)
    c.order = ("ann", "bob", "cid")
    with_player(c, "ann", **ann)
    return c


def _nc(c) -> int:  # type: ignore[no-untyped-def]
    return next(n for n in sorted(c.characters) if c.char(n).owner is None and n < 45
                and c.office_of(str(n)) is None and c.char(n).alive)


def test_the_first_two_legal_activities_are_done() -> None:
    """DWTK 13.1: activities in priority order; an illegal one is skipped, two are done."""
    c = _court({"ann": "DO HENCHMAN 11\nDO DRAW EVENT\nDO TITLE PC\nDO AMNESTY"},
               ip=20, opportunity=("gain_ip-1",))
    player.player_turns(c)
    skipped = [e.args for e in events(c, "activity.skipped") if e.actor == "ann"]
    assert skipped[0]["what"] == "henchman"
    assert skipped[-1] == {"what": "amnesty", "reason": "no_activities_left"}
    assert events(c, "activity.draw") and events(c, "activity.title")


def test_gout_means_no_activities_and_extra_activity_adds_one() -> None:
    """DWTK 12.3.7 (Gout: none), 12.3.2 (Extra Activity: one more)."""
    c = _court({}, opportunity=("gout-1",))
    assert player.allowance(c, "ann") == 0
    with_player(c, "ann", opportunity=("extra_activity-1",))
    assert player.allowance(c, "ann") == 3


def test_title_costs_the_title_table_and_raises_status() -> None:
    """DWTK 13.4.1 (PROPOSED costs): Sir -> Knight 3 IP, +1 Status; one step a turn."""
    c = _court({"ann": "DO TITLE PC"}, ip=10)
    pc = c.pc_of("ann")
    assert pc is not None
    before = status.status(c, pc.id)
    printed = c.t.noble(pc.id).status
    player.player_turns(c)
    assert status.status(c, pc.id) == before + 1
    assert c.players["ann"].ip == 10 - c.t.titles[printed].cost


def test_recruit_needs_the_counter_and_the_pp() -> None:
    """DWTK 13.4.13, 11.1, 35.4: only an NC whose counter he drew, within his PP."""
    c = _court({})
    nc = _nc(c)
    c.orders = court({"name": "x"}, orders={"ann": f"DO RECRUIT {nc}"}).orders
    with_player(c, "ann", loyalty=(), pp=10)
    player.player_turns(c)
    assert events(c, "activity.skipped")[0].args["reason"] == "no_loyalty_counter"
    c = _court({})
    c.orders = court({"name": "x"}, orders={"ann": f"DO RECRUIT {nc}"}).orders
    with_player(c, "ann", loyalty=(nc,), pp=0)
    player.player_turns(c)
    assert events(c, "activity.skipped")[0].args["reason"] == "pp"
    c = _court({})
    c.orders = court({"name": "x"}, orders={"ann": f"DO RECRUIT {nc}"}).orders
    c.loyalty_pool.remove(nc)
    with_player(c, "ann", loyalty=(nc,), pp=10)
    player.player_turns(c)
    assert c.char(nc).owner == "ann" and nc not in c.loyalty_pool


def test_unused_counters_go_back_at_the_end_of_the_player_turn() -> None:
    """DWTK 11.2, 12.2."""
    c = _court({})
    nc = _nc(c)
    if nc in c.loyalty_pool:
        c.loyalty_pool.remove(nc)
    c.opportunity_pool.remove("scandal-1")
    with_player(c, "ann", loyalty=(nc,), opportunity=("scandal-1",))
    player.player_turns(c)
    assert nc in c.loyalty_pool and "scandal-1" in c.opportunity_pool
    assert c.players["ann"].loyalty == () and c.players["ann"].opportunity == ()


def test_hand_limit_discards_down_to_twelve_keeping_dwtk() -> None:
    """DWTK 14.2.1, 14.2.8: over twelve cards at the end of his turn; DISCARD chosen first."""
    c = _court({"ann": "DISCARD Informer"})
    hand = ("dwtk-1", *(f"henchman-{i}" for i in range(1, 13)), "informer-9")
    with_player(c, "ann", hand=("dwtk-1",))
    for card in hand[1:]:
        give_card(c, "ann", card)
    c.dice = ScriptedDice({"discard": [1]})
    player.player_turns(c)
    left = c.players["ann"].hand
    assert len(left) == 12 and "dwtk-1" in left and "informer-9" not in left


def test_buy_pp_two_ip_each_and_famine_forbids_it() -> None:
    """DWTK 35.8 (One PP for Two IP), 34.6 (no IP on a Famine turn)."""
    c = _court({"ann": "BUY 3 PP"}, ip=5, pp=10)
    player.player_turns(c)
    assert (c.players["ann"].ip, c.players["ann"].pp) == (1, 12)
    c = _court({"ann": "BUY 1 PP"}, ip=5, pp=10)
    c.crown_event = "famine"
    player.player_turns(c)
    assert (c.players["ann"].ip, c.players["ann"].pp) == (5, 10)


def test_crisis_allows_half_the_ip() -> None:
    """DWTK 33.2.1, 34.7: during a crisis no more than half the IP held (rounded down)."""
    c = _court({"ann": "BUY 5 PP"}, ip=9, ip_at_start=9, pp=10)
    c.support = 0
    player.player_turns(c)
    assert c.players["ann"].ip == 5  # 4 IP used: two PP


def test_align_a_royal_within_the_pp_limit() -> None:
    """DWTK 14.5.19: not an activity; the FARC must fit the PP total (35.4)."""
    c = _court({"ann": "ALIGN Prince Alan"}, pp=5)
    for pile in (c.deck, c.discards):
        if "align_alan-1" in pile:
            pile.remove("align_alan-1")
    for p in c.players.values():
        with_player(c, p.key, hand=tuple(x for x in p.hand if x != "align_alan-1"))
    with_player(c, "ann", hand=(*c.players["ann"].hand, "align_alan-1"))
    player.player_turns(c)
    assert c.royals["alan"].owner is None  # Status 10 > 5 PP
    with_player(c, "ann", pp=10)
    c.events.clear()
    player.player_turns(c)
    assert c.royals["alan"].owner == "ann" and c.royals["alan"].card == "align_alan-1"
