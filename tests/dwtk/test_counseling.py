"""Rule cases for counseling the Monarch, DWTK 15 (scripted dice; the PROPOSED tables of
``data/dwtk/counseling.toml``).

The dealt game (seed 1, three players): Ann's PC Sir Charles (24), Bob's Baroness
Eleanor (64), Cid's Knight William (26); NCs: Sir James (22) Minister of Justice, Sir
Jeffrey (23) Ambassador to Sandarkan, Knight Simon (31) Ambassador to Besyzan, the
Magistrate (45), Earl Maxwell (32, Status 3).
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import counseling, player
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.counsel import CounselOrder
from moderator.games.dwtk.state import OpenProblem, Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    events,
    react,
    with_player,
)

JAMES, JEFFREY, SIMON, MAXWELL = 22, 23, 31, 32


def _court(**script: list[int]) -> Court:
    """Ann controls the Minister of Justice; Lawlessness is unresolved; a Court Ball."""
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10)
    c.set_char(JAMES, owner="ann")
    c.problems = [OpenProblem("lawlessness")]
    c.crown_event = "court_ball"
    return c


def _counsel(text: str) -> tuple[CounselOrder, ...]:
    return TurnOrders.from_dict(parse_orders(text, TABLES).orders).counsels


def _refusals(c: Court) -> list[str]:
    return [e.args["reason"] for e in events(c, "counsel.refused")]


def test_who_may_counsel_and_on_which_tables() -> None:
    """15.2-15.5: an office holder or Counselor; the open tables only; none on Famine."""
    c = _court()
    counseling.counsel_phase(c, "bob", _counsel(
        "COUNSEL Recommend A Title ON Court Ball NAMING PC"))
    counseling.counsel_phase(c, "ann", _counsel("COUNSEL Send Out The Fleet ON Pirates"))
    c.crown_event = "famine"
    counseling.counsel_phase(c, "ann", _counsel("COUNSEL Make An Example ON Lawlessness "
                                                "NAMING 32"))
    assert _refusals(c) == ["no_counselor", "table_not_open", "no_counsel_this_turn"]


def test_eligible_counselors() -> None:
    """15.2: abroad only an Ambassador at peace; 15.3 (reading): never a henchman."""
    c = _court()
    c.set_char(JEFFREY, owner="ann")
    assert counseling.may_counsel(c, c.char(JEFFREY))
    c.wars = ["sandarkan"]
    assert not counseling.may_counsel(c, c.char(JEFFREY))
    c.set_char(JAMES, location="epalin")
    assert not counseling.may_counsel(c, c.char(JAMES))
    c.set_char(JAMES, location="fandonia", henchman="henchman-1")
    assert not counseling.may_counsel(c, c.char(JAMES))
    c.set_char(MAXWELL, owner="ann", counselor="monarchs_counselor-1")
    assert counseling.may_counsel(c, c.char(MAXWELL))


def test_accepted_with_modifiers_of_both_sides() -> None:
    """15.7: the Minister of Justice (Ann's, +1 by default) and the Magistrate (Bob's
    MODIFY -); 15.8: 10-11 pleased and accepts: +2 PP, +1 IP, the counsel executed."""
    c = _court(counsel=[5, 5], justice=[2])
    c.set_char(45, owner="bob")
    react(c, "bob", "IF AN OPPONENT COUNSELS ANYONE THEN MODIFY -")
    counseling.counsel_phase(c, "ann", _counsel(
        "COUNSEL Make An Example ON Lawlessness NAMING Earl Maxwell"))
    made = events(c, "counsel.made")[0].args
    assert (made["modifier"], made["total"], made["result"]) == (0, 10, "accepted")
    assert (c.players["ann"].pp, c.players["ann"].ip) == (42, 11)
    accused = events(c, "justice.accused")[0].args
    assert (accused["character"], accused["cause"]) == (str(MAXWELL), "counsel")
    assert c.players["ann"].counsels == {"lawlessness": ("make_an_example",)}


def test_rotation_every_counsel_once_before_any_again() -> None:
    """15.9: the same counsel again only once each on the table has been made."""
    c = _court(counsel=[2, 2, 3, 3])
    with_player(c, "ann", counsels={"lawlessness": ("make_an_example",)})
    lines = _counsel("COUNSEL Make An Example ON Lawlessness NAMING 32\n"
                     "COUNSEL Dismiss The Minister Of Justice ON Lawlessness")
    counseling.counsel_phase(c, "ann", lines)
    assert _refusals(c) == ["rotation"]
    assert events(c, "counsel.made")[0].args["counsel"] == "Dismiss the Minister of Justice"
    with_player(c, "ann", counsels={"lawlessness": ("make_an_example", "extradite",
                                                    "dismiss_justice")})
    counseling.counsel_phase(c, "ann", lines)
    assert len(events(c, "counsel.made")) == 2


def test_displeased_costs_the_office_or_sends_him_to_besyzan() -> None:
    """Results Table (PROPOSED): 2 loses his office; 3 Ambassador to Besyzan (16.5);
    a Counselor without office loses his card."""
    c = _court(counsel=[1, 1])
    counseling.counsel_phase(c, "ann", _counsel("COUNSEL Dismiss The Minister Of Justice "
                                                "ON Lawlessness"))
    assert c.offices["justice"] is None
    c = _court(counsel=[1, 2])
    counseling.counsel_phase(c, "ann", _counsel("COUNSEL Dismiss The Minister Of Justice "
                                                "ON Lawlessness"))
    assert c.offices["amb_besyzan"] == str(JAMES) and c.char(JAMES).location == "besyzan"
    assert c.char(SIMON).location == "fandonia" and c.offices["justice"] is None
    c = _court(counsel=[1, 1])
    c.set_char(JAMES, owner=None)
    c.set_char(MAXWELL, owner="ann", counselor="monarchs_counselor-1")
    counseling.counsel_phase(c, "ann", _counsel("COUNSEL Dismiss The Minister Of Justice "
                                                "ON Lawlessness BY 32"))
    assert c.char(MAXWELL).counselor is None and "monarchs_counselor-1" in c.discards


def test_a_free_counsel_needs_no_office_ignores_rotation_and_is_protected() -> None:
    """8.4.4, 15.9, 15.10: the PC counsels; nothing ill befalls him."""
    c = _court(counsel=[1, 1])
    c.set_char(JAMES, owner=None)
    with_player(c, "ann", free_counsel=True,
                counsels={"court_ball": ("recommend_title",)})
    counseling.counsel_phase(c, "ann", _counsel(
        "COUNSEL Recommend A Title ON Court Ball NAMING PC"))
    made = events(c, "counsel.made")[0].args
    assert made["free"] and made["counselor"] == "24" and made["result"] == "rejected"
    assert events(c, "counsel.effect")[0].args["effect"] == "protected"


def test_crisis_minus_one_and_a_farc_monarch_plus_one() -> None:
    """33.2.4 (reading: allowed at -1) and 15.11, 36.10.2 (the FARC Monarch's player ±1
    by a COUNSELS reaction; he makes no counsel himself)."""
    c = _court(counsel=[3, 3])
    c.support = 0
    c.set_royal("george", owner="bob")
    react(c, "bob", "IF ANYONE COUNSELS ANYONE THEN MODIFY +")
    c.set_char(13, owner="ann")  # the High Minister modifies Dismiss The Minister
    counseling.counsel_phase(c, "ann", _counsel("COUNSEL Dismiss The Minister Of Justice "
                                                "ON Lawlessness"))
    assert events(c, "counsel.made")[0].args["modifier"] == 1  # +1 +1 -1
    c.set_royal("george", owner="ann")
    counseling.counsel_phase(c, "ann", _counsel("COUNSEL Dismiss The Minister Of Justice "
                                                "ON Lawlessness"))
    assert events(c, "counsel.refused")[-1].args["reason"] == "farc_monarch"


def test_accepted_counsels_act_through_the_rules() -> None:
    """next roll, settled problems, Support cards discarded from hands (14.2.6), forced
    extradition (25.4), Besyzan (16.5), a free Title and office, bans, the scandal's
    hearing, a Counselor purged."""
    c = _court(justice=[1, 1])
    c.problems = [OpenProblem("pirates"), OpenProblem("foreign_war")]
    c.wars = ["cronos"]
    with_player(c, "bob", hand=("army_support-1", "dwtk-2"))

    def apply(table: str, key: str, named: str | None = None) -> None:
        counsel = next(x for x in TABLES.counseling[table] if x.key == key)
        for e in counsel.effects:
            counseling.apply(c, "ann", table, counsel, e, named)

    apply("pirates", "send_the_fleet")
    assert c.problems[0].next_roll == -1
    apply("foreign_war", "raise_levies")
    assert c.players["bob"].hand == ("dwtk-2",) and "army_support-1" in c.discards
    apply("foreign_war", "sue_for_peace")
    assert [p.key for p in c.problems] == ["pirates"] and c.wars == []
    c.set_char(MAXWELL, location="epalin", wrongdoer=True)
    apply("lawlessness", "extradite", str(MAXWELL))
    assert events(c, "justice.extradition")[0].args["result"] == "returned"
    apply("diplomatic_crisis", "reassign_envoy", "21")
    assert c.offices["amb_besyzan"] == "21" and c.offices["state"] is None
    apply("court_ball", "recommend_title", "24")
    assert c.char(24).titles == 1
    apply("court_ball", "recommend_appointment", "24")
    assert c.office_of("24") is not None
    apply("court_ball", "ban_courtier", "65")
    assert c.char(65).banned
    c.set_char(44, counselor="monarchs_counselor-2")
    apply("scandal", "purge_the_council", "44")
    assert c.char(44).counselor is None


def test_demand_a_hearing_for_the_scandal_object() -> None:
    c = _court(justice=[1, 1])
    c.scandal_object = MAXWELL
    counsel = next(x for x in TABLES.counseling["scandal"] if x.key == "demand_hearing")
    counseling.apply(c, "ann", "scandal", counsel, counsel.effects[0], None)
    hearing = events(c, "justice.hearing")[0].args
    assert (hearing["character"], hearing["result"]) == (str(MAXWELL), "innocent")
    assert c.char(MAXWELL).situation is Situation.NORMAL and not c.char(MAXWELL).wrongdoer


def test_counsel_comes_at_the_end_of_the_player_turn_even_without_activities() -> None:
    """15.1: after his activities (none with Gout), before the turn ends."""
    c = _court(counsel=[4, 4])
    c.order = ("ann",)
    with_player(c, "ann", opportunity=("gout-1",))
    c.orders = {"ann": TurnOrders.from_dict(parse_orders(
        "DO DRAW EVENT\nCOUNSEL Dismiss The Minister Of Justice ON Lawlessness",
        TABLES).orders)}
    player.player_turns(c)
    assert events(c, "counsel.made")[0].args["result"] == "pleased"


def test_counsel_orders_round_trip_and_errors_are_collected() -> None:
    text = ("COUNSEL make an example ON lawlessness NAMING Sir Guy BY PC\n"
            "COUNSEL Sue For Peace ON Foreign War\n")
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == ()
    assert parsed.normal_form == ("COUNSEL Make an example ON Lawlessness NAMING 12 BY PC",
                                  "COUNSEL Sue for peace ON Foreign War")
    assert parse_orders("\n".join(parsed.normal_form), TABLES).orders == parsed.orders
    bad = ("COUNSEL Make An Example ON Lawlessness\nCOUNSEL Sue For Peace ON Plague\n"
           "COUNSEL Dance ON Pirates\nCOUNSEL Sue For Peace ON Foreign War NAMING 23\n"
           "COUNSEL pirates")
    errors = parse_orders(bad, TABLES).errors
    assert [e.line for e in errors] == [1, 2, 3, 4, 5] and all(e.hint for e in errors)
    with pytest.raises(Refused, match="no_counselor"):
        counseling.make(_court(), "bob", _counsel("COUNSEL Dismiss The Minister Of "
                                                  "Justice ON Lawlessness")[0])
