"""Rule cases for the start of a turn: DWTK 5, 6, 7, 8, 9 (scripted dice)."""

from __future__ import annotations

from moderator.dice import ScriptedDice
from moderator.games.dwtk import crown, problems, start
from moderator.games.dwtk.state import OpenProblem, Phase, Situation
from tests.dwtk.conftest import court, dealt, events, with_player


def _holder(c, office: str) -> int:  # type: ignore[no-untyped-def]
    return int(c.offices[office])


def test_first_player_highest_dice_count_ties_roll_again() -> None:
    """DWTK 5: highest dice count (red die first) goes first, then clockwise; PROPOSED re-roll."""
    c = court(dealt(3), {"first_player": [3, 4, 5, 1, 5, 1, 2, 2, 6, 6]})
    start.first_player(c, {})
    assert c.order == ("cid", "ann", "bob")


def _free_nc(c, office: str, but: tuple[int, ...] = ()) -> int:  # type: ignore[no-untyped-def]
    return next(n for n in sorted(c.characters) if n not in but and c.char(n).owner is None
                and c.may_fill_office(n, office) is None)


def _male_pcs() -> dict:  # type: ignore[type-arg]
    """A dealt game in which Ann's and Bob's PCs are men who may hold office (16.1)."""
    return next(s for s in (dealt(3, seed) for seed in range(50))
                if all(s["players"][k]["pc"] < 45 for k in ("ann", "bob")))


