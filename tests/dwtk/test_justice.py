"""Rule cases for the justice chain, DWTK 23-31 (scripted dice, reactions as orders).

The dealt game (seed 1, three players): Ann's PC is Sir Charles (24, Status 1), Bob's
Baroness Eleanor (64), Cid's Knight William (26); Sir James (22) is Minister of Justice,
Sir Jeffrey (23) Ambassador to Sandarkan, Earl Maxwell (32, Status 3) an NC.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from moderator.dice import ScriptedDice
from moderator.games.dwtk import fugitives, justice, player, scandals
from moderator.games.dwtk.events import macro_name
from moderator.games.dwtk.fugitives import Extradition
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.orders.reaction import parse_reaction
from moderator.games.dwtk.state import FANDONIA, Fate, Situation
from moderator.games.dwtk.views import names
from tests.dwtk.conftest import EVENTS, TABLES, court, dealt, events, with_player

NAMES = Names.of(TABLES, {"ann": "Ann", "bob": "Bob", "cid": "Cid"})
ANN_PC, MAXWELL = 24, 32
COURTS: list = []  # type: ignore[type-arg]


@pytest.fixture(autouse=True)
def _every_event_renders() -> Iterator[None]:
    """Each event of these rule cases renders on one line with its macro."""
    COURTS.clear()
    yield
    for c in COURTS:
        nm = names(c.freeze(), TABLES)
        for e in c.events:
            text = str(getattr(EVENTS, macro_name(e.id))(e.to_dict(), nm)).strip()
            assert text and "\n" not in text, e


def _court(justice_dice: list[int], **more: list[int]):  # type: ignore[no-untyped-def]
    c = court(dealt(3), {"justice": justice_dice, **more})
    COURTS.append(c)
    c.order = ("ann", "bob", "cid")
    for p in c.players:
        with_player(c, p, pp=40, ip=10)
    return c


def _react(c, player_key: str, *lines: str) -> None:  # type: ignore[no-untyped-def]
    p = c.players[player_key]
    new = tuple(parse_reaction(line, NAMES) for line in lines)
    numbered = tuple(r.__class__(**{**r.__dict__, "n": p.reaction_seq + i})
                     for i, r in enumerate(new, 1))
    with_player(c, player_key, reactions=p.reactions + numbered,
                reaction_seq=p.reaction_seq + len(new))


def _hand(c, player_key: str, *cards: str) -> None:  # type: ignore[no-untyped-def]
    with_player(c, player_key, hand=("dwtk-1" if player_key == "ann" else
                                     "dwtk-2" if player_key == "bob" else "dwtk-3", *cards))


def _ids(c, event_id: str, arg: str = "character") -> list[str]:  # type: ignore[no-untyped-def]
    return [e.args[arg] for e in events(c, event_id)]


# -- 23 wrongdoing ----------------------------------------------------------------------


def test_wrongdoing_below_status_is_innocent_at_or_above_a_hearing() -> None:
    """23.2: one die against Status (Earl Maxwell, 3): 2 innocent, 3 a hearing."""
    c = _court([2, 3, 1, 1])
    justice.accuse(c, MAXWELL, "test")
    assert events(c, "justice.accused")[0].args["result"] == "innocent"
    assert not c.char(MAXWELL).wrongdoer
    justice.accuse(c, MAXWELL, "test")
    assert events(c, "justice.accused")[1].args["result"] == "hearing"
    assert events(c, "justice.hearing")[0].args["result"] == "innocent"  # 2 - 1 (26.2)


def test_a_six_always_means_a_hearing_and_a_wrongdoer_ignores_accusations() -> None:
    """23.2: a 6 sends even Status 6 (1st Judge) to a hearing; 30.8: a prisoner ignores."""
    c = _court([6, 1, 1])
    justice.accuse(c, 46, "test")
    assert events(c, "justice.accused")[0].args["result"] == "hearing"
    justice.imprison(c, MAXWELL)
    justice.accuse(c, MAXWELL, "test")  # no die rolled
    assert events(c, "justice.accused")[1].args["result"] == "ignored"


# -- 24 hiding ----------------------------------------------------------------------------


def test_hiding_instead_of_a_hearing_discharges_the_office_holder() -> None:
    """24.2, 24.4, 23.5: HIDE on HEARS; he is a wrongdoer who fled the hearing."""
    c = _court([])
    c.set_char(22, owner="ann")
    _react(c, "ann", "IF ANYONE HEARS MINE THEN HIDE")
    justice.send_to_hearing(c, 22)
    james = c.char(22)
    assert james.situation is Situation.HIDING and james.wrongdoer and james.fate is Fate.HEARING
    assert c.offices["justice"] is None and not events(c, "justice.hearing")


def test_an_nc_cannot_hide_and_hiding_is_only_for_the_controller() -> None:
    """24.7: an NC goes to his hearing; Bob's HIDE does not hide Ann's FAC."""
    c = _court([1, 1, 1, 1])  # two hearings, both 2 - 1: innocent
    _react(c, "ann", "IF ANYONE HEARS ANYONE THEN HIDE")
    justice.send_to_hearing(c, MAXWELL)
    assert events(c, "justice.hearing")[0].args["character"] == str(MAXWELL)
    c.set_char(41, owner="ann")
    with_player(c, "ann", reactions=())
    _react(c, "bob", "IF ANYONE HEARS 41 THEN HIDE")
    justice.send_to_hearing(c, 41)
    assert c.char(41).situation is Situation.NORMAL and len(events(c, "justice.hearing")) == 2


# -- 24.11, 25 Manhunt and extradition ----------------------------------------------------


def _fugitive(c, cid: int, where: str = FANDONIA, fate: Fate = Fate.HEARING):  # type: ignore[no-untyped-def]
    c.set_char(cid, owner="ann", location=where, situation=Situation.HIDING, wrongdoer=True,
               fate=fate)


def test_manhunt_sheriff_obstructs_informers_add_and_ten_captures() -> None:
    """24.11: 2d6 at the start of his player turn; Sheriff -2, Informer +2; 10+ captures,
    and the captured fugitive goes to the hearing he fled (25.10) without hiding."""
    c = _court([5, 5, 1, 1])
    _fugitive(c, MAXWELL)
    c.set_char(52, owner="bob")  # the Sheriff
    _react(c, "bob", "IF ANYONE HUNTS ANYONE THEN OBSTRUCT")
    _react(c, "cid", "IF ANYONE HUNTS ANYONE THEN PLAY Informer")
    _react(c, "ann", "IF ANYONE HEARS MINE THEN HIDE")
    _hand(c, "cid", "informer-1")
    fugitives.start_of_player_turn(c, "ann")
    hunt = events(c, "justice.manhunt")[0].args
    assert (hunt["total"], hunt["modifier"], hunt["captured"]) == (10, 0, True)
    assert events(c, "justice.captured")[0].args["fate"] == "hearing"
    assert events(c, "justice.hearing")[0].args["result"] == "innocent"  # no hiding now
    assert c.char(MAXWELL).situation is Situation.NORMAL


def test_manhunt_abroad_only_where_begun_with_the_ambassadors_modifier() -> None:
    """25.5, 25.8: hiding abroad is hunted only after an extradition began a Manhunt;
    the player with a FAC Ambassador there modifies ±1; 25.12: none in a country at war."""
    c = _court([4, 5, 1, 1])  # Manhunt 9 + 1; the hearing 2 - 1
    _fugitive(c, MAXWELL, "sandarkan")
    fugitives.start_of_player_turn(c, "ann")
    assert not events(c, "justice.manhunt")
    c.set_char(23, owner="bob")  # Ambassador to Sandarkan
    _react(c, "bob", "IF ANYONE HUNTS ANYONE THEN MODIFY +")
    assert fugitives.extradite(c, "cid", MAXWELL) is Extradition.MANHUNT
    c.wars = ["sandarkan"]
    fugitives.start_of_player_turn(c, "ann")
    assert not events(c, "justice.manhunt")
    c.wars = []
    fugitives.start_of_player_turn(c, "ann")
    assert events(c, "justice.manhunt")[0].args["total"] == 10  # 9 + 1: captured
    assert c.char(MAXWELL).location == FANDONIA


def test_extradition_veto_forced_and_refused() -> None:
    """25.2 veto by a FAC Ambassador; 25.3 not when forced; 25.1 never from hiding in
    Fandonia, never a banished character."""
    c = _court([1, 1])
    c.set_char(MAXWELL, owner="ann", location="sandarkan", wrongdoer=True, fate=Fate.HEARING)
    c.set_char(23, owner="bob")
    _react(c, "bob", "IF AN OPPONENT EXTRADITES ANYONE THEN VETO")
    assert fugitives.extradite(c, "cid", MAXWELL) is Extradition.VETOED
    assert fugitives.extradite(c, "cid", MAXWELL, forced=True) is Extradition.RETURNED
    assert c.char(MAXWELL).location == FANDONIA
    assert events(c, "justice.hearing")[0].args["character"] == str(MAXWELL)
    _fugitive(c, 41)
    assert fugitives.extradite(c, "cid", 41) is Extradition.REFUSED
    c.set_char(42, situation=Situation.BANISHED, wrongdoer=True, location="epalin")
    assert fugitives.extradite(c, "cid", 42) is Extradition.REFUSED


# -- 26 hearing ---------------------------------------------------------------------------


def test_hearing_evidence_alibi_and_informer_in_player_order() -> None:
    """26.2: Evidence +1 each (no -1 then), Alibi -3, Informer ±1; PC straight to trial."""
    c = _court([4, 4, 3, 3, 6, 6])  # hearing 8; judge die 3; trial 6+6
    c.order = ("cid", "ann", "bob")
    _hand(c, "bob", "evidence-1", "evidence-2")
    _hand(c, "cid", "informer-1", "alibi-1")
    _react(c, "bob", "IF ANYONE HEARS ANYONE THEN PLAY 2 Evidence")
    _react(c, "cid", "IF ANYONE HEARS 24 THEN PLAY Informer -",
           "IF ANYONE HEARS 24 THEN PLAY Alibi")
    justice.send_to_hearing(c, ANN_PC)
    assert [(e.args["player"], e.args["amount"]) for e in events(c, "reaction.card")][:4] == \
        [("cid", -1), ("cid", -3), ("bob", 1), ("bob", 1)]
    assert events(c, "justice.hearing")[0].args["total"] == 6  # 8 - 1 - 3 + 2
    assert not events(c, "justice.interrogation")  # 27.1: PCs are never interrogated
    assert events(c, "justice.trial")[0].args["judge"] == "46"


def test_hearing_without_evidence_is_minus_one_and_a_fac_is_interrogated() -> None:
    """26.1, 26.2, 27.1: 2+2-1 = 3 against Status 3 means trial, after interrogation."""
    c = _court([2, 2, 5, 5, 1, 1, 1])
    c.set_char(MAXWELL, owner="ann")
    justice.send_to_hearing(c, MAXWELL)
    assert events(c, "justice.hearing")[0].args["total"] == 3
    assert events(c, "justice.interrogation")[0].args["trial_mod"] == 0
    assert events(c, "justice.trial")[0].args["effects"] == ["not_guilty"]
    assert not c.char(MAXWELL).wrongdoer


# -- 27 interrogation ---------------------------------------------------------------------


def test_interrogation_cards_one_each_and_death() -> None:
    """27.3: Treachery -1 and Prison Guards ±2, no more than one of each; 2 or less dies."""
    c = _court([3, 2])
    c.set_char(MAXWELL, owner="cid")
    _hand(c, "ann", "treachery-1", "treachery-2", "prison_guards-1")
    _react(c, "ann", "IF ANYONE INTERROGATES ANYONE THEN PLAY 2 Treachery",
           "IF ANYONE INTERROGATES ANYONE THEN PLAY Prison Guards -")
    justice.interrogation(c, MAXWELL)
    assert events(c, "justice.interrogation")[0].args["total"] == 2  # 5 - 1 - 2
    assert _ids(c, "justice.executed") == [str(MAXWELL)]
    assert not c.char(MAXWELL).alive and "treachery-2" in c.players["ann"].hand


def test_interrogation_implicates_the_patron() -> None:
    """27 (PROPOSED table 3-4): Trial +2, then the controlling player's PC is accused."""
    # interrogation 3; judge 1; trial 2+2-3+2 = 3; then Ann's PC (Status 1): accused 1,
    # hearing 1+1-1 = 1 (trial), judge 1, trial 1+1-3: not guilty.
    c = _court([2, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1])
    c.set_char(MAXWELL, owner="ann")
    justice.interrogation(c, MAXWELL)
    assert events(c, "justice.trial")[0].args["total"] == 3
    assert events(c, "justice.implicated")[0].args["named"] == str(ANN_PC)
    assert events(c, "justice.accused")[0].args["character"] == str(ANN_PC)


