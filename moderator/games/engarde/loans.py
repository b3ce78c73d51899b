"""Loans (EG §Q): between characters (no interest) and from shylocks (10 %).

* ``LEND n TO X`` and X's ``BORROW n FROM <lender>`` take effect only when both
  are given the same month for the same amount (EG §P: "the deal will only go
  through if both players specify the same price/terms").
* From three months after the loan the lender may ``DEMAND REPAYMENT FROM X``;
  the demand is published.  At the end of the following month the debt is
  collected if the borrower holds the money; otherwise he is disgraced and sent
  to the front (``Character.sent_away = "front"``: front.py sends him with a
  frontier regiment, or his own if it is deployed, and he fights there).  Each
  month the debt is collected as soon as he can pay; then he comes back and the
  debt's disgrace ends.
* A shylock lends up to 100 x current SL in all (more after a rise), repaid with
  10 % at the end of six months (repaying earlier costs no interest: a reading).
  Unable to pay, the debtor flees to a frontier regiment (``sent_away =
  "frontier"``) until he can; with ``STAY IN PARIS`` he stays and is reported for
  arrest instead (an ``arrest`` matter for the trials engine, EG §Q/§R).
* A dead man's debts (EG §Q is silent; PROPOSED): what he leaves pays them at his
  death, oldest first (a shylock's with the interest then due); the rest dies with him.
  His lenders are told, and nothing is ever collected from him or defaulted after.
* A dead lender (EG §Q is silent; PROPOSED): nobody in the game is left to collect for
  him (the rules know no heirs), so what he is owed is written off at his death, as the
  unpaid rest of a dead borrower's debts is; the borrower keeps the money, any demand
  lapses, and both are told (the borrower's sheet says it).
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.engarde.events import EventId
from moderator.games.engarde.honour import disgrace, end_disgrace, report_crime
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Borrow, Demand, Lend, Repay
from moderator.games.engarde.state import Loan


def new_loan(m: Month, lender: str | None, borrower: str, amount: int) -> Loan:
    m.loan_serial += 1
    loan = Loan(m.loan_serial, lender, borrower, amount, m.turn)
    m.loans.append(loan)
    return loan


def shylock_owed(m: Month, key: str) -> int:
    return sum(loan.amount for loan in m.loans if loan.borrower == key and loan.shylock)


def shylock_limit(m: Month, a: Actor) -> int:
    return m.tables.society.loans["shylock_limit_per_sl"] * a.sl - shylock_owed(m, a.key)


def due(m: Month, loan: Loan) -> int:
    """What repays this loan now: a shylock adds 10 % once six months are up."""
    if loan.shylock and m.turn >= loan.taken + m.tables.society.loans["shylock_months"]:
        return loan.amount * (100 + m.tables.society.loans["shylock_interest_pct"]) // 100
    return loan.amount


def borrow_from_shylock(m: Month, a: Actor, order: Borrow) -> None:
    limit = shylock_limit(m, a)
    if order.amount > limit:
        m.emit(a.key, EventId.LOAN_REFUSED, {"amount": order.amount, "limit": max(0, limit),
                                             "lender": None, "reason": "limit"})
        return
    new_loan(m, None, a.key, order.amount)
    due = m.turn + m.tables.society.loans["shylock_months"]
    m.emit(a.key, EventId.LOAN_BORROWED, {"amount": order.amount, "lender": None,
                                          "due": due, "due_month": m.date(due)},
           crowns=order.amount)


def match(m: Month) -> None:
    """Player loans: LEND and BORROW must agree on lender, borrower and amount."""
    lends: dict[tuple[str, str, int], int] = {}
    borrows: dict[tuple[str, str, int], int] = {}
    for a in m:
        if a.indisposed:
            continue
        for order in a.orders.anytime:
            if isinstance(order, Lend):
                deal = (a.key, order.to, order.amount)
                lends[deal] = lends.get(deal, 0) + 1
            elif isinstance(order, Borrow) and order.lender is not None:
                deal = (order.lender, a.key, order.amount)
                borrows[deal] = borrows.get(deal, 0) + 1
    for deal in sorted(set(lends) | set(borrows)):
        lender, borrower, amount = deal
        matched = min(lends.get(deal, 0), borrows.get(deal, 0))
        for _ in range(matched):
            _lend(m, lender, borrower, amount)
        if lends.get(deal, 0) != borrows.get(deal, 0):
            args = {"lender": lender, "borrower": borrower, "amount": amount}
            for key in (lender, borrower):
                if key in m.actors:
                    m.emit(key, EventId.LOAN_UNMATCHED, args)


def _lend(m: Month, lender: str, borrower: str, amount: int) -> None:
    if lender not in m.actors or borrower not in m.actors:
        return
    if m.actors[lender].crowns < amount:
        m.emit(lender, EventId.LOAN_REFUSED, {"amount": amount, "lender": lender,
                                              "reason": "funds", "limit": 0})
        return
    new_loan(m, lender, borrower, amount)
    m.emit(lender, EventId.LOAN_LENT, {"amount": amount, "borrower": borrower},
           crowns=-amount)
    m.emit(borrower, EventId.LOAN_BORROWED, {"amount": amount, "lender": lender,
                                             "due": None}, crowns=amount)


def repay(m: Month, a: Actor, order: Repay) -> None:
    """Repay loans to this lender, oldest first (0 = all that is owed)."""
    mine = [loan for loan in m.loans if loan.borrower == a.key and loan.lender == order.lender]
    if not mine:
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "REPAY", "reason": "no_loan"})
        return
    budget = order.amount or sum(due(m, loan) for loan in mine)
    for loan in mine:
        if budget <= 0:
            break
        _pay(m, loan, min(budget, due(m, loan), a.crowns))
        budget -= min(budget, due(m, loan))
    _come_home(m, a)


def _pay(m: Month, loan: Loan, amount: int, event: EventId = EventId.LOAN_REPAID) -> None:
    """Pay ``amount`` off ``loan``; a shylock's interest is taken first."""
    if amount <= 0:
        return
    owed = due(m, loan)
    principal = amount * loan.amount // owed if owed != loan.amount else amount
    if amount >= owed:
        principal = loan.amount
    index = m.loans.index(loan)
    if principal >= loan.amount:
        m.loans.pop(index)
    else:
        m.loans[index] = replace(loan, amount=loan.amount - principal)
    args = {"amount": amount, "lender": loan.lender, "borrower": loan.borrower,
            "left": max(0, loan.amount - principal)}
    m.emit(loan.borrower, event, args, crowns=-amount)
    if loan.lender and loan.lender in m.actors:
        m.emit(loan.lender, EventId.LOAN_RECEIVED, args, crowns=amount)


