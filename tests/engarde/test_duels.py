"""Reference §6 duels (EG §L causes): challenges, cause, answers, the fight, SP."""

from __future__ import annotations

import pytest

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
from tests.engarde.test_golden import render


def challenged(a: dict, b: dict, text: str = "ANYTIME: CHALLENGE B", **state: object) -> dict:
    """Month one: the challenge is published; returns the state of month two."""
    start = make_state(a, b, **state)
    result = run_month(start, give_orders(start, a=text))
    assert_event(result, "duel.challenged", "a")
    return result.state


def present(state: dict, **texts: str) -> dict:
    """Orders for both principals (a man with no orders is indisposed: he fails to appear)."""
    return give_orders(state, **{"a": "WEEK 4: REST", "b": "WEEK 4: REST", **texts})


def test_challenge_is_published_then_fought_next_month_to_first_blood() -> None:
    """Reference §6 (b): 1d6 + Exp/4 a pass; the higher wounds 1d6 + Str/6; first blood."""
    state = challenged(make_char("a"), make_char("b"), "ANYTIME: CHALLENGE B WEAPON sabre")
    assert state["challenges"][0]["weapon"] == "sabre"
    # pass 1 tie (3, 3); pass 2: a 5 + 2 beats b 2 + 2; wound 4 + 1
    result = run_month(state, present(state), dice(duels=[3, 3, 5, 2, 4]))
    fought = assert_event(result, "duel.fought", "a", winner="a", loser="b")
    assert (fought.args["passes"], fought.args["wounds"]["b"]) == (2, 5)
    assert assert_event(result, "duel.no_cause", "a").sp == -2  # GM default: no cause
    assert assert_event(result, "duel.sp", "a", outcome="win_neutral").sp == 2
    assert_event(result, "decision.applied", "a", key="cause:a:b", recorded=False)
    assert result.state["challenges"] == []


def test_gm_decides_cause_for_a_press_challenge() -> None:
    """Reference §6: other challenges are judged for cause (GM decision 'cause:')."""
    state = challenged(make_char("a"), make_char("b"))
    state["decisions"] = {"cause:a:b": "yes"}
    result = run_month(state, present(state), dice(duels=[5, 2, 4]))
    no_event(result, "duel.no_cause")


@pytest.mark.parametrize(("a_reg", "b_reg", "outcome", "sp", "loser_sp"), [
    ("km", "km", "win_friendly", -1, 0), ("km", "rfg", "win_friendly", -1, 0),
    ("km", "cg", "win_enemy", 5, -2), ("km", "pm", "win_neutral", 2, 0)])
def test_duelling_sp_by_regiment(a_reg: str, b_reg: str, outcome: str, sp: int,
                                 loser_sp: int) -> None:
    """Duelling Table D (reference §6): friendly -1, neutral +2, enemy +5, losing to an enemy -2;
    enemy regiments give automatic cause."""
    state = challenged(make_char("a", sl=8, regiment=a_reg, rank="private"),
                       make_char("b", sl=8, regiment=b_reg, rank="private"))
    result = run_month(state, present(state), dice(duels=[6, 1, 1]))
    assert assert_event(result, "duel.sp", "a", outcome=outcome).sp == sp
    if loser_sp:
        assert assert_event(result, "duel.sp", "b", outcome="lose_enemy").sp == loser_sp
    if b_reg == "cg":
        assert result.events and not [e for e in result.events if e.id == "duel.no_cause"]


def test_to_the_death_kills() -> None:
    """Reference §6: to the death the fight goes on until Endurance is gone; +2 for a kill."""
    state = challenged(make_char("a"), make_char("b", endurance=8),
                       "ANYTIME: CHALLENGE B TO THE DEATH")
    result = run_month(state, present(state), dice(duels=[6, 1, 3, 6, 1, 6]))
    assert_event(result, "duel.fought", "a", killed=True, winner="a")
    assert assert_event(result, "duel.sp", "a", outcome="kill").sp == 2
    assert_event(result, "duel.killed", "b", by="a")
    assert result.state["characters"]["b"]["dead"] is True


def test_a_man_killed_mid_month_is_not_reckoned_at_its_end() -> None:
    """Reference §5.5: the dead take no further part, so the month's end (EG §L company,
    EG §E status) skips a man killed in its weeks.  Found by the play audit: the dead man's
    sheet said "Female company this month" and "You hold SL 5"."""
    state = challenged(make_char("a"), make_char("b", endurance=8),
                       "ANYTIME: CHALLENGE B TO THE DEATH")
    result = run_month(state, present(state), dice(duels=[6, 1, 3, 6, 1, 6]))
    assert_event(result, "duel.killed", "b", by="a")
    late = [e.id for e in result.events if e.actor == "b"
            and e.id.split(".")[0] in ("companionship", "status")]
    assert late == []
    assert [e.id for e in result.events if e.actor == "a" and e.id.startswith("status.")]