# -- 28 trial -----------------------------------------------------------------------------


def test_trial_judge_chosen_by_a_fac_minister_and_a_fac_judge_modifies() -> None:
    """28.2: a FAC Minister of Justice picks the Judge (no die); 28.3: his FAC Judge ±5;
    28.4: no Evidence -3."""
    c = _court([4, 4])  # trial only
    c.set_char(22, owner="bob")
    c.set_char(51, owner="bob")
    _react(c, "bob", "IF ANYONE TRIES ANYONE THEN JUDGE 2nd Judge",
           "IF ANYONE TRIES ANYONE THEN MODIFY +")
    justice.trial(c, MAXWELL)
    trial = events(c, "justice.trial")[0].args
    assert (trial["judge"], trial["chooser"], trial["total"]) == ("51", "bob", 10)
    assert c.char(MAXWELL).situation is Situation.IMPRISONED  # 9-10


def test_trial_judge_at_random_never_his_own_and_a_guilty_judge_dies() -> None:
    """28.2: the first player's die picks the Judge; 28.3: a Judge is never his own
    judge, and one found anything but not guilty is executed at once."""
    c = _court([5, 4, 4])  # die 5: 2nd Judge; then 8 - 3 = 5: not guilty
    justice.trial(c, MAXWELL)
    assert events(c, "justice.trial")[0].args["judge"] == "51"
    c.dice = ScriptedDice({"justice": [5, 5]})
    c.set_char(51, owner=None)
    _hand(c, "ann", "evidence-1")
    _react(c, "ann", "IF ANYONE TRIES 46 THEN PLAY Evidence")
    justice.trial(c, 46)  # no judge die: the 2nd Judge hears it; 10 + 1: banished
    assert events(c, "justice.trial")[1].args["judge"] == "51"
    assert _ids(c, "justice.executed") == ["46"] and events(c, "justice.executed")[0].args[
        "why"] == "judge"
    assert c.char(46).alive  # 31.4: his heir is in the game


