"""The example order form in orders/forms/fief.txt parses without an error."""

from __future__ import annotations

from pathlib import Path

from moderator.games.fief import ENGINE
from moderator.games.fief.forms import order_form
from moderator.games.fief.state import GameState
from tests.fief.conftest import TABLES, mustered

FORM = Path(__file__).resolve().parents[2] / "orders" / "forms" / "fief.txt"


def test_the_example_form_parses_cleanly() -> None:
    state = mustered(4)
    me = state["players"]["ann"]
    me["hand"] = ["Noble Isabel", "Good Weather", "Passage"]
    state["players"]["bob"]["name"] = "Dave"
    parsed = ENGINE.parse_orders(FORM.read_text(), state, "ann", TABLES)
    assert parsed.errors == (), parsed.errors
    assert len(parsed.normal_form) == 15


def test_every_players_own_form_is_pre_filled_and_parses() -> None:
    state = mustered(4)
    for key in state["seats"]:
        form = ENGINE.order_form(state, key, TABLES)
        assert "Round 1" in form and state["players"][key]["name"] in form
        assert ENGINE.parse_orders(form, state, key, TABLES).errors == ()


def _examples(form: str) -> list[str]:
    return [line.removeprefix("# e.g. ") for line in form.splitlines()
            if line.startswith("# e.g. ")]


def test_the_form_lists_todays_orders_and_its_examples_parse() -> None:
    """Issue 17: the form names the windows and standing reactions, coalitions, truces,
    battle orders, relics and leave to enter; a family with Good Weather, Ambush, Rebellion
    and Passage in hand, an opponent beside its noble, a captive of its own and a Relic gets
    a `# e.g.` line for each, and every one of them parses as it stands."""
    base = mustered(4)
    s = GameState.from_dict(base)
    me = s.players["ann"]
    mine = [n for n in s.living() if n.family in me.families]
    other = next(n for n in s.living() if n.family not in me.families)
    other.city = mine[0].city
    mine[0].relics = ["Holy Grail"]
    me.hand = ["Good Weather", "Ambush", "Rebellion", "Passage"]
    state = s.to_dict()
    form = order_form(s, "ann", TABLES)
    for word in ("AT <window>", "IS HERETIC", "JOIN <player>", "TRUCE WITH", "WITHDRAW FROM",
                 "TARGET", "SALLY", "LEAVE RELIC", "ALLOW <player|ANYONE> TO ENTER",
                 "IF DENIED CAVALCADE", "ACCEPT RANSOM", "LEND 2 CROSSBOWMEN",
                 "IF FIRST IS", "CONVENE PARLIAMENT"):
        assert word in form, word
    examples = _examples(form)
    assert [e.split()[0] for e in examples] == ["LEAVE", "TRUCE", "TARGET", "AT", "AT", "IF",
                                                "IF"], examples
    parsed = ENGINE.parse_orders("\n".join(examples), state, "ann", TABLES)
    assert parsed.errors == (), parsed.errors
    assert len(parsed.normal_form) == len(examples)
    assert ENGINE.parse_orders(form, state, "ann", TABLES).errors == ()


def test_captives_and_sieges_have_their_examples() -> None:
    """Ann's noble held by Bob's: Ann's form offers RANSOM, Bob's ACCEPT RANSOM; Bob
    besieging Ann's city: Bob's form offers LIFT SIEGE; all parse."""
    s = GameState.from_dict(mustered(4))
    ann = next(n for n in s.living() if n.family in s.players["ann"].families)
    bob = next(n for n in s.living() if n.family in s.players["bob"].families)
    ann.status, ann.captor = "captive", bob.key
    s.cities[bob.city].besieged_by = bob.family
    state = s.to_dict()
    for player, wanted in (("ann", f"RANSOM {ann.name} OFFER 2"),
                           ("bob", f"ACCEPT RANSOM FOR {ann.name} AT LEAST 4"),
                           ("bob", f"LIFT SIEGE AT {bob.city}")):
        examples = _examples(order_form(s, player, TABLES))
        assert wanted in examples, (player, examples)
        assert ENGINE.parse_orders("\n".join(examples), state, player, TABLES).errors == ()


def test_the_form_says_gifts_and_ransoms_run_before_the_purchases() -> None:
    """FE 2.15, 7.7 (fief-by-email.md step 40).  Found playing by mail: Cid wrote
    `BUY 2 ARCHER AT York` and then `GIVE 2 SHILLINGS TO Bob` under "Phase 4 - purchasing
    (in the order written)"; the gift ran first, and the purchase was refused for want
    of the money."""
    form = ENGINE.order_form(mustered(4), "ann", TABLES)
    assert "## Phase 4 - gifts (GIVE) and ransoms first, then the rest in the order written" \
        in form
