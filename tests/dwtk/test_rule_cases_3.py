"""Down with the King rule cases of issue 14: a move not paid for never happens (6.2)."""

from __future__ import annotations

from moderator.dice import Dice, ScriptedDice
from moderator.games.dwtk import start, status
from tests.dwtk.conftest import court, dealt, events, with_player
from tests.dwtk.test_start import _free_nc, _holder


def _navy_minister_bids(ip: int, bids: str) -> object:
    """Ann's FAC holds the Navy; High Minister is vacant; Ann has ``ip`` IP."""
    c = court(dealt(3))
    navy = _holder(c, "navy")
    c.set_char(navy, owner="ann")
    with_player(c, "ann", pp=30, ip=ip)
    c.orders = court({"name": "x"}, orders={"ann": bids.format(navy=navy)}).orders
    c.order = ("ann", "bob", "cid")
    c.discharge("high_minister", "test")
    return c, navy


def test_a_refused_bid_does_not_cost_the_office() -> None:
    """DWTK 6.2: a Navy Minister who bids for another vacant office with 1 IP is
    refused (6.1.1: 2 IP) and keeps the Navy; only High Minister is filled at random."""
    c, navy = _navy_minister_bids(1, "BID High Minister : {navy}")
    nc = _free_nc(c, "high_minister", but=(navy,))
    c.dice = ScriptedDice({"office": [nc // 10, nc % 10]})
    start.office_phase(c, c.orders)
    assert c.offices["navy"] == str(navy)
    assert c.offices["high_minister"] == str(nc)
    [refused] = events(c, "office.bid_refused")
    assert refused.args["reason"] == "ip"
    assert c.players["ann"].ip == 1
    assert c.dice.remaining() == {}  # no random fill of the Navy


def test_a_second_bid_after_a_paid_one_is_refused_without_moving_him() -> None:
    """DWTK 6.2: he moves to High Minister (2 IP paid); his second bid, for the Navy he
    left, finds no IP: he stays where the paid move put him and the Navy is filled
    at random."""
    c, navy = _navy_minister_bids(2, "BID High Minister : {navy}\nBID Navy : {navy}")
    nc = _free_nc(c, "high_minister", but=(navy,))  # the Navy is not yet vacant
    c.dice = ScriptedDice({"office": [nc // 10, nc % 10]})
    start.office_phase(c, c.orders)
    assert c.offices["high_minister"] == str(navy)
    assert c.offices["navy"] == str(nc)
    assert c.players["ann"].ip == 0


def test_a_failed_usurpation_applies_both_deaths_before_the_pp_limit() -> None:
    """DWTK 36.7 with 31.5 and 35.5: the PC and the FARC die together; only then is the
    halved PP total checked, so a FAC who fits once the FARC is gone stays."""
    from moderator.games.dwtk import usurpation
    from tests.dwtk.test_usurpation import _court

    c = _court()
    c.set_royal("alan", owner="ann", card="align_alan-1")
    facs = (35, 36, 46)  # Status 6 each
    for cid in facs:
        c.set_char(cid, owner="ann")
    fac = sum(status.status(c, cid) for cid in facs)
    assert status.faction_load(c, "ann") == fac + status.royal_status(c, "alan")
    with_player(c, "ann", pp=2 * fac)  # halved: room for the FACs once Alan is gone
    usurpation._fail(c, "ann", "alan", "george", [], None, [])
    assert not c.royals["alan"].alive
    assert all(c.char(cid).owner == "ann" for cid in facs)
    assert c.players["ann"].pp == fac
    assert not [e for e in events(c, "faction.lost") if e.args.get("reason") == "pp_limit"]


def test_a_pc_death_is_itemised_and_the_return_is_shown() -> None:
    """DWTK 31.5: the PC dies (not "leaves the faction"); half his player's PP and IP
    lost, itemised; the Nobles table marks him dead and the sheet says when the heir
    comes back face up (the second turn after dying)."""
    from moderator.games.dwtk import views
    from moderator.games.dwtk.death import kill_pc
    from tests.dwtk.conftest import EVENTS, TABLES
    from tests.dwtk.test_usurpation import _court

    c = _court()
    with_player(c, "ann", pp=41, ip=11)
    before = c.freeze()
    pc = c.players["ann"].pc
    kill_pc(c, "ann", "duel")
    [died] = events(c, "pc.died")
    assert died.args == {"player": "ann", "member": str(pc), "reason": "duel",
                         "spouse": died.args["spouse"], "pp_lost": 20, "ip_lost": 5,
                         "pp": 21, "ip": 6, "returns": c.turn + 2}
    assert not [e for e in events(c, "faction.lost") if e.args["member"] == str(pc)]
    after = c.freeze()
    nm = views.names(after, TABLES)
    text = str(EVENTS.pc_died(died.to_dict(), nm)).strip()
    assert f"{nm[str(pc)]} dies (killed in a duel, DWTK 19)" in text
    assert "-20 PP, now 21; -5 IP, now 6" in text
    assert f"returns face up on turn {c.turn + 2}" in text
    gazette = views.gazette_context(before, after, c.events, TABLES)
    [row] = [p for p in gazette["players"] if p["name"] == after.players["ann"].name]
    assert row["pc"].endswith(f"(dead; the heir returns on turn {c.turn + 2})")
    assert row["pc_status"] is None
    sheet = views.sheet_context(after, "ann", TABLES)
    assert sheet["pc"]["dead"] and sheet["pc"]["returns"] == c.turn + 2


def test_the_scandal_is_told_before_the_member_its_pp_loss_costs() -> None:
    """DWTK 22 then 35.5: causes before effects.  A scandal (rolled 5: -2 PP) about
    Ann's FAC leaves her over her PP total; the scandal is told first, then whom she
    loses (the old order printed "leaves Ann's faction (pp limit)" above its cause)."""
    from moderator.games.dwtk.scandals import apply_scandal
    from tests.dwtk.test_usurpation import _court

    c = _court(scandal=[2, 3])
    c.set_char(35, owner="ann")
    with_player(c, "ann", pp=status.faction_load(c, "ann"))
    apply_scandal(c, 35, exposed=False)
    ids = [e.id for e in c.events]
    assert ids.index("scandal.result") < ids.index("faction.lost")
    assert events(c, "scandal.result")[0].args["pp"] == -2
    assert c.char(35).owner is None


def test_the_countdown_to_victory_is_shown() -> None:
    """DWTK 37: a FARC Monarch's player wins after three full turns; the Courier and
    every sheet say how many he has reigned and how many remain."""
    from moderator.games.dwtk import views
    from tests.dwtk.conftest import TABLES
    from tests.dwtk.test_usurpation import _court

    c = _court()
    c.set_royal("alan", owner="ann", card="align_alan-1")
    c.offices["monarch"] = "alan"
    c.farc_monarch_turns = 1
    after = c.freeze()
    gazette = views.gazette_context(after, after, [], TABLES)
    assert gazette["reign"] == {"royal": "Prince Alan", "player": after.players["ann"].name,
                                "turns": 1, "needed": 3, "left": 2}
    assert views.sheet_context(after, "bob", TABLES)["reign"] == gazette["reign"]
    c.set_royal("alan", owner=None)
    assert views.gazette_context(after, c.freeze(), [], TABLES)["reign"] is None


def test_the_assembly_turn_shows_no_support_change() -> None:
    """DWTK 3: the court assembles on the first turn, so there is no Support of an
    earlier turn to compare with; the Courier gave "stands at 110, up 110" while its
    news said the Support moved from 100 to 110.  Later turns still give the change."""
    from moderator.games.dwtk import views
    from moderator.games.dwtk.state import GameState
    from tests.dwtk.conftest import TABLES, muster, run

    before = muster()
    first = run(before, dice=Dice.for_turn(3, 1))
    gazette = views.gazette_context(GameState.from_dict(before), GameState.from_dict(first.state),
                                    [], TABLES)
    assert gazette["support"] > 0
    assert gazette["support_change"] == 0
    second = run(first.state, dice=Dice.for_turn(3, 2))
    after = GameState.from_dict(second.state)
    gazette = views.gazette_context(GameState.from_dict(first.state), after, [], TABLES)
    assert gazette["support_change"] == after.support - GameState.from_dict(first.state).support
