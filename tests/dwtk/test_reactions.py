"""Reactions as standing orders (DWTK 14.1; issue 5 item 5): parsing, storing,
withdrawing, and firing in player order for the right trigger and no other."""

from __future__ import annotations

import pytest

from moderator.dice import ScriptedDice
from moderator.games.dwtk import ENGINE, player, reactions
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.orders.reaction import CARD_USES, Trigger, parse_reaction
from moderator.games.dwtk.reactions import fire, play_cards
from tests.dwtk.conftest import ENV, TABLES, court, dealt, events, run, with_player

PLAYERS = {"ann": "Ann", "bob": "Bob", "cid": "Cid"}
NAMES = Names.of(TABLES, PLAYERS)

# One valid reaction for every trigger kind the issue lists (its "reaction kinds").
ONE_EACH = {
    Trigger.ASSASSINATES: "IF ANYONE ASSASSINATES Sir Guy THEN PLAY Personal Guards",
    Trigger.EXPOSES: "IF ANYONE EXPOSES MINE THEN PLAY 2 Informer",
    Trigger.COURTS: "IF AN OPPONENT COURTS ANYONE THEN PLAY Treachery",
    Trigger.DUELS: "IF ANYONE DUELS PC THEN PAY",
    Trigger.SEDUCES: "IF Bob SEDUCES ANYONE THEN PLAY Treachery",
    Trigger.FREES: "IF AN OPPONENT FREES ANYONE THEN PLAY Prison Guards",
    Trigger.EXTRADITES: "IF AN OPPONENT EXTRADITES MINE THEN VETO",
    Trigger.HUNTS: "IF ANYONE HUNTS ANYONE THEN OBSTRUCT",
    Trigger.HEARS: "IF ANYONE HEARS MINE THEN HIDE",
    Trigger.INTERROGATES: "IF ANYONE INTERROGATES ANYONE THEN PLAY Prison Guards -",
    Trigger.TRIES: "IF ANYONE TRIES ANYONE THEN JUDGE 2nd Judge",
    Trigger.BANISHES: "IF ANYONE BANISHES ANYONE THEN CHOOSE The City States",
    Trigger.JAILS: "IF ANYONE JAILS PC THEN PAY",
    Trigger.COUNSELS: "IF AN OPPONENT COUNSELS ANYONE THEN MODIFY -",
}


def test_every_reaction_kind_parses_and_round_trips() -> None:
    text = "\n".join([*ONE_EACH.values(), "IF I TRY 23 THEN MODIFY +",
                      "IF ANYONE HUNTS 23 THEN MODIFY -", "IF ANYONE TRIES MINE THEN PLAY "
                      "Informer -", "WITHDRAW REACTION 3"])
    parsed = parse_orders(text, TABLES, PLAYERS)
    assert parsed.errors == ()
    orders = TurnOrders.from_dict(parsed.orders)
    assert [r.trigger for r in orders.reactions][:14] == list(ONE_EACH)
    assert orders.withdraw == (3,)
    assert orders.reactions[4].actor == "bob" and orders.reactions[1].count == 2
    again = parse_orders("\n".join(parsed.normal_form), TABLES, PLAYERS)
    assert again.orders == parsed.orders and again.normal_form == parsed.normal_form
    assert parsed.normal_form[0] == "IF ANYONE ASSASSINATES 12 THEN PLAY Personal Guards"
    assert parsed.normal_form[14] == "IF I TRY 23 THEN MODIFY +"


def test_reaction_errors_are_collected_with_hints() -> None:
    text = ("IF ANYONE HEARS PC THEN PLAY Personal Guards\n"
            "IF ANYONE TRIES PC THEN PLAY Informer\n"
            "IF ANYONE TRIES PC THEN PLAY Evidence +\n"
            "IF ANYONE TRIES PC THEN HIDE\n"
            "IF ANYONE WALTZES PC THEN PAY\n"
            "IF Zed HEARS PC THEN HIDE\n"
            "IF ANYONE HUNTS PC THEN MODIFY\n"
            "IF ANYONE BANISHES PC THEN CHOOSE Fandonia\n"
            "IF ANYONE TRIES PC THEN JUDGE Sir Guy\n"
            "WITHDRAW 2\n"
            "IF ANYONE HEARS PC\n")
    errors = parse_orders(text, TABLES, PLAYERS).errors
    assert [e.line for e in errors] == list(range(1, 12))
    assert "Evidence, Alibi, Informer" in (errors[0].hint or "")
    assert "needs + or -" in errors[1].message and "takes no + or -" in errors[2].message
    assert "HIDE is no answer to TRIES" in errors[3].message
    assert all(e.hint for e in errors if "takes nothing" not in e.message)


def _react(c, player: str, *lines: str) -> None:  # type: ignore[no-untyped-def]
    stored = tuple(parse_reaction(line, NAMES) for line in lines)
    with_player(c, player, reactions=tuple(
        r.__class__(**{**r.__dict__, "n": i}) for i, r in enumerate(stored, 1)))


@pytest.mark.parametrize("trigger", list(Trigger))
def test_each_reaction_kind_fires_in_player_order_for_its_trigger_only(
        trigger: Trigger) -> None:
    """14.1: the first player first, then round the table; other triggers never fire it."""
    c = court(dealt(3))
    c.order = ("bob", "cid", "ann")
    line = ONE_EACH[trigger].replace("Sir Guy", "ANYONE").replace(" MINE ", " ANYONE ") \
        .replace(" PC ", " ANYONE ").replace("IF Bob", "IF ANYONE") \
        .replace("IF AN OPPONENT", "IF ANYONE")
    other = next(t for t in Trigger if t is not trigger)
    _react(c, "ann", line)
    _react(c, "bob", line)
    _react(c, "cid", ONE_EACH[other].replace("IF Bob", "IF ANYONE")
           .replace("IF AN OPPONENT", "IF ANYONE"))
    assert [p for p, _ in fire(c, trigger, "23", actor="cid")] == ["bob", "ann"]
    assert "ann" not in [p for p, _ in fire(c, other, "23", actor="cid")]