def demand(m: Month, a: Actor, order: Demand) -> None:
    """EG §Q: three months after the loan, the lender may demand it back, in public."""
    after = m.tables.society.loans["demand_after_months"]
    for i, loan in enumerate(m.loans):
        if loan.lender == a.key and loan.borrower == order.borrower and loan.demanded is None:
            if m.turn < loan.taken + after:
                m.emit(a.key, EventId.LOAN_TOO_EARLY, {
                    "borrower": order.borrower, "from_turn": loan.taken + after,
                    "from_month": m.date(loan.taken + after)})
                return
            m.loans[i] = replace(loan, demanded=m.turn)
            m.emit(a.key, EventId.LOAN_DEMANDED, {"borrower": order.borrower,
                                                  "amount": loan.amount}, public=True)
            return
    m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "DEMAND REPAYMENT", "reason": "no_loan"})


def reckon(m: Month) -> None:
    """Demanded and due debts at the month's end: collected, or the debtor defaults."""
    months = m.tables.society.loans["shylock_months"]
    for key in sorted(m.actors):  # a game saved before debts were settled at death
        if m.actors[key].c.dead:
            settle_estate(m, m.actors[key])
    for loan in list(m.loans):
        a = m.actors.get(loan.borrower)
        if a is None:
            continue
        if loan.shylock:
            if m.turn < loan.taken + months:
                continue
        elif loan.demanded is None or m.turn < loan.demanded + 1:
            continue
        if a.crowns >= due(m, loan):
            _pay(m, loan, due(m, loan), EventId.LOAN_COLLECTED)
            continue
        _default(m, a, loan)
    for a in m:
        _come_home(m, a)


def settle_estate(m: Month, a: Actor) -> None:
    """A man dies (PROPOSED, see the module's doc): his crowns pay each debt of his in
    turn, oldest first, the rest is written off, and so is every debt owed to him.  The
    loan leaves the books either way, so no sheet lists it as owed and `reckon` never
    collects from or for the dead."""
    for loan in [loan for loan in m.loans if loan.lender == a.key]:
        m.loans.remove(loan)
        args = {"lender": a.key, "borrower": loan.borrower, "amount": loan.amount}
        m.emit(a.key, EventId.LOAN_WRITTEN_OFF, args)
        if loan.borrower in m.actors:
            m.emit(loan.borrower, EventId.LOAN_WRITTEN_OFF, args)
    for loan in [loan for loan in m.loans if loan.borrower == a.key]:
        owed = due(m, loan)
        paid = min(owed, max(0, a.crowns))
        m.loans.remove(loan)
        args = {"lender": loan.lender, "borrower": a.key, "amount": owed, "paid": paid,
                "left": owed - paid}
        m.emit(a.key, EventId.LOAN_ESTATE_PAID, args, crowns=-paid)
        if loan.lender and loan.lender in m.actors:
            m.emit(loan.lender, EventId.LOAN_ESTATE, args, crowns=paid)


def _default(m: Month, a: Actor, loan: Loan) -> None:
    reported = any(mt.kind == "arrest" and mt.parties == (a.key,) for mt in m.matters)
    if a.c.sent_away or (loan.shylock and a.c.stays_in_paris and reported):
        return  # already paying for it
    args = {"lender": loan.lender, "amount": due(m, loan)}
    if loan.shylock and a.c.stays_in_paris:
        m.emit(a.key, EventId.LOAN_DEFAULTED, {**args, "away": None}, public=True)
        report_crime(m, a.key, "debt", kind="arrest", amount=due(m, loan))
        return
    away = "frontier" if loan.shylock else "front"
    a.update(sent_away=away)
    m.emit(a.key, EventId.LOAN_DEFAULTED, {**args, "away": away}, public=True)
    if not loan.shylock:
        accuser = loan.lender if loan.lender in m.actors else None
        disgrace(m, a, "debt", accuser=accuser, lender=loan.lender)


def _in_default(m: Month, a: Actor) -> bool:
    months = m.tables.society.loans["shylock_months"]
    return any(loan.borrower == a.key and (
        (loan.shylock and m.turn >= loan.taken + months)
        or (not loan.shylock and loan.demanded is not None and m.turn > loan.demanded))
        for loan in m.loans)


def _come_home(m: Month, a: Actor) -> None:
    if (a.c.sent_away or a.c.disgraced == "debt") and not _in_default(m, a):
        if a.c.sent_away:
            a.update(sent_away=None)
            m.emit(a.key, EventId.LOAN_CLEARED, {}, public=True)
        end_disgrace(m, a, "debt")
