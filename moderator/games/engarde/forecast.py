"""The forecast in an En Garde! receipt: the deterministic part of a player's month.

GalaxyNG mails each player a forecast of his turn; here it is read from one run of the
month with only his orders: his money week by week (allowance, support, dues, rent,
the box, costs, and gambling stakes counted in full, as money he puts at risk) with
the week he runs out, and every action the rules will refuse (SL too low for the club,
not a member, no lodgings for a party ...).  Chance is left out: what the dice decide
(winnings, duels) is not forecast, and other players' actions can change the rest, as
the receipt says.

Pure, like the engine: the month is run by the ``adjudicate`` it is given, on fixed
dice, and nothing is kept.

The month is run for his neighbourhood only (`neighbourhood`): he, everyone his record or
his orders name, everyone whose record names him (or a lady or regiment he names), the
loans, matters, challenges and charges between them.  Others have no orders in a
forecast, and a forecast leaves other players out anyway; running the whole world for
each receipt made a receipt cost O(characters).  The dice are his own: each roll made
for a character comes from a stream of that character's (`_OwnDice`), so what the
characters before him in key order roll does not move his dice.  `World` indexes a
state once (a turn's receipts share it); the fast forecast is the full world's, line for
line (tests/players/test_forecast_neighbourhood.py compares them on random months).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from moderator.dice import Dice, Roll, SeededFaces
from moderator.games.base import JSON, Event, TurnResult
from moderator.games.engarde.refusal_words import SAID

Adjudicate = Callable[[JSON, Mapping[str, JSON], Any, Dice], TurnResult]

# What the dice decide: not part of a forecast (the stake is, see `_stakes`).
_CHANCE = ("gambling.", "duel.", "wound", "trial.", "battle", "front.", "lady.",
           "romance.", "mistress.", "family.", "status.", "companionship.")
# Money the affairs of the heart cost whatever the dice say (EG §L): courting gifts,
# escorting her, a kept mistress's support.
_CERTAIN = frozenset({"mistress.courting", "mistress.escorted", "mistress.support"})
# Events that say an order will not be carried out (EG §G, §J, §F ...).
_REFUSALS = ("refused", "unaffordable", "cancelled", "turned_away", "unpaid", "downgraded",
             "stopped", "over_limit", "not_member", "no_home", "failed")
# Fixed dice: a forecast is the same every time it is made (reruns are byte-identical).
_SEED = 0


@dataclass
class _Week:
    label: str
    changes: list[tuple[str, int]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    short_of_money: bool = False


class _OwnDice(Dice):
    """Fixed dice where each character rolls from his own streams (``subsystem@key``):
    his faces do not depend on how many dice the others rolled before him."""

    def __init__(self) -> None:
        super().__init__(SeededFaces(_SEED, 0))

    def roll(self, subsystem: str, spec: str, purpose: str, *, actor: str | None = None,
             needs: int | None = None, modifier: int = 0) -> Roll:
        own = f"{subsystem}@{actor}" if actor else subsystem
        return super().roll(own, spec, purpose, actor=actor, needs=needs, modifier=modifier)


@dataclass(frozen=True)
class World:
    """A state indexed for forecasts: built once (O(world)), read by each forecast.

    ``mentions`` maps every string a character's record holds (values and keys) to the
    characters holding it; ``entries`` the loans, matters, challenges and charges to the
    characters they name.
    """

    state: JSON
    names: Mapping[str, str]  # a character's or a lady's name or key -> the key
    words: Mapping[str, frozenset[str]]  # a character -> the strings his record holds
    mentions: Mapping[str, frozenset[str]]
    regiments: Mapping[str, frozenset[str]]
    army: frozenset[str]  # in a regiment, holding a rank, or at the front
    court: frozenset[str]  # holding an appointment or favours (EG §S)
    entries: Mapping[str, tuple[tuple[JSON, frozenset[str]], ...]]
    always: frozenset[str]  # last month's box holders (the theatre names them)


_LISTS = ("loans", "matters", "challenges", "charges")
# Orders that meet the whole army (posts, promotions, the front's battles: EG §M) or
# the court (appointments, favours pushed on the same decisions: EG §S), named or not.
_ARMY_ORDERS = frozenset({"join_regiment", "buy_commission", "sell_commission", "buy_horse",
                          "duty", "volunteer", "disguise", "stay_in_paris",
                          "commission_deal", "apply", "resign_position"})
_COURT_ORDERS = frozenset({"apply", "resign_position", "petition", "combine_favours", "bribe",
                           "use_favour", "charge", "warrant", "testify"})


def _in_army(character: JSON) -> bool:
    return bool(character.get("regiment") or character.get("rank")
                or character.get("location", "paris") != "paris"
                or character.get("front_until") is not None)


def _at_court(character: JSON) -> bool:
    return bool(character.get("appointment") or character.get("favours"))


def index(state: JSON) -> World:
    """`World` of ``state`` (which must not change while the index is used)."""
    characters: Mapping[str, JSON] = state.get("characters", {})
    names: dict[str, str] = {}
    for key, lady in (state.get("ladies") or {}).items():
        names[key] = names[str(lady.get("name"))] = key
    words: dict[str, frozenset[str]] = {}
    mentions: dict[str, set[str]] = {}
    regiments: dict[str, set[str]] = {}
    army: set[str] = set()
    court: set[str] = set()
    # One walk over the characters builds every part of the index: each walk is O(world),
    # and intake builds an index for each open turn's state before its first receipt.
    for key, character in characters.items():
        names[key] = names[str(character.get("name"))] = key
        held = words[key] = frozenset(_strings(character))
        for word in held:
            mentions.setdefault(word, set()).add(key)
        regiment = character.get("regiment")
        if regiment:
            regiments.setdefault(str(regiment), set()).add(key)
        if _in_army(character):
            army.add(key)
        if _at_court(character):
            court.add(key)
    entries = {name: tuple((entry, frozenset(_strings(entry)) & characters.keys())
                           for entry in state.get(name) or ()) for name in _LISTS}
    holders = (state.get("theatre") or {}).get("box_holders") or ()
    return World(state, names, words, {w: frozenset(k) for w, k in mentions.items()},
                 {r: frozenset(k) for r, k in regiments.items()}, frozenset(army),
                 frozenset(court), entries, frozenset(holders) & characters.keys())


def _strings(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def neighbourhood(world: World, key: str, orders: JSON) -> JSON:
    """The part of ``world``'s state one character's month can touch (see the module)."""
    state, characters = world.state, world.state["characters"]
    mine = characters[key]
    words = world.words[key] | _strings(orders) | {key}
    named = {w for w in words if w in world.names}
    near = {key} | world.always | {world.names[w] for w in named} & characters.keys()
    for word in named | {world.names[w] for w in named}:  # whoever names them, or him
        near |= world.mentions.get(word, frozenset())
    for word in words:
        near |= world.regiments.get(word, frozenset())
    if _in_army(mine) or words & _ARMY_ORDERS:
        near |= world.army
    if _at_court(mine) or words & _COURT_ORDERS:
        near |= world.court
    kept: dict[str, list[JSON]] = {name: [] for name in _LISTS}
    grown = True
    while grown:  # the parties of every entry naming one of them, until none is added
        grown = False
        for name in _LISTS:
            kept[name] = [entry for entry, parties in world.entries[name] if parties & near]
            for _entry, parties in world.entries[name]:
                if parties & near and not parties <= near:
                    near |= parties
                    grown = True
    return {**state, **kept, "characters": {k: characters[k] for k in sorted(near)}}


def forecast(state: JSON, orders: Mapping[str, JSON], tables: Any,
             adjudicate: Adjudicate, world: World | None = None) -> dict[str, tuple[str, ...]]:
    """Per character in ``orders``: the forecast lines for his receipt.  With ``world``
    (`index` of this very ``state``) only each character's `neighbourhood` is run."""
    found: dict[str, tuple[str, ...]] = {}
    for key in sorted(orders):
        if key not in state.get("characters", {}):
            continue
        month = neighbourhood(world, key, orders[key]) if world is not None else state
        result = adjudicate(month, {key: orders[key]}, tables, _OwnDice())
        mine = [e for e in result.events if e.actor == key]
        start = int(state["characters"][key].get("crowns", 0))
        found[key] = _lines(start, _weeks(mine, orders[key], _Names(state)))
    return found


