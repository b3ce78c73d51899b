"""EG §P: lodgings, renting, buying, letting, selling and moving."""

from __future__ import annotations

from moderator.games.engarde import ENGINE
from tests.engarde.conftest import (
    _TABLES,
    assert_event,
    dice,
    give_orders,
    make_char,
    make_state,
    run_month,
)

TOWN_HOUSE_CHARONNE = 22  # 20 x 110%


def test_renting_pays_the_month_at_once_and_earns_residence_sp() -> None:
    """EG §P: cost/mo raised by the area's multiplier; area SP + housing SP monthly."""
    state = make_state(make_char("a", sl=8, crowns=200))
    result = run_month(state, give_orders(state, a="WEEKEND 1: RENT Town House IN Charonne"))
    assert assert_event(result, "housing.rented", "a").crowns == -TOWN_HOUSE_CHARONNE
    assert assert_event(result, "housing.moved", "a").crowns == 0  # from nowhere: free
    assert assert_event(result, "housing.sp", "a").sp == 1 + 2
    nxt = run_month(result.state)
    assert assert_event(nxt, "housing.rent", "a").crowns == -TOWN_HOUSE_CHARONNE


def test_area_minimum_sl_and_housing_range_are_enforced() -> None:
    """EG §P: Charonne needs SL 8 and has no garrets."""
    state = make_state(make_char("a", sl=5), make_char("b", sl=9))
    parsed = ENGINE.parse_orders("WEEKEND 2: RENT Town House IN Charonne", state, "a", _TABLES)
    assert "needs SL 8" in parsed.hard_errors[0].message
    parsed = ENGINE.parse_orders("WEEKEND 3: RENT Garret IN Charonne", state, "b", _TABLES)
    assert "no Garret" in parsed.hard_errors[0].message


def test_buying_costs_twenty_months() -> None:
    """EG §P: "Dwellings may be bought for 20 times the monthly cost"."""
    state = make_state(make_char("a", sl=8, crowns=1000))
    result = run_month(state, give_orders(state, a="WEEKEND 2: BUY Town House IN Charonne"))
    assert assert_event(result, "housing.bought", "a").crowns == -20 * TOWN_HOUSE_CHARONNE
    assert result.state["characters"]["a"]["home"]["tenure"] == "owned"


def test_moving_out_of_a_house_costs_fifty_and_a_week() -> None:
    """EG §P: "Moving house costs 50 CRs and takes an entire week" (not from a garret)."""
    home = {"area": "charonne", "kind": "town_house", "tenure": "owned"}
    state = make_state(make_char("a", sl=8, crowns=500, home=home))
    missing = ENGINE.parse_orders("WEEKEND 1: RENT Apartment IN Charonne", state, "a", _TABLES)
    assert "takes a week" in missing.hard_errors[0].message
    orders = give_orders(state, a="WEEKEND 1: RENT Apartment IN Charonne\nWEEK 2: MOVE")
    result = run_month(state, orders)
    assert assert_event(result, "housing.moved", "a").crowns == -50
    a = result.state["characters"]["a"]
    assert a["home"] == {"area": "charonne", "kind": "apartment", "tenure": "rented"}
    assert a["properties"] == [{"area": "charonne", "kind": "town_house", "family": False,
                                "letting": False}]


def test_letting_with_tenant_roll_and_adverts() -> None:
    """EG §P: to let, roll more than the house's rank on 1d6; 5 CR adverts each month;
    the income is half the monthly cost."""
    prop = [{"area": "charonne", "kind": "town_house", "family": False, "letting": False}]
    state = make_state(make_char("a", sl=8, crowns=100, properties=prop))
    orders = give_orders(state, a="ANYTIME: LET Town House IN Charonne")
    result = run_month(state, orders, dice(housing=[3]))  # rank 2: 3 > 2, a tenant
    assert assert_event(result, "housing.advert", "a").crowns == -5
    assert assert_event(result, "housing.let", "a").crowns == TOWN_HOUSE_CHARONNE // 2
    nxt = run_month(result.state, {}, dice(housing=[2]))  # 2 is not > 2: empty
    assert_event(nxt, "housing.no_tenant", "a")
    assert_event(nxt, "housing.advert", "a")


def test_selling_yields_ninety_percent() -> None:
    """EG §P: sold to NPCs at the purchase price, of which he keeps 90%."""
    prop = [{"area": "charonne", "kind": "town_house", "family": False, "letting": False}]
    state = make_state(make_char("a", sl=8, crowns=100, properties=prop))
    result = run_month(state, give_orders(state, a="ANYTIME: SELL Town House IN Charonne"))
    sold = assert_event(result, "housing.sold", "a")
    assert sold.crowns == 20 * TOWN_HOUSE_CHARONNE * 90 // 100
    assert result.state["characters"]["a"]["properties"] == []


def test_family_home_can_never_be_sold() -> None:
    """EG §P: a title's family home "the character may never sell"."""
    home = {"area": "ile_de_la_cite", "kind": "mansion", "tenure": "family"}
    state = make_state(make_char("a", sl=12, noble=True, home=home))
    parsed = ENGINE.parse_orders("ANYTIME: SELL Mansion IN Isle de la Cite", state, "a", _TABLES)
    assert "never be sold" in parsed.hard_errors[0].message


def test_unpaid_rent_means_eviction() -> None:
    """EG §P (reading): a rented home whose rent is not paid is lost."""
    home = {"area": "charonne", "kind": "town_house", "tenure": "rented"}
    state = make_state(make_char("a", sl=8, crowns=20, home=home))
    result = run_month(state)
    assert_event(result, "housing.evicted", "a")
    assert result.state["characters"]["a"]["home"] is None