def test_conditions_on_actor_and_target() -> None:
    c = court(dealt(3))
    c.order = ("ann", "bob", "cid")
    pc = str(c.players["ann"].pc)
    _react(c, "ann", "IF AN OPPONENT ASSASSINATES MINE THEN PLAY Personal Guards",
           "IF Bob ASSASSINATES 23 THEN PLAY Treachery", "IF I COURT ANYONE THEN PLAY Treachery")
    hits = [(p, r.n) for p, r in fire(c, Trigger.ASSASSINATES, pc, actor="bob")]
    assert hits == [("ann", 1)]
    assert [r.n for _, r in fire(c, Trigger.ASSASSINATES, pc, actor="ann")] == []  # not me
    assert [r.n for _, r in fire(c, Trigger.ASSASSINATES, "23", actor="bob")] == [2]
    assert [r.n for _, r in fire(c, Trigger.ASSASSINATES, "23", actor="cid")] == []
    assert [r.n for _, r in fire(c, Trigger.COURTS, "alan", actor="ann")] == [3]
    assert [r.n for _, r in fire(c, Trigger.COURTS, "alan", actor="bob")] == []


def test_cards_are_played_in_player_order_up_to_the_limit() -> None:
    """27.3: one Treachery at most on an interrogation; the first player's goes."""
    c = court(dealt(3))
    c.order = ("cid", "ann", "bob")
    for p in ("ann", "cid"):
        with_player(c, p, hand=("treachery-1" if p == "ann" else "treachery-2", "dwtk-1"))
        _react(c, p, "IF ANYONE INTERROGATES ANYONE THEN PLAY Treachery")
    total, played = play_cards(c, Trigger.INTERROGATES, "45")
    assert total == -1 and played["treachery"] == 1
    assert [e.args["player"] for e in events(c, "reaction.card")] == ["cid"]
    assert "treachery-1" in c.players["ann"].hand and "treachery-2" in c.discards


def test_every_card_use_has_its_amount_in_the_tables() -> None:
    for uses in CARD_USES.values():
        for use in uses.values():
            assert use.amount is None or use.amount in TABLES.justice_rules, use


def test_reactions_are_stored_numbered_kept_and_withdrawn() -> None:
    state = dealt(3)
    first = run(state, {"ann": "IF ANYONE HEARS MINE THEN HIDE\nIF ANYONE TRIES ANYONE "
                                "THEN PLAY Evidence"})
    stored = events(first, "reaction.stored")
    assert [e.args["n"] for e in stored] == [1, 2] and not stored[0].public
    assert len(first.state["players"]["ann"]["reactions"]) == 2
    second = run(first.state, {"ann": "WITHDRAW REACTION 1\nWITHDRAW REACTION 9\n"
                                      "IF ANYONE JAILS PC THEN PAY"})
    kept = second.state["players"]["ann"]["reactions"]
    assert [r["n"] for r in kept] == [2, 3]
    assert [e.args["found"] for e in events(second, "reaction.withdrawn")] == [True, False]
    third = run(second.state, {})
    assert [r["n"] for r in third.state["players"]["ann"]["reactions"]] == [2, 3]


def test_engine_parses_player_names_in_reactions() -> None:
    state = dealt(3)
    parsed = ENGINE.parse_orders("IF bob EXPOSES PC THEN PLAY Informer", state, "ann", TABLES)
    assert parsed.errors == () and parsed.normal_form == (
        "IF Bob EXPOSES PC THEN PLAY Informer",)


def test_install_ignores_players_without_orders() -> None:
    c = court(dealt(3))
    c.orders = {}
    reactions.install(c)
    assert all(p.reactions == () for p in c.players.values())


def test_treachery_on_royal_favor_one_card_first_in_player_order() -> None:
    """13.4.4: any player's Treachery -2, no more than one card."""

    c = court(dealt(3))
    c.order = ("ann", "bob", "cid")
    c.set_royal("alan", owner="ann")
    for p, card in (("bob", "treachery-1"), ("cid", "treachery-2")):
        with_player(c, p, hand=(card,))
        _react(c, p, "IF AN OPPONENT COURTS ANYONE THEN PLAY Treachery")
    c.dice = ScriptedDice({"favor": [4, 4]})
    player.favor(c, "ann", Activity(ActivityKind.FAVOR, ("alan",)))
    assert events(c, "activity.favor")[0].args["total"] == 6
    assert [e.args["player"] for e in events(c, "reaction.card")] == ["bob"]
    assert c.players["cid"].hand == ("treachery-2",)


def test_the_private_sheet_lists_the_standing_reactions() -> None:

    state = dealt(3)
    result = run(state, {"ann": "IF ANYONE HEARS MINE THEN PLAY Alibi"})
    ctx = ENGINE.newsletter_context(state, result.state, result.events, ["ann"], TABLES)
    assert ctx.sheets["ann"]["reactions"] == [
        {"n": 1, "text": "IF ANYONE HEARS MINE THEN PLAY Alibi"}]
    sheet = ENV.get_template("dwtk/turnsheet.md.j2").render(
        game={"name": "f", "title": "t"}, turn={"label": "Turn 2"}, next_deadline=None,
        ctx=ctx.sheets["ann"], events=[], dice=[], order_form="")
    assert "- 1: <code>IF ANYONE HEARS MINE THEN PLAY Alibi</code>" in sheet  # never markup
