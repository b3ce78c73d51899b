"""Reference §12 order language: parsing, errors with line numbers, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moderator.games.engarde import ENGINE
from moderator.games.engarde.lookup import Lookup, character_names, lady_names
from moderator.games.engarde.orders import (
    Answer,
    AttendParty,
    Bawdyhouse,
    Borrow,
    Bribe,
    Buy,
    BuyBox,
    ClubVisit,
    CombineFavours,
    Conditional,
    Court,
    Demand,
    Gamble,
    HostParty,
    JoinClub,
    Lend,
    Let,
    Liaise,
    Marry,
    Move,
    Order,
    Outcome,
    Practice,
    PregnancyAnswer,
    Propose,
    Rent,
    Repay,
    ResignClub,
    Rest,
    Sell,
    StayInParis,
    StopLetting,
    Support,
    SupportLevel,
    Theatre,
    UseFavour,
    VisitMistress,
    order_from_dict,
)
from moderator.games.engarde.parser import Slot, parse_order
from tests.engarde.conftest import _TABLES, make_char, make_lady, make_state

STATE = make_state(make_char("cyrano", "Cyrano de Bergerac", sl=14, club="bothwells"),
                   make_char("jacques", "Jacques", sl=4),
                   ladies=[make_lady("rox", "Mlle Roxanne de Blois"),
                           make_lady("cel", "Mme Célestine d'Aubigny", sl=12)])
LOOK = Lookup(character_names(STATE), _TABLES, lady_names(STATE))

ROUND_TRIP: list[tuple[Slot, Order]] = [
    (Slot("PREMONTH"), Support(SupportLevel.CONSPICUOUS)),
    (Slot("PREMONTH"), Support(SupportLevel.NORMAL)),
    (Slot("PREMONTH"), BuyBox()),
    (Slot("ANYTIME"), JoinClub("red_phillips")),
    (Slot("ANYTIME"), JoinClub("frog_and_peach")),
    (Slot("ANYTIME"), ResignClub()),
    (Slot("ANYTIME"), Let("town_house", "charonne")),
    (Slot("ANYTIME"), StopLetting("palace", "ile_de_la_cite")),
    (Slot("ANYTIME"), Sell("garret", "passy")),
    (Slot("WEEKEND", 1), Theatre(first_night=True)),
    (Slot("WEEKEND", 2), Theatre()),
    (Slot("WEEKEND", 3), Rent("apartment", "belleville")),
    (Slot("WEEKEND", 4), Buy("mansion", "la_chapelle")),
    (Slot("WEEK", 1), ClubVisit("bothwells", "cyrano", (), "cyrano", True, Gamble(50, 6, 4))),
    (Slot("WEEK", 1), ClubVisit("hunters", None, ("cyrano", "jacques"), None, False, None)),
    (Slot("WEEK", 2), Bawdyhouse("jacques", Gamble(10, 1, None))),
    (Slot("WEEK", 2), HostParty(True, True, ("jacques",))),
    (Slot("WEEK", 2), HostParty(False, True, ())),
    (Slot("WEEK", 2), HostParty(False, False, ())),
    (Slot("WEEK", 3), AttendParty("cyrano", "jacques", True)),
    (Slot("WEEK", 3), Practice("cutlass")),
    (Slot("WEEK", 4), Move()),
    (Slot("WEEK", 4), Rest()),
    (Slot("WEEK", 3), Conditional(2, Outcome.FAILED, Practice("rapier"),
                                  ClubVisit("hunters", carouse=True))),
    (Slot("WEEK", 4), Conditional(1, Outcome.SUCCEEDED, Bawdyhouse(), None)),
    # EG §L mistresses
    (Slot("WEEK", 2), Court("rox", 1)),
    (Slot("WEEK", 2), Court("cel", 0, True)),
    (Slot("WEEK", 3), VisitMistress()),
    (Slot("WEEK", 3), ClubVisit("hunters", carouse=True, with_mistress=True)),
    (Slot("WEEK", 4), Conditional(2, Outcome.FAILED, Court("rox", 2), VisitMistress())),
    (Slot("WEEKEND", 2), Liaise("cel", True, True)),
    (Slot("WEEKEND", 2), Liaise("rox")),
    (Slot("WEEKEND", 3), Propose()),
    (Slot("WEEKEND", 4), Marry()),
    (Slot("WEEKEND", 4), Marry(3)),
    (Slot("WEEKEND", 3), Theatre(with_mistress=True)),
    (Slot("WEEKEND", 1), Theatre(first_night=True, with_mistress=True)),
    *[(Slot("ANYTIME"), PregnancyAnswer("rox", a)) for a in Answer],
    # EG §S influence
    (Slot("ANYTIME"), CombineFavours(3)),
    (Slot("ANYTIME"), Bribe("minister", 3)),
    (Slot("ANYTIME"), Bribe("lieutenant_colonel", 9)),
    (Slot("ANYTIME"), UseFavour(8, "party", "cyrano", False)),
    (Slot("ANYTIME"), UseFavour(9, "party", "jacques", True)),
    (Slot("ANYTIME"), UseFavour(2, "first_night", None, True)),
    # EG §Q loans
    (Slot("ANYTIME"), Lend(200, "cyrano")),
    (Slot("ANYTIME"), Borrow(200, "jacques")),
    (Slot("ANYTIME"), Borrow(300, None)),
    (Slot("ANYTIME"), Repay(150, "cyrano")),
    (Slot("ANYTIME"), Repay(0, None)),
    (Slot("ANYTIME"), Demand("jacques")),
    (Slot("ANYTIME"), StayInParis()),
]


@pytest.mark.parametrize(("slot", "order"), ROUND_TRIP, ids=lambda v: str(v)[:40])
def test_format_and_parse_round_trip(slot: Slot, order: Order) -> None:
    """Reference §12: every order's canonical text parses back to the same order."""
    text = order.format(LOOK)
    assert parse_order(slot, text, LOOK) == order
    assert order_from_dict(order.to_dict()) == order


