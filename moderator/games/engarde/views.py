"""What the gazette and the turn sheet templates need (reference §13).

Events arrive as `Event` values and leave as dicts (``Event.to_dict()``); names
of characters are passed as a ``names`` mapping for the event macros.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from moderator.games.base import Event
from moderator.games.engarde.events import EventId
from moderator.games.engarde.lookup import Lookup, character_names
from moderator.games.engarde.state import Character, GameState
from moderator.games.engarde.tables import Tables

JSON = dict[str, Any]
NOTICE_IDS = {
    EventId.MUTUAL_NO_SHOW, EventId.ORDERS_SKIPPED, EventId.CLUB_REFUSED_ENTRY,
    EventId.CLUB_JOIN_REFUSED, EventId.HOUSING_REFUSED, EventId.PARTY_CANCELLED,
    EventId.PARTY_TURNED_AWAY, EventId.THEATRE_UNAFFORDABLE, EventId.THEATRE_BOX_UNUSED,
    EventId.PRACTICE_UNAFFORDABLE, EventId.CAROUSE_UNAFFORDABLE, EventId.BAWDYHOUSE_REFUSED,
    EventId.GAMBLING_STOPPED, EventId.SUPPORT_DOWNGRADED, EventId.CHARACTER_INDISPOSED,
    EventId.THEATRE_NO_FIRST_NIGHT,
}
NOTICE_VALUES = frozenset(n.value for n in NOTICE_IDS)


@dataclass(frozen=True)
class _Index:
    """Per-turn lookups shared by all turn sheets of one render (built once, not per sheet)."""

    names: dict[str, str]
    by_actor: dict[str | None, list[Event]]
    look: Lookup


def _index(before: JSON, after: JSON, events: Sequence[Event], tables: Tables) -> _Index:
    names = {**character_names(before), **character_names(after)}
    by_actor: dict[str | None, list[Event]] = defaultdict(list)
    for e in events:
        by_actor[e.actor].append(e)
    return _Index(dict(sorted(names.items())), dict(by_actor), Lookup(names, tables))


def newsletter_context(before: JSON, after: JSON, events: Sequence[Event],
                       characters: Sequence[str], tables: Tables) -> tuple[JSON, dict[str, JSON]]:
    """The gazette's context and each listed character's turn-sheet context.

    One call for the whole newsletter, so the per-turn index is built once, not per sheet.
    """
    idx = _index(before, after, events, tables)
    game = GameState.from_dict(after)
    gazette = gazette_context(before, game, events, idx, tables)
    return gazette, {key: sheet_context(before, after, key, idx, tables) for key in characters}


def lodgings(c: Character, tables: Tables) -> str:
    if not c.home:
        return "no fixed lodgings"
    house = tables.housing_type(c.home.kind).name
    return f"{house} in {tables.area(c.home.area).name} ({c.home.tenure.value})"


def _arrow(change: int) -> str:
    return "↑" if change > 0 else "↓" if change < 0 else "="


def _week_label(week: int | None, public_end: bool) -> str:
    if week is None:
        return "At the end of the month" if public_end else "At the start of the month"
    return f"Week {week}"


def _month(state: JSON, tables: Tables) -> str:
    return f"{tables.months[state['month'] - 1]} {state['year']}"


def gazette_context(before: JSON, a: GameState, events: Sequence[Event], idx: _Index,
                    tables: Tables) -> JSON:
    pole = []
    for key, c in a.characters.items():
        start = before["characters"].get(key, {}).get("sl", c.sl)
        pole.append({
            "key": key, "name": c.name, "title": tables_title(c, tables), "sl": c.sl,
            "change": c.sl - start, "arrow": _arrow(c.sl - start), "sp": c.sp_month,
            "club": idx.look.club(c.club) if c.club else "", "lodgings": lodgings(c, tables),
        })
    pole.sort(key=lambda r: (-r["sl"], -r["sp"], r["name"]))
    groups: dict[str, list[JSON]] = {}
    seen_weeks = False
    theatre_news = []
    for e in events:
        if not e.public:
            continue
        if e.id.startswith("theatre."):
            theatre_news.append(e.to_dict())
            continue
        seen_weeks = seen_weeks or e.week is not None
        groups.setdefault(_week_label(e.week, seen_weeks), []).append(e.to_dict())
    return {
        "names": idx.names,
        "month": _month(before, tables),
        "pole": pole,
        "paris": [{"label": label, "events": evs} for label, evs in groups.items()],
        "theatre": {"news": theatre_news, "play": a.theatre.play,
                    "long_run": a.theatre.long_run, "run_months": a.theatre.run_months},
    }


def sheet_context(before: JSON, after: JSON, key: str, idx: _Index, tables: Tables) -> JSON:
    c = Character.from_dict(after["characters"][key])
    old = before["characters"].get(key)
    start = Character.from_dict(old) if old else c
    mine = idx.by_actor.get(key, [])
    balance, accounts = start.crowns, []
    for e in mine:
        if e.crowns:
            balance += e.crowns
            accounts.append({"event": e.to_dict(), "amount": e.crowns, "balance": balance})
    total, ledger = 0, []
    for e in mine:
        if e.sp:
            total += e.sp
            ledger.append({"event": e.to_dict(), "sp": e.sp, "total": total})
    change = c.sl - start.sl
    look = idx.look
    return {
        "names": idx.names,
        "month": _month(before, tables),
        "summary": {
            "name": c.name, "title": tables_title(c, tables), "sl": c.sl, "sl_before": start.sl,
            "sl_word": "rose" if change > 0 else "fell" if change < 0 else "held",
            "sp": c.sp_month, "crowns": c.crowns, "allowance": c.allowance,
            "club": look.club(c.club) if c.club else "none", "lodgings": lodgings(c, tables),
            "strength": c.strength, "constitution": c.constitution, "endurance": c.endurance,
            "military_ability": c.military_ability, "expertise": dict(c.expertise),
            "practice_weeks": dict(c.practice_weeks),
            "properties": [f"{look.housing(p.kind)} in {look.area(p.area)}"
                           + (" (to let)" if p.letting else "") for p in c.properties],
        },
        "accounts": {"opening": start.crowns, "lines": accounts, "closing": c.crowns},
        "sp_ledger": {"lines": ledger, "total": total},
        "notices": [e.to_dict() for e in mine if e.id in NOTICE_VALUES],
    }


def tables_title(c: Character, tables: Tables) -> str | None:
    if not c.title:
        return None
    return next((t.name for t in tables.titles if t.key == c.title), c.title)
