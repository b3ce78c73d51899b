"""Rule cases for Consult The Prestige Tables, DWTK 13.4.17, and Privateering, 13.4.17.1
(tables PROPOSED in data/dwtk/prestige.toml).

The dealt game (seed 1): Ann's PC is Sir Charles (24, Dueling 6), Bob's Baroness Eleanor
(64, a woman), Cid's Knight William (26); Duke Roland (42, Dueling 5) is an NC.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import duels, player, privateering, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.state import OpenProblem, Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    dealt,
    events,
    run,
    with_player,
)

ANN_PC, BOB_PC, ROLAND, GUY = 24, 64, 42, 12
def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, ip=10, pp=10)
    return c


def _do(c: Court, table: str, who: str = "ann", buy: bool = False,
        by: str | None = None) -> None:
    player.do(c, who, Activity(ActivityKind.PRESTIGE, table=table, buy=buy, by=by))


def _rolled(c: Court) -> dict:  # type: ignore[type-arg]
    return events(c, "prestige.roll")[-1].args


def test_cost_roll_modifier_and_one_table_a_turn() -> None:
    """13.4.17: Sporting costs 1 IP; 6+6 = 12 is +4 PP and a +1 modifier on that table;
    a second consultation in the same Player Turn is refused."""
    c = _court(prestige=[6, 6])
    _do(c, "sporting")
    assert (c.players["ann"].ip, c.players["ann"].pp) == (9, 14)
    assert c.players["ann"].prestige_mods == {"sporting": 1}
    assert _rolled(c)["total"] == 12 and _rolled(c)["cost"] == 1
    with pytest.raises(Refused, match="one_table_a_turn"):
        _do(c, "carousing")
    assert c.players["ann"].ip == 9


def test_a_female_pc_never_consults_the_sporting_table() -> None:
    """13.4.17: a player with a female PC may never consult the Sporting Table."""
    c = _court()
    with pytest.raises(Refused, match="female_pc"):
        _do(c, "sporting", who="bob")
    assert c.players["bob"].ip == 10


def test_the_modifier_applies_and_is_capped_at_two() -> None:
    """13.4.17: the cumulative modifier is added to the roll and stays within ±2; the
    bought +1 costs Two IP, is used on this roll only, and only below +2."""
    c = _court(prestige=[4, 4])
    with_player(c, "ann", prestige_mods={"sporting": 1})
    _do(c, "sporting", buy=True)  # 8 + 1 + 1 = 10: +2 PP, modifier +1 more
    assert _rolled(c)["total"] == 10 and _rolled(c)["bought"]
    assert c.players["ann"].ip == 10 - 1 - 2 and c.players["ann"].pp == 12
    assert c.players["ann"].prestige_mods["sporting"] == 2
    c2 = _court(prestige=[2, 3])
    with_player(c2, "ann", prestige_mods={"sporting": 2})
    with pytest.raises(Refused, match="modifier_at_plus_two"):
        _do(c2, "sporting", buy=True)
    with_player(c2, "ann", prestige_mods={"sporting": -2})
    _do(c2, "sporting")  # 5 - 2 = 3: -2 PP, and the row's -1 leaves the modifier at -2
    assert c2.players["ann"].prestige_mods["sporting"] == -2 and c2.players["ann"].pp == 8


def test_gains_and_losses_are_halved_abroad_and_ip_never_below_zero() -> None:
    """20.5: +4 PP abroad is +2; 34.3: a loss of 3 IP with 1 IP left takes only 1."""
    c = _court(prestige=[6, 6])
    c.set_char(ANN_PC, location="epalin")
    _do(c, "sporting")
    assert c.players["ann"].pp == 12 and _rolled(c)["halved"]
    c2 = _court(prestige=[1, 2])
    with_player(c2, "ann", ip=2)
    _do(c2, "carousing")  # 3: -3 IP, after the cost of 1 only 1 is left
    assert c2.players["ann"].ip == 0 and _rolled(c2)["ip"] == -1


def test_in_hiding_losses_are_halved_and_the_duel_is_ignored() -> None:
    """24.3: halved (-3 IP is -1) and 'Fight A Duel' ignored; no duel dice are rolled."""
    c = _court(prestige=[1, 2])
    c.set_char(ANN_PC, situation=Situation.HIDING)
    _do(c, "carousing")
    assert _rolled(c)["ip"] == -1 and c.players["ann"].ip == 8
    c2 = _court(prestige=[1, 1])
    c2.set_char(ANN_PC, situation=Situation.BANISHED, location="epalin")  # 29.2
    _do(c2, "carousing")
    assert events(c2, "duel.opponent") == [] and "duel_ignored" in _rolled(c2)["effects"]


def test_a_carousing_duel_adds_one_to_the_pc_s_die() -> None:
    """19.9: a duel from the Carousing Table adds +1 to his die: 5 + 1 = 6 does not kill
    against his Dueling 6 (Duke Roland, dice count 42, is the opponent)."""
    c = _court(prestige=[1, 1], duel=[4, 2, 5, 6])
    _do(c, "carousing")
    fought = events(c, "duel.fought")[0].args
    assert fought["a"] == str(ANN_PC) and fought["roll_a"] == 6 and fought["killed"] == []
    assert c.players["ann"].prestige_mods == {"carousing": -1}


def test_a_sporting_accident_accuses_and_a_jilting_is_a_scandal() -> None:
    """23.1: the Sporting Table's 2 accuses the PC (1d6 3 < Status 6: innocent);
    22: the Romance Table's 2 makes the PC the object of a scandal (Scandal Table 7)."""
    c = _court(prestige=[1, 1], justice=[3])
    c.set_char(ANN_PC, titles=5)
    _do(c, "sporting")
    accused = events(c, "justice.accused")[0].args
    assert (accused["character"], accused["cause"], accused["result"]) == (
        str(ANN_PC), "prestige:sporting", "innocent")
    c2 = _court(prestige=[1, 1], scandal=[3, 4])
    _do(c2, "romance")
    assert events(c2, "scandal.result")[0].args["character"] == str(ANN_PC)
    assert c2.players["ann"].ip == 10 and c2.players["ann"].pp == 9  # Romance is free