def test_refusal_and_no_show() -> None:
    """PROPOSED: refusing costs 2 SP (+ half SL with cause); the other +2; a man away no-shows."""
    state = challenged(make_char("a", regiment="km", rank="private"),
                       make_char("b", sl=6, regiment="cg", rank="private"))
    refused = run_month(state, present(state, b="ANYTIME: REFUSE CHALLENGE FROM A"))
    assert assert_event(refused, "duel.refused", "b").sp == -2 - 3
    assert assert_event(refused, "duel.walkover", "a").sp == 2
    away = dict(state, characters={**state["characters"],
                                   "b": dict(state["characters"]["b"], location="front",
                                             front_reason="volunteer", front_until=9)})
    noshow = run_month(away, present(away), dice(front=[1] * 20))
    assert_event(noshow, "duel.no_show", "b", absent="b")


def test_seconds_weapon_from_duelling_orders_and_one_duel_per_pair() -> None:
    """Reference §6: up to two seconds; the challenger's weapon; one duel per pair a month."""
    start = make_state(make_char("a"), make_char("b"), make_char("c"))
    first = run_month(start, give_orders(start, a="ANYTIME: CHALLENGE B\nANYTIME: CHALLENGE B"))
    assert_event(first, "duel.invalid", "a", reason="pending")
    orders = present(first.state, a="ANYTIME: DUEL B: WEAPON cutlass; SECONDS C",
                     b="ANYTIME: ACCEPT CHALLENGE FROM A", c="WEEK 4: REST")
    result = run_month(first.state, orders, dice(duels=[6, 1, 1]))
    fought = assert_event(result, "duel.fought", "a")
    assert (fought.args["weapon"], fought.args["seconds"]["a"]) == ("cutlass", ["c"])


def test_mistress_matters_and_enemy_meetings_give_cause() -> None:
    """EG §L: a duel_cause matter (caught courting ...) is automatic cause, used once;
    reference §6: enemy regiments meeting at a venue."""
    matter = {"kind": "duel_cause", "turn": 1, "parties": ["a", "b"],
              "args": {"reason": "courting_caught"}}
    start = make_state(make_char("a"), make_char("b"))
    start["matters"] = [matter]
    result = run_month(start, give_orders(start, a="ANYTIME: CHALLENGE B"))
    assert_event(result, "duel.challenged", "a", cause="courting_caught")
    assert result.state["matters"] == []
    meet = make_state(make_char("a", regiment="km", rank="private"),
                      make_char("b", regiment="cg", rank="private"))
    met = run_month(meet, give_orders(meet, a="WEEK 1: BAWDYHOUSE", b="WEEK 1: BAWDYHOUSE"))
    assert len([e for e in met.events if e.id == "honour.cause"]) == 2


def test_an_answer_to_a_challenge_not_yet_on_record_is_warned_on_the_receipt() -> None:
    """Reference §6: a challenge is answered the month after it is published.  Found by
    mail: Louis wrote REFUSE CHALLENGE FROM Jacques the same month Jacques challenged him;
    the receipt said nothing and the refusal was silently void."""
    start = make_state(make_char("a"), make_char("b"))
    early = ENGINE.parse_orders("ANYTIME: REFUSE CHALLENGE FROM A", start, "b", _TABLES)
    assert [w.message for w in early.errors if "no challenge from him" in w.message]
    assert not early.hard_errors  # a warning: the order stands
    state = challenged(make_char("a"), make_char("b"))
    on_time = ENGINE.parse_orders("ANYTIME: REFUSE CHALLENGE FROM A", state, "b", _TABLES)
    assert not [w.message for w in on_time.errors if "no challenge" in w.message]


def test_the_challenged_man_is_told_of_his_own_fight() -> None:
    """Reference §6: both principals fight; the fight was an event of the challenger's only,
    so the challenged (found by mail: Jacques, who lost to Henri) read nothing of it on his
    turn sheet.  He gets a private copy; the gazette still prints it once."""
    state = challenged(make_char("a"), make_char("b"))
    result = run_month(state, present(state), dice(duels=[3, 3, 5, 2, 4]))
    mine = assert_event(result, "duel.fought", "b", winner="a", loser="b")
    assert not mine.public
    assert len([e for e in result.events if e.id == "duel.fought" and e.public]) == 1


def test_the_challenger_is_told_his_challenge_was_refused() -> None:
    """Reference §6: without cause the challenged may refuse freely.  Found by mail: Jacques's
    sheet said nothing of Louis's refusal (only the gazette did).  A private copy for him."""
    state = challenged(make_char("a"), make_char("b"))
    result = run_month(state, present(state, b="ANYTIME: REFUSE CHALLENGE FROM A"))
    mine = assert_event(result, "duel.refused", "a", refuser="b")
    assert not mine.public and mine.sp == 0
    assert len([e for e in result.events if e.id == "duel.refused" and e.public]) == 1


