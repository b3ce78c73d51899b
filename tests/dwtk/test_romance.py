"""Rule cases for Romance and Marriage, DWTK 18, Hold A Wedding, 13.4.16, and the Prince
or Queen Consort, 9.2 and 18.10.

The dealt game (seed 1): Ann's PC is Sir Charles (24, male), Bob's Baroness Eleanor (64),
Cid's Knight William (26).  Each case gives Ann FACs: Sir Guy (12, Status 1), Duke Roland
(42, Status 5), Lady Margaret (61) and Lady Elizabeth (62), all in Fandonia.
"""

from __future__ import annotations

import pytest

from moderator.games.dwtk import duels, faction, player, romance, status, succession
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.orders import TurnOrders, parse_orders
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.orders.social import Proposal
from moderator.games.dwtk.state import Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import (
    TABLES,
    checked_court,
    dealt,
    events,
    run,
    with_player,
)

ANN_PC, GUY, ROLAND, MARGARET, ELIZABETH = 24, 12, 42, 61, 62
def _court(**script: list[int]) -> Court:
    c = checked_court(script)
    for p in c.players:
        with_player(c, p, ip=10, pp=30)
    for cid in (GUY, ROLAND, MARGARET, ELIZABETH):
        c.set_char(cid, owner="ann")
        if cid in c.loyalty_pool:
            c.loyalty_pool.remove(cid)
    return c


def _propose(c: Court, suitor: str, beloved: str) -> None:
    romance.propose(c, "ann", Proposal(suitor, beloved))


def _wed(c: Court, a: str, b: str) -> None:
    player.do(c, "ann", Activity(ActivityKind.WEDDING, who=(a, b)))


def _betroth(c: Court, a: str, b: str) -> None:
    for x, y in ((a, b), (b, a)):
        if x.isdigit():
            c.set_char(x, betrothed=y)
        else:
            c.set_royal(x, betrothed=y)


def test_accepted_refused_and_spurned() -> None:
    """18.4: one die + the Romance modifier: 3-6 accepted (both betrothed), 2 refused,
    1 refused and the character proposed to becomes an NC."""
    c = _court(romance=[3])
    _propose(c, str(GUY), str(MARGARET))
    assert romance.engaged_to(c, str(GUY)) == str(MARGARET)
    assert romance.engaged_to(c, str(MARGARET)) == str(GUY)
    c2 = _court(romance=[3])
    with_player(c2, "ann", prestige_mods={"romance": -1})
    _propose(c2, str(GUY), str(MARGARET))
    assert events(c2, "romance.proposal")[0].args["result"] == "refused"
    assert romance.engaged_to(c2, str(GUY)) is None and c2.char(MARGARET).owner == "ann"
    c3 = _court(romance=[1])
    _propose(c3, str(GUY), str(MARGARET))
    assert events(c3, "romance.proposal")[0].args["result"] == "spurned"
    assert c3.char(MARGARET).owner is None and c3.char(GUY).owner == "ann"


def test_once_a_turn_except_a_proposal_automatically_accepted() -> None:
    """18.4.3: no character proposes or is proposed to twice in a turn; 18.4.5: a
    'Proposal Automatically Accepted' (Romance Table 10) ignores it and takes his first
    PROPOSE line that is legal (the same-sex line is passed over)."""
    c = _court(romance=[2], prestige=[5, 5])
    _propose(c, str(GUY), str(MARGARET))
    with pytest.raises(Refused, match="once_a_turn"):
        _propose(c, str(GUY), str(ELIZABETH))
    c.orders = {"ann": TurnOrders(proposals=(Proposal(str(GUY), str(ROLAND)),
                                             Proposal(str(GUY), str(ELIZABETH))))}
    player.do(c, "ann", Activity(ActivityKind.PRESTIGE, table="romance"))
    free = events(c, "romance.proposal")[-1].args
    assert (free["beloved"], free["free"], free["total"]) == (str(ELIZABETH), "romance_table",
                                                               None)
    assert romance.engaged_to(c, str(ELIZABETH)) == str(GUY)


def test_a_free_proposal_with_no_legal_line_is_lost() -> None:
    """13.4.16, 18.4.5: with no pair he may name, the free proposal is lost."""
    c = _court(prestige=[5, 5])
    player.do(c, "ann", Activity(ActivityKind.PRESTIGE, table="romance"))
    assert events(c, "romance.free_lost")[0].args["source"] == "romance_table"


