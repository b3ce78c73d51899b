"""Legality of parsed orders against the character and the tables.

Errors drop the order (it is not in the normal form); warnings keep it.  The
rules checked are cited per check; adjudication re-checks whatever can change
during the month (money, membership), so these are a courtesy to the player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moderator.games.engarde.orders import (
    AnswerChallenge,
    Apply,
    AttendParty,
    Bawdyhouse,
    Borrow,
    Bribe,
    Buy,
    ClubVisit,
    CombineFavours,
    Conditional,
    Court,
    Demand,
    DuelOrders,
    HostParty,
    HouseOrder,
    JoinClub,
    JoinRegiment,
    Lend,
    Liaise,
    Marry,
    Move,
    Order,
    Practice,
    Propose,
    Rent,
    RequestWarrant,
    ResignClub,
    Sell,
    Theatre,
    UseFavour,
    VisitMistress,
)
from moderator.games.engarde.orders import Challenge as ChallengeOrder
from moderator.games.engarde.orderset import OrderSet
from moderator.games.engarde.parser import IllegalOrderError, OrderWarning, ParseProblem
from moderator.games.engarde.state import Character, GameState, Tenure
from moderator.games.engarde.tables import Tables

Problems = list[tuple[int, ParseProblem]]


def owns(character: Character, house: str, area: str) -> bool:
    """Does he own (home or property) a dwelling of this type in this area? (EG §P)"""
    home = character.home
    if home and home.tenure is not Tenure.RENTED and (home.kind, home.area) == (house, area):
        return True
    return any((p.kind, p.area) == (house, area) for p in character.properties)


def monthly_cost(tables: Tables, house: str, area: str) -> int:
    """Cost/Mo of a housing type raised by the area's cost multiplier (EG §P)."""
    base = tables.housing_type(house).cost
    return base * (100 + tables.area(area).cost_pct) // 100


def house_problem(character: Character, tables: Tables, order: HouseOrder) -> str | None:
    """Why this character may not live in this dwelling, if he may not (EG §P)."""
    area, kind = tables.area(order.area), tables.housing_type(order.house)
    if area.nobles_only and not character.noble:
        return f"{area.name} is for nobles only"
    if character.sl < area.min_sl:
        return f"{area.name} needs SL {area.min_sl}; you are SL {character.sl}"
    if not area.min_rank <= kind.rank <= area.max_rank:
        return f"there is no {kind.name} to be had in {area.name}"
    return None


def joining(orders: OrderSet, character: Character) -> str | None:
    """The club he will belong to after this month's anytime orders."""
    club = character.club
    for order in orders.anytime:
        if isinstance(order, JoinClub):
            club = order.club
        elif isinstance(order, ResignClub):
            club = None
    return club


def _club_switches(orders: OrderSet, c: Character,
                   tables: Tables) -> dict[int, list[ParseProblem]]:
    """EG §G: one club at a time.  JOIN CLUB while still a member of another (no RESIGN CLUB
    before it) is refused at the turn; the receipt says so at the JOIN CLUB line."""
    found: dict[int, list[ParseProblem]] = {}
    club = c.club
    for i, order in enumerate(orders.anytime):
        if isinstance(order, JoinClub):
            if club and club != order.club:
                found[i] = [OrderWarning(f"you belong to {tables.club(club).name}: write "
                                         "ANYTIME: RESIGN CLUB before this line, or you will "
                                         "be refused (one club at a time, EG §G)")]
            club = order.club
        elif isinstance(order, ResignClub):
            club = None
    return found


