"""Invariants of a Fief: England state (the property test checks them after every round)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from moderator.games.fief.state.model import TROOPS, UNITS
from moderator.games.fief.tables import Tables


def problems(state: dict[str, Any], tables: Tables) -> list[str]:
    out: list[str] = []
    if state["phase"] == "muster":
        return out
    players, nobles, cities = state["players"], state["nobles"], state["cities"]
    for key, p in players.items():
        if p["cash"] < 0:
            out.append(f"{key} has negative cash {p['cash']}")
        if len(p["hand"]) > tables.hand_limit(len(players)):
            out.append(f"{key} holds {len(p['hand'])} cards")
    # Troops: never negative, and stockpile + map = the family's supply (FE Setup).
    for colour, fam in state["families"].items():
        for unit in UNITS:
            if unit == "crossbow":
                continue
            on_map = sum(c["troops"].get(colour, {}).get(unit, 0) for c in cities.values())
            if unit == "trebuchet":   # under construction before a besieged city (FE 7.9)
                on_map += sum(c["siege_engines"] for c in cities.values()
                              if c["besieged_by"] == colour)
            stock = fam["stock"].get(unit, 0)
            if stock < 0 or any(c["troops"].get(colour, {}).get(unit, 0) < 0
                                for c in cities.values()):
                out.append(f"{colour} {unit} negative")
            if on_map + stock != tables.unit(unit).stock:
                out.append(f"{colour} {unit}: {on_map} on the map + {stock} stock")
        alive = [n for n in nobles.values() if n["family"] == colour and n["status"] != "dead"]
        if len(alive) > tables.cards.nobles_max:
            out.append(f"{colour} has {len(alive)} nobles")
    for city, c in cities.items():
        for fam, units in c["troops"].items():
            if not units or any(v <= 0 for v in units.values()):
                out.append(f"{city}: empty or zero troop entry for {fam}")
        if c["holder"] is not None and c["holder"] not in c["occupants"] and not c["building"]:
            out.append(f"{city} held by {c['holder']} who is not there")
    # One holder per title and office.
    titles = Counter(r for n in nobles.values() if n["status"] != "dead" for r in n["titles"])
    out += [f"title {r} held {k} times" for r, k in titles.items() if k > 1]
    clergy = Counter(n["clergy"] for n in nobles.values() if n["status"] != "dead" and n["clergy"])
    out += [f"see {d} held {k} times" for d, k in clergy.items() if k > 1]
    for office in ("sovereign", "queen"):
        key = state[office]
        if key is not None and nobles[key]["status"] == "dead":
            out.append(f"the {office} is dead")
    # No dead noble acts or holds anything.
    for key, n in nobles.items():
        if n["status"] == "dead" and (n["titles"] or n["spouse"] or n["clergy"] or n["abbess"]):
            out.append(f"dead {key} still holds something")
        if n["captor"] in nobles and n["status"] == "captive" \
                and nobles[n["captor"]]["status"] == "dead":
            out.append(f"{key} is held by the dead {n['captor']}")
        if n["spouse"] and nobles[n["spouse"]]["spouse"] != key:
            out.append(f"{key}'s marriage is one-sided")
    out += _cards(state, tables)
    for army in state["invaders"].values():
        if army["foot"] < 0 or army["foot"] > tables.invaders.foot_per_army:
            out.append(f"{army['key']} has {army['foot']} foot")
    if len(state["invaders"]) > tables.invaders.armies:
        out.append("more invader armies than exist")
    return out


def _cards(state: dict[str, Any], tables: Tables) -> list[str]:
    """Every card is in exactly one place (FE Components)."""
    out = []
    hands = [c for p in state["players"].values() for c in p["hand"]]
    seen = Counter(state["character_deck"] + state["character_discard"] + state["fortune_deck"]
                   + state["fortune_discard"] + hands + state["track"]
                   + [c for cards in state["seas"].values() for c in cards]
                   + [c for _, c in state["dormant"]]
                   + [c for c in state["removed"] if not c.startswith("Retainer ")]
                   + [p["slot"] for p in state["players"].values() if p["slot"]])
    alive = [n for n in state["nobles"].values() if n["status"] != "dead"]
    for n in alive:
        seen[f"Noble {n['name']}"] += 1
        if n["clergy"]:
            d = tables.district(n["clergy"])
            seen[f"{d.rank.title()} of {d.cathedral}"] += 1
        seen["Abbess"] += len(n["abbess"])
    expected = Counter({f"Noble {n.name}": 1 for n in tables.nobles})
    for card, count in (*tables.character_cards, *tables.fortune_cards, *tables.disaster_cards):
        expected[card] += count
    seen_relics = {c for c in seen if c.startswith("Relic ")}
    for card in seen_relics:
        del seen[card]
    if seen != expected:
        diff = (seen - expected) + (expected - seen)
        out.append(f"cards out of place: {dict(diff)}")
    retainers = Counter(state["retainer_deck"] + [r[9:] for r in state["removed"]
                                                  if r.startswith("Retainer ")]
                        + [n["retainer"] for n in alive if n["retainer"]])
    if sum(retainers.values()) != sum(c for _, c, _ in tables.retainers):
        out.append(f"retainers: {sum(retainers.values())}")
    return out


def troop_total(state: dict[str, Any]) -> int:
    return sum(v for c in state["cities"].values() for units in c["troops"].values()
               for u, v in units.items() if u in TROOPS)
