"""Rule cases for duels, DWTK 19 (scripted dice, reactions as standing orders).

The dealt game (seed 1, three players): Ann's PC is Sir Charles (24, Dueling 6), Bob's
Baroness Eleanor (64, a woman: she cannot duel), Cid's Knight William (26, Dueling 5);
Earl Maxwell (32, Dueling 2) and Duke Roland (42, Status 5, Dueling 5) are NCs in
Fandonia; Sir Robert (16) is Ambassador in the City States.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import crown, duels, player
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    events,
    react,
    with_player,
)

ANN_PC, BOB_PC, CID_PC, MAXWELL, ROLAND = 24, 64, 26, 32, 42


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10)
    return c


def _fought(c: Court) -> dict:  # type: ignore[type-arg]
    return events(c, "duel.fought")[0].args


def test_the_opponent_is_rolled_again_until_one_can_fight() -> None:
    """19.7.1-19.7.2: himself, 45-51/55, an NC woman and one abroad are rolled again;
    19.8: a die below the Dueling Rating kills; 19.10: the killer's 2-6 is no effect."""
    c = _court(duel=[2, 4, 4, 5, 5, 6, 1, 6, 3, 2, 3, 2, 2])
    duels.required(c, ANN_PC, "duel_counter")
    assert events(c, "duel.opponent")[0].args["opponent"] == str(MAXWELL)
    fought = _fought(c)
    assert (fought["roll_a"], fought["roll_b"], fought["killed"]) == (3, 2, [str(MAXWELL)])
    assert not c.char(MAXWELL).alive
    assert events(c, "duel.killer_roll")[0].args == {"character": str(ANN_PC), "roll": 2,
                                                     "accused": False}


def test_the_dice_are_simultaneous_both_may_die() -> None:
    """19.8: both rolls first, then the results: each kills the other."""
    c = _court(duel=[4, 2, 1, 1], discard=[1] * 5)
    duels.required(c, ANN_PC, "duel_counter")  # Ann's 1 < 6 and Roland's 1 < 5
    assert sorted(_fought(c)["killed"]) == [str(ANN_PC), str(ROLAND)]
    assert not c.char(ROLAND).alive and c.char(ANN_PC).face_down_until == c.turn + 2
    assert events(c, "duel.killer_roll") == []  # 19.10: nobody left to accuse


def test_a_killer_who_rolls_one_is_accused() -> None:
    """19.10: a PC or FAC who kills rolls one die; a 1 accuses him (23)."""
    c = _court(duel=[3, 2, 1, 6, 1], justice=[1, 1, 1, 1, 1, 1])
    duels.required(c, ANN_PC, "duel_counter")
    assert events(c, "duel.killer_roll")[0].args["accused"]
    assert events(c, "justice.accused")[0].args["cause"] == "duel"


def test_a_pc_may_buy_his_way_out_for_three_ip() -> None:
    """19.4: a PC who must fight may pay Three IP instead (PAY on DUELS)."""
    c = _court()
    react(c, "ann", "IF ANYONE DUELS PC THEN PAY")
    duels.required(c, ANN_PC, "duel_counter")
    assert c.players["ann"].ip == 7 and events(c, "duel.avoided")
    assert events(c, "duel.fought") == []


def test_without_the_ip_he_fights() -> None:
    c = _court(duel=[3, 2, 6, 6])
    react(c, "ann", "IF ANYONE DUELS PC THEN PAY")
    with_player(c, "ann", ip=2)
    duels.required(c, ANN_PC, "duel_counter")
    assert events(c, "duel.avoided") == [] and _fought(c)["killed"] == []


def test_the_rolled_pc_may_buy_out_too() -> None:
    c = _court(duel=[2, 6])
    react(c, "cid", "IF ANYONE DUELS PC THEN PAY")
    duels.required(c, ANN_PC, "duel_counter")
    assert events(c, "duel.avoided")[0].args["character"] == str(CID_PC)
    assert c.players["cid"].ip == 7 and events(c, "duel.fought") == []


def test_a_henchman_fights_for_the_pc_never_against_his_own_pc() -> None:
    """19.4 (SEND), 19.7.5: the PC and a henchman of one faction never fight."""
    c = _court(duel=[2, 4, 3, 2, 1, 5, 1], justice=[2])
    c.set_char(ROLAND, owner="ann", henchman="henchman-1")
    react(c, "ann", "IF ANYONE DUELS PC THEN SEND Roland")
    duels.required(c, ANN_PC, "duel_counter")
    assert events(c, "duel.stand_in")[0].args == {"character": str(ANN_PC),
                                                  "henchman": str(ROLAND)}
    assert _fought(c)["a"] == str(ROLAND) and _fought(c)["b"] == str(MAXWELL)
    assert events(c, "justice.accused")[0].args["result"] == "innocent"  # 2 < Status 5


