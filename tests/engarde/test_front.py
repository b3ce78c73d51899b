"""EG §C–D and reference §5: the front (deployment, no week actions, two weekends,
battles, personal outcomes: death, mentions, promotion, plunder) and coming home."""

from __future__ import annotations

import pytest

from moderator.dice import Dice
from moderator.games.engarde import ENGINE
from tests.engarde.conftest import (
    _TABLES,
    assert_event,
    dice,
    give_orders,
    make_char,
    make_state,
    no_event,
    run_month,
)

# mission 3 = assault; army MA 4, face 6 -> result 2 (MA+1 below); frontier brigade MA 4+1,
# face 6 -> 2; the frontier regiment MA 4+2, face 6 -> 1.
BATTLE = [3, 4, 6, 4, 6, 4, 6]


def soldier(**extra: object) -> dict:
    return make_char("s", sl=4, crowns=100, regiment="fr", rank="private", location="front",
                     front_reason="frontier", **extra)


@pytest.mark.parametrize(("ma", "face", "result"), [(1, 1, 6), (1, 6, 3), (5, 3, 4),
                                                     (6, 6, 1), (10, 1, 3), (10, 6, 1)])
def test_battle_result_rows(ma: int, face: int, result: int) -> None:
    """Reference §5.3: rows effective MA, columns 1d6; 1 great victory ... 6 disaster."""
    assert _TABLES.army.battle_result(ma, face) == result


def test_personal_outcome_promotion_and_plunder_no_week_actions_two_weekends() -> None:
    """Reference §5.4 (assault, result 1: death 9, mention 9, promotion 8, crowns 4, 4d6x100)
    with the frontier's modifiers added to the target (S5); EG §D at the front."""
    state = make_state(soldier())
    orders = give_orders(state, s="WEEK 1: BAWDYHOUSE\nWEEKEND 2: THEATRE\nWEEKEND 3: THEATRE\n"
                                   "WEEKEND 4: THEATRE")
    result = run_month(state, orders, dice(front=[*BATTLE, 1, 1, 6, 6, 1, 1, 2, 2, 1, 1, 1, 1]))
    battle = [e for e in result.events if e.id == "front.battle"]
    assert [e.args["result"] for e in battle] == [2, 2, 1]
    assert_event(result, "front.promoted", "s", rank="Subaltern")
    assert assert_event(result, "front.plunder", "s").crowns == 400
    no_event(result, "front.mentioned")
    no_event(result, "bawdyhouse.visit")  # EG §D: no weeklong actions on campaign
    assert len([e for e in result.events if e.id == "theatre.trip"]) == 2  # only two weekends
    no_event(result, "companionship.lacking")  # PROPOSED: waived at the front


def test_death_at_the_front_takes_him_out_of_the_game() -> None:
    """Reference §5.5: death is death; the dead take no further part."""
    state = make_state(soldier(), make_char("b"))
    result = run_month(state, {}, dice(front=[*BATTLE, 6, 6]))
    assert_event(result, "front.died", "s")
    assert result.state["characters"]["s"]["dead"] is True
    later = run_month(result.state, give_orders(result.state, s="WEEK 1: BAWDYHOUSE"))
    assert not [e for e in later.events if e.actor == "s"]


def test_mention_sp_credited_on_return_and_ends_disgrace() -> None:
    """Reference §5.5: a mention is 6 SP in the month he returns; §9 PROPOSED: it ends
    a disgrace (other than a debt's)."""
    state = make_state(soldier(disgraced="conviction"))
    result = run_month(state, {}, dice(front=[*BATTLE, 1, 1, 1, 1, 6, 6, 1, 1]))
    assert_event(result, "front.mentioned", "s")
    assert_event(result, "honour.restored", "s", reason="conviction")
    s = dict(result.state["characters"]["s"], front_until=result.state["turn"] - 1,
             front_reason="volunteer", regiment=None, rank=None)
    home = run_month(dict(result.state, characters={"s": s}), {}, dice())
    assert assert_event(home, "front.mention_sp", "s").sp == 6
    assert home.state["characters"]["s"]["location"] == "paris"


def test_june_deployment_sends_deployed_brigades_and_volunteers() -> None:
    """Reference §5.1 (PROPOSED season): June rolls per brigade; members go until August."""
    guard = make_char("g", sl=8, regiment="km", rank="private")
    foot = make_char("f", sl=3, regiment="13f", rank="private")
    state = make_state(guard, foot, make_char("v"), month=6)
    # brigades in key order: dragoon, first_foot, fourth_foot, frontier, guards, heavy,
    # horse_guards, second_foot, third_foot: the guards roll 1 (deploy), the rest 6.
    rolls = [6, 6, 6, 6, 1, 6, 6, 6, 6, *BATTLE, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    result = run_month(state, give_orders(state, v="ANYTIME: VOLUNTEER FOR THE FRONT"),
                       dice(front=rolls + [1] * 40))
    assert_event(result, "front.deployed", None)
    chars = result.state["characters"]
    assert (chars["g"]["location"], chars["g"]["front_until"]) == ("front", 3)
    assert chars["f"]["location"] == "paris"
    assert (chars["v"]["location"], chars["v"]["front_reason"]) == ("front", "volunteer")


def test_debtor_sent_away_fights_with_a_frontier_regiment() -> None:
    """EG §Q: a debtor sent to the front serves until he can pay."""
    state = make_state(make_char("d", sent_away="frontier", crowns=0))
    result = run_month(state, {}, dice(front=[*BATTLE, 1, 1, 1, 1, 1, 1, 1, 1]))
    assert_event(result, "front.departs", "d", reason="debt")
    assert_event(result, "front.battle", None, level="regiment", unit="Frontier Regiment")


def test_week_orders_at_the_front_are_warned_on_the_receipt() -> None:
    """EG §D: no weeklong actions on campaign.  Found by mail: Pierre, a frontier private,
    wrote WEEK 1: PRACTICE cutlass and his receipt accepted it without a word (and warned
    only that he could not pay the fencing master); the week was then silently void."""
    state = make_state(soldier())
    parsed = ENGINE.parse_orders("WEEK 1: PRACTICE cutlass", state, "s", _TABLES)
    assert any("at the front this month" in p.message for p in parsed.errors)
    assert not parsed.hard_errors  # a warning: should he come home, the order stands
    home = make_state(make_char("s", sl=4, crowns=100))
    parsed = ENGINE.parse_orders("WEEK 1: PRACTICE cutlass", home, "s", _TABLES)
    assert not any("at the front" in p.message for p in parsed.errors)


def test_the_death_roll_says_what_a_success_means() -> None:
    """Reference §5.4: the Death roll kills on a success.  The sheet's dice read 'death at the
    front: 2d6 = 6, needs 7: failure', which a player takes for bad news; it names the
    outcome the roll decides, as the promotion and mention rolls do."""
    state = make_state(soldier())
    rolls = Dice.for_turn(3, 1)
    ENGINE.adjudicate(state, {}, _TABLES, rolls)
    texts = [r["text"] for r in rolls.log_dicts() if r.get("actor") == "s"]
    assert any(t.startswith("killed at the front: 2d6 = ") for t in texts), texts