class _Names:
    """Character key -> name, read when a refusal names someone (never by key, as the
    gazette does); looked up one key at a time, since building the world's names for
    every receipt cost O(characters) per message (issue 16, goal 3)."""

    def __init__(self, state: JSON) -> None:
        self._characters: Mapping[str, Any] = state.get("characters", {})

    def get(self, key: str, default: str) -> str:
        found = self._characters.get(key)
        return str(found.get("name", key)) if isinstance(found, Mapping) else default


def _weeks(events: Sequence[Event], orders: JSON, names: _Names) -> list[_Week]:
    """The events in the order they happen: before week 1, weeks 1-4, the month's end."""
    before, after = _Week("Before week 1"), _Week("At the month's end")
    weeks = {n: _Week(f"Week {n}") for n in range(1, 5)}
    seen_week = False
    for event in events:
        if event.week is not None:
            seen_week = True
        where = weeks.get(event.week or 0) or (after if seen_week else before)
        if event.id not in _CERTAIN and any(event.id.startswith(c) or c in event.id
                                            for c in _CHANCE):
            pass
        elif event.ledger.get("crowns"):
            where.changes.append((_name(event), int(event.ledger["crowns"])))
        if any(word in event.id for word in _REFUSALS) and not _by_the_dice(event):
            where.refused.append(_when(event, where.label) + _refusal(event, names))
            where.short_of_money = where.short_of_money or _for_want_of_money(event)
    for n, stake in _stakes(orders).items():
        weeks[n].changes.append(("gambling stake at risk", -stake))
    return [before, *(weeks[n] for n in sorted(weeks)), after]


