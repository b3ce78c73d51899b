"""The forecast in a Down with the King receipt: the player's IP and PP spending and the
activities his counters allow, from one run of his Player Turn on fixed dice.

What it reads is the deterministic part (DWTK 13.1: the first two legal activities in his
priority order are done; 35.8: two IP a PP; 11, 12: what his Loyalty and Opportunity
counters let him do): each IP he spends and on what, where the IP run out, and every
activity the rules will refuse with the reason.  Dice (assassinations, duels, the
tables) are not forecast, and other players' Player Turns come first or after, so the
receipt marks it as a forecast.

Pure like the engine: the turn is run by the ``adjudicate`` given; nothing is kept.
The state is read through its public module (`moderator.games.dwtk.state`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from moderator.dice import Dice
from moderator.games.base import JSON, Event, TurnResult
from moderator.games.dwtk import reasons
from moderator.games.dwtk.orders.activity import ActivityKind
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.tables import Tables, kind_of

Adjudicate = Callable[[JSON, Mapping[str, JSON], Any, Dice], TurnResult]

_SEED = 0  # fixed dice: the same forecast every time

_ACTIVITIES = frozenset(kind.value for kind in ActivityKind)

# A player with no Player Turn this turn (31.5: his PC died; 36.11; 7.10.3; 9.4: a
# mourning turn) sent orders all the same: what of them can still count.
_NO_PLAYER_TURN = ("You have no Player Turn this turn (DWTK 9.4, 31.5, 36.11, 7.10.3): "
                   "no activity, purchase, alignment or counsel of these orders is done; "
                   "your reactions stand, and your bids and stances count at the start "
                   "of the next turn.")


def forecast(state: JSON, orders: Mapping[str, JSON], tables: Tables,
             adjudicate: Adjudicate) -> dict[str, tuple[str, ...]]:
    """Per player in ``orders``: the forecast lines for his receipt."""
    game = GameState.from_dict(state)
    names = Names.of(tables)
    cards = {c.key: c.name for c in tables.cards}
    found: dict[str, tuple[str, ...]] = {}
    for key in sorted(orders):
        player = game.players.get(key)
        if player is None or player.pc is None:
            continue  # the court has not assembled: nothing to forecast yet
        result = adjudicate(state, {key: orders[key]}, tables, Dice.for_turn(_SEED, 0))
        lines = [f"IP {player.ip}, PP {player.pp} now."]
        if any(e.id == "turn.player" and e.args.get("player") == key for e in result.events):
            lines += _spending(player.ip, player.pp, _player_turn(result.events, key),
                               names, cards)
        else:  # no 'After your Player Turn' line: there is none
            lines.append(_NO_PLAYER_TURN)
        lines += _counters(player.loyalty, player.opportunity, tables)
        found[key] = tuple(lines)
    return found


def _player_turn(events: Sequence[Event], key: str) -> list[Event]:
    """His Player Turn's events: from his turn.player event to the next turn event."""
    mine: list[Event] = []
    inside = False
    for event in events:
        if event.id.startswith("turn."):
            inside = event.id == "turn.player" and event.args.get("player") == key
            continue
        if inside:
            mine.append(event)
    return mine


def _label(what: str, names: Names) -> str:
    """A skipped line as the player wrote it: ``DO TITLE``, ``PROPOSE PC``, ``BUY PP``,
    ``ALIGN Prince Alan`` (``what`` is the activity, or the order word and ':' whom it
    named, player.py `_try`)."""
    word, _, who = what.partition(":")
    if word in _ACTIVITIES:
        return f"DO {word.upper()}"
    label = _WRITTEN.get(word, word.replace("_", " ").upper())
    return f"{label} {names.who(who)}" if who else label


_WRITTEN = {"solicit": "SOLICIT BRIBE"}  # an order of two words (13.4.20.1)


def _spending(ip: int, pp: int, events: Sequence[Event], names: Names,
              cards: Mapping[str, str]) -> list[str]:
    lines: list[str] = []
    refused: list[str] = []
    ran_out: str | None = None
    for event in events:
        args = event.args
        if event.id == "pp.bought":
            ip, pp = ip - int(args.get("ip", 0)), pp + int(args.get("pp", 0))
            lines.append(f"BUY {args.get('pp')} PP: -{args.get('ip')} IP, "
                         f"+{args.get('pp')} PP -> IP {ip}, PP {pp}.")
        elif event.id == "bribe.solicited" and args.get("result") == "received":
            ip += int(args.get("amount", 0))  # 13.4.20.1: before his activities
            lines.append(f"SOLICIT BRIBE {args.get('amount')}: +{args.get('amount')} IP if "
                         f"the die is above {args.get('amount')} (counted here) -> IP {ip}.")
        elif event.id == "activity.skipped":
            reason = str(args.get("reason", ""))
            label = _label(str(args.get("what", "activity")), names)
            refused.append(f"{label}: {reasons.phrase(reason, cards)}")
            if reason == "ip" and ran_out is None:
                ran_out = label
        elif event.id.startswith("activity.") and isinstance(args.get("cost"), int):
            ip -= int(args["cost"])
            what = str(args.get("what", event.id.split(".", 1)[1])).upper()
            lines.append(f"DO {event.id.split('.', 1)[1].upper()} {what}: -{args['cost']} IP "
                         f"-> IP {ip}.".replace(f" {what} {what}", f" {what}"))
    lines.append(f"After your Player Turn: IP {ip}, PP {pp} (before any IP the dice "
                 "bring).")
    if ran_out is not None:
        lines.append(f"You run out of IP at {ran_out}.")
    if refused:
        lines.append("The rules will refuse:")
        lines += [f"  - {r}" for r in refused]
    return lines


def _counters(loyalty: tuple[int, ...], opportunity: tuple[str, ...],
              tables: Tables) -> list[str]:
    """What his counters allow this turn (DWTK 11, 12), the Opportunity counters by the
    names his turn sheet gives them ("Gain One IP", not the key "gain_ip")."""
    lines: list[str] = []
    if loyalty:
        lines.append("Your Loyalty counters allow: "
                     + ", ".join(f"DO RECRUIT {n}" for n in loyalty) + ".")
    if opportunity:
        named = {o.key: o.name for o in tables.opportunities}
        lines.append("Your Opportunity counters: "
                     + ", ".join(named.get(kind_of(o), kind_of(o)) for o in opportunity) + ".")
    return lines
