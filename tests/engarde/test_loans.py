"""EG §Q loans: matched player loans, demands, default, shylocks."""

from __future__ import annotations

from moderator.games.base import TurnResult
from tests.engarde.conftest import (
    assert_event,
    dice,
    give_orders,
    make_char,
    make_state,
    no_event,
    run_month,
)
from tests.engarde.test_golden import render


def loan(lender: str | None, borrower: str, amount: int, taken: int,
         demanded: int | None = None, lid: int = 1) -> dict:
    return {"id": lid, "lender": lender, "borrower": borrower, "amount": amount,
            "taken": taken, "demanded": demanded}


def test_player_loan_needs_matching_orders() -> None:
    """EG §Q/§P: a deal goes through only if both specify the same terms."""
    state = make_state(make_char("athos", crowns=1000), make_char("porthos", crowns=0))
    ok = run_month(state, give_orders(state, athos="ANYTIME: LEND 200 TO Porthos",
                                      porthos="ANYTIME: BORROW 200 FROM Athos"), dice())
    assert assert_event(ok, "loan.lent", "athos").crowns == -200
    assert assert_event(ok, "loan.borrowed", "porthos").crowns == 200
    assert ok.state["loans"] == [loan("athos", "porthos", 200, 1)]
    bad = run_month(state, give_orders(state, athos="ANYTIME: LEND 200 TO Porthos",
                                       porthos="ANYTIME: BORROW 300 FROM Athos"), dice())
    assert_event(bad, "loan.unmatched", "athos", amount=200)
    assert_event(bad, "loan.unmatched", "porthos", amount=300)
    assert bad.state["loans"] == []


def test_demand_only_after_three_months_and_published() -> None:
    """EG §Q: "At any time after three months ... the lender may demand payment"."""
    state = make_state(make_char("athos"), make_char("porthos"), turn=3,
                       loans=[loan("athos", "porthos", 200, 1)])
    early = run_month(state, give_orders(state, athos="ANYTIME: DEMAND REPAYMENT FROM "
                                                      "Porthos"), dice())
    assert_event(early, "loan.too_early", "athos")
    later = dict(state, turn=4)
    ok = run_month(later, give_orders(later, athos="ANYTIME: DEMAND REPAYMENT FROM Porthos"),
                   dice())
    assert assert_event(ok, "loan.demanded", "athos").public
    assert ok.state["loans"][0]["demanded"] == 4


def test_demanded_debt_collected_or_disgrace_and_sent_away() -> None:
    """EG §Q: unable to pay in the following turn: disgraced and sent on campaign."""
    state = make_state(make_char("athos"), make_char("porthos", crowns=100, club="hunters",
                                                     sl=9), turn=5,
                       loans=[loan("athos", "porthos", 200, 1, demanded=4)])
    result = run_month(state, give_orders(state, porthos="WEEK 1: CLUB; CAROUSE"), dice())
    assert_event(result, "loan.defaulted", "porthos", away="front")
    porthos = result.state["characters"]["porthos"]
    assert (porthos["disgraced"], porthos["sent_away"], porthos["club"]) == ("debt", "front",
                                                                             None)
    away = make_state(make_char("p", club="hunters", sl=9, sent_away="front"))
    no_week = run_month(away, give_orders(away, p="WEEK 1: CLUB; CAROUSE"), dice())
    no_event(no_week, "club.visit")  # EG §D: no week actions on campaign
    rich = make_state(make_char("athos", crowns=0), make_char("porthos", crowns=500), turn=5,
                      loans=[loan("athos", "porthos", 200, 1, demanded=4)])
    paid = run_month(rich, {}, dice())
    assert assert_event(paid, "loan.collected", "porthos").crowns == -200
    assert assert_event(paid, "loan.received", "athos").crowns == 200
    assert paid.state["loans"] == []


def test_repaying_brings_the_debtor_home() -> None:
    """EG §Q: he remains on campaign until he is able to pay."""
    state = make_state(make_char("athos"), make_char("porthos", crowns=500, disgraced="debt",
                                                     sent_away="front"), turn=7,
                       loans=[loan("athos", "porthos", 200, 1, demanded=4)])
    result = run_month(state, give_orders(state, porthos="ANYTIME: REPAY 200 TO Athos"),
                       dice())
    assert_event(result, "loan.repaid", "porthos", amount=200)
    assert_event(result, "honour.restored", "porthos")
    porthos = result.state["characters"]["porthos"]
    assert (porthos["disgraced"], porthos["sent_away"]) == (None, None)