def check_set(orders: OrderSet, lines: dict[str, int], state: GameState, key: str,
              tables: Tables, mode: str,
              ladies: Mapping[str, Mapping[str, Any]] | None = None,
              ) -> tuple[OrderSet, Problems]:
    """Check every order; return the set without the illegal ones, and the problems.

    ``ladies`` are the state's raw lady dicts (for her SL in courting warnings).
    """
    character = state.characters.get(key)
    if character is None:
        return orders, []
    society = SocietyChecks(character, state, tables, ladies or {}, mode)
    problems: Problems = []
    club = joining(orders, character)

    def keep(slot: str, order: Order, checks: list[ParseProblem]) -> bool:
        line = lines.get(slot, 0)
        problems.extend((line, p) for p in checks)
        return not any(not isinstance(p, OrderWarning) for p in checks)

    switches = _club_switches(orders, character, tables)
    anytime = tuple(o for i, o in enumerate(orders.anytime)
                    if keep(f"ANYTIME {i}", o, _general(o, character, tables)
                            + society.general(o) + switches.get(i, [])))
    weekends = {n: o for n, o in orders.weekends.items()
                if keep(f"WEEKEND {n}", o, _weekend(n, o, orders, character, state, tables)
                        + society.weekend(o))}
    weeks = {}
    away = _away_at_the_front(character, state, mode)
    for n, order in orders.weeks.items():
        order = _default_club(order, club)
        if keep(f"WEEK {n}", order, _week(n, order, orders, character, club, tables, mode)
                + society.week(order) + away):
            weeks[n] = order
    return OrderSet(orders.premonth, anytime, weekends, weeks), problems


def _away_at_the_front(c: Character, state: GameState, mode: str) -> list[ParseProblem]:
    """EG §D: no weeklong actions on campaign.  A man at the front who is not due home
    before this month is told that his week orders will not be carried out."""
    if mode != "month" or not c.at_front or (
            c.front_until is not None and c.front_until < state.turn):
        return []
    return [OrderWarning("you are at the front this month: no week actions are carried out "
                         "there, only your first two weekend orders and anytime orders (EG §D)")]


def _default_club(order: Order, club: str | None) -> Order:
    """A bare ``CLUB`` means his own club (the one he will belong to this month)."""
    if isinstance(order, ClubVisit) and not order.club and club:
        return ClubVisit(club, order.guest_of, order.bring, order.toady, order.carouse,
                         order.gamble, order.with_mistress)
    if isinstance(order, Conditional):
        otherwise = _default_club(order.otherwise, club) if order.otherwise else None
        return Conditional(order.week, order.outcome, _default_club(order.then, club), otherwise)
    return order


def _general(order: Order, c: Character, tables: Tables) -> list[ParseProblem]:
    found: list[ParseProblem] = []
    if isinstance(order, JoinClub):
        club = tables.club(order.club)
        if club.requires and not (c.regiment and c.rank not in (None, "private") and
                                  tables.army.regiment(c.regiment).brigade == "horse_guards"):
            found.append(OrderWarning(f"{club.name} takes only officers of the Horse Guards "
                                      "Brigade (Dragoon Guards, Queen's Own Carabiniers)"))
        elif c.sl < club.min_sl:
            found.append(OrderWarning(f"{club.name} needs SL {club.min_sl}; you are SL {c.sl}"))
    elif isinstance(order, HouseOrder) and not owns(c, order.house, order.area):
        found.append(IllegalOrderError("you do not own that dwelling (EG §P)"))
    elif isinstance(order, Sell) and c.home and c.home.tenure is Tenure.FAMILY and (
            c.home.kind, c.home.area) == (order.house, order.area):
        found.append(IllegalOrderError("a family home may never be sold (EG §P)"))
    return found


def _weekend(n: int, order: Order, orders: OrderSet, c: Character, state: GameState,
             tables: Tables) -> list[ParseProblem]:
    found: list[ParseProblem] = []
    first = tables.theatre["first_night_weekend"]
    if isinstance(order, Theatre) and order.first_night and n != first:
        found.append(IllegalOrderError(f"the first night is on weekend {first} (EG §O)"))
    elif isinstance(order, Theatre) and not order.first_night and n == first:
        found.append(IllegalOrderError(
            f"weekend {first} is the first night (EG §O)",
            f"write WEEKEND {first}: THEATRE FIRST NIGHT, or go on a later weekend"))
    elif isinstance(order, Theatre) and order.first_night and state.theatre.long_run:
        found.append(OrderWarning("no first night this month: the play is in a long run"))
    elif isinstance(order, Rent | Buy):
        if why := house_problem(c, tables, order):
            found.append(IllegalOrderError(why + " (EG §P)"))
        free = tables.housing["free_move_max_rank"]
        home_rank = tables.housing_type(c.home.kind).rank if c.home else 0
        if home_rank > free and not any(isinstance(o, Move) for o in orders.weeks.values()):
            found.append(IllegalOrderError(
                "moving out of a house takes a week and 50 crowns (EG §P)",
                "add WEEK n: MOVE for the week you spend moving"))
        if isinstance(order, Buy):
            price = monthly_cost(tables, order.house, order.area) * tables.housing["buy_months"]
            if price > c.crowns:
                found.append(OrderWarning(f"it costs {price} crowns; you hold {c.crowns}"))
    return found


