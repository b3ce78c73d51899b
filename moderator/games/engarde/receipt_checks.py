"""Receipt checks of the orders that depend on a character's society and standing:
mistresses (EG §L), loans (EG §Q), influence (EG §S), the army, duels and offices
(reference §4-8, EG §R).  Mostly warnings the receipt prints; `checks.check_set` calls
them beside its own checks of money, clubs and the calendar.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moderator.games.engarde.orders import (
    AnswerChallenge,
    Apply,
    Borrow,
    Bribe,
    CombineFavours,
    Conditional,
    Court,
    Demand,
    DuelOrders,
    Duty,
    JoinRegiment,
    Lend,
    Liaise,
    Marry,
    Order,
    PregnancyAnswer,
    Propose,
    RequestWarrant,
    Testify,
    UseFavour,
    VisitMistress,
)
from moderator.games.engarde.orders import Challenge as ChallengeOrder
from moderator.games.engarde.parser import IllegalOrderError, OrderWarning, ParseProblem
from moderator.games.engarde.state import Character, GameState
from moderator.games.engarde.tables import Tables


@dataclass
class SocietyChecks:
    """Receipt checks for mistresses (EG §L), loans (EG §Q) and influence (EG §S)."""

    c: Character
    state: GameState
    tables: Tables
    ladies: Mapping[str, Mapping[str, Any]]
    mode: str

    def _lady_sl(self, key: str) -> int | None:
        lady = self.ladies.get(key)
        return int(lady["sl"]) if lady else None

    def _too_high(self, key: str, what: str) -> list[ParseProblem]:
        sl = self._lady_sl(key)
        if sl is not None and sl - self.c.sl > 6:
            return [OrderWarning(f"she is SL {sl}, more than 6 above you: {what} will "
                                 "certainly fail (EG §L)")]
        return []

    def week(self, order: Order) -> list[ParseProblem]:
        if isinstance(order, Conditional):
            found = self.week(order.then)
            return found + (self.week(order.otherwise) if order.otherwise else [])
        if isinstance(order, Court):
            if self.c.wife:
                return [IllegalOrderError("husbands may not court other women openly (EG §L)",
                                          "a married man may still LIAISE at a weekend")]
            if order.lady == self.c.mistress:
                return [IllegalOrderError("she is already your mistress")]
            return self._too_high(order.lady, "courting")
        if isinstance(order, VisitMistress) and not (self.c.mistress or self.c.wife):
            return [OrderWarning("you have no mistress to visit (yet)")]
        if isinstance(order, Duty) and not self.c.regiment and self.mode == "month":
            return [OrderWarning("you are in no regiment: REGIMENTAL DUTY will not be carried "
                                 "out unless a JOIN REGIMENT this month admits you "
                                 "(reference §4.5)")]
        return []

    def weekend(self, order: Order) -> list[ParseProblem]:
        if isinstance(order, Liaise):
            if order.lady in (self.c.mistress, self.c.wife):
                return [IllegalOrderError("a liaison is with another man's lady (EG §L)")]
            return self._too_high(order.lady, "a liaison")
        if isinstance(order, Propose | Marry) and not self.c.mistress:
            return [OrderWarning("you have no mistress (yet) to propose to or marry")]
        if isinstance(order, Propose) and self.mode == "month":
            return self._too_soon()
        return []

    def _too_soon(self) -> list[ParseProblem]:
        """EG §L: "Proposals may be made as soon as the couple have been 'going steady' for
        at least six months" (found by mail: the receipt was silent, the turn refused)."""
        since = self.ladies.get(str(self.c.mistress), {}).get("since")
        steady = int(self.tables.society.m("proposal", "steady_months"))
        if since is None or self.state.turn - int(since) >= steady:
            return []
        return [OrderWarning(f"you have been together {self.state.turn - int(since)} months: "
                             f"a proposal needs {steady} (EG §L), so it will be refused")]

    def army(self, order: Order) -> list[ParseProblem]:
        """Receipt warnings for the army, duels and offices (reference §4-8, EG §R)."""
        army, c = self.tables.army, self.c
        if isinstance(order, JoinRegiment):
            reg = army.regiment(order.regiment)
            if army.table_a(c.sl, reg.key) is None:
                return [OrderWarning(f"the {reg.name} takes no one below SL {reg.first_sl}: "
                                     "the application will fail (reference §4.3)")]
            if c.sl < army.cell(order.rank, reg.key, "min_sl"):
                return [OrderWarning(f"{army.rank_name(order.rank)} in the {reg.name} needs SL "
                                     f"{army.cell(order.rank, reg.key, 'min_sl')}")]
        if isinstance(order, ChallengeOrder):
            if order.target == c.key:
                return [IllegalOrderError("you cannot challenge yourself")]
            known = any(m.kind == "duel_cause" and m.parties == (c.key, order.target)
                        for m in self.state.matters)
            if not known:
                return [OrderWarning("no automatic cause is on record: unless he is of an "
                                     "enemy regiment, the GM judges the cause, and a challenge "
                                     "without cause costs 2 SP (reference §6)")]
        if isinstance(order, AnswerChallenge):
            return self._answer(order)
        if isinstance(order, DuelOrders) and order.weapon:
            regimental = army.regiment(c.regiment).weapon if c.regiment else None
            if order.weapon != regimental and not c.practice_weeks.get(order.weapon) \
                    and c.expertise.get(order.weapon, 0) < max(c.expertise.values(), default=0):
                return [OrderWarning(f"you have never practised the {order.weapon}: your "
                                     f"expertise with it is {c.expertise.get(order.weapon, 0)}")]
        if isinstance(order, Apply) and c.disgraced:
            return [OrderWarning("a disgraced man is refused every post (reference §9)")]
        if isinstance(order, RequestWarrant) and not c.title:
            return [OrderWarning("only a titled noble may ask the King for a warrant (EG §R)")]
        if isinstance(order, Testify) and self.mode == "month" and not any(
                ch.accused == order.accused for ch in self.state.charges):
            return [OrderWarning("no charge against him is on record: a witness testifies at "
                                 "the trial, in the month after the gazette publishes the "
                                 "charge (EG §R); this testimony will count for nothing")]
        return []

    def _answer(self, order: AnswerChallenge) -> list[ParseProblem]:
        """Reference §6: a challenge is answered in the month after it is published.  An
        answer to a challenge not yet on record (one sent this very month) does nothing, and
        the player must be told so rather than find it silently dropped."""
        if self.mode != "month" or any(
                ch.challenger == order.challenger and ch.challenged == self.c.key
                for ch in self.state.challenges):
            return []
        return [OrderWarning("no challenge from him to you is on record: a challenge is "
                             "answered in your orders for the month after it appears in the "
                             "gazette (reference §6)")]

    def _demand(self, order: Demand) -> list[ParseProblem]:
        """EG §Q: a lender may demand repayment "at any time after three months from the date
        of the loan"; earlier, the demand is refused at the turn (found by mail: the receipt
        said nothing and the sheet said 'You may not demand repayment ... before August')."""
        after = int(self.tables.society.loans["demand_after_months"])
        loans = [loan for loan in self.state.loans if loan.lender == self.c.key
                 and loan.borrower == order.borrower and loan.demanded is None]
        if not loans:
            return [OrderWarning("he owes you nothing that is not already demanded (EG §Q)")]
        wait = min(loan.taken for loan in loans) + after - self.state.turn
        if wait > 0:
            return [OrderWarning(f"too early: a loan may be demanded {after} months after it "
                                 f"was made; wait {wait} more month{'s' if wait > 1 else ''} "
                                 "(EG §Q)")]
        return []

    def _no_news(self, order: PregnancyAnswer) -> list[ParseProblem]:
        """EG §L: only the father told of her child answers, once (found by mail: an answer
        with no news was accepted silently, then skipped at the turn)."""
        lady = self.ladies.get(order.lady, {})
        if lady.get("pregnant_by") == self.c.key and not lady.get("answered"):
            return []
        return [OrderWarning(f"{lady.get('name', 'she')} has sent you no news of a child: "
                             "there is nothing to answer, and the answer will not be carried "
                             "out (EG §L)")]

    def general(self, order: Order) -> list[ParseProblem]:
        s = self.tables.society
        found: list[ParseProblem] = self.army(order)
        if isinstance(order, Borrow) and order.lender is None:
            owed = sum(loan.amount for loan in self.state.loans
                       if loan.borrower == self.c.key and loan.shylock)
            limit = s.loans["shylock_limit_per_sl"] * self.c.sl - owed
            if order.amount > limit:
                found.append(OrderWarning(f"a shylock lends at most 100 x SL in all: "
                                          f"{max(0, limit)} more for you (EG §Q)"))
        elif (isinstance(order, Borrow) and order.lender == self.c.key) or \
                (isinstance(order, Lend) and order.to == self.c.key):
            found.append(IllegalOrderError("you cannot lend to yourself"))
        elif isinstance(order, Demand) and self.mode == "month":
            found += self._demand(order)
        elif isinstance(order, PregnancyAnswer) and self.mode == "month":
            found += self._no_news(order)
        elif isinstance(order, Lend) and order.amount > self.c.crowns and self.mode == "month":
            found.append(OrderWarning(f"you hold {self.c.crowns} crowns"))
        elif isinstance(order, Bribe) and s.bribes[order.cls] > self.c.crowns \
                and self.mode == "month":
            found.append(OrderWarning(f"a class {order.cls} bribe costs "
                                      f"{s.bribes[order.cls]} crowns; you hold {self.c.crowns}"))
        elif isinstance(order, UseFavour | CombineFavours):
            held = sum(1 for f in self.c.favours if f.cls == order.cls)
            if held < (2 if isinstance(order, CombineFavours) else 1):
                found.append(OrderWarning(f"you hold {held} class {order.cls} favour(s) now "
                                          "(more may arrive at the month's start)"))
            if isinstance(order, UseFavour):
                found += self._too_weak(order)
        return found

    def _too_weak(self, order: UseFavour) -> list[ParseProblem]:
        """EG §S, Influence table A: a favour below the class the decider needs moves nothing,
        yet is spent.  Royal attendance (a party, the first night) is decided at the Crown
        Prince's level (class 8); found by mail: Henri spent a class 3 on his party."""
        if order.decision not in ("party", "first_night"):
            return []
        position = self.tables.society.position(
            self.tables.society.influence["royal_position"])
        if order.cls >= position.cls:
            return []
        return [OrderWarning(f"royal attendance is decided at the {position.name}'s level: a "
                             f"favour below class {position.cls} moves nothing and is spent "
                             "for nothing (EG §S)")]