def test_a_pp_loss_enforces_the_pp_limit() -> None:
    """35.2, 35.5: -2 PP from the Sporting Table; his FAC of Status 1 no longer fits."""
    c = _court(prestige=[1, 2])
    c.set_char(GUY, owner="ann")
    with_player(c, "ann", pp=2)
    _do(c, "sporting")
    assert c.players["ann"].pp == 0 and c.char(GUY).owner is None


# -- Privateering (13.4.17.1) ------------------------------------------------------------


def _seas(c: Court) -> None:
    c.problems.append(OpenProblem("pirates"))


def test_privateering_only_in_war_or_with_pirates() -> None:
    """13.4.17.1: only while a Foreign War or the Pirates problem is ongoing."""
    c = _court()
    with pytest.raises(Refused, match="no_war_or_pirates"):
        _do(c, "privateering")
    assert c.players["ann"].ip == 10


def test_a_voyage_gathers_cargo_and_pays_it_out_on_a_seven() -> None:
    """13.4.17.1: the launch costs 4 IP and rolls (6: +2 IP cargo); next turn the free
    roll comes first (8: +3 cargo), then a 7 brings the ship home: 5 IP paid out."""
    c = _court(prestige=[3, 3, 4, 4, 3, 4])
    _seas(c)
    _do(c, "privateering")
    v = c.players["ann"].voyage
    assert v is not None and (v.captain, v.cargo) == (None, 2) and c.players["ann"].ip == 6
    c.turn += 1
    privateering.voyage_turn(c, "ann")
    privateering.voyage_turn(c, "ann")  # a third turn, for the test
    assert c.players["ann"].voyage is None and c.players["ann"].ip == 6 + 5
    assert events(c, "privateer.home")[0].args["ip"] == 5
    with pytest.raises(Refused, match="voyage_ended_this_turn"):
        privateering.captain_for(c, "ann", None)