@pytest.mark.parametrize(("suitor", "beloved", "reason"), [
    (str(MARGARET), "pc", "pc_proposed_to"),  # 18.4.1
    ("pc", "anne", "pc_to_royal"),  # 18.4.1, 18.4.4
    (str(GUY), "anne", "status_below_four"),  # 18.4.4
    ("anne", str(GUY), "royals_never_propose"),  # 18.4.4
    (str(GUY), str(ROLAND), "same_sex"),  # 18.2
    (str(GUY), "jane", "may_never_marry"),  # 18.1
    (str(GUY), "63", "not_yours"),  # 18.4: his own FACs, PC or FARCs
])
def test_who_may_propose_to_whom(suitor: str, beloved: str, reason: str) -> None:
    """18.1-18.4.4: the refused proposals cost nothing and roll nothing."""
    c = _court()
    c.set_royal("anne", owner="ann")
    c.set_royal("jane", owner="ann")
    with pytest.raises(Refused, match=reason):
        _propose(c, suitor, beloved)
    assert c.players["ann"].ip == 10


def test_same_country_and_unmarried() -> None:
    """18.4.2: both in the same country; 18.4: both unmarried."""
    c = _court()
    c.set_char(MARGARET, location="epalin")
    with pytest.raises(Refused, match="not_same_country"):
        _propose(c, str(GUY), str(MARGARET))
    c.set_char(ELIZABETH, spouse=str(ROLAND))
    with pytest.raises(Refused, match="married"):
        _propose(c, str(GUY), str(ELIZABETH))


def test_a_farc_costs_five_ip_and_princess_anne_minus_one() -> None:
    """18.4.4: Duke Roland (Status 5) may propose to the FARC Anne for Five IP, lost
    though she refuses: 3 - 1 = 2."""
    c = _court(romance=[3])
    c.set_royal("anne", owner="ann")
    _propose(c, str(ROLAND), "anne")
    got = events(c, "romance.proposal")[0].args
    assert (got["total"], got["result"], got["ip"]) == (2, "refused", 5)
    assert c.players["ann"].ip == 5


def test_a_wedding_and_its_guests() -> None:
    """13.4.16, 18.3: the betrothed pair marry; each attending player (ATTEND WEDDINGS)
    rolls the Socializing Table free (7: +1 PP), not an activity; Cid stays away."""
    c = _court(prestige=[3, 4, 3, 4])
    with pytest.raises(Refused, match="no_accepted_proposal"):
        _wed(c, str(GUY), str(MARGARET))
    _betroth(c, str(GUY), str(MARGARET))
    c.orders = {"ann": TurnOrders(attend=True), "bob": TurnOrders(attend=True)}
    _wed(c, str(GUY), str(MARGARET))
    assert c.char(GUY).spouse == str(MARGARET) and c.char(MARGARET).spouse == str(GUY)
    assert c.char(GUY).betrothed is None
    assert events(c, "romance.wedding")[0].args["guests"] == ["ann", "bob"]
    assert [e.args["player"] for e in events(c, "prestige.roll")] == ["ann", "bob"]
    assert (c.players["ann"].ip, c.players["bob"].pp) == (10, 31)


def test_no_wedding_abroad_or_in_hiding() -> None:
    """13.4.16, 18.3: both in Fandonia, neither imprisoned nor in hiding."""
    c = _court()
    _betroth(c, str(GUY), str(MARGARET))
    c.set_char(MARGARET, situation=Situation.HIDING)
    with pytest.raises(Refused, match="imprisoned_or_hiding"):
        _wed(c, str(GUY), str(MARGARET))
    c.set_char(MARGARET, situation=Situation.NORMAL, location="cronos")
    with pytest.raises(Refused, match="not_in_fandonia"):
        _wed(c, str(GUY), str(MARGARET))


def test_the_pc_weds_rolls_twice_and_his_spouse_does_not_count() -> None:
    """13.4.16: his PC marries: two Socializing rolls (PC, then spouse); 18.8, 35.6: the
    PC's spouse is a henchman and does not count against his PP."""
    c = _court(prestige=[3, 4, 3, 4])
    _betroth(c, str(ANN_PC), str(MARGARET))
    load = status.faction_load(c, "ann")
    _wed(c, "pc", str(MARGARET))
    rolls = [e.args.get("character") for e in events(c, "prestige.roll")]
    assert rolls == [str(ANN_PC), str(MARGARET)]
    assert status.faction_load(c, "ann") == load - 1
    assert str(MARGARET) in {h.key for h in duels.henchmen(c, "ann")}