# -- 29 banishment ------------------------------------------------------------------------


def test_banishment_country_chosen_by_the_first_player_not_at_war() -> None:
    """29.1: no PC/FAC Minister of Justice: the first player chooses (CHOOSE); 29.3:
    discharged, Monarch's Counselor card discarded."""
    c = _court([])
    _react(c, "ann", "IF ANYONE BANISHES ANYONE THEN CHOOSE Epalin")
    _react(c, "bob", "IF ANYONE BANISHES ANYONE THEN CHOOSE Cronos")
    justice.banish(c, 21)  # Sir Donald, Minister of State
    donald = c.char(21)
    assert (donald.situation, donald.location) == (Situation.BANISHED, "epalin")
    assert c.offices["state"] is None
    c.wars = ["epalin"]
    c.set_char(MAXWELL, counselor="monarchs_counselor-1")
    justice.banish(c, MAXWELL)  # Epalin at war: the first at peace in table order
    assert c.char(MAXWELL).location == "sandarkan" and c.char(MAXWELL).counselor is None
    assert "monarchs_counselor-1" in c.discards


def test_banishment_by_a_fac_minister_and_imprisonment_when_all_at_war() -> None:
    c = _court([])
    c.set_char(22, owner="cid")
    _react(c, "ann", "IF ANYONE BANISHES ANYONE THEN CHOOSE Epalin")
    _react(c, "cid", "IF ANYONE BANISHES MINE THEN CHOOSE Cronos",
           "IF ANYONE BANISHES ANYONE THEN CHOOSE Besyzan")
    justice.banish(c, MAXWELL)
    assert c.char(MAXWELL).location == "besyzan"
    c.wars = [k.key for k in TABLES.countries]
    justice.banish(c, 41)
    assert c.char(41).situation is Situation.IMPRISONED


