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
from moderator.games.engarde.orders import COURT
from moderator.games.engarde.state import Character, GameState
from moderator.games.engarde.tables import Tables

JSON = dict[str, Any]
# The key in a sheet's ``names`` naming its reader (events.md.j2 writes his own lines in
# the second person); the gazette's names have none.
READER = "reader:"
NOTICE_IDS = {
    EventId.MUTUAL_NO_SHOW, EventId.ORDERS_SKIPPED, EventId.CLUB_REFUSED_ENTRY,
    EventId.CLUB_JOIN_REFUSED, EventId.HOUSING_REFUSED, EventId.PARTY_CANCELLED,
    EventId.PARTY_TURNED_AWAY, EventId.THEATRE_UNAFFORDABLE, EventId.THEATRE_BOX_UNUSED,
    EventId.PRACTICE_UNAFFORDABLE, EventId.CAROUSE_UNAFFORDABLE, EventId.BAWDYHOUSE_REFUSED,
    EventId.GAMBLING_STOPPED, EventId.SUPPORT_DOWNGRADED, EventId.CHARACTER_INDISPOSED,
    EventId.THEATRE_NO_FIRST_NIGHT,
}
NOTICE_IDS |= {
    EventId.MISTRESS_COURT_REFUSED, EventId.MISTRESS_NONE, EventId.MISTRESS_UNPAID,
    EventId.WIFE_UNHOUSED, EventId.LIAISON_REFUSED, EventId.LIAISON_GUARDED,
    EventId.PROPOSAL_REFUSED, EventId.WEDDING_REFUSED, EventId.FAMILY_UNAFFORDABLE,
    EventId.LOAN_UNMATCHED, EventId.LOAN_REFUSED, EventId.LOAN_TOO_EARLY,
    EventId.FAVOUR_MISSING, EventId.FAVOUR_UNUSED, EventId.BRIBE_UNAFFORDABLE,
}
NOTICE_IDS |= {
    EventId.REGIMENT_REJECTED, EventId.REGIMENT_COMMISSION_REFUSED, EventId.HORSE_LACKING,
    EventId.DUEL_INVALID, EventId.TRIAL_CHARGE_REFUSED, EventId.APPOINTMENT_REFUSED,
    EventId.DIVORCE_REFUSED, EventId.HOUSING_DEAL_UNMATCHED, EventId.TITLE_REFUSED,
}
NOTICE_VALUES = frozenset(n.value for n in NOTICE_IDS)
# Private results a player must not miss (reference §13.2: "secret results").
SECRET_VALUES = frozenset(e.value for e in (
    EventId.FAMILY_PREGNANT, EventId.FAMILY_PAID_OFF, EventId.FAMILY_ASSASSINATED,
    EventId.FAMILY_IGNORED, EventId.BRIBE_ACCEPTED, EventId.BRIBE_WASTED,
    EventId.BRIBE_REPORTED, EventId.LIAISON_SUCCESS, EventId.LIAISON_FAILED,
    EventId.PROPOSAL_DECLINED, EventId.MISTRESS_COURT_FAILED, EventId.TITLE_QUALIFIED))
# Public events the gazette prints as announcements (reference §13.2 item 2).
ANNOUNCEMENT_VALUES = frozenset(e.value for e in (
    EventId.PROPOSAL_ACCEPTED, EventId.WEDDING_HELD, EventId.WEDDING_MISSED,
    EventId.LOAN_DEMANDED, EventId.HONOUR_CAUSE, EventId.HONOUR_DISGRACED,
    EventId.FAMILY_BIRTH, EventId.PRESS_ANNOUNCEMENT))
# Gazette sections by event-id prefix (reference §13.2 items 3-7).
SECTION_PREFIXES = (("duel.", "honour"), ("trial.", "courts"), ("regiment.", "offices"),
                    ("appointment.", "offices"), ("title.", "offices"), ("front.", "front"))


