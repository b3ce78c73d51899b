"""The working context of one month's adjudication.

`Month` holds a mutable `Actor` per character while the phases run; every
change to crowns or SP goes through `Month.emit`, so the events are the ledger
(the sum of a character's event ``sp``/``crowns`` equals his change in state).
At the end, `Month.characters` freezes the actors back into `Character` values.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from moderator.dice import Dice
from moderator.games.engarde.events import EnGardeEvent, EventId
from moderator.games.engarde.events import event as new_event
from moderator.games.engarde.orders import Conditional, Order, Outcome
from moderator.games.engarde.orderset import OrderSet
from moderator.games.engarde.state import (
    Challenge,
    Character,
    Charge,
    GameState,
    Lady,
    Loan,
    Matter,
    Theatre,
)
from moderator.games.engarde.tables import Tables


@dataclass
class Actor:
    """One character while the month is being resolved."""

    c: Character
    orders: OrderSet
    indisposed: bool = False
    crowns: int = 0
    sl: int = 0
    sp: int = 0
    sl_start: int = 0
    company: bool = False  # female companionship this month (EG §L)
    theatre_trip: bool = False  # the weekend-trip SP is earned once a month (EG §O)
    box: bool = False  # holds a theatre box this month
    box_seen: bool = False
    week_ok: dict[int, bool] = field(default_factory=dict)
    with_mistress: set[int] = field(default_factory=set)  # weeks spent with her (EG §L)
    guarding: set[int] = field(default_factory=set)  # weekends spent with her (EG §L)
    with_mistress_theatre: set[int] = field(default_factory=set)  # theatre weekends with her
    # Told of every change to his regiment, rank or death (`Month.posts` keeps its index).
    watch: Callable[[Actor, Character], None] | None = field(default=None, repr=False,
                                                              compare=False)

    @classmethod
    def start(cls, character: Character, orders: OrderSet, indisposed: bool) -> Actor:
        return cls(character, orders, indisposed, character.crowns, character.sl, 0,
                   character.sl)

    def set_turn(self, turn: int) -> Actor:
        self.turn = turn
        return self

    @property
    def key(self) -> str:
        return self.c.key

    def update(self, **changes: Any) -> None:
        """Change a non-ledger field of the character (club, home, expertise ...)."""
        old, self.c = self.c, replace(self.c, **changes)
        if self.watch is not None and _post(old) != _post(self.c):
            self.watch(self, old)

    turn: int = 0

    def absent(self) -> bool:
        """Dead, in prison, indisposed or at the front: no week actions (EG §D, §R)."""
        return (self.indisposed or self.c.dead or self.c.at_front
                or self.c.sent_away is not None or self.c.imprisoned(self.turn))

    def week_order(self, week: int) -> Order | None:
        """This week's order with any IF resolved against earlier weeks (EG §D)."""
        # EG §D: no weeklong actions on campaign; EG §Q debtors are sent away.
        order = None if self.absent() else self.orders.weeks.get(week)
        if isinstance(order, Conditional):
            failed = not self.week_ok.get(order.week, True)
            wanted = failed if order.outcome is Outcome.FAILED else not failed
            order = order.then if wanted else order.otherwise
        return order

    def weekend_order(self, weekend: int) -> Order | None:
        """EG §D: four weekends in Paris, only the first two he uses at the front."""
        if self.indisposed or self.c.dead or self.c.imprisoned(self.turn):
            return None
        if self.c.at_front and weekend not in sorted(self.orders.weekends)[:2]:
            return None
        return self.orders.weekends.get(weekend)

    def freeze(self) -> Character:
        return replace(self.c, crowns=self.crowns, sl=self.sl, sp_month=self.sp,
                       sl_change=self.sl - self.sl_start)


def _post(c: Character) -> tuple[str | None, str] | None:
    """Where a character stands in the army for `Month.posts` (None: dead, or no rank:
    a question always names a rank, and most characters hold none)."""
    return None if c.dead or c.rank is None else (c.regiment, c.rank)


