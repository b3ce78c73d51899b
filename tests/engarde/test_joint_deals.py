"""EG §J joint parties and player deals for commissions (reference §4; EG §P's rule that
finance deals go through only when both players' orders match)."""

from __future__ import annotations

from moderator.games.engarde import ENGINE
from tests.engarde.conftest import (
    _TABLES,
    assert_event,
    dice,
    give_orders,
    make_char,
    make_state,
    no_event,
    run_month,
)

HOME = {"area": "les_batignoles", "kind": "apartment", "tenure": "rented"}  # limit 3


def test_cohosted_party_shares_costs_and_gives_each_host_the_party_sp() -> None:
    """EG §J: two hosts naming each other hold one party at the senior host's home; the
    drinks (senior host's SL per guest) are split evenly, the senior paying the odd crown;
    each host gains total SL present (both hosts included) / 7."""
    state = make_state(make_char("a", sl=7, home=HOME), make_char("b", sl=5),
                       make_char("c", sl=6), make_char("d", sl=4))
    orders = give_orders(state, a="WEEK 2: HOST PARTY AT HOME; COHOST B",
                         b="WEEK 2: HOST PARTY AT HOME; CO-HOST A",
                         c="WEEK 2: PARTY B; CAROUSE", d="WEEK 2: PARTY A")
    result = run_month(state, orders, dice(party=[6]))
    held = assert_event(result, "party.held", "a", cohosts=["b"])
    assert held.args["guests"] == ["c", "d"] and held.args["total_sl"] == 22
    assert held.sp == 22 // 7
    cohost = assert_event(result, "party.cohost", "b", host="a", others=["a"])
    assert cohost.sp == held.sp
    drinks = {e.actor: e.crowns for e in result.events if e.id == "party.drinks"}
    assert drinks == {"a": -7, "b": -7}  # 2 guests x SL 7 = 14, split evenly
    assert assert_event(result, "carouse.drink", "c").args["paid_by"] == "a"
    no_event(result, "mutual.no_show")


def test_cohost_mismatch_is_told_to_both_and_each_holds_his_own_party() -> None:
    """EG §J: co-hosting takes effect only when every host names the others."""
    state = make_state(make_char("a", sl=7, home=HOME), make_char("b", sl=5, home=HOME))
    orders = give_orders(state, a="WEEK 1: HOST PARTY AT HOME; COHOST B",
                         b="WEEK 1: HOST PARTY AT HOME")
    result = run_month(state, orders, dice(party=[6, 6]))
    assert_event(result, "mutual.no_show", "a", kind="cohost", absent="b")
    assert_event(result, "mutual.no_show", "b", kind="cohost", waiting="a")
    assert_event(result, "party.held", "a")
    assert_event(result, "party.held", "b")
    no_event(result, "party.cohost")


def test_cohost_round_trip() -> None:
    state = make_state(make_char("a"), make_char("b"), make_char("c"))
    parsed = ENGINE.parse_orders("WEEK 1: HOST PARTY AT CLUB; EXCLUDE C; COHOST B", state,
                                 "a", _TABLES)
    assert not parsed.hard_errors
    assert "WEEK 1: HOST PARTY AT CLUB; EXCLUDE C; COHOST B" in parsed.normal_form


def _regiment(**extra: object) -> dict:
    return make_state(make_char("s", sl=9, regiment="km", rank="captain", horses=1),
                      make_char("b", sl=9, crowns=800, regiment="km", rank="private", **extra))


def test_commission_sold_between_players_when_both_orders_match() -> None:
    """Reference §4: the seller's captaincy passes to the buyer of his regiment; the buyer
    pays the agreed price to the seller and the army's price for the subaltern step."""
    state = _regiment()
    orders = give_orders(state, s="ANYTIME: SELL COMMISSION Captain TO B FOR 300",
                         b="ANYTIME: BUY COMMISSION Captain FROM S FOR 300")
    result = run_month(state, orders)
    sold = assert_event(result, "regiment.deal", "s", sold=True)
    assert sold.crowns == 300 and sold.public
    bought = assert_event(result, "regiment.deal", "b", sold=False)
    step = _TABLES.army.cell("subaltern", "km", "price")
    assert bought.crowns == -300 - step
    chars = result.state["characters"]
    assert (chars["b"]["regiment"], chars["b"]["rank"]) == ("km", "captain")
    assert (chars["s"]["regiment"], chars["s"]["rank"]) == (None, None)


def test_commission_deal_mismatch_and_rules() -> None:
    """Different prices: both told privately; a buyer below the rank's SL is refused."""
    state = _regiment()
    orders = give_orders(state, s="ANYTIME: SELL COMMISSION Captain TO B FOR 300",
                         b="ANYTIME: BUY COMMISSION Captain FROM S FOR 250")
    result = run_month(state, orders)
    assert_event(result, "regiment.deal_unmatched", "s", price=300, reason="unmatched")
    assert_event(result, "regiment.deal_unmatched", "b", price=250, reason="unmatched")
    no_event(result, "regiment.deal")
    low = _regiment()
    low["characters"]["b"]["sl"] = 3
    orders = give_orders(low, s="ANYTIME: SELL COMMISSION Captain TO B FOR 300",
                         b="ANYTIME: BUY COMMISSION Captain FROM S FOR 300")
    refused = run_month(low, orders)
    assert_event(refused, "regiment.deal_unmatched", "b", reason="sl")
    assert refused.state["characters"]["s"]["rank"] == "captain"