@dataclass(frozen=True)
class _Index:
    """Per-turn lookups shared by all turn sheets of one render (built once, not per sheet)."""

    names: dict[str, str]
    by_actor: dict[str | None, list[Event]]
    look: Lookup


def _index(before: JSON, after: JSON, events: Sequence[Event], tables: Tables) -> _Index:
    names = {**character_names(before), **character_names(after)}
    # "turn:N" -> "April 1625": the event macros print months, never turn numbers.
    names.update({f"turn:{t}": _turn_label(after, t, tables)
                  for t in range(max(1, after["turn"] - 12), after["turn"] + 37)})
    by_actor: dict[str | None, list[Event]] = defaultdict(list)
    for e in events:
        by_actor[e.actor].append(e)
    people = {k: v for k, v in names.items() if not k.startswith("turn:")}
    return _Index(dict(sorted(names.items())), dict(by_actor), Lookup(people, tables))


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


def _week_label(week: int | None, public_end: bool, weekend: bool = False) -> str:
    if week is None:
        return "At the end of the month" if public_end else "At the start of the month"
    return f"{'Weekend' if weekend else 'Week'} {week}"


def _month(state: JSON, tables: Tables) -> str:
    return f"{tables.months[state['month'] - 1]} {state['year']}"


def gazette_context(before: JSON, a: GameState, events: Sequence[Event], idx: _Index,
                    tables: Tables) -> JSON:
    pole = []
    army = tables.army
    for key, c in a.characters.items():
        start = before["characters"].get(key, {}).get("sl", c.sl)
        lady = a.ladies.get(c.wife or c.mistress or "")
        pole.append({
            "key": key, "name": c.name, "title": tables_title(c, tables), "sl": c.sl,
            "change": c.sl - start, "arrow": _arrow(c.sl - start), "sp": c.sp_month,
            "club": idx.look.club(c.club) if c.club else "", "lodgings": lodgings(c, tables),
            "military": (f"{army.rank_name(c.rank)}, {army.regiment(c.regiment).abbr}"
                         if c.regiment and c.rank else army.rank_name(c.rank) if c.rank else ""),
            "appointment": army.appointment(c.appointment).name if c.appointment else "",
            "lady": (("wife " if c.wife else "") + f"{lady.name} ({lady.sl})") if lady else "",
            "location": "the front" if c.at_front else "Paris",
            "flags": ", ".join(f for f, on in (
                ("dead", c.dead), ("disgraced", bool(c.disgraced)),
                ("in prison", c.imprisoned(a.turn)),
                # EG §D: a living man who sent no orders; the dead send none.
                ("indisposed", c.missed_months > 0 and not c.dead))
                if on),
        })
    pole.sort(key=lambda r: (-r["sl"], -r["sp"], r["name"]))
    groups: dict[str, list[JSON]] = {}
    seen_weeks = False
    theatre_news = []
    announcements = []
    sections: dict[str, list[JSON]] = {"honour": [], "courts": [], "offices": [], "front": []}
    for e in events:
        if not e.public:
            continue
        seen_weeks = seen_weeks or e.week is not None
        if e.id.startswith("theatre."):
            theatre_news.append(e.to_dict())
            continue
        if e.id in ANNOUNCEMENT_VALUES:
            announcements.append(e.to_dict())
            continue
        section = next((name for prefix, name in SECTION_PREFIXES if e.id.startswith(prefix)),
                       None)
        if section:
            sections[section].append(e.to_dict())
            continue
        seen_weeks = seen_weeks or e.week is not None
        label = _week_label(e.week, seen_weeks, bool(e.args.get("weekend")))
        groups.setdefault(label, []).append(e.to_dict())
    return {
        "names": idx.names,
        "month": _month(before, tables),
        "pole": pole,
        "paris": [{"label": label, "events": evs} for label, evs in groups.items()],
        "theatre": {"news": theatre_news, "play": a.theatre.play,
                    "long_run": a.theatre.long_run, "run_months": a.theatre.run_months},
        "announcements": announcements,
        "ladies": ladies_of_paris(a),
        **sections,
        "regiments": _mark_changed(regiment_tables(a, tables),
                                   regiment_tables(GameState.from_dict(before), tables)),
    }