def test_office_phase_bids_in_player_order_then_random() -> None:
    """DWTK 6.1.1 (first bidder in player order pays 2 IP), 6.1.2 (random, roll again)."""
    bids = {"ann": "BID High Minister : PC", "bob": "BID High Minister : PC"}
    c = court(_male_pcs(), orders=bids)
    c.order = ("bob", "ann", "cid")
    c.discharge("high_minister", "test")
    c.discharge("treasury", "test")
    with_player(c, "bob", ip=2)
    nc = _free_nc(c, "treasury")
    c.dice = ScriptedDice({"office": [4, 5, nc // 10, nc % 10]})  # 45: Magistrate, again
    start.office_phase(c, c.orders)
    assert c.offices["high_minister"] == str(c.players["bob"].pc)
    assert c.players["bob"].ip == 0 and c.players["ann"].ip == 2
    assert c.offices["treasury"] == str(nc)
    assert events(c, "office.random")[0].args == {"office": "treasury", "holder": str(nc)}


def test_a_fac_moves_office_and_the_old_one_is_refilled() -> None:
    """DWTK 6.2: moving a FAC to a vacancy costs 2 IP and vacates his office this phase."""
    c = court(dealt(3))
    navy = _holder(c, "navy")
    c.set_char(navy, owner="ann")
    with_player(c, "ann", pp=30)
    c.orders = court({"name": "x"}, orders={"ann": f"BID High Minister : {navy}"}).orders
    c.order = ("ann", "bob", "cid")
    c.discharge("high_minister", "test")
    nc = _free_nc(c, "high_minister", but=(navy,))
    c.dice = ScriptedDice({"office": [nc // 10, nc % 10]})
    start.office_phase(c, c.orders)
    assert c.offices["high_minister"] == str(navy)
    assert c.offices["navy"] == str(nc)
    assert events(c, "office.filled")[0].args["moved_from"] == "navy"


def _with_problem(key: str, failures: int = 0):  # type: ignore[no-untyped-def]
    state = dealt(3)
    c = court(state)
    c.problems = [OpenProblem(key, failures)]
    return c


def test_problem_resolved_below_ability() -> None:
    """DWTK 7.5, 7.9: a roll below the Minister's Ability resolves it; Support +10."""
    c = _with_problem("pirates")
    ability = c.t.noble(_holder(c, "navy")).ability or 0
    c.dice = ScriptedDice({"problems": [ability - 1]})
    c.support = 60
    problems.problems_phase(c, {})
    assert c.problems == [] and c.support == 70


def test_a_six_always_fails_and_three_failures_discharge() -> None:
    """DWTK 7.5 (a 6 fails whatever the modifiers), 7.8 (third failure: discharged), 7.9."""
    c = _with_problem("pirates", failures=2)
    minister = c.offices["navy"]
    c.dice = ScriptedDice({"problems": [6]})
    c.support = 60
    problems.problems_phase(c, {})
    assert c.support == 50
    assert c.offices["navy"] is None
    assert events(c, "office.discharged")[0].args["holder"] == minister
    assert c.problems[0].failures == 0 and c.problems[0].unresolved == 1


def test_no_minister_means_unresolved_and_pc_minister_may_let_it_stand() -> None:
    """DWTK 7.4: vacant office -> unresolved; a PC/FAC Minister may let it stand."""
    c = _with_problem("pirates")
    c.discharge("navy", "test")
    problems.problems_phase(c, {})
    assert events(c, "problem.unresolved")[0].args["why"] == "vacant"
    c = _with_problem("lawlessness")
    c.set_char(_holder(c, "justice"), owner="ann")
    c.orders = court({"name": "x"}, orders={"ann": "PROBLEM Lawlessness FAIL"}).orders
    problems.problems_phase(c, c.orders)
    assert events(c, "problem.unresolved")[0].args["why"] == "let_stand"
    assert c.dice.log == []


def test_modifiers_of_pc_ministers_and_the_crisis() -> None:
    """DWTK 7.6 (+-1 by a PC/FAC modifying Minister, as ordered), 33.2.2 (+1 in crisis)."""
    c = _with_problem("pirates")
    c.set_char(_holder(c, "trade"), owner="bob")
    c.orders = court({"name": "x"}, orders={"bob": "PROBLEM Pirates -"}).orders
    c.dice = ScriptedDice({"problems": [3]})
    c.support = 0
    problems.problems_phase(c, c.orders)
    assert c.dice.log[0].modifier == 0  # -1 from Bob's Minister of Trade, +1 for the crisis


def test_foreign_war_expels_the_ambassador_and_closes_the_embassy() -> None:
    """DWTK 7.10, 7.10.4, 8.4.5: roll 2 = Foreign War; war table 6 = Sandarkan."""
    c = court(dealt(3), {"problems": [1, 1, 3, 3, 6]})
    amb = c.offices["amb_sandarkan"]
    problems.new_problem(c, {})
    assert c.wars == ["sandarkan"]
    assert c.offices["amb_sandarkan"] is None and "amb_sandarkan" in c.suspended
    assert c.char(amb).location == "fandonia"
    assert "amb_sandarkan" not in c.vacant_offices()


def test_resolving_the_war_ends_it() -> None:
    """DWTK 7.10: the war ends when the problem is resolved."""
    c = _with_problem("foreign_war")
    c.wars, c.suspended = ["epalin"], ["amb_epalin"]
    c.dice = ScriptedDice({"problems": [1]})
    problems.problems_phase(c, {})
    assert c.wars == [] and c.suspended == []


def test_royal_death_of_the_monarch_crowns_the_heir_and_mourns() -> None:
    """DWTK 8.4.1, 9.2, 9.4: George dies (55); Alan is crowned, offices empty, two discards,
    the turn ends and next turn's Crown Event is a Court Ball; Support re-rolled (32.4)."""
    c = court(dealt(3), {"crown": [1, 1, 5, 5], "support": [4, 4], "*": [1] * 20})
    c.order = ("ann", "bob", "cid")
    hands = {k: len(p.hand) for k, p in c.players.items()}
    crown.crown_events(c, {})
    assert c.offices["monarch"] == "alan"
    assert not c.royals["george"].alive and c.royals["catherine"].spouse is None
    assert c.support == 80
    assert all(h is None for o, h in c.offices.items() if o != "monarch")
    assert {k: len(p.hand) for k, p in c.players.items()} == {k: v - 2 for k, v in hands.items()}
    assert c.next_crown_event == "court_ball" and c.turn_over and c.phase is Phase.MOURNING
    assert "align_alan-1" in c.removed


def test_royal_death_of_a_dead_royal_rolls_again() -> None:
    """DWTK 8.4.1: if the RC is already dead, roll again."""
    c = court(dealt(3), {"crown": [1, 1, 5, 1, 2, 1]})
    c.set_royal("anne", alive=False)
    crown.crown_events(c, {})
    assert not c.royals["alfred"].alive and c.offices["monarch"] == "george"


def test_court_ball_modifier_caps_and_free_counsel() -> None:
    """DWTK 8.4.4: modifiers cumulative to +2; 8 or more (modified) gives a free counsel."""
    c = court(dealt(3), {"court_ball": [6, 6, 3, 3, 1, 1]})
    c.order = ("ann", "bob", "cid")
    with_player(c, "ann", court_ball_mod=2)
    crown.court_ball(c)
    ann = c.players["ann"]
    assert ann.court_ball_mod == 2 and ann.free_counsel
    assert c.players["bob"].free_counsel is False  # 3+3 = 6


def test_court_ball_ban_falls_on_an_attending_henchman() -> None:
    """DWTK 8.4.4, 17.2.3: a ban result bans the henchman instead of the PC."""
    c = court(dealt(3), {"court_ball": [1, 1, 4, 3, 4, 3]})
    c.order = ("ann", "bob", "cid")
    fac = next(cid for cid, ch in c.characters.items() if ch.owner is None and cid in range(
        11, 45) and c.office_of(str(cid)) is None)
    c.set_char(fac, owner="ann", henchman="henchman-1")
    c.deck.remove("henchman-1")
    with_player(c, "ann", pp=30)
    crown.court_ball(c)
    assert c.char(fac).banned and not c.pc_of("ann").banned  # type: ignore[union-attr]


def test_intrigue_spares_small_hands_and_discards_legal_cards() -> None:
    """DWTK 8.4.3, 14.2.7: three or fewer cards are safe; a legal card is discarded."""
    c = court(dealt(3), {"intrigue": [2]})  # sorted hand: dwtk, henchman, informer, pardon
    c.order = ("ann", "bob", "cid")
    with_player(c, "bob", hand=("dwtk-2", "pardon-1", "henchman-1"))
    with_player(c, "cid", hand=("dwtk-3", "pardon-2", "henchman-2", "informer-1"))
    crown.intrigue(c)
    assert events(c, "intrigue.spared")[0].args["player"] == "bob"
    drawn = events(c, "intrigue.drawn")[0]
    assert drawn.args["legal"] and drawn.args["card"] == "henchman"
    assert "henchman-2" in c.discards


def test_intrigue_illegal_card_stays_and_its_owner_is_accused() -> None:
    """DWTK 8.4.3, 14.5.1, 23.3: a DWTK card is kept; its owner's PC is accused at +2."""
    c = court(dealt(3), {"intrigue": [1], "justice": [5, 1, 1]})
    c.order = ("ann", "cid")
    with_player(c, "cid", hand=("dwtk-3", "pardon-2", "henchman-2", "informer-1"))
    crown.intrigue(c)
    assert "dwtk-3" in c.players["cid"].hand
    accused = events(c, "justice.accused")[0].args
    assert accused["roll"] == 7 and accused["result"] == "hearing"  # 5 + 2 (23.3)
    assert events(c, "justice.hearing")[0].args["result"] == "innocent"  # 2 - 1 (26.2)
    assert not c.char(c.players["cid"].pc).wrongdoer


def test_plague_spares_pcs_and_those_abroad() -> None:
    """DWTK 8.4.7: two different characters die; PCs and characters abroad roll again."""
    state = dealt(3)
    c = court(state)
    pc = c.players["ann"].pc
    amb = _holder(c, "amb_epalin")  # abroad (20.4)
    victims = [n for n in (11, 12, 13, 14, 15, 16, 21) if n not in (pc, amb)][:2]
    script = [pc // 10, pc % 10, amb // 10, amb % 10]
    for v in (victims[0], victims[0], victims[1]):
        script += [v // 10, v % 10]
    c.dice = ScriptedDice({"crown": script})
    crown.plague(c)
    assert [e.args["character"] for e in events(c, "plague.death")] == [str(v) for v in victims]
    assert not c.char(victims[0]).alive and c.char(pc).alive


def test_a_pc_who_is_not_free_may_not_fill_an_office_in_the_office_phase() -> None:
    """DWTK 6.3: a banished, imprisoned or hiding character, or one stuck in a country at
    war, may not fill an office: the bid is refused (no IP paid) and the office is filled
    at random instead."""

    for situation, place in ((Situation.HIDING, "fandonia"), (Situation.BANISHED, "cronos"),
                             (Situation.IMPRISONED, "fandonia"), (Situation.NORMAL, "cronos")):
        c = court(_male_pcs(), orders={"bob": "BID High Minister : PC"})
        c.order = ("bob", "ann", "cid")
        c.discharge("high_minister", "test")
        pc = c.players["bob"].pc
        c.set_char(pc, situation=situation, location=place)
        if situation is Situation.NORMAL:
            c.wars.append("cronos")  # 7.10.1: stuck in a country at war
        with_player(c, "bob", ip=2)
        nc = _free_nc(c, "high_minister")
        c.dice = ScriptedDice({"office": [nc // 10, nc % 10]})
        start.office_phase(c, c.orders)
        assert c.offices["high_minister"] == str(nc), situation
        assert c.players["bob"].ip == 2
        assert events(c, "office.bid_refused")[0].args["holder"] == str(pc)