def test_the_ship_comes_home_when_the_pirates_are_gone() -> None:
    """13.4.17.1: no Foreign War or Pirates problem: home at once, no roll; the cargo is
    halved while his PC is abroad (20.5)."""
    c = _court(prestige=[5, 6])  # 11: +5 cargo
    _seas(c)
    _do(c, "privateering")
    c.problems.clear()
    c.set_char(ANN_PC, location="cronos")
    c.turn += 1
    privateering.voyage_turn(c, "ann")
    assert c.players["ann"].ip == 6 + 2 and events(c, "privateer.home")[0].args["why"] == "peace"


def test_a_henchman_captain_is_at_sea_and_founders_in_a_storm() -> None:
    """13.4.17.1: his henchman captains (his Ability 5); at sea he fights no duel and is
    no henchman to send; a storm (4) and an Ability roll of 5 (not below 5) sink the ship
    as row 2: the cargo is lost and the captain dies."""
    c = _court(prestige=[1, 1])
    c.set_char(GUY, owner="ann", henchman="henchman-3")
    with_player(c, "bob", hand=tuple(h for h in c.players["bob"].hand if h != "henchman-3"))
    _seas(c)
    _do(c, "privateering", by=str(GUY))  # 2: founders on the launch roll
    assert events(c, "privateer.lost")[0].args["captain_died"] and not c.char(GUY).alive
    c2 = _court(prestige=[3, 3, 2, 2, 5])
    c2.set_char(GUY, owner="ann", henchman="henchman-3")
    with_player(c2, "bob", hand=tuple(h for h in c2.players["bob"].hand if h != "henchman-3"))
    _seas(c2)
    _do(c2, "privateering", by=str(GUY))  # 6: +2 cargo
    assert status.at_sea(c2, GUY) and duels.henchmen(c2, "ann") == []
    assert not duels.can_fight(c2, c2.char(GUY))
    with pytest.raises(Refused, match="at_sea"):  # no other action while at sea
        player.do(c2, "ann", Activity(ActivityKind.TRAVEL, who=(str(GUY),), place="epalin"))
    c2.turn += 1
    privateering.voyage_turn(c2, "ann")  # 4: storm; Ability roll 5, not below 5
    lost = events(c2, "privateer.lost")[0].args
    assert (lost["why"], lost["cargo"], lost["captain_died"]) == ("founders", 2, True)
    assert not c2.char(GUY).alive and c2.players["ann"].voyage is None


def test_an_armed_ship_needs_the_ability_roll_and_a_neutral_ship_accuses() -> None:
    """Row 9: the anonymous captain (Ability 3) rolls 2 < 3: +4 cargo; row 3: the voyage
    ends, the cargo is lost and the sending PC is accused (23.1)."""
    c = _court(prestige=[4, 5, 2, 1, 2], justice=[1])
    c.set_char(ANN_PC, titles=5)
    _seas(c)
    _do(c, "privateering")
    assert c.players["ann"].voyage is not None and c.players["ann"].voyage.cargo == 4
    c.turn += 1
    privateering.voyage_turn(c, "ann")
    assert events(c, "privateer.lost")[0].args["why"] == "confiscated"
    assert events(c, "justice.accused")[0].args["cause"] == "prestige:privateering"


def test_prestige_orders_through_the_turn() -> None:
    """13.4.17 wired: DO PRESTIGE Romance is an activity of the Player Turn."""
    state = dealt(3)
    result = run(state, {"ann": "DO PRESTIGE Romance"})
    assert [e.args["player"] for e in result.events if e.id == "prestige.roll"] == ["ann"]
    parsed = parse_orders("DO PRESTIGE Privateering CAPTAIN 12 BUY +1", TABLES)
    assert parsed.errors == ()
    assert parsed.normal_form == ("DO PRESTIGE Privateering CAPTAIN 12 BUY +1",)
