"""Rule cases for three refinements: the office named in "Recommend an appointment"
(DWTK 15.8, reference §7.3), the standing LOSE FIRST order (35.5-35.5.4) and an NC who
cannot hide (24.7).

The dealt game (seed 1, three players): Ann's PC Sir Charles (24); NCs Sir James (22,
Minister of Justice), Earl Maxwell (32, Status 3), Duke Roland (42, Status 5), Lady
Margaret (61); Lord Mortimer (35) Minister of the Treasury, Sir Richard (14) of Trade.
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.dwtk import counseling, faction, status
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.state import FANDONIA, Fate, Situation, Voyage
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.views import sheet_context
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    court,
    dealt,
    events,
    run,
    with_player,
)

PC, JAMES, MAXWELL, ROLAND, MARGARET = 24, 22, 32, 42, 61
APPOINTMENT = next(c for c in TABLES.counseling["court_ball"]
                   if c.key == "recommend_appointment")


def _orders(text: str) -> TurnOrders:
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == (), parsed.errors
    return TurnOrders.from_dict(parsed.orders)


def _court(**script: list[int]) -> Court:
    """Ann: Sir James (Minister of Justice) and Earl Maxwell are her FACs; a Court Ball;
    the Treasury and Trade are vacant."""
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10)
    c.set_char(JAMES, owner="ann")
    c.set_char(MAXWELL, owner="ann")
    c.crown_event = "court_ball"
    c.offices["treasury"] = c.offices["trade"] = None
    return c


def _appoint(c: Court, named: str, office: str | None) -> None:
    counseling.apply(c, "ann", "court_ball", APPOINTMENT, APPOINTMENT.effects[0], named,
                     office)


# -- 15.8: Recommend an appointment AS <office> ------------------------------------------


def test_recommend_an_appointment_fills_the_office_named() -> None:
    """15.8, reference §7.3: accepted (5+5 = 10), Earl Maxwell takes the office named,
    not the first vacant one; without AS the first vacant one he may fill (default)."""
    c = _court(counsel=[5, 5])
    counseling.counsel_phase(c, "ann", _orders(
        "COUNSEL Recommend An Appointment ON Court Ball NAMING Earl Maxwell "
        "AS Minister Of Trade").counsels)
    assert events(c, "counsel.made")[0].args["result"] == "accepted"
    assert (c.offices["trade"], c.offices["treasury"]) == (str(MAXWELL), None)
    c = _court(counsel=[5, 5])
    counseling.counsel_phase(c, "ann", _orders(
        "COUNSEL Recommend An Appointment ON Court Ball NAMING Earl Maxwell").counsels)
    assert (c.offices["treasury"], c.offices["trade"]) == (str(MAXWELL), None)


def test_a_named_office_taken_or_beyond_the_pp_is_no_appointment() -> None:
    """15.8: what cannot be done has no effect: the office held (not vacant) or the PP
    limit (35.4) refuses it, said in a counsel.effect; 6.2/16.2 (PROPOSED): an Office
    Holder named moves to the vacant office named, leaving his own."""
    c = _court()
    _appoint(c, str(MAXWELL), "army")
    with_player(c, "ann", pp=status.faction_load(c, "ann"))
    _appoint(c, str(MAXWELL), "trade")
    refused = [e.args for e in events(c, "counsel.effect")]
    assert [(a["effect"], a["reason"]) for a in refused] == [
        ("office_refused", "not_vacant"), ("office_refused", "pp_limit")]
    assert c.office_of(str(MAXWELL)) is None
    with_player(c, "ann", pp=40)
    _appoint(c, str(JAMES), "treasury")
    assert (c.offices["treasury"], c.offices["justice"]) == (str(JAMES), None)
    assert events(c, "counsel.effect")[-1].args["left"] == "justice"


def test_the_as_office_parses_round_trips_and_is_checked() -> None:
    """15.8: AS only for Recommend An Appointment, never the Monarch, a known office."""
    parsed = parse_orders("COUNSEL recommend an appointment ON court ball NAMING 32 "
                          "AS minister of trade BY 22", TABLES)
    assert parsed.normal_form == ("COUNSEL Recommend an appointment ON Court Ball "
                                  "NAMING 32 AS Minister Of Trade BY 22",)
    assert parse_orders("\n".join(parsed.normal_form), TABLES).orders == parsed.orders
    assert _orders(parsed.normal_form[0]).counsels[0].office == "trade"
    bad = parse_orders("COUNSEL Recommend A Title ON Court Ball NAMING 32 AS Trade\n"
                       "COUNSEL Recommend An Appointment ON Court Ball NAMING 32 AS Monarch\n"
                       "COUNSEL Recommend An Appointment ON Court Ball NAMING 32 AS Pope\n"
                       "COUNSEL Recommend An Appointment ON Court Ball AS Trade", TABLES)
    assert [e.line for e in bad.errors] == [1, 2, 3, 4]
    assert "AS" in bad.errors[0].message and "Monarch" in bad.errors[1].message
    assert "Pope" in bad.errors[2].message and "NAMING" in bad.errors[3].message


# -- 35.5: LOSE FIRST ------------------------------------------------------------------


def test_lose_first_chooses_whom_the_pp_limit_takes_and_no_more() -> None:
    """35.5: he chooses whom he loses: Duke Roland first, not the lowest Status (Earl
    Maxwell, the default); 35.5.4: only while over the PP limit (Maxwell stays);
    35.5.1: Roland is an NC, his Loyalty counter in the container."""
    c = _court()
    c.set_char(JAMES, owner=None)
    c.set_char(ROLAND, owner="ann")
    c.orders = {"ann": _orders("LOSE FIRST Duke Roland, Earl Maxwell")}
    with_player(c, "ann", pp=8)
    faction.enforce_limit(c, "ann")
    assert events(c, "faction.lost") == []  # 35.5.4: 3 + 5 = 8 fits
    faction.gain(c, "ann", pp=-1)
    assert [e.args["member"] for e in events(c, "faction.lost")] == [str(ROLAND)]
    assert c.char(ROLAND).owner is None and ROLAND in c.loyalty_pool
    assert c.char(MAXWELL).owner == "ann"
    c = _court()
    c.set_char(JAMES, owner=None)
    c.set_char(ROLAND, owner="ann")
    with_player(c, "ann", pp=7)
    faction.enforce_limit(c, "ann")  # no LOSE FIRST: the lowest Status goes (PROPOSED default)
    assert [e.args["member"] for e in events(c, "faction.lost")] == [str(MAXWELL)]


def test_lose_first_names_a_farc_and_skips_those_not_his() -> None:
    """35.5, 35.5.2: a FARC may be chosen (an NRC, his Royal Alignment card discarded);
    a name no longer in his faction (Sir James, an NC) is passed over."""
    c = _court()
    c.set_royal("alfred", owner="ann", card="align_alfred-1")
    c.orders = {"ann": _orders("LOSE FIRST Sir James, Alfred")}
    c.set_char(JAMES, owner=None)
    with_player(c, "ann", pp=status.faction_load(c, "ann") - 1)
    faction.enforce_limit(c, "ann")
    assert [e.args["member"] for e in events(c, "faction.lost")] == ["alfred"]
    assert c.royals["alfred"].owner is None and "align_alfred-1" in c.discards


def test_lose_first_stands_until_replaced_or_cleared() -> None:
    """35.5: the LOSE FIRST list is kept turn after turn on the player (standing order);
    a new line replaces it, LOSE FIRST NONE clears it; it round-trips."""
    parsed = parse_orders("lose first 42 and prince alan", TABLES)
    assert parsed.normal_form == ("LOSE FIRST 42, Prince Alan",)
    assert parse_orders("LOSE FIRST NONE", TABLES).normal_form == ("LOSE FIRST NONE",)
    assert [e.line for e in parse_orders("LOSE FIRST PC\nLOSE 42\nLOSE FIRST 42\n"
                                         "LOSE FIRST 32", TABLES).errors] == [1, 2, 4]
    state = run(dealt(3), {"ann": "LOSE FIRST 42, Prince Alan"}).state
    assert state["players"]["ann"]["lose_first"] == ["42", "alan"]
    later = court(state)  # a turn without a LOSE line: the list stands
    assert later.lose_first("ann") == ("42", "alan")
    assert later.freeze().players["ann"].lose_first == ("42", "alan")
    state = run(state, {"ann": "LOSE FIRST 32"}).state
    assert state["players"]["ann"]["lose_first"] == ["32"]
    state = run(state, {"ann": "LOSE FIRST NONE"}).state
    assert state["players"]["ann"]["lose_first"] == []


def test_a_married_fac_lost_dies_and_his_spouse_may_remarry() -> None:
    """35.5.3: a married FAC who is lost dies (as an NC dying, 31.3); the former spouse
    is no longer married."""
    c = _court()
    c.set_char(JAMES, owner=None)
    c.set_char(MAXWELL, spouse=str(MARGARET))
    c.set_char(MARGARET, spouse=str(MAXWELL))
    c.orders = {"ann": _orders("LOSE FIRST Earl Maxwell")}
    with_player(c, "ann", pp=2)
    faction.enforce_limit(c, "ann")
    assert not c.char(MAXWELL).alive and c.char(MARGARET).spouse is None
    assert [e.args["member"] for e in events(c, "faction.lost")] == [str(MAXWELL)]


# -- 24.7: an NC cannot hide -----------------------------------------------------------


def test_a_fac_in_hiding_who_becomes_an_nc_comes_out_to_his_hearing() -> None:
    """24.7 (read as FAC, PROPOSED): lost by the PP limit (35.5), the wrongdoer hiding in
    Epalin comes out at once, is returned to Fandonia and heard (24.8): 1+1-1 against
    Status 5, innocent."""
    c = _court(justice=[1, 1])
    c.set_char(ROLAND, owner="ann", situation=Situation.HIDING, wrongdoer=True,
               fate=Fate.HEARING, location="epalin", since=c.turn)
    c.orders = {"ann": _orders("LOSE FIRST Duke Roland")}
    with_player(c, "ann", pp=4)
    faction.enforce_limit(c, "ann")
    roland = c.char(ROLAND)
    assert roland.owner is None and roland.situation is Situation.NORMAL
    assert roland.location == FANDONIA and not roland.wrongdoer
    ids = [e.id for e in c.events]
    assert ids.index("faction.lost") < ids.index("justice.forced_out") < \
        ids.index("justice.hearing")
    assert events(c, "justice.returned")[0].args["fate"] == "hearing"


def test_an_nc_out_of_hiding_the_turn_he_hid_or_banished_again() -> None:
    """24.7 over 24.2 (PROPOSED): out even the turn he hid; a non-wrongdoer simply stands
    in the open; a banished character in hiding is banished again where he is (29.5)."""
    c = _court()
    c.set_char(ROLAND, owner="ann", situation=Situation.HIDING, since=c.turn)
    c.set_char(MARGARET, owner="ann", situation=Situation.HIDING, wrongdoer=True,
               fate=Fate.BANISHED, location="cronos", since=c.turn - 2)
    faction.lose_member(c, "ann", str(ROLAND), "proposal_spurned")
    faction.lose_member(c, "ann", str(MARGARET), "pp_limit")
    assert c.char(ROLAND).situation is Situation.NORMAL and not c.char(ROLAND).wrongdoer
    margaret = c.char(MARGARET)
    assert (margaret.situation, margaret.location) == (Situation.BANISHED, "cronos")
    assert len(events(c, "justice.forced_out")) == 2
    assert {ROLAND, MARGARET} <= c.came_out


def test_a_fac_who_stays_a_fac_stays_hidden() -> None:
    """24.7 only for an NC: a FAC in hiding kept within the PP limit stays hidden."""
    c = _court()
    c.set_char(ROLAND, owner="ann", situation=Situation.HIDING, since=c.turn)
    with_player(c, "ann", pp=status.faction_load(c, "ann"))
    faction.enforce_limit(c, "ann")
    assert c.char(ROLAND).situation is Situation.HIDING and events(c, "faction.lost") == []
    c.players["ann"] = replace(c.players["ann"], pp=0)
    faction.enforce_limit(c, "ann")
    assert c.char(ROLAND).situation is Situation.NORMAL


def test_the_private_sheet_shows_the_standing_lose_first_list() -> None:
    """35.5: the standing LOSE FIRST list is read back on the player's own sheet."""

    c = court(dealt(3))
    with_player(c, "ann", lose_first=("23", "alan"))
    ctx = sheet_context(c.freeze(), "ann", TABLES)
    assert ctx["lose_first"] == ["23", "Prince Alan"]
    assert sheet_context(c.freeze(), "bob", TABLES)["lose_first"] == []


def test_the_private_sheet_keeps_the_record_of_marriages_betrothals_and_the_privateer() -> None:
    """2.4 (the Record Sheet), 18.4.7, 13.4.17.1: his sheet says whom his nobles married or
    are betrothed to, that one is a wrongdoer at large, and where his privateer stands."""

    c = court(dealt(3))
    c.set_char(ROLAND, owner="ann", henchman="henchman-1", betrothed=str(MARGARET))
    c.set_char(MARGARET, owner="ann", betrothed=str(ROLAND), wrongdoer=True)
    c.set_char(PC, spouse="62")
    with_player(c, "ann", voyage=Voyage(captain=ROLAND, cargo=3, launched=c.turn))
    ctx = sheet_context(c.freeze(), "ann", TABLES)
    members = {m["name"]: m for m in ctx["faction"]}
    assert members["Duke Roland"]["betrothed"] == "Lady Margaret"
    assert members["Lady Margaret"]["wrongdoer"] and not members["Duke Roland"]["wrongdoer"]
    assert ctx["pc"]["spouse"] == "Lady Elizabeth"
    assert ctx["voyage"] == {"captain": "Duke Roland", "cargo": 3}
