"""`RealmCore`: one adjudication's working state, tables, dice, events and purses.

The rules modules are functions of a `Realm` (realm.py), built on this core and on
`RealmMap` (realm_map.py): here are the events, the dice (the battle die, draws, shuffles),
the players' purses, the nobles and their ransoms, so that no rule reaches for randomness or
state another way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from moderator.dice import Dice
from moderator.games.base import Event
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import TurnOrders
from moderator.games.fief.state import GameState, Noble
from moderator.games.fief.tables import Tables

T = TypeVar("T")
# The dice log's mark of a Battle Die (a d6 read through its faces, FE 7.1); the sheet
# template reads it (templates/fief/turnsheet.md.j2 "Your dice").
BATTLE_DIE = "Battle Die: "


class RealmCore:
    def __init__(self, state: GameState, tables: Tables, dice: Dice) -> None:
        self.s = state
        self.t = tables
        self.dice = dice
        self.events: list[Event] = []
        self.orders: dict[str, TurnOrders] = {}
        self.moved_units: dict[tuple[str, str], dict[str, int]] = {}   # (family, city) -> moved
        self.battles: list[dict[str, Any]] = []
        self.garter_eligible: list[str] = []        # Lords who beat invaders this round
        self.loans: list[tuple[str, str, str, int]] = []   # Crossbowmen lent (FE 11.1)
        # FE 5.0, 5.4: this movement phase's arrivals: (city, family, came from).
        self.entries: list[tuple[str, str, str]] = []
        # Units taken off the map this phase, by (city, family, unit): a battle report
        # reads its losses here (FE 7.5; battle_report.py).
        self.off_map: dict[tuple[str, str, str], int] = {}

    # -- events and dice ---------------------------------------------------------------
    def emit(self, event: EventId, args: Mapping[str, Any] | None = None,
             actor: str | None = None, public: bool = True) -> None:
        self.events.append(Event(event.value, dict(args or {}), actor=actor, public=public,
                                 week=self.s.round))

    def refuse(self, player: str, order: str, reason: str) -> None:
        """An order that could not run when its turn came: told on the sheet (§2.2)."""
        self.emit(EventId.ORDER_REFUSED, {"order": order, "reason": reason}, actor=player,
                  public=False)

    def d6(self, subsystem: str, purpose: str, actor: str | None = None) -> int:
        return self.dice.roll(subsystem, "1d6", purpose, actor=actor).total

    def battle_die(self, subsystem: str, purpose: str, actor: str | None = None) -> int:
        """One Battle Die: a d6 read through rules.battle.die_faces (FE 7.1).  Its purpose
        in the dice log starts with `BATTLE_DIE`, so the sheet shows its face ("ff"), not
        the d6 behind it (templates/fief/turnsheet.md.j2)."""
        face = self.d6(subsystem, BATTLE_DIE + purpose, actor)
        return self.t.battle.die_faces[face - 1]

    def pick(self, items: Sequence[T], subsystem: str, purpose: str) -> T:
        """A uniform choice from a sorted list, by dice (never module-level random)."""
        if len(items) == 1:
            return items[0]
        roll = self.dice.roll(subsystem, f"1d{len(items)}", purpose)
        return items[roll.total - 1]

    def shuffle(self, items: Sequence[T], subsystem: str, purpose: str) -> list[T]:
        """Fisher-Yates with dice: the same seed always shuffles the same way."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.dice.roll(subsystem, f"1d{i + 1}", purpose).total - 1
            out[i], out[j] = out[j], out[i]
        return out

    # -- players, families, nobles -----------------------------------------------------
    def player_count(self) -> int:
        return len(self.s.seats)

    def account(self, family: str) -> str:
        """The player whose purse and hand a family uses (a pot for two, FE 13.7)."""
        return self.s.families[family].player

    def owner(self, family: str | None) -> str | None:
        """The player of a family, if it is one (None: Independent, the invaders)."""
        return self.account(family) if family in self.s.families else None

    def cash(self, family: str) -> int:
        return self.s.players[self.account(family)].cash

    def pay(self, family: str, amount: int) -> None:
        player = self.s.players[self.account(family)]
        if amount > player.cash:
            raise AssertionError(f"{family} cannot pay {amount}")
        player.cash -= amount

    def earn(self, family: str, amount: int) -> None:
        self.s.players[self.account(family)].cash += amount

    def noble(self, key: str) -> Noble:
        return self.s.nobles[key]

    def not_living(self, name: str) -> str:
        """Why a noble an order names cannot act: he is dead, or not in play (his card in
        a hand or a deck; found playing by mail: `MOVE Hugh` after a refused `PLAY NOBLE
        Hugh` was answered only "no such living noble")."""
        noble = self.s.nobles.get(name.lower())
        if noble is not None and not noble.alive:
            return f"{noble.name} is dead"
        return f"{name} is not in play: a noble enters it when his card is played (FE 2.11)"

    def nobles_at(self, city: str, family: str | None = None,
                  free_only: bool = True) -> list[Noble]:
        return [n for n in self.s.living(family) if n.city == city
                and (n.free or not free_only)]

    def allied(self, a: str, b: str) -> bool:
        """Families allied through marriage (FE 9.0) or of one player (FE 13.7)."""
        if a == b or self.account(a) == self.account(b):
            return True
        return any(n.spouse and self.s.nobles[n.spouse].family == b
                   for n in self.s.living(a))

    # -- ransoms, victory points, losses ---------------------------------------------
    def ransom(self, noble: Noble) -> int:
        """FE 7.7, 6.7: 2 plus 2 per Title held."""
        titles = len(noble.titles) + (1 if noble.clergy else 0) + len(noble.abbess)
        titles += 1 if self.s.sovereign == noble.key else 0   # FE 6.7: every Title counts
        return self.t.money.ransom_base + self.t.money.ransom_per_title * titles

    def bandit_ransom(self, noble: Noble) -> int:
        """FE 13.4: 2 untitled, 4 a Lord, 5 a cleric without a fiefdom, 10 with one,
        nothing from the King or Queen."""
        if noble.key in (self.s.sovereign, self.s.queen):
            return 0
        if noble.clergy or noble.abbess:
            return 10 if noble.titles else 5
        return 4 if noble.titles else 2

    def vp(self, player: str) -> int:
        """FE 8.1: one per Fiefdom Title, one for the Relic VP marker."""
        fams = self.s.players[player].families
        titles = sum(len(n.titles) for n in self.s.living() if n.family in fams)
        return titles + (1 if self.s.players[player].relic_vp else 0)

    def loss_order(self, family: str) -> tuple[str, ...]:
        """The family's standing LOSSES plan, then the default cheapest-first order."""
        default = ("men_at_arms", "archer", "crossbow", "knight")
        plan: tuple[str, ...] = ()
        for data in self.s.players[self.account(family)].standing:
            if data.get("kind") == "losses" and data.get("family") in (None, family):
                plan = tuple(data["units"])
        return tuple(dict.fromkeys((*plan, *default)))