def test_his_pp_must_allow_a_wedding_with_a_farc() -> None:
    """18.8, 18.10, 35.4: Duke Roland wed to the FARC Anne has Status 8: 3 more PP."""
    c = _court()
    c.set_royal("anne", owner="ann")
    _betroth(c, str(ROLAND), "anne")
    with_player(c, "ann", pp=status.faction_load(c, "ann") + 2)
    with pytest.raises(Refused, match="pp"):
        _wed(c, str(ROLAND), "anne")
    assert c.royals["anne"].spouse is None
    with_player(c, "ann", pp=status.faction_load(c, "ann") + 3)
    _wed(c, str(ROLAND), "anne")
    assert status.status(c, ROLAND) == 8 and c.royals["anne"].spouse == str(ROLAND)


def test_a_proposal_is_negated_by_death_or_leaving_the_faction() -> None:
    """18.4.6: negated if one of the two dies or becomes an NC before the wedding."""
    c = _court()
    _betroth(c, str(GUY), str(MARGARET))
    kill_character(c, GUY, "duel")
    assert c.char(MARGARET).betrothed is None
    assert events(c, "romance.negated")[0].args["why"] == "death"
    _betroth(c, str(ROLAND), str(ELIZABETH))
    c.set_char(ELIZABETH, owner=None)
    assert romance.engaged_to(c, str(ROLAND)) is None
    romance.sweep(c)
    assert c.char(ROLAND).betrothed is None and events(c, "romance.negated")[-1].args["why"] \
        == "left_faction"


def test_a_married_fac_lost_dies_and_the_spouse_may_remarry() -> None:
    """35.5.3, 18.6: a married FAC lost from the faction is taken to die."""
    c = _court()
    c.set_char(GUY, spouse=str(MARGARET))
    c.set_char(MARGARET, spouse=str(GUY))
    faction.lose_member(c, "ann", str(GUY), "pp_limit")
    assert not c.char(GUY).alive and c.char(MARGARET).spouse is None


def test_the_heir_s_spouse_becomes_consort_then_an_nc_of_status_eight() -> None:
    """9.2, 18.10: George dies; Alan, a FARC wed to Lady Margaret, is crowned an NRC and
    she becomes Queen Consort, an NRC (no Loyalty counter in the container); when Alan
    dies she is an NC (Duchess, Status 8) and her counter goes back (31.7)."""
    c = _court(support=[3, 3, 3, 3], discard=[1] * 12)
    c.set_royal("alan", owner="ann", spouse=str(MARGARET))
    c.set_char(MARGARET, spouse="alan")
    succession.kill_royal(c, "george", "royal_death")
    assert c.monarch() == "alan" and c.royals["alan"].owner is None
    assert c.char(MARGARET).owner is None and MARGARET not in c.loyalty_pool
    assert events(c, "succession.consort")[0].args["player"] == "ann"
    succession.kill_royal(c, "alan", "royal_death")
    assert c.char(MARGARET).spouse is None and status.status(c, MARGARET) == 8
    assert MARGARET in c.loyalty_pool


def test_romance_orders_through_the_turn() -> None:
    """18.4 and 13.4.16 wired: PROPOSE before the activities, then DO WEDDING."""
    state = dealt(3)
    for cid in (str(GUY), str(MARGARET)):
        state["characters"][cid]["owner"] = "ann"
    result = run(state, {"ann": "PROPOSE 12 TO 61\nDO WEDDING 12 AND 61\nATTEND WEDDINGS"})
    proposals = [e for e in result.events if e.id == "romance.proposal"]
    assert [e.args["suitor"] for e in proposals] == ["12"]
    wed = [e for e in result.events if e.id == "romance.wedding"]
    assert bool(wed) == (proposals[0].args["result"] == "accepted")
    parsed = parse_orders("propose 12 to 61\nATTEND WEDDINGS", TABLES)
    assert parsed.errors == () and parsed.normal_form[0].startswith("PROPOSE")


def test_a_proposal_kept_for_a_free_acceptance_is_never_rolled() -> None:
    """18.4.5: `PROPOSE a TO b IF FREE` waits for a 'Proposal Automatically Accepted' (Romance
    Table 10): it is not rolled before the activities, and the free result takes it."""
    text = f"PROPOSE {GUY} TO {ELIZABETH} IF FREE\nDO PRESTIGE Romance"
    parsed = parse_orders(text, TABLES)
    assert parsed.errors == () and parsed.normal_form[-1] == f"PROPOSE {GUY} TO 62 IF FREE"
    assert parse_orders("\n".join(parsed.normal_form), TABLES).orders == parsed.orders
    c = _court(prestige=[5, 5])
    c.orders = {"ann": TurnOrders.from_dict(parsed.orders)}
    c.order = ("ann",)
    player.player_turns(c)
    proposals = events(c, "romance.proposal")
    assert [(e.args["suitor"], e.args["free"]) for e in proposals] == [
        (str(GUY), "romance_table")]
    assert romance.engaged_to(c, str(ELIZABETH)) == str(GUY)
