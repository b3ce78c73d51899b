"""Rule cases for DWTK rules implemented without a test of their own: the start of the turn
and the shared rules (2.3, 6.4, 7.10.6, 7.12, 9.3, 12.3.5, 14.3, 16.6, 31.7).

The dealt game (seed 1, `checked_court`): Ann (PC 24), Bob (PC 64), Cid (PC 26), in that
order; every office is filled (Minister of Trade: NC 14, Ability 4; of the Navy: NC 36,
Ability 4); George is Monarch, married to Catherine.  Scripted dice only: a test fails if
a die it scripted is left over or one it did not script is asked for.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import faction, player, problems, start, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.state import OpenProblem
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.succession import kill_royal
from tests.dwtk.conftest import TABLES, checked_court, events, with_player

PLAYERS = {"ann": "Ann", "bob": "Bob", "cid": "Cid"}


def _orders(c: Court, **texts: str) -> None:
    """The players' orders for this turn, parsed as the service parses them."""
    c.orders = {}
    for key, text in texts.items():
        parsed = parse_orders(text, TABLES, PLAYERS)
        assert parsed.errors == (), parsed.errors
        c.orders[key] = TurnOrders.from_dict(parsed.orders)


# -- 2.3 dice count; a modifier stated before the roll -----------------------------------


def test_dice_count_reads_the_red_die_then_the_white_die() -> None:
    """DWTK 2.3: a dice count is red die first, white die second: 2 then 5 is 25, not 52
    nor the sum 7; the log names the red die before the white one."""
    c = checked_court({"first_player": [2, 5, 5, 2]})
    assert c.dice_count("first_player", "test") == 25
    assert c.dice_count("first_player", "test") == 52
    purposes = [r.purpose for r in c.dice.log]
    assert ["red" in p for p in purposes] == [True, False, True, False]
    assert all(r.spec == "1d6" for r in c.dice.log)


def test_a_modifier_is_the_one_stated_before_the_roll() -> None:
    """DWTK 2.3, 7.6: a player must state before the roll whether he modifies it and with
    which sign.  Bob's FAC Minister of Trade may modify Pirates; with no PROBLEM order he
    did not state one, so a 4 against Ability 4 stays unresolved (a -1 chosen afterwards
    would have solved it).  Stated -1 (by email: his PROBLEM order), the same 4 is
    logged with its modifier -1 and resolves it."""
    c = checked_court({"problems": [4, 4]})
    c.set_char(14, owner="bob")  # Minister of Trade, a modifier of Pirates
    c.problems = [OpenProblem("pirates")]
    problems.problems_phase(c, {})
    assert c.dice.log[-1].modifier == 0
    assert events(c, "problem.unresolved") and not events(c, "problem.resolved")
    _orders(c, bob="PROBLEM Pirates -")
    problems.problems_phase(c, c.orders)
    roll = c.dice.log[-1]
    assert (roll.faces, roll.modifier, roll.total) == ((4,), -1, 3)
    assert events(c, "problem.resolved")


# -- 6.4 the Office Phase skipped -------------------------------------------------------


def test_office_phase_skipped_when_no_office_is_vacant() -> None:
    """DWTK 6.4: every office is filled: no bid is taken (no IP paid), no die is rolled.
    6.1.1: once the Minister of Trade's office is vacant, Ann's same bid fills it for 2 IP."""
    c = checked_court({})
    _orders(c, ann="BID Minister Of Trade : PC")
    ip = c.players["ann"].ip
    start.office_phase(c, c.orders)
    assert c.events == [] and c.players["ann"].ip == ip and c.offices["trade"] == "14"
    c.offices["trade"] = None
    start.office_phase(c, c.orders)
    assert c.offices["trade"] == "24" and c.players["ann"].ip == ip - 2
    assert events(c, "office.filled")[0].args["cost"] == 2


# -- 7.10.6 Ministers expelled; 7.12 FARC Monarch ±1 ------------------------------------------


