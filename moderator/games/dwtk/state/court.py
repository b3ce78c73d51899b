"""`Court`: the working copy of the state during one adjudication.

The persisted values are frozen (state/__init__.py); the court holds them in dicts and
replaces them as the rules change them, emitting events as it goes.  Helpers here
are the shared rules every phase needs: Monarch's Support (32), shuffling and drawing
with the injected dice (14.3), offices (16).  The rules are functions over it in the
rule modules: Status (16.3, 18.9, 33.2.3) is `status.py`, IP/PP never negative (34.3,
35.3) and the PP limit (35.4-35.6) `faction.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from moderator.dice import Dice
from moderator.games.base import Event
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.frozen import fast_new
from moderator.games.dwtk.state import (
    Character,
    GameState,
    OpenProblem,
    Phase,
    Player,
    Royal,
    evolve,
)
from moderator.games.dwtk.tables import OfficeKind, Tables, kind_of

_event = fast_new(Event)  # `Event(...)`, cheaper: a turn emits some hundred events


def _text_key(item: tuple[int, Character]) -> str:
    return str(item[0])


def _settled(p: Player) -> Player:
    """The player with his mappings in the order `Player.from_dict` builds (sorted)."""
    mods, counsels = p.prestige_mods, p.counsels
    if _in_order(mods) and _in_order(counsels):
        return p
    return evolve(p, {"prestige_mods": dict(sorted(mods.items())),
                      "counsels": dict(sorted(counsels.items()))})


def _in_order(mapping: Mapping[str, Any]) -> bool:
    keys = list(mapping)
    return len(keys) < 2 or keys == sorted(keys)


def _no_pp_limit(court: Court, player: str) -> None:
    raise RuntimeError("this court was made without pp_limit: it may not kill a PC (31.5)")


class Court:
    """Mutable working state of one adjudication; `freeze()` gives the new `GameState`.

    ``pp_limit`` is 35.5 (`faction.enforce_limit`), which a PC's death applies at once
    (31.5, `death.kill_pc`): given here because death is lower in the rules than the PP
    limit, whose losses can kill (35.5.3).  A court only read (views, invariants) needs
    none.
    """

    def __init__(self, state: GameState, tables: Tables, dice: Dice,
                 pp_limit: Callable[[Court, str], None] = _no_pp_limit) -> None:
        self.pp_limit = pp_limit
        self.t = tables
        self.dice = dice
        self.name = state.name
        self.turn = state.turn
        self.phase = state.phase
        self.players: dict[str, Player] = dict(state.players)
        self.characters: dict[int, Character] = dict(state.characters)
        self.royals: dict[str, Royal] = dict(state.royals)
        self.offices: dict[str, str | None] = dict(state.offices)
        self.suspended: list[str] = list(state.suspended)
        self.problems: list[OpenProblem] = list(state.problems)
        self.wars: list[str] = list(state.wars)
        self.support = state.support
        self.deck: list[str] = list(state.deck)
        self.discards: list[str] = list(state.discards)
        self.removed: list[str] = list(state.removed)
        self.loyalty_pool: list[int] = list(state.loyalty_pool)
        self.opportunity_pool: list[str] = list(state.opportunity_pool)
        self.order: tuple[str, ...] = state.order
        self.crown_event = state.crown_event
        self.next_crown_event = state.next_crown_event
        self.scandal_object = state.scandal_object
        self.farc_monarch_turns = state.farc_monarch_turns
        self.winner = state.winner
        self.drawn_game = state.drawn_game
        self.events: list[Event] = []
        self.turn_over = False  # 9.4: mourning ends the turn at once
        self.came_out: set[int] = set()  # out of hiding this turn: not back in (24.2)
        self.orders: Mapping[str, Any] = {}  # this adjudication's TurnOrders by player
        # -- single-use counters and 13.1's restriction (counters.py) --
        # (player, counter) pairs spent this turn: each serves one activity (12.3.1, 12.3.3)
        self.spent_counters: set[tuple[str, str]] = set()
        # PCs banished, imprisoned or hiding when this turn's Player Turns began: their
        # players keep to one activity this turn even if they are returned (13.1)
        self.held_pcs: frozenset[int] = frozenset(
            c.id for c in state.characters.values() if c.pc and not c.free)
        # `status.load_inputs` when every faction last fitted its PP (faction.enforce_all)
        self.loads_fit: tuple[Any, ...] | None = None
        # The nobles and royals as `romance.sweep` last left them (none to clear then).
        self.swept: tuple[list[Character], list[Royal]] | None = None
        # Players whose PP limit waits for the end of `faction.cause_first` (the event
        # that cost the PP is told before whom the loss costs them).
        self.told_later: list[str] | None = None

    def freeze(self) -> GameState:
        """The new state, every mapping in the order `GameState.from_dict` builds from
        its JSON form (keys sorted as text: the nobles ``"1", "10", "11", ... "2"``), so
        the next turn run on this value walks the court in the order a turn run on the
        stored state walks it (`DwtkEngine.run_turn`), and gives the same results."""
        # standing_players: this turn's LOSE FIRST lines stand from now on (35.5)
        players = {key: _settled(p) for key, p in sorted(self.standing_players().items())}
        return GameState(
            self.name, self.turn, self.phase, players,
            dict(sorted(self.characters.items(), key=_text_key)),
            dict(sorted(self.royals.items())),
            dict(sorted(self.offices.items())), tuple(self.suspended), tuple(self.problems),
            tuple(self.wars), self.support, tuple(self.deck), tuple(self.discards),
            tuple(self.removed), tuple(self.loyalty_pool), tuple(self.opportunity_pool),
            self.order, self.crown_event, self.next_crown_event, self.scandal_object,
            self.farc_monarch_turns, self.winner, self.drawn_game)

    # -- the standing LOSE FIRST order (35.5) ------------------------------------------

    def lose_first(self, player: str) -> tuple[str, ...]:
        """35.5 "he may choose": this turn's LOSE FIRST line if he sent one (it stands
        from now on, `standing_players`), else the one standing."""
        sent = getattr(self.orders.get(player), "lose_first", None)
        return self.players[player].lose_first if sent is None else sent

    def standing_players(self) -> dict[str, Player]:
        """The players with this turn's LOSE FIRST lines stored (kept until replaced)."""
        out = dict(self.players)
        for key, p in out.items():
            sent = getattr(self.orders.get(key), "lose_first", None)
            if sent is not None and sent != p.lose_first:
                out[key] = replace(p, lose_first=sent)
        return out

    # -- events ---------------------------------------------------------------------

    def emit(self, event_id: EventId, args: Mapping[str, Any] | None = None,
             actor: str | None = None, public: bool = True) -> None:
        self.events.append(_event(event_id._value_, dict(args) if args else {}, actor, public))

    # -- dice -----------------------------------------------------------------------

    def roll(self, subsystem: str, spec: str, purpose: str, actor: str | None = None,
             modifier: int = 0) -> int:
        return self.dice.roll(subsystem, spec, purpose, actor=actor, modifier=modifier).total

    def dice_count(self, subsystem: str, purpose: str, actor: str | None = None) -> int:
        """DWTK 2.3: red die then white die read as a two-digit number 11-66."""
        red = self.roll(subsystem, "1d6", f"{purpose} (red die)", actor)
        white = self.roll(subsystem, "1d6", f"{purpose} (white die)", actor)
        return 10 * red + white

    def pick_index(self, size: int, subsystem: str, purpose: str) -> int:
        """A uniform index into ``size`` items (no roll when there is only one)."""
        if size <= 1:
            return 0
        return self.roll(subsystem, f"1d{size}", purpose) - 1

    def shuffle(self, items: Sequence[Any], subsystem: str, purpose: str) -> list[Any]:
        """Fisher–Yates over the dice: every random order comes from the turn's `Dice`."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.roll(subsystem, f"1d{i + 1}", purpose) - 1
            out[i], out[j] = out[j], out[i]
        return out

    # -- lookups --------------------------------------------------------------------

    def player(self, key: str) -> Player:
        return self.players[key]

    def set_player(self, key: str, **changes: Any) -> Player:
        self.players[key] = new = evolve(self.players[key], changes)  # a fast `replace`
        return new

    def char(self, cid: int | str) -> Character:
        return self.characters[int(cid)]

    def set_char(self, cid: int | str, **changes: Any) -> Character:
        i = int(cid)
        self.characters[i] = new = evolve(self.characters[i], changes)
        return new

    def set_royal(self, key: str, **changes: Any) -> Royal:
        self.royals[key] = new = evolve(self.royals[key], changes)
        return new

    def in_order(self) -> Iterator[str]:
        """Players in this turn's player order (DWTK 5), or seating order before one."""
        yield from (self.order or self.seats)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(sorted(self.players, key=lambda k: self.players[k].seat))

    @property
    def crisis(self) -> bool:
        return self.phase is not Phase.MUSTER and self.support == 0

    def monarch(self) -> str | None:
        return self.offices.get("monarch")

    def office_of(self, holder: str) -> str | None:
        for o, h in self.offices.items():  # a plain loop: called very often (Status)
            if h == holder and o != "monarch":
                return o
        return None

    def controller(self, holder: str | None) -> str | None:
        """The player whose PC/FAC/FARC this character is (None: neutral, or no one)."""
        if holder is None:
            return None
        if holder.isdigit():
            return self.char(holder).owner
        return self.royals[holder].owner

    def pc_of(self, player: str) -> Character | None:
        pc = self.players[player].pc
        return None if pc is None else self.char(pc)

    def faction(self, player: str) -> list[Character]:
        """The player's FACs (not his PC)."""
        return [c for c in self.characters.values()
                if c.owner == player and not c.pc and c.alive]

    def farcs(self, player: str) -> list[Royal]:
        return [r for r in self.royals.values() if r.owner == player and r.alive]

    def at_war_stuck(self, c: Character) -> bool:
        """DWTK 7.10.1: stuck in a country at war with Fandonia."""
        return c.abroad and c.location in self.wars

    # -- Monarch's Support (7.9, 32, 33) ---------------------------------------------

    def change_support(self, delta: int, reason: str) -> None:
        """Move the Support, kept in 0..120 (32.1); announce a crisis begun or ended."""
        before = self.support
        self.support = max(0, min(self.t.rule("support_max"), self.support + delta))
        if self.support != before:
            self.emit(EventId.SUPPORT_CHANGED, {"before": before, "after": self.support,
                                                "reason": reason})
        if before > 0 and self.support == 0:
            self.emit(EventId.CRISIS_BEGINS, {})
        elif before == 0 and self.support > 0:
            self.emit(EventId.CRISIS_ENDS, {})

    def roll_support(self, purpose: str) -> None:
        """DWTK 3.10, 32.4: two dice summed, times ten."""
        before = self.support
        total = self.roll("support", str(self.t.setup["support_dice"]), purpose)
        self.support = min(self.t.rule("support_max"), total * int(self.t.setup["support_times"]))
        if before == 0 and self.phase is not Phase.MUSTER and self.support > 0:
            self.emit(EventId.CRISIS_ENDS, {})

    # -- Event cards (14) -------------------------------------------------------------

    def draw_card(self, player: str) -> str | None:
        """The top Event card; the discards are reshuffled when the pile is empty (14.3)."""
        if not self.deck and self.discards:
            self.deck = self.shuffle(sorted(self.discards), "shuffle", "reshuffle the discards")
            self.discards = []
            self.emit(EventId.DECK_RESHUFFLED, {"cards": len(self.deck)})
        if not self.deck:
            return None
        card = self.deck.pop(0)
        p = self.players[player]
        self.set_player(player, hand=(*p.hand, card), drawn=(*p.drawn, card))
        return card

    def discard(self, card: str) -> None:
        """To the discard pile (14.3); a card of a dead RC leaves the game (14.2.5)."""
        royal = self.t.card_kind(kind_of(card)).royal
        if royal is not None and not self.royals[royal].alive:
            self.removed.append(card)
        else:
            self.discards.append(card)

    def take_from_hand(self, player: str, card: str) -> None:
        hand = list(self.players[player].hand)
        hand.remove(card)
        self.set_player(player, hand=tuple(hand))

    def cards_of(self, player: str, kind: str) -> list[str]:
        return [c for c in self.players[player].hand if kind_of(c) == kind]

    # -- offices (6, 16) --------------------------------------------------------------

    def may_fill_office(self, cid: int, office: str) -> str | None:
        """Why this character may not fill this office now (None: he may); 6.3, 16.1, 16.4."""
        card = self.t.noble(cid)
        c = self.char(cid)
        if not card.office_holder:
            return "not_office_holder"
        if not c.alive:
            return "dead"
        if c.face_down_until is not None:
            return "dead"
        if not c.free:
            return "situation"
        if self.at_war_stuck(c):
            return "at_war"
        if self.offices.get(office) is not None:
            return "not_vacant"
        if office in self.suspended:
            return "suspended"
        if self.office_of(c.key) is not None:
            return "holds_office"
        return None

    def seat_in_office(self, cid: int, office: str) -> None:
        """Place him in the office; leaving another office or the Counselor card (6.2, 16.2)."""
        c = self.char(cid)
        old = self.office_of(c.key)
        if old is not None:
            self.offices[old] = None
        if c.counselor is not None:
            self.discard(c.counselor)
            self.set_char(cid, counselor=None)
        self.offices[office] = c.key
        o = self.t.office(office)
        if o.kind is OfficeKind.AMBASSADOR and o.country is not None:
            self.set_char(cid, location=o.country)  # 20.4: ambassadors are abroad

    def discharge(self, office: str, reason: str) -> None:
        """DWTK 7.8, 16.4-16.5: the holder leaves office (an ambassador comes home)."""
        holder = self.offices.get(office)
        if holder is None:
            return
        self.offices[office] = None
        if self.t.office(office).kind is OfficeKind.AMBASSADOR:
            self.set_char(holder, location="fandonia")
        self.emit(EventId.OFFICE_DISCHARGED, {"office": office, "holder": holder,
                                              "reason": reason})

    def vacant_offices(self) -> list[str]:
        return [o.key for o in self.t.offices
                if o.kind is not OfficeKind.MONARCH and self.offices.get(o.key) is None
                and o.key not in self.suspended]
