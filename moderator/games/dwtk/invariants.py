"""Invariants that hold after every adjudication (the property test of issue 5 uses them).

`check(state, tables)` returns every broken invariant as a message (empty: all hold).
"""

from __future__ import annotations

from collections import Counter

from moderator.games.dwtk import status
from moderator.games.dwtk.state import GameState, Phase, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import OfficeKind, Tables


class _NoDice:
    def roll(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("invariants roll no dice")


def cards_in_play(state: GameState) -> list[str]:
    """Cards placed in front of players: Henchman, Counselor, Royal Alignment, Support."""
    out = [card for c in state.characters.values() for card in (c.henchman, c.counselor)
           if card is not None]
    out += [r.card for r in state.royals.values() if r.card is not None]
    out += [card for p in state.players.values() for card in p.supports_played]
    return out


def check(state: GameState, tables: Tables) -> list[str]:
    problems: list[str] = []
    court = Court(state, tables, _NoDice())  # type: ignore[arg-type]
    for key, p in state.players.items():
        if p.ip < 0 or p.pp < 0:
            problems.append(f"{key}: IP {p.ip} / PP {p.pp} negative (34.3, 35.3)")
        load = status.faction_load(court, key) if state.phase is not Phase.MUSTER else 0
        if load > p.pp:
            problems.append(f"{key}: faction Status {load} over PP {p.pp} (35.4)")
    if state.support % 5 or not 0 <= state.support <= tables.rule("support_max"):
        problems.append(f"Monarch's Support {state.support} (32.1)")
    holders = [h for o, h in state.offices.items() if h is not None]
    for who, n in Counter(holders).items():
        if n > 1:
            problems.append(f"{who} holds {n} offices (16.2)")
    for office, holder in state.offices.items():
        if holder is None:
            continue
        kind = tables.office(office).kind
        if kind is OfficeKind.MONARCH:
            if holder.isdigit() or not state.royals[holder].alive:
                problems.append(f"the Monarch {holder} is not a living RC (9.2)")
            continue
        c = state.characters[int(holder)]
        if not c.alive or c.face_down_until is not None:
            problems.append(f"dead {holder} holds {office} (31.3)")
        if c.situation is not Situation.NORMAL:
            problems.append(f"{holder} holds {office} while {c.situation.value} (16.4)")
        if c.counselor is not None:
            problems.append(f"{holder} holds {office} and a Counselor card (16.2)")
        if not tables.noble(c.id).office_holder:
            problems.append(f"{holder} may not hold office (16.1)")
    for c in state.characters.values():
        dead = not c.alive or c.face_down_until is not None
        if dead and (c.henchman or c.counselor or c.spouse or (c.owner and not c.pc)):
            problems.append(f"dead {c.id} still holds or belongs to something (31)")
        if c.alive and c.owner is None and c.situation is Situation.HIDING:
            problems.append(f"NC {c.id} is in hiding (24.7)")
        if c.owner is None and (c.henchman or c.counselor):
            problems.append(f"NC {c.id} still has a Henchman or Counselor card (14.2.4)")
    for r in state.royals.values():
        if not r.alive and (r.owner or r.card or r.spouse):
            problems.append(f"dead RC {r.key} still holds something (31.2)")
    if state.phase is not Phase.MUSTER:
        places = [*(c for p in state.players.values() for c in p.hand), *state.deck,
                  *state.discards, *state.removed, *cards_in_play(state)]
        expected = Counter(tables.card_instances())
        if Counter(places) != expected:
            extra = sorted((Counter(places) - expected).elements())
            missing = sorted((expected - Counter(places)).elements())
            problems.append(f"Event cards: missing {missing[:5]}, extra {extra[:5]} (2.1.4)")
        for key, p in state.players.items():
            if sum(1 for c in p.hand if c.startswith("dwtk-")) != 1:
                problems.append(f"{key} does not hold exactly one DWTK card (14.2.8)")
        counters = [*state.opportunity_pool, *(c for p in state.players.values()
                                               for c in p.opportunity)]
        if Counter(counters) != Counter(tables.opportunity_instances()):
            problems.append("Opportunity counters unaccounted for (2.2.2)")
    return problems
