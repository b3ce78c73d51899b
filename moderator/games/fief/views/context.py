"""Template contexts: the public gazette and each family's private sheet.

Hidden things stay hidden (FAQ Ph2-3, FE 4.1): another player's cash, hand and troop
types appear on no one else's sheet; the gazette shows troop *counts* by city, and types
only in battle reports (revealed at the start of a battle, FE 7.0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moderator.dice import Dice
from moderator.games.base import Event
from moderator.games.fief import income
from moderator.games.fief.movement import BUILDINGS
from moderator.games.fief.orders.format import format_order
from moderator.games.fief.orders.values import order_from_dict
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState, Noble, Phase
from moderator.games.fief.state.model import TROOPS
from moderator.games.fief.tables import Tables
from moderator.games.fief.views.svgmap import svg_map


def names(state: GameState, tables: Tables) -> dict[str, str]:
    """Keys to display names: players, families, nobles, regions, armies."""
    out: dict[str, str] = {k: p.name for k, p in state.players.items()}
    for colour, fam in state.families.items():
        out[colour] = f"{colour} ({state.players[fam.player].name})"
    for key, n in state.nobles.items():
        out[key] = n.name
        if n.sex == "f":
            out[f"{key}:female"] = "1"
    for r in tables.regions:
        out[r.key] = r.styled
        out[str(r.number)] = f"{r.styled} (Sea {r.numeral})"
    for d in tables.districts:
        out[d.key] = d.name
    out["invaders"] = "the Invaders"
    return out


def _style(state: GameState, tables: Tables, key: str) -> str:
    n = state.nobles[key]
    titles = []
    for r in n.titles:
        region = tables.region(r)
        title = {"Duchy": ("Duke", "Duchess"), "County": ("Count", "Countess"),
                 "Barony": ("Baron", "Baroness")}[region.title][n.sex == "f"]
        titles.append(f"{title} of {region.styled}")
    if n.clergy:
        d = tables.district(n.clergy)
        titles.append(f"{d.rank.title()} of {d.cathedral}")
    for abbey in n.abbess:
        titles.append(f"Abbess of the {abbey}")
    if state.sovereign == key:
        titles.insert(0, "King" if n.sex == "m" else "Sovereign Queen")
    if state.queen == key:
        titles.insert(0, "Queen")
    return f"{n.name}, {', '.join(titles)}" if titles else n.name


def gazette(state: GameState, tables: Tables, events: Sequence[Event]) -> dict[str, Any]:
    realm = Realm(state, tables, Dice.for_turn(0, 0))
    cities = []
    for region in tables.regions:
        for city in region.cities:
            c = state.cities[city]
            troops = {f: c.troop_count(f) for f in sorted(c.troops) if c.troop_count(f)}
            cities.append({
                "city": city, "region": region.name, "holder": c.holder,
                # FE 4.2-4.4, 4.9: a building by its rulebook name, never its key ("royal").
                "building": BUILDINGS.get(c.building, c.building),
                "abbey": c.abbey, "mill": c.mill, "troops": troops,
                "besieged_by": c.besieged_by,
                "nobles": [_style(state, tables, n.key) + ("" if n.free else " (captive)")
                           + (" with the Royal Guard" if n.royal_knights or n.royal_men_at_arms
                              else "")
                           for n in state.living() if n.city == city],
                "invaders": [{"army": a.key, "foot": a.foot, "leader": a.leader}
                             for a in sorted(state.invaders.values(), key=lambda a: a.key)
                             if a.city == city],
            })
    titles = []
    for region in tables.regions:
        lord = realm.lord_of(region.key)
        titles.append({"region": region.name, "title": region.title,
                       "holder": _style(state, tables, lord.key) if lord else None,
                       "family": lord.family if lord else None})
    seas = [{"region": f"{r.name} (Sea {r.numeral})",
             "cards": list(state.seas.get(str(r.number), []))
             + [str(c) + " (asleep until Round 2)" for n, c in state.dormant if int(n) == r.number]}
            for r in tables.regions]
    vp = [{"player": p, "name": state.players[p].name,
           "families": state.players[p].families, "vp": realm.vp(p)} for p in state.seats]
    marriages = sorted({tuple(sorted((n.key, n.spouse))) for n in state.living() if n.spouse})
    return {
        "round": state.round, "over": state.phase is Phase.OVER,
        "winners": [state.players[p].name for p in state.winners],
        "order": [{"family": f, "player": state.players[state.player_of(f)].name}
                  for f in state.family_order()] if state.families else [],
        "cities": cities, "titles": titles, "seas": seas, "vp": vp,
        "sovereign": _style(state, tables, state.sovereign) if state.sovereign else None,
        "queen": _style(state, tables, state.queen) if state.queen else None,
        "consort": _consort(state),
        "candidates": [_style(state, tables, c) for c in state.candidates],
        "prince": _style(state, tables, state.prince) if state.prince else None,
        "excalibur": (f"in the hands of {_style(state, tables, state.excalibur_holder)}"
                      if state.excalibur_holder else
                      f"{'fallen' if state.excalibur_dropped else 'in its stone'} at "
                      f"{state.excalibur_city}" if state.excalibur_city else "not in England"),
        "marriages": [f"{state.nobles[a].name} and {state.nobles[b].name}" for a, b in marriages],
        "names": names(state, tables),
        "map_svg": svg_map(state, tables),
        "track": len(state.track),
    }


def sheet(state: GameState, tables: Tables, player: str) -> dict[str, Any]:
    p = state.players[player]
    realm = Realm(state, tables, Dice.for_turn(0, 0))
    troops = []
    for city in tables.city_names:
        c = state.cities[city]
        for fam in p.families:
            units = {k: v for k, v in sorted(c.units_of(fam).items()) if v}
            if units:
                troops.append({"city": city, "family": fam, "units": units,
                               "troops": sum(v for k, v in units.items() if k in TROOPS)})
    nobles = [{"name": _style(state, tables, n.key), "family": n.family, "city": n.city,
               "status": n.status, "spouse": state.nobles[n.spouse].name if n.spouse else None,
               "retainer": n.retainer, "heresy": n.heresy, "relics": list(n.relics),
               "ransom": realm.ransom(n) if n.status == "captive" else None,
               "captor": _captor(state, n.captor), "royal": _royal_guard(n)}
              for n in state.living() if n.family in p.families]
    # fief-email.md §7.2: the family board's captives held (their ransom is public, FE 7.7).
    held = [{"name": n.name, "family": n.family, "city": n.city, "ransom": realm.ransom(n),
             "by": state.nobles[n.captor].name}
            for n in state.living() if n.status == "captive" and n.captor in state.nobles
            and state.nobles[n.captor].family in p.families]
    # No Phase 3 comes after the last round (found playing by mail: the last sheet
    # still forecast the next income).
    forecast = (income.forecast(realm, player)
                if state.families and state.phase is not Phase.OVER else {})
    return {
        # The keys that are the reader, his and his families': his own deeds read "you"
        # (templates/fief/events.md.j2).
        "player": p.name, "reader": [player, *p.families],
        "families": p.families, "cash": p.cash, "hand": list(p.hand),
        "pigeons": p.pigeons, "treasures": p.treasures, "nobles": nobles, "troops": troops,
        "held": held,
        "nmr": p.nmr, "slot": p.slot, "crossbows": p.crossbows,
        "stock": {f: dict(sorted(state.families[f].stock.items())) for f in p.families
                  if f in state.families},
        "forecast": forecast, "vp": realm.vp(player) if state.families else 0,
        "standing": [{"n": i, "text": _standing_text(tables, s, state)}
                     for i, s in enumerate(p.standing, start=1)],
        "names": names(state, tables),
        # FE 7.1: a Battle Die's d6 read as hits, for "Your dice" (Realm.battle_die)
        "battle_faces": list(tables.battle.die_faces),
    }


def _consort(state: GameState) -> str | None:
    """FE 9.0: the Sovereign Queen's husband, the Prince Consort (no title, but the Royal
    Guard, 13.1); found playing by mail: the gazette's Crown did not name him."""
    queen = state.nobles.get(state.sovereign) if state.sovereign else None
    if queen is None or queen.sex != "f" or not queen.spouse:
        return None
    return state.nobles[queen.spouse].name