@given(stake=st.integers(1, 10_000), wagers=st.integers(1, 9),
       cut=st.one_of(st.none(), st.integers(1, 6)), carouse=st.booleans(),
       toady=st.sampled_from([None, "cyrano", "jacques"]))
def test_club_week_round_trip_property(stake: int, wagers: int, cut: int | None,
                                       carouse: bool, toady: str | None) -> None:
    """EG §K: GAMBLE <stake> x<n> CUT <k> survives format -> parse for any legal values."""
    order = ClubVisit("blue_gables", None, (), toady, carouse, Gamble(stake, wagers, cut))
    assert parse_order(Slot("WEEK", 1), order.format(LOOK), LOOK) == order


def test_several_errors_collected_with_line_numbers_and_hints() -> None:
    """Reference §12: every problem is reported, with its line and a 'did you mean'."""
    text = "\n".join([
        "GAME: Paris 1625",           # 1 ignored
        "PASSWORD: secret",           # 2 ignored
        "# a comment",                # 3
        "",                           # 4
        "PREMONTH: SUPORT NORMAL",    # 5 typo
        "ANYTIME: JOIN CLUB Red Philips",  # 6 typo in club
        "WEEK 1: CLUB; TOADY Cyrano; CAROUSE",  # 7 fine for cyrano's club? jacques has none
        "WEEK 2: JOIN REGIMENT Gascons",  # 8 an anytime order under a week
        "WEEK 3: PRACTICE rapir",     # 9 typo
        "WEEKEND 2: THEATRE",         # 10 fine
        "week 4: bawdyhouse; toady Cyranno",  # 11 typo in name
    ])
    parsed = ENGINE.parse_orders(text, STATE, "jacques", _TABLES)
    by_line = {e.line: e for e in parsed.hard_errors}
    assert sorted(by_line) == [5, 6, 7, 8, 9, 11]
    assert by_line[5].hint == "did you mean SUPPORT?"
    assert by_line[6].hint == "did you mean Red Phillips?"
    assert "put it under ANYTIME" in by_line[8].message  # reference §4.1: anytime here
    assert by_line[9].hint == "did you mean rapier?"
    assert by_line[11].hint == "did you mean Cyrano de Bergerac?"
    assert by_line[11].text == "week 4: bawdyhouse; toady Cyranno"
    assert parsed.normal_form == ("WEEKEND 2: THEATRE",)