def test_shylock_limit_is_100_times_sl_and_grows_with_sl() -> None:
    """EG §Q: at most 100 x current SL; after rising he may borrow up to the new limit."""
    state = make_state(make_char("a", sl=3, crowns=100))
    over = run_month(state, give_orders(state, a="ANYTIME: BORROW 400 FROM SHYLOCK"), dice())
    assert_event(over, "loan.refused", "a", limit=300, reason="limit")
    ok = run_month(state, give_orders(state, a="ANYTIME: BORROW 300 FROM SHYLOCK"), dice())
    assert assert_event(ok, "loan.borrowed", "a").crowns == 300
    risen = make_state(make_char("a", sl=4), loans=[loan(None, "a", 300, 1)], turn=2)
    more = run_month(risen, give_orders(risen, a="ANYTIME: BORROW 100 FROM SHYLOCK"), dice())
    assert_event(more, "loan.borrowed", "a", amount=100)


def test_shylock_ten_percent_after_six_months_or_frontier() -> None:
    """EG §Q: repay plus 10 % at the end of six months, or join a frontier regiment."""
    state = make_state(make_char("a", crowns=1000), loans=[loan(None, "a", 300, 1)], turn=7)
    paid = run_month(state, {}, dice())
    assert assert_event(paid, "loan.collected", "a").crowns == -330
    poor = make_state(make_char("a", crowns=10), loans=[loan(None, "a", 300, 1)], turn=7)
    fled = run_month(poor, {}, dice())
    assert_event(fled, "loan.defaulted", "a", away="frontier")
    assert fled.state["characters"]["a"]["sent_away"] == "frontier"
    stay = run_month(poor, give_orders(poor, a="ANYTIME: STAY IN PARIS"), dice())
    assert_event(stay, "loan.defaulted", "a", away=None)
    assert stay.state["matters"][0]["kind"] == "arrest"


def test_borrowing_beyond_the_limit_and_gambling_beyond_means_warn() -> None:
    """Receipt warnings for legal but probably mistaken orders."""
    from moderator.games.engarde import ENGINE
    from tests.engarde.conftest import _TABLES
    state = make_state(make_char("a", sl=3, crowns=10))
    parsed = ENGINE.parse_orders("ANYTIME: BORROW 500 FROM SHYLOCK\n"
                                 "WEEK 1: BAWDYHOUSE; GAMBLE 50 x3", state, "a", _TABLES)
    messages = [e.message for e in parsed.errors]
    assert not parsed.hard_errors
    assert any("100 x SL" in m for m in messages) and any("hold 10" in m for m in messages)


def test_a_demand_too_early_or_for_no_loan_is_warned_on_the_receipt() -> None:
    """EG §Q: "At any time after three months from the date of the loan".  Found by mail:
    Henri demanded repayment of May's loan in June; the receipt said nothing and the turn
    sheet only told him afterwards that he could not before August."""
    from moderator.games.engarde import ENGINE
    from tests.engarde.conftest import _TABLES
    order = "ANYTIME: DEMAND REPAYMENT FROM Porthos"
    state = make_state(make_char("athos"), make_char("porthos"), turn=2,
                       loans=[loan("athos", "porthos", 200, 1)])
    early = [e.message for e in ENGINE.parse_orders(order, state, "athos", _TABLES).errors]
    assert any("too early" in m and "wait 2 more months" in m for m in early), early
    on_time = dict(state, turn=4)
    assert not ENGINE.parse_orders(order, on_time, "athos", _TABLES).errors
    none = make_state(make_char("athos"), make_char("porthos"))
    nothing = [e.message for e in ENGINE.parse_orders(order, none, "athos", _TABLES).errors]
    assert any("owes you nothing" in m for m in nothing), nothing