def _royal_guard(noble: Noble) -> str:
    """FE 13.1: the Royal Guard at the noble's side, in words ("" for none).  Found
    playing by mail: the sheet of an elected Sovereign's player never named her two Royal
    Knights, nor the consort's player his two Royal Men-at-Arms."""
    parts = [f"{count} Royal {one if count == 1 else many}"
             for count, one, many in ((noble.royal_knights, "Knight", "Knights"),
                                      (noble.royal_men_at_arms, "Man-at-Arms", "Men-at-Arms"))
             if count]
    return " and ".join(parts)


def _captor(state: GameState, captor: str | None) -> str | None:
    """Who holds a captive, in words: a noble and his family, an invading army, the
    bandits of Sherwood (FE 7.6, 6.7, 13.4)."""
    if captor is None:
        return None
    if captor.startswith("invaders:"):
        return f"the {captor[len('invaders:'):]}"
    if captor in state.nobles:
        return f"{state.nobles[captor].name} ({state.nobles[captor].family})"
    return "the bandits of Sherwood" if captor == "bandits" else captor


def _standing_text(tables: Tables, data: dict[str, Any], state: GameState) -> str:
    return format_order(tables, order_from_dict(data),
                        {k: p.name for k, p in state.players.items()})


def newsletter_context(before: GameState, after: GameState, events: Sequence[Event],
                       characters: Sequence[str], tables: Tables
                       ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    return (gazette(after, tables, events),
            {c: sheet(after, tables, c) for c in characters if c in after.players})
