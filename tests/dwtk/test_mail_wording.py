"""What new players read by mail, line by line: no internal code, nothing garbled
(found playing DWTK through the whole service; each test names the rule it words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.games.base import Event
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.views import names, newsletter_context
from moderator.publish.newsletter import TurnData, render_turn
from tests.dwtk.conftest import EVENTS, TABLES, dealt, run

ROOT = Path(__file__).resolve().parents[2]


def _line(macro: str, **args: object) -> str:
    nm = names(GameState.from_dict(dealt(3)), TABLES)
    e = {"id": macro.replace("_", ".", 1), "args": args}
    return str(getattr(EVENTS, macro)(e, nm)).strip()


@pytest.mark.parametrize(("table", "said"), [("court_ball", "Court Ball"),
                                             ("royal_death", "Royal Death"),
                                             ("peasant_unrest", "Peasant Unrest")])
def test_a_counsel_names_its_table_in_words(table: str, said: str) -> None:
    """DWTK 15.4: a counsel on the Court Ball's Counseling Table was printed
    'on Court&#38;#95;ball' (an escaped key, escaped twice), and a counsel not made by
    its key."""
    made = _line("counsel_made", counselor="23", counsel="Ban a courtier", table=table,
                 total=6, modifier=0, result="rejected", pp=0, ip=0, free=False)
    refused = _line("counsel_refused", counsel="ban_courtier", table=table, reason="famine")
    for line in (made, refused):
        assert f"on {said}" in line and "&" not in line and "_" not in line, line
    if table == "court_ball":  # the refusal named the counsel by its key, "ban courtier"
        assert '"Ban a courtier"' in refused, refused


def test_a_receipt_says_when_the_orders_get_no_player_turn() -> None:
    """DWTK 31.5: a player whose PC died has no Player Turn this turn; his receipt read
    'After your Player Turn: IP 1, PP 5' as if his ALIGN would be played."""
    state = dealt(3)
    pc = str(state["players"]["ann"]["pc"])
    state["characters"][pc]["face_down_until"] = state["turn"] + 2
    parsed = ENGINE.parse_orders("ALIGN Alan\nBID High Minister : PC\n", state, "ann", TABLES)
    dead = ENGINE.forecast(state, {"ann": parsed.orders}, TABLES)["ann"]
    assert any(line.startswith("You have no Player Turn this turn") for line in dead), dead
    assert not any(line.startswith("After your Player Turn") for line in dead), dead
    alive = ENGINE.forecast(dealt(3), {"ann": parsed.orders}, TABLES)["ann"]
    assert not any("no Player Turn" in line for line in alive), alive


def test_an_intrigue_is_told_to_the_intriguer_and_to_the_player_robbed() -> None:
    """DWTK 13.4.12: Bob's DO INTRIGUE Ann drew her Alibi; the Courier said so, but
    neither Bob's sheet (his activity) nor Ann's (her card) had a word of it."""
    state = dealt(3)
    state["players"]["bob"]["opportunity"] = ["intrigue-1"]
    result = run(state, {"bob": "DO INTRIGUE Ann\n"})
    drawn = [e for e in result.events if e.id == "intrigue.drawn"]
    assert drawn and drawn[0].actor is None  # the event itself stays as recorded
    _, sheets = newsletter_context(GameState.from_dict(state),
                                   GameState.from_dict(result.state), result.events,
                                   ["ann", "bob", "cid"], TABLES)
    for key in ("ann", "bob"):
        assert "intrigue.drawn" in [e["id"] for e in sheets[key]["happened"]], key
    assert "intrigue.drawn" not in [e["id"] for e in sheets["cid"]["happened"]]


@pytest.mark.parametrize(("reason", "said"), [
    ("resolved:diplomatic_crisis", "(Diplomatic Crisis resolved, DWTK 7.9)"),
    ("unresolved:pirates", "(Pirates unresolved, DWTK 7.9)"),
    ("crown:court_ball", "(a Court Ball with no unresolved problem, DWTK 7.9)"),
    ("counsel:raise_taxes", "(a counsel to the Monarch, DWTK 15)")])
def test_the_support_says_why_it_moved(reason: str, said: str) -> None:
    """DWTK 7.9: the Courier printed 'Support moves from 70 to 80. ... from 80 to 70.'
    twice in a row and never why."""
    line = _line("support_changed", before=70, after=80, reason=reason)
    assert line == f"The Monarch's Support moves from 70 to 80 {said}.", line


def test_a_pc_placed_in_an_office_by_the_dice_is_told_to_his_player() -> None:
    """DWTK 6.1.2: the dice made Ann's PC Ambassador To Besyzan and sent him abroad;
    only the Courier said so ('Sir Robert is appointed ...'), not Ann's sheet."""
    before = dealt(3)
    after = dealt(3)
    pc = str(after["players"]["ann"]["pc"])
    event = Event("office.random", {"office": "amb_besyzan", "holder": pc})
    _, sheets = newsletter_context(GameState.from_dict(before), GameState.from_dict(after),
                                   [event], ["ann", "bob"], TABLES)
    assert [e["id"] for e in sheets["ann"]["happened"]] == ["office.random"]
    assert sheets["bob"]["happened"] == []


