"""FE 9.1: "each Player can declare any non-Clergy Lord as a Candidate. A Captive or
Besieged Lord cannot be a Candidate."  Found playing by mail: `CANDIDATE Edward` (no
title) was accepted on the receipt and then silently dropped at the election."""

from __future__ import annotations

from moderator.games.base import Severity
from moderator.games.fief import court, phases
from moderator.games.fief.orders import parse_orders
from moderator.games.fief.state import GameState
from tests.fief.board import board, give_orders, noble, realm
from tests.fief.conftest import EVENTS, TABLES


def _court() -> GameState:
    s = board()
    noble(s, "Edward", "Green", "York")                                  # no title
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west"], clergy="exeter")
    noble(s, "Hugh", "Red", "Berwick", titles=["marches"], status="captive", captor="henri")
    noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
    return s


def test_fe_9_1_a_candidate_who_may_not_stand_is_caught_on_the_receipt() -> None:
    s = _court()
    text = "CANDIDATE Edward\nCANDIDATE Henri\nCANDIDATE Hugh\nCANDIDATE Anabel\n"
    parsed = parse_orders(text, s.to_dict(), "kirsten", TABLES)
    found = {e.line: e for e in parsed.errors}
    assert sorted(found) == [1, 2, 3]
    assert found[1].severity is Severity.WARNING
    assert found[1].message.startswith("as things stand, Edward holds no Fiefdom title; "
                                       "a candidate is a Lord")
    assert "(FE 9.1)" in found[1].message and found[1].hint
    # Clergy never may: an error, and the line is not read.
    assert found[2].severity is Severity.ERROR
    assert found[2].message.startswith("Henri is of the clergy")
    assert "CANDIDATE Henri" not in parsed.normal_form
    assert found[3].severity is Severity.WARNING and "Hugh is captive;" in found[3].message
    assert "CANDIDATE Anabel" in parsed.normal_form


def test_fe_9_1_an_unfit_candidacy_is_refused_on_the_sheet_not_dropped_silently() -> None:
    s = _court()
    r = realm(s)
    give_orders(r, {"kirsten": "CANDIDATE Edward\nCANDIDATE Anabel", "dave": "CANDIDATE Edward"})
    phases.store_standing(r)
    assert s.candidates == ["edward", "anabel"]
    court.election_phase(r)
    refused = [e for e in r.events if e.id == "order.refused"]
    assert sorted(e.actor for e in refused) == ["dave", "kirsten"]
    assert all(not e.public for e in refused)
    line = str(EVENTS.order_refused(refused[0].to_dict(), {}))  # type: ignore[attr-defined]
    assert line == ("Not done: “CANDIDATE Edward”: Edward holds no Fiefdom title; a candidate "
                    "is a Lord, not of the clergy, neither captive nor besieged (FE 9.1): the "
                    "candidacy is withdrawn.")
    # Gone from the candidates and from the standing orders; Anabel stands on.
    assert s.candidates == ["anabel"]
    standing = {p: [d["lord"] for d in s.players[p].standing
                    if d["kind"] == "candidate"] for p in ("kirsten", "dave")}
    assert standing == {"kirsten": ["Anabel"], "dave": []}


def test_fe_9_1_a_lord_by_the_election_stands() -> None:
    """A title bought before Phase 1B makes a Lord: the candidacy stands (no refusal)."""
    s = _court()
    r = realm(s)
    give_orders(r, {"kirsten": "CANDIDATE Edward"})
    phases.store_standing(r)
    s.nobles["edward"].titles.append("north")
    court.election_phase(r)
    assert s.candidates == ["edward"]
    assert not [e for e in r.events if e.id == "order.refused"]


def test_fe_9_1_no_warning_for_a_candidate_whose_title_the_same_orders_buy() -> None:
    """FE 4.3 before 9.1: Phase 4's title makes a Lord by the next Phase 1B election."""
    s = _court()
    text = "BUY TITLE North FOR Edward\nCANDIDATE Edward\n"
    # Line 1 is warned (FE 4.3: Green holds no city of the North on this board); line 2 not.
    assert [e.line for e in parse_orders(text, s.to_dict(), "kirsten", TABLES).errors] == [1]


def test_fe_9_1_the_elected_candidacy_leaves_the_standing_orders() -> None:
    """fief-email.md 1B: CANDIDATE stands "until elected or withdrawn".  Found in the
    golden game: Lucia, Sovereign Queen since Round 3, was still listed as Dan's standing
    "1: CANDIDATE Lucia" in Rounds 4 to 7."""
    s = _court()
    r = realm(s)
    give_orders(r, {"kirsten": "CANDIDATE Anabel\nVOTE Anabel"})
    phases.store_standing(r)
    court.election_phase(r)
    assert s.sovereign == "anabel"
    assert s.candidates == [] and s.players["kirsten"].standing == []


def test_fe_9_1_a_vote_that_counts_for_no_one_is_told() -> None:
    """FE 9.1.  Found playing by mail: a VOTE in a round with no election, or naming no
    standing candidate, did nothing and the voter's sheet said nothing."""
    s = _court()
    s.candidates = ["anabel"]
    r = realm(s)
    give_orders(r, {"kirsten": "VOTE Anabel", "dave": "VOTE Edward"})
    court.election_phase(r)
    assert [(e.actor, e.args["reason"]) for e in r.events if e.id == "order.refused"] == [
        ("dave", "none of them is a standing candidate (FE 9.1)")]
    s = _court()
    s.sovereign = "anabel"
    r = realm(s)
    give_orders(r, {"dave": "VOTE Hugh"})
    court.election_phase(r)
    assert [(e.actor, e.args["reason"]) for e in r.events if e.id == "order.refused"] == [
        ("dave", "no election this round: England has a Sovereign (FE 9.1)")]
