"""Rule cases for DWTK activities implemented without a test of their own: 13.1, 13.2-13.3,
13.4.2 Fill A Vacant Office, 13.4.7 Create A Henchman, 13.4.19 Draw A Counter Or Card.

The dealt game (seed 1, `checked_court`): Ann (PC 24 Sir Charles, Status 1; 3 IP, 10 PP;
she holds a Monarch's Counselor card, no Henchman card; drew a Gain One IP counter), Bob
(PC 64) and Cid (PC 26); every office is filled.  Only Ann's Player Turn is played.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import player
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind, Draw
from moderator.games.dwtk.state import Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    events,
    give_card,
    react,
    with_player,
)

PLAYERS = {"ann": "Ann", "bob": "Bob", "cid": "Cid"}


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    c.order = ("ann",)  # only her Player Turn
    return c


def _ann_turn(c: Court, text: str, duplicates: bool = False) -> None:
    """Ann's Player Turn from her order text.  ``duplicates``: the text names an activity
    twice; the parser reports it (13.1) but the service keeps the accepted lines
    (intake/process.py: a message with any normal form is accepted)."""
    parsed = parse_orders(text, TABLES, PLAYERS)
    if duplicates:
        assert [e.hint for e in parsed.errors] == ["the same activity only once a turn (DWTK 13.1)"]
    else:
        assert parsed.errors == (), parsed.errors
    c.orders = {"ann": TurnOrders.from_dict(parsed.orders)}
    player.player_turns(c)


def _skipped(c: Court) -> list[tuple[str, str]]:
    return [(e.args["what"], e.args["reason"]) for e in events(c, "activity.skipped")]


# -- 13.1 ----------------------------------------------------------------------------


def test_an_illegal_activity_is_skipped_with_its_reason_and_costs_nothing() -> None:
    """DWTK 13.1: activities in her priority order; the illegal Create A Henchman (her PC,
    17.1) is skipped with its reason and plays no card; the next two legal ones are done
    (Acquire A Title, Draw); the fourth finds no activity left."""
    c = _court()
    with_player(c, "ann", ip=10, hand=("dwtk-1",))
    give_card(c, "ann", "henchman-3")
    _ann_turn(c, "DO HENCHMAN PC\nDO TITLE PC\nDO DRAW EVENT\nDO TRAVEL PC TO Epalin")
    assert _skipped(c) == [("henchman", "pc"), ("travel", "no_activities_left")]
    assert "henchman-3" in c.players["ann"].hand
    assert events(c, "activity.title") and events(c, "activity.draw")
    assert c.char(24).location == "fandonia"


def test_the_same_activity_only_once_a_turn() -> None:
    """DWTK 13.1, 13.4.19: Draw A Counter Or Card twice (an Event card, then an Opportunity
    counter): the second is not done — one of the three, once a turn — and costs nothing."""
    c = _court()
    c.opportunity_pool[:] = ["scandal-1"]  # one counter: drawn without a roll
    hand = c.players["ann"].hand
    _ann_turn(c, "DO DRAW EVENT\nDO DRAW OPPORTUNITY", duplicates=True)
    assert len(c.players["ann"].hand) == len(hand) + 1
    assert c.players["ann"].ip == 2 and "scandal-1" in c.opportunity_pool
    assert not events(c, "draw.opportunity")
    assert _skipped(c)[0][0] == "draw"


# -- 13.2-13.3 --------------------------------------------------------------------------


def test_some_activities_need_a_card_or_a_counter() -> None:
    """DWTK 13.2: Become A Monarch's Counselor needs its card (13.4.3), Expose A Scandal a
    Scandal counter (12.3.4): refused without them, nothing spent; Acquire A Title needs
    neither.  With the card her PC becomes the Counselor and the card is played."""
    c = _court()
    card = "monarchs_counselor-4"
    with_player(c, "ann", hand=tuple(x for x in c.players["ann"].hand if x != card), ip=10)
    with pytest.raises(Refused, match="no_card:monarchs_counselor"):
        player.do(c, "ann", Activity(ActivityKind.COUNSELOR, ("pc",)))
    with pytest.raises(Refused, match="no_scandal_counter"):
        player.do(c, "ann", Activity(ActivityKind.SCANDAL, ("14",)))
    assert c.char(24).counselor is None and c.players["ann"].ip == 10
    give_card(c, "ann", card)
    player.do(c, "ann", Activity(ActivityKind.COUNSELOR, ("pc",)))
    assert c.char(24).counselor == card and card not in c.players["ann"].hand
    player.do(c, "ann", Activity(ActivityKind.TITLE, ("pc",)))
    assert c.char(24).titles == 1


def test_activity_rolls_are_modified_only_as_stated() -> None:
    """DWTK 13.3 (13.4.4, 12.3.5): the Royal Favor roll takes the Favor counter's +5 and
    Bob's Treachery -2 (his standing COURTS reaction), nothing else: 3+3 +3 = 9: 2 IP."""
    c = _court(favor=[3, 3])
    c.order = ("ann", "bob")
    c.set_royal("alan", owner="ann")
    with_player(c, "ann", opportunity=("favor-1",))
    give_card(c, "bob", "treachery-1")
    react(c, "bob", "IF AN OPPONENT COURTS ANYONE THEN PLAY Treachery")
    ip = c.players["ann"].ip
    player.do(c, "ann", Activity(ActivityKind.FAVOR, ("alan",)))
    assert c.dice.log[-1].modifier == 3 and c.dice.log[-1].total == 9
    assert c.players["ann"].ip == ip + 2 and "treachery-1" in c.discards