def test_ministers_in_a_country_at_war_are_expelled_home() -> None:
    """DWTK 7.10.6: the Minister of State (21) in Epalin when war with Epalin starts comes
    home; the Minister of the Treasury (35) in Cronos (at peace) stays; Ann's PC (no
    Minister) in Epalin stays there, stuck (7.10.1); the Ambassador to Epalin (33) is
    expelled too (7.10.4).  Dice: 1+1 = 2 is the Foreign War (8.4.5), Foreign War Table
    3+4 = 7 is Epalin, the Army Minister's attempt a 6."""
    c = checked_court({"problems": [1, 1, 3, 4, 6]})
    c.set_char(21, location="epalin")
    c.set_char(35, location="cronos")
    c.set_char(24, location="epalin")
    problems.new_problem(c, {})
    assert c.wars == ["epalin"]
    assert c.char(21).location == "fandonia" and c.offices["state"] == "21"
    assert c.char(35).location == "cronos" and c.char(24).location == "epalin"
    expelled = {e.args["holder"]: e.args["office"] for e in events(c, "war.expelled")}
    assert expelled == {"33": "amb_epalin", "21": "state"}


def test_a_farc_monarch_s_player_modifies_every_problem_roll() -> None:
    """DWTK 7.12: Bob, whose FARC is the Monarch, adds one to Pirates (Navy Minister 36,
    NC, Ability 4): 3 + 1 = 4 is not below 4, unresolved.  Ann's PROBLEM + counts for
    nothing: she has no FARC Monarch nor a modifying Minister (7.6).  Then Bob subtracts
    one: 4 - 1 = 3 resolves it; without the FARC Monarch the same order is ignored."""
    c = checked_court({"problems": [3, 4, 4]})
    c.set_royal("george", owner="bob")
    c.problems = [OpenProblem("pirates")]
    _orders(c, ann="PROBLEM Pirates +", bob="PROBLEM Pirates +")
    problems.problems_phase(c, c.orders)
    assert c.dice.log[-1].modifier == 1 and events(c, "problem.unresolved")
    c.set_royal("george", owner=None)
    _orders(c, bob="PROBLEM Pirates -")
    problems.problems_phase(c, c.orders)
    assert c.dice.log[-1].modifier == 0 and len(events(c, "problem.unresolved")) == 2
    c.set_royal("george", owner="bob")
    problems.problems_phase(c, c.orders)
    assert c.dice.log[-1].modifier == -1 and events(c, "problem.resolved")


def test_a_farc_monarch_cannot_beat_a_six() -> None:
    """DWTK 7.12 with 7.5: a 6 is always unresolved, whatever the FARC Monarch's -1."""
    c = checked_court({"problems": [6]})
    c.set_royal("george", owner="bob")
    c.problems = [OpenProblem("pirates")]
    _orders(c, bob="PROBLEM Pirates -")
    problems.problems_phase(c, c.orders)
    assert c.dice.log[-1].total == 5 and events(c, "problem.unresolved")


# -- 9.3 Thomas and Jane never succeed -------------------------------------------------


def _only_left(c: Court, *alive: str) -> None:
    for key in c.royals:
        if key not in (*alive, "george"):
            c.set_royal(key, alive=False, spouse=None)
    c.set_royal("george", spouse=None)


def test_thomas_and_jane_never_succeed_to_the_throne() -> None:
    """DWTK 9.3 (and 37): George dies with only Thomas (the Pretender) and Jane (the
    Mistress) alive: neither is crowned; nobody left to succeed, the game is drawn."""
    c = checked_court({})
    _only_left(c, "thomas", "jane")
    kill_royal(c, "george", "royal_death")
    assert c.offices["monarch"] not in ("thomas", "jane")
    assert c.drawn_game and events(c, "game.drawn") and not events(c, "succession.crowned")


def test_the_last_in_line_succeeds_before_thomas_and_jane() -> None:
    """DWTK 9.2-9.3: with Alfred (last in line), Thomas and Jane alive, Alfred is crowned;
    Support re-rolled 3+3 (32.4); mourning (9.4): each player discards two cards, at
    random by email when he wrote no DISCARD order."""
    c = checked_court({"support": [3, 3], "discard": [1] * 6})
    _only_left(c, "alfred", "thomas", "jane")
    kill_royal(c, "george", "royal_death")
    assert c.offices["monarch"] == "alfred" and not c.drawn_game
    assert events(c, "succession.crowned")[0].args["royal"] == "alfred"


# -- 12.3.5 the Favor counter ---------------------------------------------------------


