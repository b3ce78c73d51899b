"""Any-time windows and standing reactions (FE 2.6, 10.0, 11.0, 2.15; fief-email.md §3).

The rulebook lets Opportunity cards be played "at any time ... except during the Draw
Cards action" and interrupt what is being resolved.  By email "any time" is a fixed set of
named windows, points of the round where the engine stops and reads:

1. one-shot lines `AT <window> <card order>` of this turn's orders, then
2. standing reactions `AT <window> IF <condition> PLAY <card order>`, written in advance
   and kept until they fire (or are withdrawn); a reaction fires when its window opens
   and its condition holds, and is then spent (each line, so each card, once).

At a window the players act in player order from the First Player, each player's lines in
the order written, each against the state the previous one left.  A reaction whose card
order is refused stays stored (fief-email.md §3.1).  The table of windows, and what may be
played in them, is in docs/fief-by-email.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from moderator.games.fief import economy
from moderator.games.fief.cards import play
from moderator.games.fief.cards.common import orders_of
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Give,
    Order,
    PlayFortune,
    Reaction,
    order_from_dict,
)
from moderator.games.fief.realm import Realm


@dataclass(frozen=True)
class Window:
    id: str          # fief-email.md §3.2
    name: str        # the word after AT
    where: str       # where in the round it opens


# In round order.  W6 CARDS is Phase 2D itself (a line without AT); W12 (inside each
# battle) is not a window by email (PROPOSED): the battle plans stand in for it.
WINDOWS: tuple[Window, ...] = (
    Window("W1", "hear-ye", "the start of Phase 1, before the marriages"),
    Window("W2", "election", "Phase 1B, after the candidates are known, before the tally"),
    Window("W3", "parliament", "Phase 1C, after Parliament is convened, before the vote"),
    Window("W4", "discard", "Phase 2A, each player's own discard"),
    Window("W5", "disasters", "after the disasters are placed in Phase 2C"),
    Window("W6", "cards", "Phase 2D, each player's own turn (the normal place)"),
    Window("W7", "income", "the start of Phase 3, before income is counted"),
    Window("W8", "purchase", "the start of Phase 4, before gifts and ransoms"),
    Window("W9", "move", "the start of Phase 5, before anyone moves"),
    Window("W10", "invaders", "the start of Phase 6"),
    Window("W11", "battles", "the start of Phase 7, before any battle"),
    Window("W13", "pillage", "after the battles and the pillage"),
    Window("W14", "end", "before the End Round clean-up"),
)
NAMES = tuple(w.name for w in WINDOWS)


def _noble_at(realm: Realm, name: str, city: str) -> bool:
    n = realm.s.nobles.get(name.lower())
    return n is not None and n.free and n.city == city


def _holds(realm: Realm, condition: tuple[str, ...]) -> bool:
    """The condition of a reaction, read against the state when its window opens."""
    s = realm.s
    what, *args = condition
    noble = s.nobles.get(args[0].lower()) if args else None
    tests: dict[str, Callable[[], bool]] = {
        "heretic": lambda: noble is not None and noble.alive and noble.heresy,
        "captive": lambda: noble is not None and noble.status == "captive",
        "at": lambda: _noble_at(realm, args[0], args[1]),
        "lord": lambda: noble is not None and noble.alive and args[1] in noble.titles,
        "invaders": lambda: any(a.city == args[0] for a in s.invaders.values()),
        "storms": lambda: realm.region_has(realm.t.region(args[0]).number, "Storms"),
        "famine": lambda: realm.region_has(realm.t.region(args[0]).number, "Famine"),
    }
    return tests[what]()


# A75 (PROPOSED): after income a Good Weather only cancels Storms.
AFTER_INCOME = ("purchase", "move", "invaders", "battles", "pillage", "end")


def play_one(realm: Realm, player: str, order: Order, window: str) -> None:
    """One line in a window: a gift goes by the pigeon rules (FE 2.15), the rest as in 2D."""
    if (isinstance(order, PlayFortune) and window in AFTER_INCOME
            and not realm.region_has(realm.t.region(order.region).number, "Storms")):
        realm.refuse(player, f"PLAY GOOD WEATHER ON {realm.t.region(order.region).name}",
                     "after Phase 3 Good Weather only cancels Storms (A75, PROPOSED)")
    elif isinstance(order, Give):
        economy._give(realm, player, order, realm.t.hand_limit(realm.player_count()))
    else:
        play.play_one(realm, player, order)


def _refusals(realm: Realm, player: str) -> int:
    return sum(1 for e in realm.events if e.id == EventId.ORDER_REFUSED.value
               and e.actor == player)


def play_for(realm: Realm, player: str, window: str) -> None:
    """One player's lines at a window: this turn's one-shot lines, then the reactions."""
    for order in orders_of(realm, player).orders:
        if order.at == window:
            play_one(realm, player, order, window)
    standing = realm.s.players[player].standing
    for data in list(standing):
        if data.get("kind") != Reaction.kind or data.get("window") != window:
            continue
        reaction = order_from_dict(data)
        assert isinstance(reaction, Reaction)
        if not _holds(realm, reaction.condition):
            continue
        before = _refusals(realm, player)
        play_one(realm, player, order_from_dict(dict(reaction.play)), window)
        if _refusals(realm, player) == before and data in standing:
            standing.remove(data)        # spent: a reaction fires once


def open_window(realm: Realm, window: str) -> None:
    """Every player's lines at a window, in player order from the First Player."""
    for player in realm.s.player_order():
        play_for(realm, player, window)


def step(window: str) -> Callable[[Realm], None]:
    """A phase-table step that opens the window (Phase 1's windows skip Round 1, FE 1.0)."""
    def run(realm: Realm) -> None:
        if window == "hear-ye" and realm.s.round == 1:
            return
        open_window(realm, window)
    run.__name__ = f"window_{window.replace('-', '_')}"
    return run
