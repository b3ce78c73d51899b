"""What the gazette (*The Fandonian Courier*) and the private turn sheets need.

IP and PP are public (34.5, 35.7) and go in the gazette; hands, counters drawn and
refusals stay on the player's own sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.dice import Dice
from moderator.games.base import Event
from moderator.games.capabilities import TurnRecord
from moderator.games.dwtk import reasons, status
from moderator.games.dwtk.orders import TurnOrders
from moderator.games.dwtk.orders.activity import ActivityKind
from moderator.games.dwtk.orders.names import PC, Names
from moderator.games.dwtk.orders.reaction import format_reaction
from moderator.games.dwtk.state import Character, GameState, Phase, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import OfficeKind, Sex, Tables, kind_of
from moderator.games.dwtk.views.bids import lost_bids
from moderator.games.dwtk.views.concerns import happened, owners
from moderator.games.dwtk.views.dice import own_dice

JSON = dict[str, Any]
NO_RECORD = TurnRecord(None, ())  # a turn's newsletters without its orders and dice log


def names(state: GameState, tables: Tables) -> dict[str, str]:
    """Every key an event may carry -> the name a reader sees."""
    out = {str(n.id): n.name for n in tables.nobles}
    out.update({r.key: r.name for r in tables.royals})
    out.update({o.key: o.name for o in tables.offices})
    out.update({c.key: c.name for c in tables.countries})
    out.update({p.key: p.name for p in tables.problems})
    out.update({c.key: c.name for c in tables.cards})
    out.update({o.key: o.name for o in tables.opportunities})
    out.update({k: p.name for k, p in state.players.items()})
    # "act:<activity>": a skipped activity as the player wrote it, "DO TITLE" (the
    # forecast's words too; other skipped orders read "BUY PP", "PROPOSE PC": `act`).
    out.update({f"act:{k.value}": f"DO {k.value.upper()}" for k in ActivityKind})
    out["act:solicit"] = "SOLICIT BRIBE"  # 13.4.20.1, the order's two words
    # "counsel:<table>:<key>": a counsel by its name ("Ban a courtier", DWTK 15.4).
    out.update({f"counsel:{table}:{c.key}": c.name
                for table, counsels in tables.counseling.items() for c in counsels})
    # "counsel:<key>": the same by its key alone (a bribed NC's modifier, 13.4.20.2: the
    # event does not say the table; a key in two tables has one name in both).
    out.update({f"counsel:{c.key}": c.name
                for counsels in tables.counseling.values() for c in counsels})
    # "<key>:female" lets the event macros say "her" and "she" (templates/dwtk/events.md.j2).
    out.update({f"{n.id}:female": "1" for n in tables.nobles if n.sex is Sex.FEMALE})
    out.update({f"{r.key}:female": "1" for r in tables.royals if r.sex is Sex.FEMALE})
    # "reason:<code>": why a thing was refused or befell, in words (events.md.j2 `why`).
    cards = {c.key: c.name for c in tables.cards}
    out.update({f"reason:{code}": text for code, text in reasons.phrases(cards).items()})
    return dict(sorted(out.items()))


def _court(state: GameState, tables: Tables) -> Court:
    return Court(state, tables, Dice.for_turn(0, 0))  # views roll nothing


def gazette_context(before: GameState, after: GameState, events: Sequence[Event],
                    tables: Tables) -> JSON:
    court = _court(after, tables)
    nm = names(after, tables)
    monarch = after.offices.get("monarch")
    offices = []
    for o in tables.offices:
        if o.kind is OfficeKind.MONARCH:
            continue
        holder = after.offices.get(o.key)
        owner = court.controller(holder)
        offices.append({"office": o.name, "holder": nm.get(holder or "", "vacant"),
                        "faction": nm.get(owner or "", "neutral") if holder else "",
                        "suspended": o.key in after.suspended})
    players = []
    for key in court.seats:
        p = after.players[key]
        members = [nm[c.key] for c in court.faction(key)]
        members += [nm[r.key] for r in court.farcs(key)]
        pc = court.pc_of(key)
        returns = pc.face_down_until if pc is not None else None
        # 31.5: a dead PC is marked, with the turn his heir comes back face up.
        shown = nm.get(str(p.pc), "to be dealt") + (
            f" (dead; the heir returns on turn {returns})" if returns is not None else "")
        players.append({"name": p.name, "pc": shown,
                        "pc_status": status.status(court, p.pc) if p.pc is not None and
                        after.phase is not Phase.MUSTER and returns is None else None,
                        "ip": p.ip, "pp": p.pp, "faction": members})
    return {
        "names": nm,
        "phase": after.phase.value,
        "monarch": nm.get(monarch or "", "none"),
        "succession": [nm[k] for k in tables.succession
                       if after.royals[k].alive and k != monarch],
        "reign": reign(after, tables, nm),
        "support": after.support,
        # The turn the court assembles has no Support before it to compare with (DWTK 3).
        "support_change": 0 if before.phase is Phase.MUSTER else after.support - before.support,
        "crisis": after.crisis,
        "offices": offices,
        "problems": [{"name": tables.problem(p.key).name, "turns": p.unresolved,
                      "failures": p.failures} for p in after.problems],
        "wars": [tables.country(c).name for c in after.wars],
        "crown_event": after.crown_event,
        "players": players,
        "order": [after.players[k].name for k in after.order],
        "winner": nm.get(after.winner or "") if after.winner else None,
        "drawn": after.drawn_game,
        "deck": len(after.deck),
        "discards": len(after.discards),
    }


def reign(after: GameState, tables: Tables, nm: Mapping[str, str]) -> JSON | None:
    """DWTK 37: a FARC Monarch's full turns on the throne and how many remain (the
    turn of the usurpation is not a full one); None when the Monarch is no one's FARC
    or the game is over (the winner is said)."""
    monarch = after.offices.get("monarch")
    if monarch is None or monarch not in after.royals or after.phase is Phase.OVER:
        return None
    owner = after.royals[monarch].owner
    if owner is None:
        return None
    needed = int(tables.rule("victory_turns"))
    turns = max(0, after.farc_monarch_turns)
    return {"royal": nm.get(monarch, monarch), "player": nm.get(owner, owner),
            "turns": turns, "needed": needed, "left": max(0, needed - turns)}


def _ties(c: Character, nm: Mapping[str, str]) -> JSON:
    """What the Record Sheet keeps of one noble: spouse (18), betrothed (18.4.7), and a
    wrongdoer's standing charge (23.5, 13.4.20)."""
    return {"spouse": nm.get(c.spouse or "", "") if c.spouse else "",
            "betrothed": nm.get(c.betrothed or "", "") if c.betrothed else "",
            # banished, imprisoned or awaiting execution says it already
            "wrongdoer": c.wrongdoer and c.situation in (Situation.NORMAL, Situation.HIDING)}


