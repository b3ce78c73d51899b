"""A lost office bid is said on the loser's own sheet (DWTK 6.1.1, 6.1.2).

The engine emits no event for a bid never reached (adding one would move the
fingerprint): the sheet words it from the public fills of the Office Phase, the player
order and the player's own refused bids (views/bids.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moderator.games.dwtk import ENGINE
from moderator.publish.newsletter import Reader, TurnData, render_turn
from tests.dwtk.conftest import TABLES, dealt, run

ROOT = Path(__file__).resolve().parents[2]
JSON = dict[str, Any]
READERS = tuple(Reader(i, key, key.title(), f"{key}@example.org")
                for i, key in enumerate(("ann", "bob", "cid"), 1))


def _sheets(before: JSON, orders: dict[str, str],
            known: bool = False) -> tuple[JSON, dict[str, str]]:
    """The turn run and each sheet; ``known``: the publisher has the orders (the
    service's path), else the sheets word the bids from the events alone."""
    result = run(before, orders)
    parsed = {k: ENGINE.parse_orders(text, before, k, TABLES).orders
              for k, text in orders.items()}
    data = TurnData("Fandonia", 1, ENGINE.turn_label(before), None, before, result.state,
                    result.events, [], orders=parsed if known else None)
    rendered = render_turn(ROOT / "templates", ENGINE, TABLES, data, READERS)
    return result.state, {r.character: rendered.sheets[r.player_id].markdown for r in READERS}


def _vacant(office: str) -> JSON:
    state = dealt(3)
    state["offices"][office] = None
    for p in state["players"].values():
        p["ip"] = 6
    return state


def test_a_bid_not_reached_is_said_to_have_cost_nothing() -> None:
    """DWTK 6.1.1: the players are asked in player order and only the one who fills the
    office pays Two IP; the others read who filled it and that their bid cost nothing."""
    before = _vacant("high_minister")
    after, sheets = _sheets(before, {k: "BID High Minister : PC" for k in ("ann", "bob", "cid")})
    winner = after["order"][0]
    holder = TABLES.noble(int(after["offices"]["high_minister"])).name
    for loser in after["order"][1:]:
        line = next((x for x in sheets[loser].splitlines() if "High Minister" in x
                     and x.startswith("- ")), "")
        assert winner.title() in line and holder in line, sheets[loser]
        assert "cost you nothing" in line and "DWTK 6.1.1" in line, line
    assert "cost you nothing" not in sheets[winner]


def test_a_refused_bid_says_who_got_the_office() -> None:
    """DWTK 6.1.2: a bid refused (here: no IP) leaves the office to the dice; the loser
    reads where it went and that the bid cost him nothing."""
    before = _vacant("high_minister")
    before["players"]["ann"]["ip"] = 0
    after, sheets = _sheets(before, {"ann": "BID High Minister : PC"})
    holder = TABLES.noble(int(after["offices"]["high_minister"])).name
    lines = [x for x in sheets["ann"].splitlines() if "High Minister" in x and x.startswith("- ")]
    assert any(holder in x and "cost you nothing" in x and "6.1.2" in x for x in lines), lines


def test_a_bid_never_reached_says_whom_the_player_bid() -> None:
    """DWTK 6.1.1: the players are asked in player order; once the office is filled the
    later players' bids are never considered, and the engine records nothing of them.
    The sheet reads the player's own orders (the publisher has them): the bid is named,
    with whom he bid, and said never reached; a player who made no bid for the office
    reads nothing of it (he read "any bid of yours for it was never reached")."""
    before = _vacant("high_minister")
    order = _sheets(before, {})[0]["order"]  # the dice of the turn give the same order
    winner, loser, idle = order
    after, sheets = _sheets(before, {winner: "BID High Minister : PC",
                                     loser: "BID High Minister : PC"}, known=True)
    pc = TABLES.noble(int(after["players"][loser]["pc"])).name
    holder = TABLES.noble(int(after["offices"]["high_minister"])).name
    lines = [x for x in sheets[loser].splitlines() if "High Minister" in x]
    assert (f"- Your bid of {pc} for High Minister was never reached: {winner.title()} "
            f"comes before you in player order and filled it first, with {holder}, for 2 IP; "
            "your bid cost you nothing (DWTK 6.1.1).") in lines, lines
    assert "never reached" not in sheets[idle] and "never reached" not in sheets[winner]
