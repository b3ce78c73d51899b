"""Orders that depend on the throne and on a character's fate: ``... IF MONARCH IS King
George``, ``... IF High Minister IS 23``, ``... IF 42 IS FREE`` on activities, the
assassination and the usurpation.  Orders are written days before they are carried out:
after one player usurps, the others' orders against King George must not strike the new
Monarch; a line whose conditions fail is skipped and costs nothing."""

from __future__ import annotations

from moderator.games.dwtk import ENGINE, player
from moderator.games.dwtk.orders import TurnOrders
from moderator.games.dwtk.state import Situation
from tests.dwtk.conftest import TABLES, checked_court, dealt, events, with_player


def _orders(text: str) -> TurnOrders:
    parsed = ENGINE.parse_orders(text, dealt(3), "ann", TABLES)
    assert parsed.errors == (), parsed.errors
    return TurnOrders.from_dict(parsed.orders)


def test_conditions_read_back_in_normal_form() -> None:
    text = ("DO ASSASSINATE 23 IF MONARCH IS King George AND 42 IS FREE\n"
            "DO TITLE PC IF High Minister IS NOT 23\n"
            "USURP WITH Thomas SUPPORT ALL IF MONARCH IS King George\n")
    parsed = ENGINE.parse_orders(text, dealt(3), "ann", TABLES)
    assert parsed.errors == ()
    assert parsed.orders["activities"][0]["conditions"] == [
        {"subject": "monarch", "value": "george", "negate": False},
        {"subject": "42", "value": "free", "negate": False}]
    assert parsed.orders["usurp"]["conditions"] == [
        {"subject": "monarch", "value": "george", "negate": False}]
    again = ENGINE.parse_orders("\n".join(parsed.normal_form), dealt(3), "ann", TABLES)
    assert again.orders == parsed.orders


def test_a_condition_naming_no_one_is_refused_with_the_form() -> None:
    parsed = ENGINE.parse_orders("DO TITLE PC IF MONARCH IS Nobody", dealt(3), "ann",
                                 TABLES)
    [error] = parsed.errors
    assert error.message == "no one called 'Nobody'" and "IF MONARCH IS" in str(error.hint)


def test_an_assassination_against_george_is_skipped_under_a_new_monarch() -> None:
    """After a usurpation (36.6) the order written against King George's throne is
    skipped: no roll, no activity used, no card played."""
    c = checked_court({})
    c.offices["monarch"] = "alan"
    c.orders = {"ann": _orders("DO ASSASSINATE 23 IF MONARCH IS King George")}
    player.activities(c, "ann", c.orders["ann"])
    [skipped] = events(c, "activity.skipped")
    assert skipped.args == {"what": "assassinate", "reason": "condition_not_met"}
    assert events(c, "assassination.attempt") == []


def test_a_usurpation_only_against_george() -> None:
    """USURP ... IF MONARCH IS King George: another player got there first."""
    c = checked_court({})
    with_player(c, "ann", pp=40, ip=10)
    c.offices["monarch"] = "alan"
    c.orders = {"ann": _orders("USURP IF MONARCH IS King George")}
    player.player_turns(c)
    assert {"what": "usurp", "reason": "condition_not_met"} in [
        e.args for e in events(c, "activity.skipped")]
    assert events(c, "usurp.attempt") == []


def test_a_fate_condition_follows_the_character() -> None:
    """IF 42 IS FREE: not while he hides (24); IF 42 IS HIDING: only then."""
    from moderator.games.dwtk.orders.conditions import Condition, holds

    c = checked_court({})
    free, hiding = Condition("42", "free"), Condition("42", "hiding")
    assert holds(c, "ann", (free,)) and not holds(c, "ann", (hiding,))
    c.set_char(42, situation=Situation.HIDING)
    assert not holds(c, "ann", (free,)) and holds(c, "ann", (hiding,))
    assert holds(c, "ann", (Condition("monarch", "george"),))
    assert not holds(c, "ann", (Condition("monarch", "george", negate=True),))