def _week(n: int, order: Order, orders: OrderSet, c: Character, club: str | None,
          tables: Tables, mode: str) -> list[ParseProblem]:
    if isinstance(order, Conditional):
        found = _week(n, order.then, orders, c, club, tables, mode)
        if order.otherwise:
            found += _week(n, order.otherwise, orders, c, club, tables, mode)
        if order.week >= n:
            found.append(IllegalOrderError("a week can only depend on an earlier week (EG §D)"))
        return found
    found = []
    if isinstance(order, ClubVisit | Bawdyhouse | AttendParty) and order.toady == c.key:
        found.append(IllegalOrderError("you cannot toady to yourself"))
    if isinstance(order, ClubVisit):
        found += _club_visit(order, c, club, tables)
    elif isinstance(order, AttendParty):
        if order.host == c.key:
            found.append(IllegalOrderError("to hold a party write HOST PARTY AT CLUB|HOME"))
        if order.toady == order.host:
            found.append(IllegalOrderError("party guests may not toady with the host (EG §J)"))
    elif isinstance(order, HostParty) and c.key in order.cohosts:
        found.append(IllegalOrderError("you cannot co-host with yourself (EG §J)"))
    elif isinstance(order, HostParty) and not order.at_home and not club:
        found.append(OrderWarning("you belong to no club: the party will not take place"))
    elif isinstance(order, HostParty) and order.at_home and not c.home:
        found.append(OrderWarning("you have no home to hold a party in"))
    elif isinstance(order, Practice):
        cost = c.expertise.get(order.weapon, 0) * tables.rule("practice", "cost_per_exp")
        if cost > c.crowns and mode == "month":
            found.append(OrderWarning(f"practice costs {cost} crowns; you hold {c.crowns}"))
    elif isinstance(order, Move) and not any(isinstance(o, Rent | Buy)
                                             for o in orders.weekends.values()):
        found.append(IllegalOrderError("nothing to move into",
                                       "RENT or BUY a dwelling on a weekend this month"))
    gamble = getattr(order, "gamble", None)
    if gamble and gamble.stake * gamble.wagers > c.crowns and mode == "month":
        found.append(OrderWarning(
            f"{gamble.wagers} wagers of {gamble.stake} could cost {gamble.stake * gamble.wagers}"
            f" crowns; you hold {c.crowns}"))
    return found


def _club_visit(order: ClubVisit, c: Character, club: str | None,
                tables: Tables) -> list[ParseProblem]:
    found: list[ParseProblem] = []
    if not order.club:
        return [IllegalOrderError("which club?", "you belong to none: name the club you visit")]
    info = tables.club(order.club)
    if order.guest_of == c.key or c.key in order.bring:
        found.append(IllegalOrderError("you cannot be your own guest"))
    if order.club != club and not order.guest_of:
        found.append(OrderWarning(f"you are not a member of {info.name}: you will be turned "
                                  "away unless you are someone's guest (GUEST OF <name>)"))
    if order.bring and order.club != club:
        found.append(IllegalOrderError("only a member may bring guests (EG §G)"))
    if order.gamble:
        if info.house_limit and order.gamble.stake > info.house_limit:
            found.append(IllegalOrderError(
                f"the house limit at {info.name} is {info.house_limit} a wager (EG §K)"))
        if order.gamble.stake < info.min_wager:
            found.append(IllegalOrderError(
                f"the minimum wager at {info.name} is {info.min_wager} (reference §3)"))
    return found


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