def test_section_headers_on_their_own_lines_and_any_case() -> None:
    """Reference §12: sections may head several lines; keywords are case-insensitive."""
    text = "premonth:\n  support conspicuous\n  box\nWeek 1:\n club Bothwell's\n carouse\n" \
           "  gamble 100 x2 cut 6\nweekend 1:\n theatre first night\n"
    parsed = ENGINE.parse_orders(text, STATE, "cyrano", _TABLES)
    assert not parsed.errors
    assert parsed.normal_form == (
        "PREMONTH: SUPPORT CONSPICUOUS", "PREMONTH: BOX",
        "WEEK 1: CLUB Bothwell's; CAROUSE; GAMBLE 100 x2 CUT 6",
        "WEEKEND 1: THEATRE FIRST NIGHT")


def test_two_weekly_actions_in_one_week_is_an_error() -> None:
    """EG §D: one action each week (plus club combination actions)."""
    parsed = ENGINE.parse_orders("WEEK 1: BAWDYHOUSE; PRACTICE rapier", STATE, "jacques",
                                 _TABLES)
    assert "one weekly action" in parsed.hard_errors[0].message


def test_conditional_may_only_refer_to_an_earlier_week() -> None:
    """EG §D: a week's action may be contingent upon a *previous* week's outcome."""
    parsed = ENGINE.parse_orders("WEEK 2: IF WEEK 3 FAILED THEN REST ENDIF", STATE,
                                 "jacques", _TABLES)
    assert "earlier week" in parsed.hard_errors[0].message


def test_party_guest_may_not_toady_the_host() -> None:
    """EG §J: guests may not toady with the host."""
    parsed = ENGINE.parse_orders("WEEK 1: PARTY Cyrano de Bergerac; TOADY Cyrano de Bergerac",
                                 STATE, "jacques", _TABLES)
    assert "toady with the host" in parsed.hard_errors[0].message


def test_standing_and_nmr_lines_are_kept_apart() -> None:
    """Reference §12: STANDING and NMR orders are separate sets in the orders JSON."""
    text = "STANDING: SUPPORT CONSPICUOUS\nSTANDING WEEK 4: BAWDYHOUSE\nNMR WEEKS 1-2: REST\n"
    parsed = ENGINE.parse_orders(text, STATE, "jacques", _TABLES)
    assert not parsed.errors
    assert parsed.orders["month"]["weeks"] == {}
    assert parsed.orders["standing"]["weeks"]["4"] == {"kind": "bawdyhouse", "toady": None,
                                                       "gamble": None}
    assert sorted(parsed.orders["nmr"]["weeks"]) == ["1", "2"]
    assert parsed.normal_form == ("STANDING PREMONTH: SUPPORT CONSPICUOUS",
                                  "STANDING WEEK 4: BAWDYHOUSE", "NMR WEEK 1: REST",
                                  "NMR WEEK 2: REST")


def test_order_form_parses_cleanly_and_round_trips_standing_orders() -> None:
    """The order form is valid input as it stands, pre-filled with standing orders."""
    state = make_state(make_char("a", sl=5, standing={
        "premonth": [{"kind": "support", "level": "conspicuous"}], "anytime": [],
        "weekends": {}, "weeks": {"4": {"kind": "bawdyhouse", "toady": None,
                                        "gamble": None}}}))
    form = ENGINE.order_form(state, "a", _TABLES)
    parsed = ENGINE.parse_orders(form, state, "a", _TABLES)
    assert not parsed.errors
    assert "STANDING WEEK 4: BAWDYHOUSE" in parsed.normal_form
    assert parsed.orders["standing"]["premonth"] == [{"kind": "support",
                                                      "level": "conspicuous"}]