def test_a_challenge_without_cause_may_be_refused_freely_from_the_front() -> None:
    """Reference §6: without cause the challenged may refuse freely, and at the front his
    agents answer for him (anytime orders work there).  Found by mail: Luc, volunteered to the
    front, wrote REFUSE CHALLENGE FROM Henri; he was published as failing to appear, -2 SP,
    and Henri took +2."""
    state = challenged(make_char("a"), make_char("b"))
    away = dict(state, characters={**state["characters"],
                                   "b": dict(state["characters"]["b"], location="front",
                                             front_reason="volunteer", front_until=9)})
    result = run_month(away, present(away, b="ANYTIME: REFUSE CHALLENGE FROM A"),
                       dice(front=[1] * 20))
    assert assert_event(result, "duel.refused", "b", refuser="b").sp == 0
    no_event(result, "duel.no_show")
    no_event(result, "duel.walkover")


def test_the_duel_line_tells_the_wound_the_loser_took() -> None:
    """Reference §6 (b): the higher pass wounds the other for 1d6 + Str/6 Endurance.  The
    engine records each man's wound (``wounds``), yet the line said only who won: the
    loser read nothing of his wound, nor the winner of the wound he gave."""
    state = challenged(make_char("a", "Armand"), make_char("b", "Bruno"),
                       "ANYTIME: CHALLENGE Bruno")
    rolls = dice(duels=[3, 3, 5, 2, 4])  # pass 2: Armand 5 + 2 beats 2 + 2; wound 4 + 1
    pages = render(state, run_month(state, present(state), rolls), rolls, 2)
    assert "Armand won after 2 passes, wounding Bruno for 5 Endurance." in pages["gazette"]
    assert "you won after 2 passes, wounding Bruno for 5 Endurance." in pages["a"]
    assert "Armand won after 2 passes, wounding you for 5 Endurance." in pages["b"]


def test_to_the_death_tells_the_winner_s_own_wounds() -> None:
    """Reference §6 (b): to the death the passes go on, and the winner may be hurt too."""
    state = challenged(make_char("a", "Armand"), make_char("b", "Bruno", endurance=8),
                       "ANYTIME: CHALLENGE Bruno TO THE DEATH")
    # pass 1: Bruno 5 beats 2, wounds Armand 3 + 1; pass 2: Armand 6 beats 1, wounds Bruno
    # 5 + 1; pass 3: Armand again, 4 + 1: Bruno's 8 Endurance is spent.
    rolls = dice(duels=[2, 5, 3, 6, 1, 5, 6, 1, 4])
    pages = render(state, run_month(state, present(state), rolls), rolls, 2)
    assert "Armand won after 3 passes, killing Bruno; Armand was wounded for 4 Endurance." \
        in pages["gazette"]
    assert "you won after 3 passes, killing Bruno; you were wounded for 4 Endurance." \
        in pages["a"], pages["a"]
    assert "Armand won after 3 passes, killing you; Armand was wounded for 4 Endurance." \
        in pages["b"], pages["b"]


def test_a_second_s_sheet_tells_him_of_the_duel_he_seconded() -> None:
    """Reference §6: each duellist names up to two seconds.  Found by the play audit: the
    second's own sheet said nothing of the duel he stood at, nor of its result; it says
    it now, to him ("You seconded ..."), while the gazette keeps the public line."""
    start = make_state(make_char("a", "Armand"), make_char("b", "Bruno"),
                       make_char("c", "Claude"), make_char("d", "Didier"))
    first = run_month(start, give_orders(start, a="ANYTIME: CHALLENGE Bruno"))
    orders = present(first.state, a="ANYTIME: DUEL Bruno: SECONDS Claude",
                     b="ANYTIME: DUEL Armand: SECONDS Didier", c="WEEK 4: REST",
                     d="WEEK 4: REST")
    rolls = dice(duels=[3, 3, 5, 2, 4])  # pass 2: Armand 5 + 2 beats 2 + 2; wound 4 + 1
    result = run_month(first.state, orders, rolls)
    pages = render(first.state, result, rolls, 2)
    assert "You seconded Armand in his duel with Bruno, with rapiers to first blood " \
        "(Bruno's second: Didier): Armand won after 2 passes, wounding Bruno for 5 " \
        "Endurance." in pages["c"], pages["c"]
    assert "You seconded Bruno in his duel with Armand, with rapiers to first blood " \
        "(Armand's second: Claude): Armand won after 2 passes, wounding Bruno for 5 " \
        "Endurance." in pages["d"], pages["d"]
    assert [e.actor for e in result.events if e.id == "duel.fought" and e.public] == ["a"]