def _initials(name: str) -> str:
    return "".join(w[0].upper() for w in name.replace("-", " ").split() if w[0].isalpha())


def regiment_tables(a: GameState, tables: Tables) -> list[JSON]:
    """Reference §13.2 item 5: each regiment's officers, PC initials or N for an NPC."""
    army = tables.army
    slots = army.settings["slots"]
    held: dict[tuple[str, str], list[str]] = defaultdict(list)
    others: dict[str, list[str]] = defaultdict(list)
    for c in a.characters.values():
        if c.dead or not c.regiment or not c.rank:
            continue
        if c.rank in slots:
            held[(c.regiment, c.rank)].append(_initials(c.name))
        else:
            others[c.regiment].append(f"{_initials(c.name)} ({army.rank_name(c.rank)})")
    rows = []
    for reg in army.regiments:
        cells = {}
        for rank, count in slots.items():
            pcs = sorted(held.get((reg.key, rank), []))
            cells[rank] = " ".join(pcs + ["N"] * (count - len(pcs)))
        rows.append({"name": reg.name, "abbr": reg.abbr, "cells": cells,
                     "others": ", ".join(sorted(others.get(reg.key, [])))})
    return rows


def _mark_changed(rows: list[JSON], before: list[JSON]) -> list[JSON]:
    """Each regiment row with ``changed``: whether its officers differ from last month's
    (the gazette prints only those)."""
    old = {r["abbr"]: r for r in before}
    return [{**r, "changed": old.get(r["abbr"]) != r} for r in rows]


def decisions_due(a: GameState) -> list[str]:
    """GM decisions next month's run will look for, with their defaults: the GM's side
    only (`turn run`, `turn preview`); players never see a decision key."""
    out = []
    for ch in a.challenges:
        if ch.cause is None:
            out.append(f"{ch.decision}: does the challenger have cause? (default no)")
    for charge in a.charges:
        tag = f"{charge.id}:{charge.accused}"
        out += [f"plea:{tag}: witty/plausible/inept plea modifier (default 0)",
                f"sentence:{tag}: sentence if convicted (fine=N,prison=M,disgrace=yes,"
                "costs=yes) (default: the crime's)",
                f"verdict:{tag}: a PC judge's verdict (guilty/innocent) (default: the chart)"]
    return out


def ladies_of_paris(a: GameState) -> list[JSON]:
    """EG §L: the available ladies, with SL and attributes; loyalty stays secret."""
    kept = {k for c in a.characters.values() for k in (c.mistress, c.wife) if k}
    return [{"name": lady.name, "sl": lady.sl, "beautiful": lady.beautiful,
             "influential": lady.influential, "wealthy": lady.wealthy}
            for key, lady in a.ladies.items() if key not in kept and lady.pregnant_by is None]


def _turn_label(state: JSON, turn: int, tables: Tables) -> str:
    """The month a turn number falls in, counted from ``state``."""
    index = state["month"] - 1 + turn - state["turn"]
    return f"{tables.months[index % 12]} {state['year'] + index // 12}"


def _lady(data: JSON | None, state: JSON, tables: Tables) -> JSON | None:
    if not data:
        return None
    engaged = data.get("engaged")
    return {"name": data["name"], "sl": data["sl"], "beautiful": data.get("beautiful"),
            "influential": data.get("influential"), "wealthy": data.get("wealthy"),
            "engaged": _turn_label(state, engaged, tables) if engaged else None}