def _stakes(orders: JSON) -> dict[int, int]:
    """Stake x wagers of every week he gambles: the most he can lose (EG §K)."""
    stakes: dict[int, int] = {}
    for number, order in (orders.get("month") or {}).get("weeks", {}).items():
        gamble = order.get("gamble") if isinstance(order, dict) else None
        if gamble:
            stakes[int(number)] = int(gamble.get("stake", 0)) * int(gamble.get("wagers", 1))
    return stakes


def _name(event: Event) -> str:
    """``club.dues`` -> ``club dues``; the args that say what it was."""
    words = event.id.replace(".", " ").replace("_", " ")
    what = event.args.get("club") or event.args.get("venue") or event.args.get("level")
    return f"{words} ({what})" if what else words


# Weekend business (EG §D, §O, §P, §L): its refusal is dated "Weekend n", not "Week n".
_WEEKEND = ("theatre.", "liaison.", "proposal.", "wedding.", "housing.")


def _when(event: Event, label: str) -> str:
    if event.week is not None and event.id.startswith(_WEEKEND):
        return f"Weekend {event.week}: "
    return f"{label}: "


# Refused by the dice: the King's pardon (EG §S), the Pope's divorce, a lady's consent.
_DICE_REASONS = ("roll", "natural", "king", "pope", "lady")
# Not refusals of his orders, though their ids say so: his own REFUSE CHALLENGE
# (reference §6), an arrest that did not happen to him.
_NOT_REFUSALS = ("duel.refused", "trial.arrest_refused")


def _by_the_dice(event: Event) -> bool:
    """A failure the dice decided (a courting roll, EG §L; an application, a liaison ...),
    or no refusal at all (`_NOT_REFUSALS`): the forecast's fixed dice say nothing of it,
    so it is not a refusal to forecast."""
    return ("face" in event.args or event.args.get("reason") in _DICE_REASONS
            or event.id in _NOT_REFUSALS)


def _for_want_of_money(event: Event) -> bool:
    """Whether this refusal is for want of crowns (the forecast's "you run out of money"):
    an unpaid or unaffordable cost, the bawdyhouse's company and drink (EG §M), a house
    or a courting gift he cannot pay for (EG §P, §L)."""
    reason = str(event.args.get("reason", ""))
    return ("unaffordable" in event.id or "unpaid" in event.id
            or event.id == "bawdyhouse.refused"
            or (event.id == "housing.refused" and reason.endswith("crowns"))
            or (event.id == "mistress.court_refused" and reason == "funds"))


def _refusal(event: Event, names: _Names) -> str:
    args = {k: names.get(v, v) if isinstance(v, str) else v for k, v in event.args.items()}
    said = SAID.get(event.id)
    if said is not None:
        return said(args)
    detail = ", ".join(f"{k} {v}" for k, v in sorted(args.items())
                       if isinstance(v, str | int) and not isinstance(v, bool))
    words = event.id.replace(".", ": ").replace("_", " ")
    return f"{words}{f' ({detail})' if detail else ''}"


def _lines(start: int, weeks: list[_Week]) -> tuple[str, ...]:
    lines = [f"Money: {start} crowns now."]
    balance, ran_out = start, None
    refused: list[str] = []
    for week in weeks:
        if not week.changes and not week.refused:
            continue
        before = balance
        balance += sum(amount for _, amount in week.changes)
        shown = ", ".join(f"{name} {amount:+d}" for name, amount in week.changes)
        if week.changes:
            lines.append(f"{week.label}: {before} -> {balance} crowns ({shown}).")
        if ran_out is None and (balance < 0 or week.short_of_money):
            ran_out = week.label
        refused += week.refused
    if ran_out is not None:
        lines.append(f"You run out of money: {ran_out.lower()}.")
    else:
        lines.append(f"You end the month with about {balance} crowns (before any winnings).")
    if refused:
        lines.append("The rules will refuse:")
        lines += [f"  - {r}" for r in refused]
    return tuple(lines)
