"""Rule cases for the remaining justice and crown rules: a bribe's charge through the
chain (13.4.20, 26), justice abroad (25.11) and at war (7.10.1, 7.10.3), Famine (8.4.2),
a henchman courting a FARC (17.2.4) and the Henchman/Counselor discards (14.2.2-14.2.4).

The dealt game (seed 1, three players): Ann's PC Sir Charles (24, Status 1), Bob's
Baroness Eleanor (64, Status 2), Cid's Knight William (26, Status 2); Earl Maxwell (32),
Sir Jeffrey (23) Ambassador to Sandarkan.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import (
    bribery,
    counseling,
    faction,
    fugitives,
    hiding,
    justice,
    player,
    problems,
)
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.orders import TurnOrders, format_orders, parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.start import has_player_turn
from moderator.games.dwtk.state import FANDONIA, Fate, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.usurpation import multiplier
from tests.dwtk.conftest import TABLES, checked_court, events, react, with_player

ANN_PC, BOB_PC, CID_PC, JEFFREY, MAXWELL = 24, 64, 26, 23, 32


def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, pp=40, ip=10)
    return c


# -- 13.4.20 with 24.8 / 25.10: the charge waits for the hearing ---------------------------


def test_a_bribe_charge_waits_in_hiding_for_the_hearing() -> None:
    """13.4.20.1, 24.2, 24.8: caught soliciting 4 IP, Ann's PC hides before the hearing;
    out of hiding next turn he faces it, the +4 still added (1+1-1+4 = 5 >= 1: trial;
    the Judge by a die, 1+3-3 without Evidence: not guilty)."""
    c = _court(bribery=[2], justice=[1, 1, 1, 1, 1, 3])
    c.offices["trade"] = str(ANN_PC)
    react(c, "ann", "IF ANYONE HEARS MINE THEN HIDE")
    bribery.solicit(c, "ann", 4)
    assert c.char(ANN_PC).situation is Situation.HIDING
    assert (c.char(ANN_PC).charge, c.offices["trade"]) == (4, None)  # 24.4 discharged
    c.turn += 1
    hiding.unhide(c, "ann", "pc")
    hearing = events(c, "justice.hearing")[0].args
    assert (hearing["modifier"], hearing["total"], hearing["result"]) == (3, 5, "trial")
    assert c.char(ANN_PC).charge == 0
    assert events(c, "justice.trial")[0].args["effects"] == ["not_guilty"]


# -- 25.11 foreign laws ------------------------------------------------------------------


def test_a_wrongdoer_against_foreign_laws_is_brought_home_for_justice() -> None:
    """25.11: Cid's PC kills a man in a duel in Epalin (19.10, cause "duel"): sent to a
    hearing, he is returned to Fandonia for it (1+1-1 below Status 2: innocent)."""
    c = _court(justice=[2, 1, 1])
    c.set_char(CID_PC, location="epalin")
    justice.accuse(c, CID_PC, "duel")
    home = events(c, "justice.sent_home")[0].args
    assert home == {"character": str(CID_PC), "from": "epalin", "foreign": True}
    assert c.char(CID_PC).location == FANDONIA
    assert events(c, "justice.hearing")[0].args["result"] == "innocent"


def test_hiding_from_a_foreign_arrest_means_a_manhunt_there_at_once() -> None:
    """25.11, 25.8: hiding abroad from a foreign arrest, he is hunted there at once; one
    hiding abroad from a Fandonian accusation (a scandal) is not, until extradition
    (25.5)."""
    c = _court(justice=[6, 6])
    for pc, who in ((ANN_PC, "ann"), (BOB_PC, "bob")):
        c.set_char(pc, location="epalin")
        react(c, who, "IF ANYONE HEARS MINE THEN HIDE")
    justice.accuse(c, ANN_PC, "prestige:sporting")
    justice.accuse(c, BOB_PC, "scandal")
    assert c.char(ANN_PC).hunted == ("epalin",)
    assert c.char(BOB_PC).hunted == ()
    assert [e.args["character"] for e in events(c, "justice.foreign_manhunt")] == [str(ANN_PC)]
    assert all(c.char(x).situation is Situation.HIDING for x in (ANN_PC, BOB_PC))


def test_an_ambassador_is_heard_at_his_post() -> None:
    """20.4, 25.11 (reading): an Ambassador is not brought home while he holds the post."""
    c = _court(justice=[6, 1, 1])
    justice.accuse(c, JEFFREY, "bribery")
    assert not events(c, "justice.sent_home")
    assert c.char(JEFFREY).location == "sandarkan"


# -- 7.10.1 / 7.10.3 war ------------------------------------------------------------------


def test_at_war_a_wrongdoer_waits_for_the_peace_then_is_returned() -> None:
    """7.10.1, 25.12: Bob's PC in Cronos at war, sent to a hearing, is not returned nor
    extraditable; when the war ends he is returned to face it (1+1-1 < 2: innocent)."""
    c = _court(justice=[6, 1, 1])
    c.wars.append("cronos")
    c.set_char(BOB_PC, location="cronos")
    justice.accuse(c, BOB_PC, "scandal")
    waiting = c.char(BOB_PC)
    assert (waiting.wrongdoer, waiting.fate, waiting.location) == (True, "hearing", "cronos")
    assert events(c, "justice.awaits_peace")[0].args["where"] == "cronos"
    assert not events(c, "justice.hearing")
    assert not fugitives.extraditable(c, BOB_PC)
    problems.end_war(c)
    assert events(c, "justice.captured")[0].args["fate"] == "hearing"
    assert events(c, "justice.hearing")[0].args["result"] == "innocent"
    assert c.char(BOB_PC).location == FANDONIA and not c.char(BOB_PC).wrongdoer


def test_out_of_hiding_in_a_country_at_war_he_stays_there() -> None:
    """7.10.1, 24.8: an escaped prisoner coming out of hiding in Cronos at war is not
    returned: he lives there openly, his fate (prison) waiting for the peace."""
    c = _court()
    c.wars.append("cronos")
    c.set_char(CID_PC, location="cronos", situation=Situation.HIDING, wrongdoer=True,
               fate=Fate.PRISON, since=c.turn - 1)
    hiding.unhide(c, "cid", "pc")
    out = c.char(CID_PC)
    assert (out.situation, out.location, out.fate) == (Situation.NORMAL, "cronos", "prison")
    assert not events(c, "justice.returned")


def test_a_pc_stuck_at_war_loses_his_player_turn() -> None:
    """7.10.3: each turn his PC is stuck in a country at war, the player has no turn."""
    c = _court()
    c.set_char(ANN_PC, location="cronos")
    assert has_player_turn(c, "ann") is None
    c.wars.append("cronos")
    assert has_player_turn(c, "ann") is not None


# -- 8.4.2 Famine --------------------------------------------------------------------------


def test_famine_forbids_counseling_and_boosts_three_support_cards() -> None:
    """8.4.2, 15.5, 14.5.2: no counsel this turn; Trade Guild, Merchant and Peasant
    Support (and Army Support, by its card in 2.1.4) have their boosted Usurpation
    Value; Clergy Support does not."""
    c = _court()
    with_player(c, "ann", free_counsel=True)
    c.crown_event = "famine"
    with pytest.raises(Refused, match="no_counsel_this_turn"):
        counseling.make(c, "ann", TurnOrders.from_dict(parse_orders(
            "COUNSEL Make An Example ON Lawlessness NAMING 32", TABLES).orders).counsels[0])
    for key in ("trade_guild_support", "merchant_support", "peasant_support",
                "army_support", "clergy_support"):
        sv = TABLES.card_kind(key).support
        assert sv is not None
        boosted = key != "clergy_support"
        assert multiplier(c, "ann", sv) == (sv.boosted if boosted else sv.times)


# -- 17.2.4 a henchman courts the favor of a FARC ---------------------------------------------


def test_a_henchman_courts_the_favor_of_a_farc() -> None:
    """17.2.4: ``DO FAVOR <royal> BY <henchman>`` round-trips; with her PC abroad, Ann
    courts Prince Alan through her henchman at home; without one she cannot; the FARC
    may still turn away (2 on the Royal Favor Table)."""
    names = Names.of(TABLES)
    parsed = parse_orders("DO FAVOR Prince Alan BY Earl Maxwell", TABLES)
    assert parsed.errors == ()
    orders = TurnOrders.from_dict(parsed.orders)
    assert orders.activities[0] == Activity(ActivityKind.FAVOR, ("alan",), by=str(MAXWELL))
    assert format_orders(orders, names) == ("DO FAVOR Prince Alan BY 32",)
    assert parse_orders("DO FAVOR Prince Alan BY 32", TABLES).orders == parsed.orders
    c = _court(favor=[1, 1])
    c.set_royal("alan", owner="ann")
    c.set_char(ANN_PC, location="epalin")
    with pytest.raises(Refused, match="no_courtier"):
        player.favor(c, "ann", Activity(ActivityKind.FAVOR, ("alan",)))
    c.set_char(MAXWELL, owner="ann", henchman="henchman-3")
    player.favor(c, "ann", orders.activities[0])
    courted = events(c, "activity.favor")[0].args
    assert (courted["by"], courted["lost"]) == (str(MAXWELL), True)
    assert c.royals["alan"].owner is None


# -- 14.2.2-14.2.4 discards -------------------------------------------------------------------


def test_henchman_and_counselor_cards_are_discarded_and_shown() -> None:
    """14.2.4: a Henchman card goes when the henchman dies or becomes an NC; a Counselor
    card when he takes an office or goes into hiding — 14.2.2: that discard shown."""
    c = _court()
    c.set_char(MAXWELL, owner="ann", henchman="henchman-3")
    c.set_char(31, owner="ann", henchman="henchman-6")
    kill_character(c, MAXWELL, "duel")
    faction.lose_member(c, "ann", "31", "pp_limit")
    assert c.char(31).henchman is None and "henchman-3" in c.discards
    assert "henchman-6" in c.discards
    c.set_char(ANN_PC, counselor="monarchs_counselor-4")
    c.offices["trade"] = None
    c.seat_in_office(ANN_PC, "trade")
    assert c.char(ANN_PC).counselor is None and "monarchs_counselor-4" in c.discards
    c.set_char(CID_PC, counselor="monarchs_counselor-2")
    justice.go_into_hiding(c, CID_PC, Fate.HEARING)
    shown = events(c, "cards.discarded")[-1]
    assert (shown.args["player"], shown.args["cards"], shown.public) == \
        ("cid", ["monarchs_counselor"], True)
    assert "monarchs_counselor-2" in c.discards