def society_sheet(before: JSON, after: JSON, c: Character, tables: Tables,
                  look: Lookup) -> JSON:
    """Mistress and family, favours with expiry, debts and status flags (EG §L, §Q, §S)."""
    ladies = after.get("ladies", {})
    debts = []
    for loan in after.get("loans", ()):
        if c.key not in (loan["borrower"], loan.get("lender")):
            continue
        owes = loan["borrower"] == c.key
        other = loan.get("lender") if owes else loan["borrower"]
        name = "the court" if other == COURT else look.character(other) if other else "a shylock"
        debts.append({"owes": owes, "other": name,
                      "amount": loan["amount"], "since": _turn_label(after, loan["taken"], tables),
                      "demanded": loan.get("demanded") is not None})
    return {
        "mistress": _lady(ladies.get(c.mistress) if c.mistress else None, after, tables),
        "wife": _lady(ladies.get(c.wife) if c.wife else None, after, tables),
        "children": [ch.to_dict() for ch in c.children],
        "favours": [{"cls": f.cls, "source": f.source,
                     "until": _turn_label(after, f.expires, tables) if f.expires
                     else None, "lady": ladies.get(f.lady, {}).get("name") if f.lady else None}
                    for f in sorted(c.favours, key=lambda f: (-f.cls, f.id))],
        "debts": debts,
        "disgraced": c.disgraced,
        "sent_away": c.sent_away,
    }


def army_sheet(c: Character, tables: Tables, state: JSON) -> JSON:
    """Regiment, rank, pay, horses, wounds, location, post (reference §4-8, §13.2);
    the months he is at the front or in prison until, as game months."""
    turn = state["turn"]
    army = tables.army
    reg = army.regiment(c.regiment) if c.regiment else None
    return {
        "regiment": reg.name if reg else None,
        "rank": army.rank_name(c.rank) if c.rank else None,
        "pay": army.cell(c.rank, reg.key, "pay") if reg and c.rank else 0,
        "rank_sp": army.cell(c.rank, reg.key, "sp") if reg and c.rank else 0,
        "horses": c.horses, "wounds": c.wounds, "endurance": c.endurance,
        "location": "at the front" if c.at_front else "in Paris",
        "front_until": _turn_label(state, c.front_until, tables) if c.front_until else None,
        "mentions": c.mentions,
        "mention_sp_due": c.mention_sp_due,
        "appointment": army.appointment(c.appointment).name if c.appointment else None,
        "prison_until": _turn_label(state, c.prison_until, tables)
        if c.prison_until is not None and c.imprisoned(turn) else None,
        "dead": c.dead,
    }


def sheet_context(before: JSON, after: JSON, key: str, idx: _Index, tables: Tables) -> JSON:
    c = Character.from_dict(after["characters"][key])
    old = before["characters"].get(key)
    start = Character.from_dict(old) if old else c
    mine = idx.by_actor.get(key, [])
    balance, accounts = start.crowns, []
    # Read through `Event.ledger`: the events may be plain `Event`s read back from JSON.
    for e in mine:
        if crowns := e.ledger.get("crowns", 0):
            balance += crowns
            accounts.append({"event": e.to_dict(), "amount": crowns, "balance": balance})
    total, ledger = 0, []
    for e in mine:
        if sp := e.ledger.get("sp", 0):
            total += sp
            ledger.append({"event": e.to_dict(), "sp": sp, "total": total})
    change = c.sl - start.sl
    look = idx.look
    return {
        # READER: whose sheet it is, so his own lines read "You hold SL 5", not his name.
        "names": {**idx.names, READER: key},
        "month": _month(before, tables),
        "summary": {
            "name": c.name, "title": tables_title(c, tables), "sl": c.sl, "sl_before": start.sl,
            "sl_word": "rose" if change > 0 else "fell" if change < 0 else "",
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
        "secrets": [e.to_dict() for e in mine if e.id in SECRET_VALUES],
        "society": society_sheet(before, after, c, tables, look),
        "army": army_sheet(c, tables, after),
        "decisions": [e.to_dict() for e in mine if e.id == EventId.DECISION_APPLIED.value],
    }


def tables_title(c: Character, tables: Tables) -> str | None:
    if not c.title:
        return None
    return next((t.name for t in tables.titles if t.key == c.title), c.title)