# -- 13.4.2 Fill A Vacant Office -------------------------------------------------------------


def _fill(c: Court, who: str, office: str = "trade") -> None:
    player.do(c, "ann", Activity(ActivityKind.OFFICE, (who,), office=office))


def test_fill_a_vacant_office_for_three_ip() -> None:
    """DWTK 13.4.2: Ann pays Three IP (not the Office Phase's two, 6.1.1) and places her PC
    in the vacant Ministry of Trade.  16.2, 14.2.4: her PC was a Monarch's Counselor; the
    card is discarded as he takes the office."""
    c = _court()
    c.offices["trade"] = None
    card = "monarchs_counselor-4"
    with_player(c, "ann", hand=tuple(x for x in c.players["ann"].hand if x != card))
    c.set_char(24, counselor=card)
    _fill(c, "pc")
    assert c.offices["trade"] == "24" and c.players["ann"].ip == 0
    assert events(c, "office.filled")[0].args["cost"] == 3
    assert c.char(24).counselor is None and card in c.discards


@pytest.mark.parametrize(("setup", "who", "office", "reason"), [
    ("filled", "pc", "army", "not_vacant"),  # 13.4.2: only a vacant office
    ("ip", "pc", "trade", "ip"),  # Three IP
    ("in_office", "15", "trade", "holds_office"),  # 16.2: never one already in office
    ("banished", "15", "trade", "situation"),  # 6.3, 16.4
    ("imprisoned", "15", "trade", "situation"),
    ("hiding", "15", "trade", "situation"),
    ("at_war", "15", "trade", "at_war"),  # 6.3, 7.10.1
    ("pp", "44", "trade", "pp"),  # 35.4: Status 5 + 2 for the office > 6 PP
    ("noble_45_66", "65", "trade", "not_office_holder"),  # 16.1: characters 45-66 never
    ("bobs", "64", "trade", "not_pc_or_fac"),  # his PC or a FAC only
])
def test_fill_a_vacant_office_refused(setup: str, who: str, office: str, reason: str) -> None:
    """DWTK 13.4.2, 6.3, 16.1-16.2, 35.4: who may not fill the vacant Ministry of Trade;
    a refused activity costs no IP."""
    c = _court()
    c.offices["trade"] = None
    with_player(c, "ann", ip=3 if setup != "ip" else 2, pp=6)
    if who != "pc":
        c.set_char(who, owner=c.char(who).owner or "ann")
    if setup == "in_office":
        c.offices["amb_besyzan"] = "15"
    elif setup in ("banished", "imprisoned", "hiding"):
        c.set_char(15, situation=Situation(setup))
    elif setup == "at_war":
        c.set_char(15, location="epalin")
        c.wars = ["epalin"]
    ip = c.players["ann"].ip
    with pytest.raises(Refused, match=reason):
        _fill(c, who, office)
    assert c.offices["trade"] is None and c.players["ann"].ip == ip


