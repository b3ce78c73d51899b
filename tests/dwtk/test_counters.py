"""Rule cases for the single-use Opportunity counters (DWTK 12.3.1 Any Activity, 12.3.3
Intrigue, 14.5.7 the Intrigue card), the Extra Activity card (14.5.20) and 13.1's one
activity until the turn after the PC is returned.

The dealt game (seed 1): Ann's PC Sir Charles (24), Bob's PC Baroness Eleanor (64);
Earl Maxwell (32) is Bob's FAC where needed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from moderator.games.dwtk import counters, player
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.state import Fate, Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import TABLES, checked_court, court, dealt, events, with_player

ANN_PC, MAXWELL = 24, 32
BOB_HAND = ("dwtk-2", "informer-1", "evidence-1", "alibi-1", "escape-1")


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10, opportunity=(),
                    hand=(f"dwtk-{'abc'.index(p[0]) + 1}",))
    with_player(c, "bob", hand=BOB_HAND)
    c.set_char(MAXWELL, owner="bob")
    return c


def _orders(text: str) -> TurnOrders:
    parsed = parse_orders(text, TABLES, {"ann": "Ann", "bob": "Bob", "cid": "Cid"})
    assert parsed.errors == ()
    return TurnOrders.from_dict(parsed.orders)


def _skipped(c: Court) -> list[tuple[str, str]]:
    return [(e.args["what"], e.args["reason"]) for e in events(c, "activity.skipped")]


def test_an_intrigue_counter_serves_one_activity() -> None:
    """12.3.3: the Intrigue counter lets him intrigue a card or recruit by treachery, not
    both in one turn: the second is refused."""
    c = _court(intrigue=[1])
    with_player(c, "ann", opportunity=("intrigue-1",), hand=("dwtk-1", "treachery-1"))
    player.activities(c, "ann", _orders("DO INTRIGUE Bob\nDO TREACHERY Earl Maxwell"))
    assert events(c, "intrigue.drawn") and not events(c, "activity.treachery")
    assert _skipped(c) == [("treachery", "no_intrigue_counter")]
    assert c.players["ann"].hand == ("dwtk-1", "treachery-1")


def test_the_intrigue_counter_first_then_any_activity_then_an_intrigue_card() -> None:
    """12.3.1, 12.3.3, 14.5.7 (PROPOSED order): the Intrigue counter with its card first,
    the Any Activity counter next, an Intrigue card last; three Intrigue activities."""
    c = _court(intrigue=[1], seduction=[6])
    c.set_char(56, owner="ann")
    with_player(c, "ann", opportunity=("intrigue-1", "any_activity-1", "extra_activity-1"),
                hand=("dwtk-1", "intrigue-2", "treachery-1"))
    player.activities(c, "ann", _orders(
        "DO TREACHERY Earl Maxwell\nDO INTRIGUE Bob\nDO SEDUCE Sir Guy BY Lady Victoria"))
    assert events(c, "activity.treachery")[0].args["any_activity"] is False
    assert events(c, "intrigue.drawn") and events(c, "activity.seduction")
    assert c.players["ann"].hand == ("dwtk-1",)  # Treachery, then the Intrigue card
    assert counters.unused(c, "ann", "any_activity") is None


def test_the_any_activity_counter_stands_in_for_a_card_once() -> None:
    """12.3.1: Pardon without a Pardon card; then Amnesty has neither card nor counter."""
    c = _court()
    c.set_char(MAXWELL, situation=Situation.BANISHED, wrongdoer=True, location="epalin")
    with_player(c, "ann", opportunity=("any_activity-1",))
    player.activities(c, "ann", _orders("DO PARDON Earl Maxwell\nDO AMNESTY"))
    assert events(c, "activity.pardon") and c.char(MAXWELL).situation is Situation.NORMAL
    assert _skipped(c) == [("amnesty", "no_card:amnesty")]


def test_a_card_is_played_first_and_the_counter_kept_for_the_next_activity() -> None:
    """12.3.1 (PROPOSED order): with an Extradition card the card is played and the Any
    Activity counter stays for the Amnesty that has no card.  Hiding abroad: a Manhunt
    there (25.5)."""
    c = _court()
    c.set_char(MAXWELL, situation=Situation.HIDING, wrongdoer=True, location="epalin",
               fate=Fate.HEARING)
    with_player(c, "ann", opportunity=("any_activity-1",), hand=("dwtk-1", "extradition-1"))
    player.activities(c, "ann", _orders("DO EXTRADITE Earl Maxwell\nDO AMNESTY"))
    assert events(c, "justice.extradition")[0].args["result"] == "manhunt"
    assert "extradition-1" in c.discards and events(c, "activity.amnesty")
    assert counters.unused(c, "ann", "any_activity") is None and _skipped(c) == []


def test_extradite_with_intrigue_never_by_the_any_activity_counter() -> None:
    """25.3 with 12.3.1: the Any Activity counter replaces the Extradition card, never the
    Intrigue counter of the forced extradition; the Intrigue counter is spent."""
    c = _court()
    c.set_char(MAXWELL, situation=Situation.HIDING, wrongdoer=True, location="epalin",
               fate=Fate.HEARING)
    with_player(c, "ann", opportunity=("any_activity-1",))
    forced = Activity(ActivityKind.EXTRADITE, (str(MAXWELL),), intrigue=True)
    with pytest.raises(Refused, match="no_intrigue_counter"):
        player.do(c, "ann", forced)
    with_player(c, "ann", opportunity=("any_activity-1", "intrigue-1"))
    player.do(c, "ann", forced)
    assert events(c, "justice.extradition")[0].args["result"] == "manhunt"
    assert counters.unused(c, "ann", "intrigue") is None
    assert counters.unused(c, "ann", "any_activity") is None


def test_extra_activity_cards_for_each_further_legal_activity() -> None:
    """14.5.20 (reading: played by itself once the allowance is used up, for a legal
    activity only; more than one a turn): two activities, a refused Amnesty spends no
    card, a card each for the Counselor and the Henchman; none left for the Intrigue."""
    c = _court()
    c.set_char(42, owner="ann")
    with_player(c, "ann", ip=20, hand=("dwtk-1", "extra_activity-1", "extra_activity-2",
                                       "monarchs_counselor-1", "henchman-1", "intrigue-1"))
    player.activities(c, "ann", _orders(
        "DO TITLE PC\nDO TRAVEL PC TO Epalin\nDO AMNESTY\nDO COUNSELOR PC\n"
        "DO HENCHMAN Duke Roland\nDO INTRIGUE Bob"))
    assert [e.args["activity"] for e in events(c, "activity.extra_card")] == [
        "counselor", "henchman"]
    assert {"extra_activity-1", "extra_activity-2"} <= set(c.discards)
    assert _skipped(c) == [("amnesty", "no_card:amnesty"), ("intrigue", "no_activities_left")]
    assert c.players["ann"].hand == ("dwtk-1", "intrigue-1")


def test_no_extra_activity_card_while_held_or_with_gout() -> None:
    """24.3, 29.2 'never more', 12.3.7: a hiding PC does one activity, Gout none, and
    the Extra Activity card stays in hand."""
    c = _court()
    c.set_char(ANN_PC, situation=Situation.HIDING)
    with_player(c, "ann", ip=20, hand=("dwtk-1", "extra_activity-1"),
                opportunity=("extra_activity-2",))
    assert player.allowance(c, "ann") == 1 and not counters.extra_card(c, "ann")
    c.set_char(ANN_PC, situation=Situation.NORMAL, since=0)
    with_player(c, "ann", opportunity=("gout-1",))
    assert player.allowance(c, "ann") == 0 and not counters.extra_card(c, "ann")
    with_player(c, "ann", opportunity=())
    assert player.allowance(c, "ann") == 2 and counters.extra_card(c, "ann")


def test_one_activity_until_the_turn_after_he_is_returned() -> None:
    """13.1: banished when the Player Turns began and pardoned in them, he keeps to one
    activity this turn, Extra Activity counter or not; the next turn two again."""
    game = dealt(3)
    state = _pc_changed(game, situation="banished", location="epalin", wrongdoer=True)
    c = court(state)
    with_player(c, "ann", opportunity=("extra_activity-1",), hand=("dwtk-1", "pardon-1"))
    assert player.allowance(c, "ann") == 1
    player.do(c, "ann", Activity(ActivityKind.PARDON, ("pc",)))
    assert c.char(ANN_PC).free and player.allowance(c, "ann") == 1
    later = court(replace(c.freeze(), turn=c.turn + 1))
    with_player(later, "ann", opportunity=("extra_activity-1",))
    assert player.allowance(later, "ann") == 3


def test_returned_in_this_turn_after_the_player_turns_began() -> None:
    """13.1: hiding and out again (UNHIDE) within this turn: one activity all the same."""
    c = _court()
    c.set_char(ANN_PC, situation=Situation.NORMAL, since=c.turn)  # as hiding.unhide
    assert player.allowance(c, "ann") == 1
    c.set_char(ANN_PC, since=c.turn - 1)
    assert player.allowance(c, "ann") == 2


def _pc_changed(state: dict, **changes: object) -> dict:  # type: ignore[type-arg]
    """The dealt state with Ann's PC changed (as at the start of the Player Turns)."""
    chars = dict(state["characters"])
    chars[str(ANN_PC)] = {**chars[str(ANN_PC)], **changes}
    return {**state, "characters": chars}