# -- 30 imprisonment, 31.6 execution ------------------------------------------------------


def test_prison_roll_from_the_second_turn_with_one_ip_for_minus_two() -> None:
    """30.10: not on the turn imprisoned; then 2d6, 11-12 dies; PAY: One IP, -2."""
    c = _court([6, 5, 6, 5])
    c.set_char(MAXWELL, owner="ann")
    justice.imprison(c, MAXWELL)
    fugitives.start_of_player_turn(c, "ann")
    assert not events(c, "justice.prison_roll")
    c.turn += 1
    _react(c, "ann", "IF ANYONE JAILS MINE THEN PAY")
    fugitives.start_of_player_turn(c, "ann")
    roll = events(c, "justice.prison_roll")[0].args
    assert (roll["total"], roll["paid"], roll["died"]) == (9, True, False)
    assert c.players["ann"].ip == 9
    with_player(c, "ann", reactions=())
    fugitives.start_of_player_turn(c, "ann")
    assert events(c, "justice.prison_roll")[1].args["died"] and not c.char(MAXWELL).alive


def test_nc_prison_roll_and_executions_at_the_end_of_the_turn() -> None:
    """30.10: an NC prisoner rolls at the end of all Player Turns; 31.6: awaiting
    execution means executed at the end of the next turn."""
    c = _court([1, 1])
    justice.imprison(c, MAXWELL)
    justice.imprison(c, 41, Situation.AWAITING_EXECUTION)
    fugitives.end_of_turns(c)
    assert not events(c, "justice.prison_roll") and c.char(41).alive
    c.turn += 1
    fugitives.end_of_turns(c)
    assert _ids(c, "justice.prison_roll") == [str(MAXWELL)]
    assert _ids(c, "justice.executed") == ["41"] and not c.char(41).alive