def test_a_counsel_leaves_out_a_zero_gain() -> None:
    """DWTK 15.7: a pleased Monarch's +1 PP read '(+1 PP, +0 IP)'."""
    line = _line("counsel_made", counselor="23", counsel="Recommend a title",
                 table="court_ball", total=7, modifier=0, result="pleased", pp=1, ip=0,
                 free=True)
    assert line.endswith("the Monarch is pleased (+1 PP)."), line


def test_a_sheet_tells_its_events_in_the_order_they_happened() -> None:
    """DWTK 19: Dan's sheet said 'Knight Simon of Dan's faction dies' before 'Knight
    Simon is to fight a duel': the world events touching his people came after his own."""
    state = dealt(3)
    pc = str(state["players"]["ann"]["pc"])
    events = [Event("duel.opponent", {"character": pc, "opponent": "53",
                                      "cause": "duel_counter"}),
              Event("death.character", {"character": pc}, actor="ann")]
    _, sheets = newsletter_context(GameState.from_dict(state), GameState.from_dict(state),
                                   events, ["ann"], TABLES)
    assert [e["id"] for e in sheets["ann"]["happened"]] == ["duel.opponent",
                                                           "death.character"]


def test_a_henchman_card_discarded_says_whose_death_discarded_it() -> None:
    """DWTK 14.2.4: 'Dan discards Henchman (died, DWTK 14.2.4, 16.4).' read as if Dan
    had died."""
    line = _line("cards_discarded", player="dan", cards=["henchman"], reason="died")
    assert line.endswith("Henchman: the character who held it died (DWTK 14.2.4)."), line


def test_a_refusal_for_want_of_ip_gives_the_plain_cause_first() -> None:
    """DWTK 34.4: a player with 1 IP bidding 2 read 'not enough IP left to spend: none
    on a Famine turn, ...' on a turn with no Famine; the plain cause comes first, the
    Famine and the crisis after it."""
    line = _line("activity_skipped", what="title", reason="ip")
    assert "not enough IP left to spend, DWTK 34.4 (and none at all on a Famine" in line, line


def test_the_courier_tells_a_royal_death_once() -> None:
    """DWTK 8.4.1: 'John (the Brother) is dead.' was printed under The Crown and again
    under Favour and faction ("royal.death" fits both "royal.death" and "royal.")."""
    state = dealt(2)
    death = Event("royal.death", {"royal": "john", "cause": "crown_event", "monarch": False})
    data = TurnData("Fandonia", 2, "Turn 1", None, state, state, [death], [])
    gazette = render_turn(ROOT / "templates", ENGINE, TABLES, data, ()).gazette.markdown
    assert gazette.count("John (the Brother) is dead") == 1, gazette


def test_a_forecast_counts_the_bribe_it_spends() -> None:
    """DWTK 13.4.20.1: Bob (1 IP) solicited a bribe of 2 and bought a Title for 3; his
    receipt read 'DO TITLE: -3 IP -> IP -2': the bribe received first was not counted."""
    state = dealt(3)
    pc = str(state["players"]["ann"]["pc"])
    state["offices"]["high_minister"] = pc
    state["players"]["ann"]["ip"] = 1
    parsed = ENGINE.parse_orders("SOLICIT BRIBE 2\nDO DRAW EVENT\n", state, "ann", TABLES)
    lines = ENGINE.forecast(state, {"ann": parsed.orders}, TABLES)["ann"]
    assert "DO DRAW EVENT: -1 IP -> IP 2." in lines, lines


def test_a_scandal_exposed_about_a_pc_is_told_to_his_player_and_nothing_private_leaks() -> None:
    """DWTK 22: Ann exposed a scandal about Cid's PC; Cid's sheet said what it cost him,
    not who exposed it (the event is Ann's).  Another player's private events stay his."""
    state = dealt(3)
    cid_pc = str(state["players"]["cid"]["pc"])
    exposed = Event("scandal.exposed", {"player": "ann", "character": cid_pc,
                                        "accuser": str(state["players"]["ann"]["pc"])},
                    actor="ann")
    private = Event("activity.skipped", {"what": "assassinate", "reason": "ip",
                                         "character": cid_pc}, actor="ann", public=False)
    _, sheets = newsletter_context(GameState.from_dict(state), GameState.from_dict(state),
                                   [exposed, private], ["cid"], TABLES)
    assert [e["id"] for e in sheets["cid"]["happened"]] == ["scandal.exposed"]
