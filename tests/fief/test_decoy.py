"""FE 9.1: "Each Player has two Vote Markers ... A 'DECOY' Vote Marker ... DECOY Votes have
no effect on a King or Sovereign Queen election. A Player may have placed a Decoy Vote to
mislead other Players on how they are voting."  By mail (docs/fief-by-email.md, PROPOSED):
`DECOY <candidate>`, one a round; the gazette shows whose markers lay on whom, FOR and
DECOY alike, and the count; the player's own sheet says which of his was the decoy."""

from __future__ import annotations

from moderator.games.base import Severity
from moderator.games.fief import court, phases
from moderator.games.fief.orders import parse_orders
from moderator.games.fief.state import GameState
from tests.fief.board import board, give_orders, noble, realm, refusals
from tests.fief.conftest import EVENTS, TABLES, told

NAMES = {"anabel": "Anabel", "edward": "Edward", "kirsten": "Kirsten", "dave": "Dave"}


def _court() -> GameState:
    """Anabel (Wales) and Edward (North) stand; Kirsten has 2 votes, Dave 1 (a Bishop)."""
    s = board()
    noble(s, "Edward", "Green", "York", titles=["north"])
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west"], clergy="exeter")
    noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
    s.candidates = ["anabel", "edward"]
    return s


def _election(orders: dict[str, str]) -> tuple[GameState, list[dict[str, object]]]:
    s = _court()
    r = realm(s)
    give_orders(r, orders)
    phases.store_standing(r)
    court.election_phase(r)
    return s, [e.to_dict() for e in r.events]


def test_fe_9_1_a_decoy_changes_no_count() -> None:
    plain = {"kirsten": "VOTE Edward", "dave": "VOTE Anabel"}
    decoyed = {"kirsten": "VOTE Edward\nDECOY Anabel", "dave": "VOTE Anabel\nDECOY Edward"}
    s1, events1 = _election(plain)
    s2, events2 = _election(decoyed)
    assert s1.sovereign == s2.sovereign == "edward"
    tallies = [e["args"]["tally"] for e in (*events1, *events2)  # type: ignore[index]
               if e["id"] == "election.elected"]
    assert tallies == [{"anabel": 1, "edward": 2}] * 2


def test_fe_9_1_the_gazette_shows_the_markers_not_which_were_decoys() -> None:
    _, events = _election({"kirsten": "VOTE Edward\nDECOY Edward",
                           "dave": "VOTE Anabel\nDECOY Edward"})
    elected = next(e for e in events if e["id"] == "election.elected")
    assert elected["public"] and elected["args"]["markers"] == {  # type: ignore[index]
        "anabel": ["dave"], "edward": ["kirsten", "kirsten", "dave"]}
    line = str(EVENTS.election_elected(elected, NAMES))  # type: ignore[attr-defined]
    assert line == ("Edward is elected King (Anabel 1, Edward 2). Vote markers, FOR and "
                    "DECOY alike: on Anabel, Dave; on Edward, Kirsten (both markers), Dave.")
    assert "decoy" not in str(elected["args"]).lower()


def test_fe_9_1_the_decoys_owner_is_told_privately() -> None:
    _, events = _election({"dave": "VOTE Anabel\nDECOY Edward", "kirsten": "DECOY Anabel"})
    assert told(events, "election.decoy", NAMES) == [
        ("kirsten", False, "Your DECOY marker lay on Anabel and counted nothing (FE 9.1); "
         "you placed no FOR marker. The gazette does not say which of your markers was the "
         "decoy."),
        ("dave", False, "Your DECOY marker lay on Edward and counted nothing (FE 9.1); your "
         "FOR marker gave Anabel your 1 vote. The gazette does not say which of your markers "
         "was the decoy.")]
    # Kirsten's decoy on Anabel adds nothing: Anabel has Dave's 1 vote only.
    assert next(e for e in events if e["id"] == "election.elected")["args"][  # type: ignore[index]
        "tally"] == {"anabel": 1, "edward": 0}


def test_fe_9_1_a_decoy_on_no_standing_candidate_is_told() -> None:
    s = _court()
    s.candidates = ["anabel"]
    r = realm(s)
    give_orders(r, {"dave": "VOTE Anabel\nDECOY Edward"})
    court.election_phase(r)
    events = [e.to_dict() for e in r.events]
    assert [e["args"]["reason"] for e in events  # type: ignore[index]
            if e["id"] == "order.refused"] == [
        "not a standing candidate: the marker stays with you (FE 9.1)"]
    s = _court()
    s.candidates = []
    r = realm(s)
    give_orders(r, {"dave": "DECOY Anabel"})
    court.election_phase(r)
    assert refusals(r) == ["no election this round: no candidate stands (FE 9.1)"]


def test_fe_9_1_decoy_reads_back_and_its_mistakes_are_typed() -> None:
    state = _court().to_dict()
    ok = parse_orders("VOTE Edward\nDECOY Anabel\n", state, "dave", TABLES)
    assert ok.errors == () and ok.normal_form == ("VOTE Edward", "DECOY Anabel")
    bad = parse_orders("DECOY Anabel, Edward\nDECOY\nVOTE Edward DECOY Anabel\n"
                       "DECOY Anabel\nDECOY Edward\n", state, "dave", TABLES)
    assert [(e.line, e.severity, e.hint) for e in bad.errors] == [
        (1, Severity.ERROR, "DECOY Simon"),
        (2, Severity.ERROR, "DECOY Simon"),
        (3, Severity.ERROR, "VOTE Lucia (a line), then DECOY Simon (the next line)"),
        (5, Severity.ERROR, "leave one DECOY line")]
    assert bad.errors[0].message == "you have one DECOY marker: it goes on one candidate " \
                                    "(FE 9.1)"
    assert bad.errors[3].message == ("you have one DECOY marker (FE 9.1): the DECOY on "
                                     "line 4 places it")
    assert bad.normal_form == ("DECOY Anabel",)


def test_fe_9_1_a_marker_on_one_who_never_stands_is_caught_on_the_receipt() -> None:
    """Found playing by mail: `DECOY Godfrey`, an Archbishop, was read back with no word
    and refused on the sheet a round later."""
    state = _court().to_dict()
    parsed = parse_orders("DECOY Henri\nVOTE Henri, Anabel\nVOTE Edward\nDECOY Anabel\n",
                          state, "dave", TABLES)
    assert [(e.line, e.severity) for e in parsed.errors] == [
        (1, Severity.ERROR), (2, Severity.WARNING)]
    rule = "a vote marker goes on a candidate, a Lord not of the clergy (FE 9.1)"
    assert parsed.errors[0].message == f"Henri is of the clergy; {rule}"
    assert parsed.errors[1].message == f"Henri is of the clergy; {rule}"
    assert parsed.normal_form == ("VOTE Henri, Anabel", "VOTE Edward", "DECOY Anabel")