def sheet_context(after: GameState, key: str, tables: Tables) -> JSON:
    court = _court(after, tables)
    nm = names(after, tables)
    p = after.players[key]
    pc = court.pc_of(key)
    order_names = Names.of(tables, {k: x.name for k, x in after.players.items()})
    members = [{"name": nm[c.key], "status": status.status(court, c.id),
                "henchman": c.henchman is not None, "counselor": c.counselor is not None,
                "office": nm.get(court.office_of(c.key) or "", ""),
                "where": nm.get(c.location, "Fandonia"), "situation": c.situation.value,
                **_ties(c, nm)}
               for c in court.faction(key)]
    return {
        "names": nm,
        "player": p.name,
        "pc": None if pc is None else {
            "name": nm[pc.key], "status": status.status(court, pc.id),
            "office": nm.get(court.office_of(pc.key) or "", ""),
            "where": nm.get(pc.location, "Fandonia"), "situation": pc.situation.value,
            "banned": pc.banned, "dead": pc.face_down_until is not None,
            "returns": pc.face_down_until, **_ties(pc, nm)},
        "voyage": None if p.voyage is None else {  # 13.4.17.1
            "captain": nm[str(p.voyage.captain)] if p.voyage.captain is not None
            else "an anonymous captain", "cargo": p.voyage.cargo},
        "ip": p.ip,
        "pp": p.pp,
        "reign": reign(after, tables, nm),
        "load": status.faction_load(court, key) if after.phase is not Phase.MUSTER else 0,
        "faction": members,
        "farcs": [nm[r.key] for r in court.farcs(key)],
        "hand": sorted(nm[kind_of(c)] for c in p.hand),
        "loyalty": [nm[str(c)] + f" ({c})" for c in p.loyalty],
        "opportunity": [nm[kind_of(c)] for c in p.opportunity],
        "drawn": [nm[kind_of(c)] for c in p.drawn],
        "court_ball_mod": p.court_ball_mod,
        # 13.4.17: each Prestige Table's modifier that counts, by the table's name
        "prestige_mods": {tables.prestige[t].name: m for t, m in p.prestige_mods.items() if m},
        "free_counsel": p.free_counsel,
        "reactions": [{"n": r.n, "text": format_reaction(r, order_names)}
                      for r in p.reactions],
        "lose_first": [order_names.who(w) for w in p.lose_first],  # 35.5, standing
    }


def own_bids(record: TurnRecord, after: GameState, key: str) -> dict[str, str] | None:
    """The player's own office bids of the turn (DWTK 6.1.1), office -> the character he
    bid, his PC by its id ("pc" if he has none); None: his orders are not known."""
    if record.orders is None:
        return None
    pc = after.players[key].pc
    out: dict[str, str] = {}
    for office, who in TurnOrders.from_dict(record.orders.get(key)).bids:
        out.setdefault(office, str(pc) if who == PC and pc is not None else who)
    return out


def newsletter_context(before: GameState, after: GameState, events: Sequence[Event],
                       characters: Sequence[str], tables: Tables,
                       record: TurnRecord = NO_RECORD) -> tuple[JSON, dict[str, JSON]]:
    """The gazette's context and each listed player's sheet's; ``record``: the turn's
    orders and dice log (none given: the sheets list no dice and know no orders)."""
    gazette = gazette_context(before, after, events, tables)
    held = owners(before, after)
    rolls = own_dice(record.dice, events, before, characters)
    return gazette, {key: {**sheet_context(after, key, tables),
                           "happened": happened(events, key, held),  # with his people's
                           "lost_bids": lost_bids(events, key,  # 6.1.1, 6.1.2
                                                  own_bids(record, after, key)),
                           "dice": rolls[key]}  # whose each die was (5, 19.8)
                     for key in characters}