def test_a_woman_sends_her_best_henchman_or_no_duel_is_fought() -> None:
    """19.2, 19.4: a woman cannot duel; without a henchman no duel, no penalty."""
    c = _court()
    duels.required(c, BOB_PC, "duel_counter")
    assert events(c, "duel.none")[0].args["reason"] == "no_duellist"
    c = _court(duel=[3, 2, 6, 6])
    c.set_char(41, owner="bob", henchman="henchman-1")  # Lord Perceval, Dueling 1
    c.set_char(ROLAND, owner="bob", henchman="henchman-2")  # Dueling 5
    duels.required(c, BOB_PC, "duel_counter")
    assert events(c, "duel.stand_in")[0].args["henchman"] == str(ROLAND)


def test_a_rolled_woman_of_a_faction_without_henchman_means_no_duel() -> None:
    """19.7.1: 56-66 in a faction: 19.4 applies to her player."""
    c = _court(duel=[6, 4])
    duels.required(c, ANN_PC, "duel_counter")
    assert events(c, "duel.none")[0].args == {"character": str(BOB_PC),
                                              "reason": "no_duellist"}


def test_treachery_one_card_per_player_on_either_die() -> None:
    """19.9: +1 or -1 on either duellist's die, no more than one card per player."""
    c = _court(duel=[3, 2, 5, 3])
    with_player(c, "bob", hand=("treachery-1", "treachery-2"))
    with_player(c, "cid", hand=("treachery-3",))
    react(c, "bob", "IF ANYONE DUELS Sir Charles THEN PLAY Treachery +",
          "IF ANYONE DUELS Earl Maxwell THEN PLAY Treachery +")
    react(c, "cid", "IF ANYONE DUELS Earl Maxwell THEN PLAY Treachery -")
    duels.required(c, ANN_PC, "duel_counter")
    assert (_fought(c)["roll_a"], _fought(c)["roll_b"]) == (6, 2)
    assert _fought(c)["killed"] == [] and c.players["bob"].hand == ("treachery-2",)


def test_court_ball_duel_is_with_an_attending_character() -> None:
    """8.4.4, 19.7.3: not abroad, not banned; no rule.pending any more."""
    c = _court(court_ball=[2, 3, 3, 4, 3, 4], duel=[1, 6, 4, 2, 3, 2, 6, 6])
    c.set_char(ROLAND, banned=True)
    crown.court_ball(c)
    assert events(c, "duel.opponent")[0].args == {"character": str(ANN_PC),
                                                  "opponent": str(MAXWELL),
                                                  "cause": "court_ball"}
    assert events(c, "rule.pending") == []


def test_abroad_only_someone_in_the_same_country_never_the_ambassador() -> None:
    """19.7.4: no other duellist there, no duel; otherwise one of those there."""
    c = _court()
    c.set_char(ANN_PC, location="epalin")  # Earl Francis is Ambassador there
    duels.required(c, ANN_PC, "duel_counter")
    assert events(c, "duel.none")[0].args["reason"] == "no_opponent"
    c = _court(duel=[6, 6])
    c.set_char(ANN_PC, location="epalin")
    c.set_char(41, location="epalin")
    duels.required(c, ANN_PC, "duel_counter")
    assert events(c, "duel.opponent")[0].args["opponent"] == "41"


def test_the_duel_counter_takes_the_activities_and_brings_the_duel() -> None:
    """12.3.6: no activities, but his PC or a henchman must fight."""
    c = _court(duel=[3, 2, 6, 6])
    c.order = ("ann",)
    with_player(c, "ann", opportunity=("duel-1",))
    c.orders = {"ann": TurnOrders.from_dict(parse_orders("DO DRAW EVENT", TABLES).orders)}
    player.player_turns(c)
    assert events(c, "activity.skipped")[0].args["reason"] == "no_activities_left"
    assert _fought(c)["a"] == str(ANN_PC)


def test_send_parses_round_trips_and_is_refused_elsewhere() -> None:
    parsed = parse_orders("IF ANYONE DUELS MINE THEN SEND Duke Roland", TABLES)
    assert parsed.errors == () and parsed.normal_form == (
        "IF ANYONE DUELS MINE THEN SEND 42",)
    assert parse_orders(parsed.normal_form[0], TABLES).orders == parsed.orders
    errors = parse_orders("IF ANYONE HEARS MINE THEN SEND 42\n"
                          "IF ANYONE DUELS MINE THEN SEND Prince Alan", TABLES).errors
    assert [e.line for e in errors] == [1, 2]


@pytest.mark.parametrize("who", ["1st Judge", "46", "Magistrate", "Archbishop", "Lady Victoria"])
def test_send_refuses_a_noble_who_never_duels(who: str) -> None:
    """DWTK 19.2: only 11-44 and 52-54 fight duels.  SEND 1st Judge was stored, and when
    the Duel counter came (12.3.6) the PC fought himself with no word why."""
    [error] = parse_orders(f"IF ANYONE DUELS PC THEN SEND {who}", TABLES).errors
    assert "never fights a duel" in error.message and "19.2" in (error.hint or ""), error