def test_an_imprisoned_pc_may_only_pardon_or_amnesty() -> None:
    """30.3 (Escape is not implemented yet)."""
    c = _court([])
    justice.imprison(c, ANN_PC)
    try:
        player.do(c, "ann", Activity(ActivityKind.DRAW))
    except player.Refused as refused:
        assert refused.reason == "imprisoned"
    else:
        raise AssertionError("an imprisoned PC drew a card")


def test_an_executed_pc_dies_as_a_pc() -> None:
    """28.6.5, 31.5: half PP and IP, his turn lost, the card face down."""
    c = _court([6, 6, 6])
    _hand(c, "ann")  # nothing to discard but DWTK (14.2.8)
    c.turn = 4
    justice.trial(c, ANN_PC)  # judge die 6; 12 - 3 = 9: imprisoned
    assert c.char(ANN_PC).situation is Situation.IMPRISONED
    justice.execute(c, ANN_PC, "sentence")
    pc = c.char(ANN_PC)
    assert pc.face_down_until == 6 and pc.situation is Situation.NORMAL
    assert c.players["ann"].pp == 20 and 4 in c.players["ann"].lost_turns


def test_scandal_informers_from_the_object_add_and_others_cannot() -> None:
    """22: the object's player +1 per Informer; nobody else but an exposer may play."""

    c = _court([], scandal=[4, 4])
    _hand(c, "ann", "informer-1", "informer-2")
    _hand(c, "bob", "informer-3")
    _react(c, "ann", "IF ANYONE EXPOSES MINE THEN PLAY 2 Informer")
    _react(c, "bob", "IF ANYONE EXPOSES ANYONE THEN PLAY Informer")
    scandals.apply_scandal(c, ANN_PC, exposed=False)
    assert events(c, "scandal.result")[0].args["total"] == 10
    assert "informer-3" in c.players["bob"].hand


def test_extradite_activity_with_intrigue_ignores_the_veto() -> None:
    """13.4.11, 25.3: Extradition and an Intrigue card: no veto; the living-abroad
    wrongdoer is returned to the hearing he fled (reading 25.10)."""
    c = _court([1, 1])
    c.set_char(MAXWELL, location="sandarkan", wrongdoer=True, fate=Fate.HEARING)
    c.set_char(23, owner="bob")
    _react(c, "bob", "IF ANYONE EXTRADITES ANYONE THEN VETO")
    _hand(c, "cid", "extradition-1", "intrigue-1")
    with pytest.raises(player.Refused):
        player.do(c, "cid", Activity(ActivityKind.EXTRADITE, ("41",)))  # not a wrongdoer
    player.do(c, "cid", Activity(ActivityKind.EXTRADITE, (str(MAXWELL),), intrigue=True))
    assert events(c, "justice.extradition")[0].args["result"] == "returned"
    assert c.players["cid"].hand == ("dwtk-3",)
    assert {"extradition-1", "intrigue-1"} <= set(c.discards)


def test_a_hider_who_is_no_wrongdoer_does_not_come_and_becomes_one() -> None:
    """24.10: sent to a hearing while hiding, he stays hidden, a wrongdoer now."""
    c = _court([])
    c.set_char(MAXWELL, owner="ann", situation=Situation.HIDING)
    justice.send_to_hearing(c, MAXWELL)
    assert c.char(MAXWELL).wrongdoer and c.char(MAXWELL).fate is Fate.HEARING
    assert not events(c, "justice.hearing")


def test_pardon_brings_the_banished_home_and_amnesty_frees_all() -> None:
    """13.4.5, 29.8: a pardoned exile comes home; 13.4.6, 24.9, 30.9: amnesty frees all."""
    c = _court([])
    justice.banish(c, MAXWELL)
    justice.imprison(c, 41)
    _fugitive(c, 42)
    _hand(c, "ann", "pardon-1", "amnesty-1")
    player.do(c, "ann", Activity(ActivityKind.PARDON, (str(MAXWELL),)))
    assert c.char(MAXWELL).location == FANDONIA and c.char(MAXWELL).free
    player.do(c, "ann", Activity(ActivityKind.AMNESTY))
    assert c.char(41).free and c.char(42).free and not c.char(42).wrongdoer