def _killed_in_a_duel(porthos_crowns: int, loans: list[dict] | None = None,
                     ) -> tuple[TurnResult, dict[str, str]]:
    """Porthos, who owes Athos 300 and a shylock 100 (unless ``loans`` says otherwise), is
    killed by Cyrano in week 1."""
    start = make_state(make_char("athos"), make_char("porthos", crowns=porthos_crowns,
                                                     endurance=3),
                       make_char("cyrano"), turn=2,
                       loans=loans if loans is not None else [
                           loan("athos", "porthos", 300, 1),
                           loan(None, "porthos", 100, 1, lid=2)])
    month1 = run_month(start, give_orders(start, cyrano="ANYTIME: CHALLENGE Porthos WEEK 1 "
                                                        "TO THE DEATH"))
    state = month1.state
    rolls = dice(duels=[6, 1, 6])  # Cyrano's first pass wounds Porthos for 6 + 1: dead
    orders = give_orders(state, athos="WEEK 4: REST", porthos="WEEK 4: REST",
                         cyrano="WEEK 4: REST")
    result = run_month(state, orders, rolls)
    assert_event(result, "duel.killed", "porthos")
    return result, render(state, result, rolls, 3)


def test_a_dead_man_s_estate_pays_his_debts_oldest_first() -> None:
    """EG §Q says nothing of a debtor's death (PROPOSED, docs/rules-coverage.md §Q): what
    he leaves pays his debts, oldest first.  Found by audit: a dead debtor's loan stayed on
    the lender's sheet as owed, for ever, and a shylock's could still "default"."""
    result, pages = _killed_in_a_duel(1000)
    assert assert_event(result, "loan.estate", "athos", paid=300, left=0).crowns == 300
    paid = assert_event(result, "loan.estate_paid", "porthos", lender=None)
    assert paid.args["paid"] == 100 and result.state["loans"] == []
    assert sum(e.crowns for e in result.events if e.id == "loan.estate_paid") == -400
    assert "- Debts: none" in pages["athos"] and "- Debts: none" in pages["porthos"]
    assert "Porthos died owing you 300 crowns: his estate has repaid it all." in pages["athos"]


def test_what_a_dead_man_cannot_pay_dies_with_him() -> None:
    """PROPOSED (EG §Q silent): the rest of a dead man's debts is written off, and neither a
    collection nor a default is ever reckoned against the dead."""
    result, pages = _killed_in_a_duel(0)
    estate = assert_event(result, "loan.estate", "athos", paid=0, left=300)
    assert estate.crowns == 0
    no_event(result, "loan.defaulted", "porthos")
    assert result.state["loans"] == []
    assert "- Debts: none" in pages["athos"]
    assert "Porthos died owing you 300 crowns: he left nothing to pay it, and the debt " \
        "dies with him." in pages["athos"]
    assert "Your debt of 100 crowns to the shylock: you left nothing to pay it, and it " \
        "dies with you." in pages["porthos"]


def test_a_debt_of_a_man_dead_before_this_rule_is_settled_at_the_month_s_end() -> None:
    """PROPOSED (EG §Q silent): a game saved while a dead man's debt was still on the books
    settles it at the next month's end, and never reckons a default against him."""
    state = make_state(make_char("athos"), make_char("porthos", crowns=50, dead=True),
                       turn=8, loans=[loan("athos", "porthos", 200, 1, demanded=6)])
    result = run_month(state, give_orders(state, athos="WEEK 4: REST"))
    assert assert_event(result, "loan.estate", "athos", paid=50, left=150).crowns == 50
    no_event(result, "loan.defaulted")
    assert result.state["loans"] == []


def test_a_debt_owed_to_a_dead_man_dies_with_him() -> None:
    """PROPOSED (EG §Q silent; docs/rules-coverage.md §Q): a dead lender leaves nobody in
    the game to collect, so what he is owed is written off at his death, as a dead
    borrower's unpaid rest is; the borrower keeps the money, no demand or default follows,
    and his sheet says so.  Found by the play audit: a debt to a dead man stayed on the
    borrower's sheet for ever (and could still be collected or defaulted)."""
    result, pages = _killed_in_a_duel(0, [loan("porthos", "athos", 300, 1, demanded=2)])
    off = assert_event(result, "loan.written_off", "athos", lender="porthos", amount=300)
    assert off.crowns == 0
    assert_event(result, "loan.written_off", "porthos", borrower="athos")
    no_event(result, "loan.defaulted")
    no_event(result, "loan.collected")
    assert result.state["loans"] == []
    assert "- Debts: none" in pages["athos"]
    assert "Porthos is dead: your debt of 300 crowns to him dies with him, with nobody " \
        "left to collect it." in pages["athos"]
    assert "Athos's debt of 300 crowns to you dies with you." in pages["porthos"]