def test_only_one_vacant_office_a_turn() -> None:
    """DWTK 13.4.2: two offices vacant, two DO OFFICE lines: only the first is filled."""
    c = _court()
    c.offices["trade"] = c.offices["treasury"] = None
    c.set_char(15, owner="ann")
    with_player(c, "ann", ip=10)
    _ann_turn(c, "DO OFFICE Minister Of Trade : PC\nDO OFFICE Minister Of The Treasury : 15",
              duplicates=True)
    assert c.offices["trade"] == "24" and c.offices["treasury"] is None
    assert c.players["ann"].ip == 7


# -- 13.4.7 Create A Henchman -----------------------------------------------------------


def test_a_henchman_is_a_fac_under_a_played_henchman_card() -> None:
    """DWTK 13.4.7, 17.1: the card is played from her hand and placed under the FAC (not
    discarded); a female FAC may be a henchman.  Refused (nothing played): without a card,
    her PC, Bob's PC, an NC, her FARC, a FAC already a henchman."""
    c = _court()
    c.set_char(61, owner="ann")  # Lady Margaret
    c.set_char(15, owner="ann")
    c.set_royal("alan", owner="ann")
    with pytest.raises(Refused, match="no_card:henchman"):
        player.do(c, "ann", Activity(ActivityKind.HENCHMAN, ("61",)))
    give_card(c, "ann", "henchman-3")
    for who, reason in (("pc", "pc"), ("64", "not_pc_or_fac"), ("11", "not_pc_or_fac"),
                        ("alan", "not_pc_or_fac")):  # 17.1: never a RC (her FARC)
        with pytest.raises(Refused, match=reason):
            player.do(c, "ann", Activity(ActivityKind.HENCHMAN, (who,)))
    assert "henchman-3" in c.players["ann"].hand
    player.do(c, "ann", Activity(ActivityKind.HENCHMAN, ("61",)))
    assert c.char(61).henchman == "henchman-3"
    assert "henchman-3" not in c.players["ann"].hand and "henchman-3" not in c.discards
    give_card(c, "ann", "henchman-6")
    with pytest.raises(Refused, match="already_henchman"):
        player.do(c, "ann", Activity(ActivityKind.HENCHMAN, ("61",)))
    player.do(c, "ann", Activity(ActivityKind.HENCHMAN, ("15",)))
    assert c.char(15).henchman == "henchman-6"


# -- 13.4.19 Draw A Counter Or Card ---------------------------------------------------------


def test_draw_an_event_card_or_a_loyalty_counter_for_one_ip() -> None:
    """DWTK 13.4.19: One IP for the top Event card; a Loyalty counter (the only one left:
    no roll) for One IP; none left: refused, no IP paid (11.4 gives IP only for the free
    draw of 10)."""
    c = _court()
    top = c.deck[0]
    player.draw(c, "ann", Activity(ActivityKind.DRAW, draw=Draw.EVENT))
    assert c.players["ann"].hand[-1] == top and c.players["ann"].ip == 2
    c.loyalty_pool[:] = [15]
    with_player(c, "ann", loyalty=())
    player.draw(c, "ann", Activity(ActivityKind.DRAW, draw=Draw.LOYALTY))
    assert c.players["ann"].loyalty == (15,) and c.loyalty_pool == [] and c.players["ann"].ip == 1
    with pytest.raises(Refused, match="no_loyalty_left"):
        player.draw(c, "ann", Activity(ActivityKind.DRAW, draw=Draw.LOYALTY))
    assert c.players["ann"].ip == 1 and c.players["ann"].loyalty == (15,)


def test_drawing_gout_ends_the_activities() -> None:
    """DWTK 13.4.19, 12.3.7: she buys an Opportunity counter and draws Gout: she loses One
    IP and her remaining activity; 3 - 1 - 1 = 1 IP."""
    c = _court()
    c.opportunity_pool[:] = ["gout-1"]
    with_player(c, "ann", opportunity=())
    _ann_turn(c, "DO DRAW OPPORTUNITY\nDO TITLE PC")
    assert _skipped(c) == [("title", "no_activities_left")]
    assert c.players["ann"].ip == 1 and c.char(24).titles == 0


def test_no_draw_on_a_famine_turn() -> None:
    """DWTK 13.4.19 with 8.4.2: the One IP may not be spent on a Famine turn."""
    c = _court()
    c.crown_event = "famine"
    hand = c.players["ann"].hand
    with pytest.raises(Refused, match="ip"):
        player.draw(c, "ann", Activity(ActivityKind.DRAW, draw=Draw.EVENT))
    assert c.players["ann"].hand == hand and c.players["ann"].ip == 3