def test_favor_counter_gives_one_ip_and_five_on_the_royal_favor_table() -> None:
    """DWTK 12.3.5, 13.4.4: drawing the Favor counter gives One IP at once; courting his
    FARC Alan, 2+3 = 5 +5 = 10 on the Royal Favor Table: 3 IP (PROPOSED table).  Without
    the counter the same 5 gives nothing."""
    c = checked_court({"favor": [2, 3, 2, 3]})
    c.set_royal("alan", owner="ann")
    c.opportunity_pool[:] = ["favor-1"]  # one counter left: drawn without a roll
    with_player(c, "ann", ip=3, opportunity=())
    start.draw_opportunity(c, "ann")
    assert c.players["ann"].ip == 4 and c.players["ann"].opportunity == ("favor-1",)
    assert events(c, "opportunity.ip")[0].args == {"counter": "favor", "ip": 1}
    player.favor(c, "ann", Activity(ActivityKind.FAVOR, ("alan",)))
    courted = events(c, "activity.favor")[0].args
    assert (courted["total"], courted["ip"]) == (10, 3) and c.players["ann"].ip == 7
    with_player(c, "ann", opportunity=("gain_ip-1",))
    player.favor(c, "ann", Activity(ActivityKind.FAVOR, ("alan",)))
    courted = events(c, "activity.favor")[1].args
    assert (courted["total"], courted["ip"]) == (5, 0) and c.players["ann"].ip == 7


# -- 14.3 reshuffling the discards ------------------------------------------------------


def test_the_discards_are_reshuffled_when_the_event_deck_runs_out() -> None:
    """DWTK 14.3: the deck is empty; the three discards (sorted a, b, c) are shuffled by
    the dice (Fisher-Yates: 1d3 = 1 swaps c and a; 1d2 = 2 keeps b) into the new deck,
    whose top card Ann draws; the discard pile is empty.  With neither, nothing is drawn."""
    c = checked_court({"shuffle": [1, 2]})
    a, b, top = sorted(c.deck[:3])
    c.deck, c.discards = [], [b, top, a]
    hand = c.players["ann"].hand
    assert c.draw_card("ann") == top
    assert c.players["ann"].hand == (*hand, top)
    assert c.deck == [b, a] and c.discards == []
    assert events(c, "deck.reshuffled")[0].args == {"cards": 3}
    c.deck = []
    assert c.draw_card("ann") is None and c.players["ann"].hand == (*hand, top)


# -- 16.6 an office kept across a change of allegiance -------------------------------------


def test_an_office_holder_who_changes_allegiance_keeps_his_office() -> None:
    """DWTK 16.6: NC 14 (Minister of Trade) recruited by Ann (13.4.13) stays Minister; when
    Ann's PP fall to 2 (35.5) he is lost and becomes an NC again, still Minister."""
    c = checked_court({})
    c.loyalty_pool.remove(14)
    with_player(c, "ann", loyalty=(14,), pp=10)
    player.recruit(c, "ann", Activity(ActivityKind.RECRUIT, ("14",)))
    assert c.char(14).owner == "ann" and c.offices["trade"] == "14"
    faction.gain(c, "ann", pp=-8)  # Status 1 + office 2 = 3 > 2 PP
    assert c.char(14).owner is None and c.offices["trade"] == "14"
    assert events(c, "faction.lost")[0].args["member"] == "14"


# -- 31.7 the widowed -------------------------------------------------------------------


def test_widowed_by_a_royal_a_noble_is_status_eight_at_no_cost() -> None:
    """DWTK 31.7: Ann's FAC Lady Margaret (61, Status 1) is married to Prince Alan; Alan
    dies: she may remarry (no spouse), is a Duchess of Status 8 at no IP cost, and can
    take no higher title (13.4.1)."""
    c = checked_court({})
    c.set_char(61, owner="ann", spouse="alan")
    c.set_royal("alan", spouse="61")
    ip = c.players["ann"].ip
    kill_royal(c, "alan", "assassination")
    widow = c.char(61)
    assert widow.spouse is None and status.status(c, 61) == 8 and c.players["ann"].ip == ip
    assert status.base_status(c, widow) == 8
    with pytest.raises(Refused, match="already_duke"):
        player.title(c, "ann", Activity(ActivityKind.TITLE, ("61",)))


def test_widowed_by_a_noble_a_noble_only_may_remarry() -> None:
    """DWTK 31.7: Lady Margaret (61, Status 1) married to Duke Marley (44, Status 5) rose
    to his Status (18.9); when he dies she is free to remarry and back to her own Status 1
    (the Status 8 is only for a RC's widow)."""
    c = checked_court({})
    c.set_char(61, spouse="44")
    c.set_char(44, spouse="61")
    assert status.status(c, 61) == 5
    kill_character(c, 44, "plague")
    assert c.char(61).spouse is None and status.status(c, 61) == 1
    assert c.char(61).fixed_status is None
