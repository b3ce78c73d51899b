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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from moderator.dice import Dice
from moderator.games.base import JSON, Event, TurnResult

Adjudicate = Callable[[JSON, Mapping[str, JSON], Any, Dice], TurnResult]

# What the dice decide: not part of a forecast (the stake is, see `_stakes`).
_CHANCE = ("gambling.", "duel.", "wound", "trial.", "battle", "front.", "lady.",
           "romance.", "mistress.", "family.", "status.", "companionship.")
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


def forecast(state: JSON, orders: Mapping[str, JSON], tables: Any,
             adjudicate: Adjudicate) -> dict[str, tuple[str, ...]]:
    """Per character in ``orders``: the forecast lines for his receipt."""
    found: dict[str, tuple[str, ...]] = {}
    for key in sorted(orders):
        if key not in state.get("characters", {}):
            continue
        result = adjudicate(state, {key: orders[key]}, tables, Dice.for_turn(_SEED, 0))
        mine = [e for e in result.events if e.actor == key]
        start = int(state["characters"][key].get("crowns", 0))
        found[key] = _lines(start, _weeks(mine, orders[key]))
    return found


def _weeks(events: Sequence[Event], orders: JSON) -> list[_Week]:
    """The events in the order they happen: before week 1, weeks 1-4, the month's end."""
    before, after = _Week("Before week 1"), _Week("At the month's end")
    weeks = {n: _Week(f"Week {n}") for n in range(1, 5)}
    seen_week = False
    for event in events:
        if event.week is not None:
            seen_week = True
        where = weeks.get(event.week or 0) or (after if seen_week else before)
        if any(event.id.startswith(c) or c in event.id for c in _CHANCE):
            pass
        elif event.ledger.get("crowns"):
            where.changes.append((_name(event), int(event.ledger["crowns"])))
        if any(word in event.id for word in _REFUSALS):
            where.refused.append(_refusal(event))
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


# The refusals players meet most, in their words (args from the events, EG §F, §G, §J).
_SAID: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "club.join_refused": lambda a: f"JOIN CLUB {a.get('club')}: refused, the club needs "
                                   f"SL {a.get('min_sl')}" if a.get("reason") == "sl"
                                   else f"JOIN CLUB {a.get('club')}: refused",
    "club.refused_entry": lambda a: f"CLUB {a.get('club')}: turned away, you are not a "
                                    "member (nor anyone's guest)",
    "party.cancelled": lambda a: "HOST PARTY AT HOME: cancelled, you have no lodgings"
                                 if a.get("at_home") else "HOST PARTY: cancelled",
    "carouse.unaffordable": lambda a: "CAROUSE: you cannot pay for the drinks",
    "support.unpaid": lambda a: f"support ({a.get('cost')} crowns) cannot be paid: "
                                "you lose a Social Level",
    "support.downgraded": lambda a: "SUPPORT CONSPICUOUS cannot be paid: normal support "
                                    "instead",
}


def _refusal(event: Event) -> str:
    said = _SAID.get(event.id)
    if said is not None:
        return said(event.args)
    detail = ", ".join(f"{k} {v}" for k, v in sorted(event.args.items())
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
        money_refused = any("unaffordable" in r or "unpaid" in r for r in week.refused)
        if ran_out is None and (balance < 0 or money_refused):
            ran_out = week.label
        refused += [f"{week.label}: {r}" for r in week.refused]
    if ran_out is not None:
        lines.append(f"You run out of money: {ran_out.lower()}.")
    else:
        lines.append(f"You end the month with about {balance} crowns (before any winnings).")
    if refused:
        lines.append("The rules will refuse:")
        lines += [f"  - {r}" for r in refused]
    return tuple(lines)
