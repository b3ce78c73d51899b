"""Legality of parsed orders against the character and the tables.

Errors drop the order (it is not in the normal form); warnings keep it.  The
rules checked are cited per check; adjudication re-checks whatever can change
during the month (money, membership), so these are a courtesy to the player.
The checks that depend on his society and standing are in `receipt_checks`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.games.engarde.orders import (
    Apply,
    AttendParty,
    Bawdyhouse,
    Buy,
    ClubVisit,
    Conditional,
    HostParty,
    HouseOrder,
    JoinClub,
    Move,
    Order,
    Practice,
    Rent,
    ResignClub,
    ResignPosition,
    Sell,
    Theatre,
)
from moderator.games.engarde.orderset import OrderSet
from moderator.games.engarde.parser import IllegalOrderError, OrderWarning, ParseProblem
from moderator.games.engarde.receipt_checks import SocietyChecks
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


def _second_posts(orders: OrderSet, c: Character,
                  tables: Tables) -> dict[int, list[ParseProblem]]:
    """Reference §7 (PROPOSED, `offices.py`): one post at a time.  APPLY FOR while he holds
    a post is refused at the turn unless a RESIGN POSITION in the same orders frees it: the
    month's applications are decided after every anytime order, so that line may come
    before or after.  The receipt says so at the APPLY FOR line (a disgraced man is told
    why he gets no post at all by `SocietyChecks.army`)."""
    if not c.appointment or c.disgraced or any(isinstance(o, ResignPosition)
                                                for o in orders.anytime):
        return {}
    held = tables.army.appointment(c.appointment).name
    found: dict[int, list[ParseProblem]] = {}
    for i, order in enumerate(orders.anytime):
        if isinstance(order, Apply):
            same = tables.army.appointment(order.position).name == held
            found[i] = [OrderWarning(
                f"you are already {held}" + ("" if same else " and may hold only one post at a "
                                             "time") + ": this application will be refused "
                "(reference §7)",
                None if same else "to give up your post for this one, add the line "
                "ANYTIME: RESIGN POSITION")]
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
    for i, found in _second_posts(orders, character, tables).items():
        switches.setdefault(i, []).extend(found)
    anytime = tuple(o for i, o in enumerate(orders.anytime)
                    if keep(f"ANYTIME {i}", o, _general(o, character, tables)
                            + society.general(o) + switches.get(i, [])))
    weekends = {n: o for n, o in orders.weekends.items()
                if keep(f"WEEKEND {n}", o, _weekend(n, o, orders, character, state, tables, mode)
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
             tables: Tables, mode: str) -> list[ParseProblem]:
    found: list[ParseProblem] = []
    first = tables.theatre["first_night_weekend"]
    # EG §O: in a long run "there will be no first night that month": weekend 1 is then an
    # ordinary evening (this month only: a standing order would meet a first night later).
    no_first_night = state.theatre.long_run and mode == "month"
    if isinstance(order, Theatre) and order.first_night and n != first:
        found.append(IllegalOrderError(f"the first night is on weekend {first} (EG §O)"))
    elif isinstance(order, Theatre) and not order.first_night and n == first and (
            not no_first_night):
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