class Month:
    """State, tables, dice and the growing event list of one month."""

    def __init__(self, state: GameState, tables: Tables, dice: Dice,
                 orders: Mapping[str, tuple[OrderSet, bool]]) -> None:
        self.state = state
        self.tables = tables
        self.dice = dice
        self.actors = {k: Actor.start(state.characters[k], *orders[k]).set_turn(state.turn)
                       for k in sorted(state.characters)}
        # The dead are out of the game: no phase iterates over them (reference §5.5).
        self.living = [a for a in self.actors.values() if not a.c.dead]
        self.events: list[EnGardeEvent] = []
        self.theatre: Theatre = state.theatre
        self.week: int | None = None  # the week (or the weekend after it) being resolved
        self.weekend = False  # the weekend after ``week``: its events say so
        self.reception: str | None = None  # this month's first-night outcome key
        # EG §L: the ladies of Paris, who keeps whom, and the month's encounters.
        self.ladies: dict[str, Lady] = dict(sorted(state.ladies.items()))
        self.lady_serial = state.lady_serial
        self.keepers: dict[str, str] = {}  # lady -> the man who keeps (or married) her
        for key, a in self.actors.items():
            for lady in (a.c.mistress, a.c.wife):
                if lady:
                    self.keepers[lady] = key
        self.encounters: dict[str, dict[str, int]] = {}  # lady -> man -> count
        # EG §Q loans, and business left for the duel and trial engines (honour.py).
        self.loans: list[Loan] = list(state.loans)
        self.loan_serial = state.loan_serial
        self.matters: list[Matter] = list(state.matters)
        # EG §S: favours pushed on this month's NPC decisions, by decision id.
        self.pushes: dict[str, list[tuple[str, str, int]]] = {}  # id -> (who, favour id, sign)
        # Reference §6 duels and EG §R trials; the GM's decisions; the campaign.
        self.challenges: list[Challenge] = list(state.challenges)
        self.charges: list[Charge] = list(state.charges)
        self.charge_serial = state.charge_serial
        self.decisions: dict[str, str] = dict(state.decisions)
        self.campaign: dict[str, Any] = dict(state.campaign)
        self.scratch: dict[str, Any] = {}  # per-month working notes of the rules
        self._posts: dict[tuple[str | None, str], list[str]] | None = None

    def posts(self, regiment: str, rank: str) -> list[str]:
        """The living actors holding ``rank`` in ``regiment``, in key order (the order
        iterating the month gives): kept as an index, updated as actors change post,
        instead of scanning every actor each time a regiment asks (quadratic)."""
        if self._posts is None:
            self._posts = {}
            for a in self.living:
                if (post := _post(a.c)) is not None:
                    self._posts.setdefault(post, []).append(a.key)
                a.watch = self._moved
        return self._posts.get((regiment, rank), [])

    def _moved(self, a: Actor, old: Character) -> None:
        assert self._posts is not None
        if (was := _post(old)) is not None:
            self._posts[was].remove(a.key)
        if (now := _post(a.c)) is not None:
            insort(self._posts.setdefault(now, []), a.key)

    def __iter__(self) -> Iterator[Actor]:
        """The living actors in key order: the order every rule iterates in (determinism).
        A man killed in the month's weeks drops out here too, so the phases after his
        death (pay, company, status ...) pass him by (reference §5.5)."""
        return iter([a for a in self.living if not a.c.dead])

    def emit(self, key: str, event: EventId, args: Mapping[str, Any] | None = None, *,
             sp: int = 0, crowns: int = 0, public: bool = False) -> None:
        """Record an event for ``key`` and apply its SP and crowns to him."""
        actor = self.actors[key]
        actor.sp += sp
        actor.crowns += crowns
        self.events.append(new_event(event, self._when(args), key, public, sp=sp,
                                     crowns=crowns, week=self.week))

    def world(self, event: EventId, args: Mapping[str, Any] | None = None) -> None:
        """A public event that belongs to no character (the play's reception ...)."""
        self.events.append(new_event(event, self._when(args), None, True, week=self.week))

    def _when(self, args: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
        """A weekend's events say so: the sheet prints "Weekend 1", not "Week 1"."""
        return {**(args or {}), "weekend": True} if self.weekend else args

    def date(self, turn: int) -> str:
        """The game month a turn number falls in ("June 1625"): players read dates,
        not turn numbers."""
        index = self.state.month - 1 + turn - self.state.turn
        return f"{self.tables.months[index % 12]} {self.state.year + index // 12}"

    def week_date(self, week: int) -> str:
        """An absolute week number (`now`) as "week 2 of June 1625"."""
        offset = week - self.state.week_base - 1
        return f"week {offset % 4 + 1} of {self.date(self.turn + offset // 4)}"

    def now(self) -> int:
        """The absolute week number (rejoin bars count in these)."""
        return self.state.week_base + (self.week or 0)

    @property
    def turn(self) -> int:
        return self.state.turn

    def encounter(self, lady: str, man: str) -> None:
        """A romantic encounter this month (EG §L pregnancy; reference §10.4)."""
        met = self.encounters.setdefault(lady, {})
        met[man] = met.get(man, 0) + 1

    def matter(self, kind: str, parties: tuple[str, ...], **args: Any) -> None:
        """Leave business for a later rule to settle: a cause for a duel (duels.py), a report
        to the authorities (trials.py); see honour.py."""
        self.matters.append(Matter(kind, self.turn, parties, args))

    def decide(self, key: str, default: str, actor: str | None, **args: Any) -> str:
        """A GM decision (GM's desk): the recorded value, else ``default``; the turn
        sheet of ``actor`` says which applied.  A used decision is removed."""
        value = self.decisions.pop(key, None)
        recorded = value is not None
        used = default if value is None else value
        if actor is not None and actor in self.actors:
            self.emit(actor, EventId.DECISION_APPLIED,
                      {"key": key, "value": used, "recorded": recorded, **args})
        return used

    def name(self, key: str | None) -> str:
        return self.actors[key].c.name if key in self.actors else str(key)

    def characters(self) -> dict[str, Character]:
        return {k: a.freeze() for k, a in self.actors.items()}