def test_example_order_form_file_is_valid() -> None:
    """orders/forms/engarde.txt is a valid example for the parser."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "orders" / "forms" / "engarde.txt").read_text()
    parsed = ENGINE.parse_orders(text, STATE, "jacques", _TABLES)
    assert not parsed.hard_errors, parsed.hard_errors


def test_every_bad_clause_of_a_week_is_reported() -> None:
    """EG §D, reference §12: a week with two bad clauses gets two errors, not one."""
    text = "WEEK 3: PRACTISE rapeir\nFROBNICATE\nWEEK 2: DANCE A JIG; CAROUSE; JUGGLE\n"
    parsed = ENGINE.parse_orders(text, STATE, "jacques", _TABLES)
    assert [(e.line, e.text) for e in parsed.hard_errors] == [
        (1, "WEEK 3: PRACTISE rapeir"),
        (2, "FROBNICATE"),
        (3, "WEEK 2: DANCE A JIG; CAROUSE; JUGGLE"),
        (3, "WEEK 2: DANCE A JIG; CAROUSE; JUGGLE"),
    ]
    assert parsed.hard_errors[0].hint == "did you mean rapier?"  # PRACTISE is accepted


def test_british_spelling_of_practise_is_read() -> None:
    """EG §N: 'practise' and 'practice' are the same order."""
    parsed = ENGINE.parse_orders("WEEK 1: Practise sabre\n", STATE, "jacques", _TABLES)
    assert parsed.normal_form == ("WEEK 1: PRACTICE sabre",)
    assert parsed.errors == ()


def test_ladies_are_found_by_short_names_and_readable_aliases() -> None:
    """EG §L: "COURT Mlle Roxanne" names her as the Ladies of Paris list does."""
    parsed = ENGINE.parse_orders("WEEK 2: COURT Mlle Roxanne EXTRA 1\n"
                                 "WEEKEND 2: LIAISE celestine gift double reveal\n"
                                 "WEEK 3: CLUB Red Phillips; VISIT MISTRESS\n"
                                 "ANYTIME: PREGNANCY Roxanne PAYOFF\n"
                                 "ANYTIME: USE FAVOR 8 ON party FOR cyrano", STATE, "jacques",
                                 _TABLES)
    assert not parsed.hard_errors, parsed.hard_errors
    assert parsed.normal_form == (
        "ANYTIME: PREGNANCY Mlle Roxanne de Blois PAY OFF",
        "ANYTIME: USE FAVOUR 8 ON PARTY FOR Cyrano de Bergerac",
        "WEEK 2: COURT Mlle Roxanne de Blois EXTRA 1",
        "WEEKEND 2: LIAISE Mme Célestine d'Aubigny GIFT DOUBLE REVEAL",
        "WEEK 3: CLUB Red Phillips; WITH MISTRESS")
    warned = [e.message for e in parsed.errors]
    assert sum("certainly fail" in w for w in warned) == 1  # Célestine is 8 SL above him


def test_a_lady_is_found_without_her_honorific() -> None:
    """EG §L: "COURT Roxanne de Blois" names her as surely as "Mlle Roxanne de Blois";
    the honorific alone was refused as an unknown lady (with her full name as the hint)."""
    parsed = ENGINE.parse_orders("WEEK 2: COURT Roxanne de Blois\n"
                                 "WEEKEND 2: LIAISE Celestine d'Aubigny", STATE, "jacques",
                                 _TABLES)
    assert not parsed.hard_errors, parsed.hard_errors
    assert parsed.normal_form == ("WEEK 2: COURT Mlle Roxanne de Blois",
                                  "WEEKEND 2: LIAISE Mme Célestine d'Aubigny")


def test_a_week_range_warns_once_not_once_a_week() -> None:
    """EG §D, reference §4.5: "WEEKS 1-2: REGIMENTAL DUTY" out of a regiment printed the
    same warning, on the same line, twice on the receipt."""
    parsed = ENGINE.parse_orders("WEEKS 1-2: REGIMENTAL DUTY", STATE, "jacques", _TABLES)
    assert len([e for e in parsed.errors if "no regiment" in e.message]) == 1, parsed.errors
    assert parsed.normal_form == ("WEEK 1: REGIMENTAL DUTY", "WEEK 2: REGIMENTAL DUTY")


def test_courting_far_above_is_a_warning() -> None:
    """EG §L: more than 6 above always fails: a receipt warning, not an error."""
    parsed = ENGINE.parse_orders("WEEK 1: COURT Celestine\nWEEKEND 1: LIAISE Celestine",
                                 STATE, "jacques", _TABLES)
    assert not parsed.hard_errors
    assert sum("certainly fail" in e.message for e in parsed.errors) == 2
