"""Validate ``{file stem: parsed TOML}`` into `Tables`, collecting every problem (TableError).

Provenance: each file names one in ``[meta] provenance``; map and card rows carry their own
``status``; the numbers of rules.toml and troops.toml are tagged one by one in ``[tags]``
and a value without a known tag is refused, so every number says where it came from.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from moderator.games.base import TableError
from moderator.games.fief.tables.values import (
    BattleRules,
    BuildingRules,
    CardRules,
    District,
    InvaderRules,
    MoneyRules,
    NobleCard,
    PlagueRules,
    Region,
    Road,
    SetupRules,
    Tables,
    Unit,
    VictoryRules,
)

REQUIRED = ("map", "cards", "troops", "rules")
TAGS = frozenset({"rulebook", "deduced", "inferred", "sourced", "PROPOSED", "reconstructed"})
T = TypeVar("T")


class _Reader:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def problem(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")

    def rows(self, raw: Mapping[str, Any], key: str, where: str) -> list[Mapping[str, Any]]:
        rows = raw.get(key, [])
        if not isinstance(rows, list) or not rows:
            self.problem(where, f"needs at least one [[{key}]]")
            return []
        return [r for r in rows if isinstance(r, Mapping)]

    def get(self, row: Mapping[str, Any], key: str, kind: type, where: str,
            default: Any = None) -> Any:
        value = row.get(key, default)
        if value is None:
            self.problem(where, f"missing {key!r}")
            return kind()
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.problem(where, f"{key!r} must be an integer")
            return 0
        if not isinstance(value, kind):
            self.problem(where, f"{key!r} must be {kind.__name__}")
            return kind()
        return value

    def status(self, row: Mapping[str, Any], where: str) -> str:
        tag = str(row.get("status", ""))
        if tag not in TAGS:
            self.problem(where, f"status {tag!r} is not one of {sorted(TAGS)}")
        return tag

    def section(self, cls: type[T], raw: Mapping[str, Any], name: str, file: str) -> T:
        """A rules section: every field present, typed, and tagged in [tags]."""
        table = raw.get(name, {})
        tags = raw.get("tags", {})
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            where = f"{file}.{name}.{f.name}"
            value = table.get(f.name) if isinstance(table, Mapping) else None
            if value is None:
                self.problem(where, "missing")
            elif f.type in ("int",) and (isinstance(value, bool) or not isinstance(value, int)):
                self.problem(where, "must be an integer")
            elif f.type == "bool" and not isinstance(value, bool):
                self.problem(where, "must be true or false")
            elif str(f.type).startswith("tuple") and not isinstance(value, list):
                self.problem(where, "must be a list")
            if tags.get(f"{name}.{f.name}") not in TAGS:
                self.problem(where, "has no provenance tag in [tags]")
            values[f.name] = tuple(value) if isinstance(value, list) else value
        unknown = set(table) - {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        for key in sorted(unknown):
            self.problem(f"{file}.{name}.{key}", "unknown setting")
        if any(p.startswith(f"{file}.{name}.") for p in self.problems):
            return cls(**{f.name: _blank(f.type) for f in dataclasses.fields(cls)})  # type: ignore[arg-type]
        return cls(**values)


def _blank(type_name: Any) -> Any:
    return {"int": 0, "bool": False}.get(str(type_name), ())


def _map(r: _Reader, raw: Mapping[str, Any]) -> tuple[Any, ...]:
    regions: list[Region] = []
    for i, row in enumerate(r.rows(raw, "region", "map")):
        w = f"map.region[{i}]"
        cities = tuple(r.get(row, "cities", list, w))
        regions.append(Region(r.get(row, "number", int, w), r.get(row, "key", str, w),
                              r.get(row, "name", str, w), cities, r.get(row, "port", str, w),
                              r.get(row, "district", str, w), r.status(row, w),
                              r.get(row, "styled", str, w, row.get("name"))))
        if regions[-1].port not in cities:
            r.problem(w, f"port {regions[-1].port!r} is not one of its cities")
        if not 2 <= len(cities) <= 4:
            r.problem(w, "a region has two to four cities (FE Setup)")
    numbers = sorted(g.number for g in regions)
    if numbers != list(range(1, len(regions) + 1)):
        r.problem("map.region", f"numbers must run 1..{len(regions)}, got {numbers}")
    city_set = {c for g in regions for c in g.cities}
    if len(city_set) != sum(len(g.cities) for g in regions):
        r.problem("map.region", "a city is in two regions")
    districts = [District(r.get(row, "key", str, f"map.district[{i}]"),
                          r.get(row, "name", str, f"map.district[{i}]"),
                          r.get(row, "rank", str, f"map.district[{i}]"),
                          r.get(row, "cathedral", str, f"map.district[{i}]"),
                          r.status(row, f"map.district[{i}]"))
                 for i, row in enumerate(r.rows(raw, "district", "map"))]
    for d in districts:
        if d.cathedral not in city_set:
            r.problem(f"map.district {d.key}", f"unknown cathedral city {d.cathedral!r}")
    for g in regions:
        if g.district not in {d.key for d in districts}:
            r.problem(f"map.region {g.key}", f"unknown district {g.district!r}")
    roads: list[Road] = []
    for i, row in enumerate(r.rows(raw, "road", "map")):
        w = f"map.road[{i}]"
        road = Road(r.get(row, "a", str, w), r.get(row, "b", str, w),
                    r.get(row, "dir_ab", str, w), r.get(row, "dir_ba", str, w), r.status(row, w))
        if road.a not in city_set or road.b not in city_set:
            r.problem(w, f"unknown city in {road.a!r} - {road.b!r}")
        elif row.get("enabled", True):
            roads.append(road)
    _check_compass(r, roads)
    bandits = raw.get("bandits", {})
    seas = raw.get("seas", {})
    links = tuple((int(a), int(b)) for a, b in seas.get("adjacent", []))
    ring = {(i, i % len(regions) + 1) for i in range(1, len(regions) + 1)}
    if set(links) != ring:
        r.problem("map.seas", "the seas must form the ring I-II-...-VI-I (FE 5.4, 12.2)")
    return (tuple(regions), tuple(districts), tuple(roads),
            tuple(bandits.get("cities", [])), tuple(bandits.get("capture_on", [])), links)


def _check_compass(r: _Reader, roads: list[Road]) -> None:
    """FE 6.3 draws a compass marker per road: at most one road per direction and city."""
    seen: dict[tuple[str, str], str] = {}
    for road in roads:
        for city, label, other in ((road.a, road.dir_ab, road.b), (road.b, road.dir_ba, road.a)):
            if label not in ("N", "E", "S", "W"):
                r.problem(f"map.road {road.a}-{road.b}", f"direction {label!r} is not N/E/S/W")
            elif (city, label) in seen:
                r.problem(f"map.road {road.a}-{road.b}",
                          f"{city} has two roads {label} ({seen[(city, label)]}, {other})")
            seen[(city, label)] = other


def _cards(r: _Reader, raw: Mapping[str, Any]) -> tuple[Any, ...]:
    nobles = tuple(NobleCard(r.get(row, "name", str, f"cards.noble[{i}]"),
                             r.get(row, "sex", str, f"cards.noble[{i}]"),
                             r.status(row, f"cards.noble[{i}]"))
                   for i, row in enumerate(r.rows(raw, "noble", "cards")))
    for n in nobles:
        if n.sex not in ("m", "f"):
            r.problem(f"cards.noble {n.name}", "sex must be 'm' or 'f'")

    def counted(key: str) -> tuple[tuple[str, int], ...]:
        out = []
        for i, row in enumerate(r.rows(raw, key, "cards")):
            w = f"cards.{key}[{i}]"
            r.status(row, w)
            out.append((r.get(row, "card", str, w), r.get(row, "count", int, w)))
        return tuple(out)

    fortune = counted("fortune")
    opportunity = frozenset(str(row.get("card")) for row in raw.get("fortune", [])
                            if isinstance(row, Mapping) and row.get("opportunity"))
    retainers = tuple((r.get(row, "name", str, f"cards.retainer[{i}]"),
                       r.get(row, "count", int, f"cards.retainer[{i}]"),
                       r.get(row, "ability", str, f"cards.retainer[{i}]"))
                      for i, row in enumerate(r.rows(raw, "retainer", "cards")))
    abbeys = tuple(raw.get("abbeys", {}).get("names", []))
    return (nobles, counted("character"), fortune, opportunity, counted("disaster"),
            retainers, abbeys)


def _units(r: _Reader, raw: Mapping[str, Any]) -> tuple[Unit, ...]:
    out = []
    for i, row in enumerate(r.rows(raw, "unit", "troops")):
        w = f"troops.unit[{i}]"
        out.append(Unit(r.get(row, "key", str, w), r.get(row, "name", str, w),
                        r.get(row, "plural", str, w), r.get(row, "cost", int, w),
                        r.get(row, "sp", int, w), r.get(row, "hits", int, w),
                        r.get(row, "stock", int, w), r.status(row, w)))
    keys = {u.key for u in out}
    for needed in ("men_at_arms", "archer", "knight", "crossbow", "bombard", "trebuchet"):
        if needed not in keys:
            r.problem("troops.unit", f"missing unit {needed!r}")
    return tuple(out)


def load_tables(raw: Mapping[str, Mapping[str, Any]]) -> Tables:
    r = _Reader()
    for name in REQUIRED:
        if name not in raw:
            r.problem(f"{name}.toml", "missing file")
    if r.problems:
        raise TableError(r.problems)
    for name in REQUIRED:
        tag = raw[name].get("meta", {}).get("provenance")
        if tag not in TAGS:
            r.problem(f"{name}.meta.provenance", f"{tag!r} is not one of {sorted(TAGS)}")
    regions, districts, roads, bandit_cities, capture_on, seas = _map(r, raw["map"])
    nobles, character, fortune, opportunity, disasters, retainers, abbeys = _cards(r, raw["cards"])
    rules = raw["rules"]
    tables = Tables(
        regions=regions, districts=districts, roads=roads, bandit_cities=bandit_cities,
        bandit_capture_on=capture_on, sea_links=seas, nobles=nobles, character_cards=character,
        fortune_cards=fortune, opportunity=opportunity, disaster_cards=disasters,
        retainers=retainers, abbey_names=abbeys, units=_units(r, raw["troops"]),
        buildings=r.section(BuildingRules, raw["troops"], "buildings", "troops"),
        setup=r.section(SetupRules, rules, "setup", "rules"),
        cards=r.section(CardRules, rules, "cards", "rules"),
        money=r.section(MoneyRules, rules, "money", "rules"),
        battle=r.section(BattleRules, rules, "battle", "rules"),
        invaders=r.section(InvaderRules, rules, "invaders", "rules"),
        plague=r.section(PlagueRules, rules, "plague", "rules"),
        victory=r.section(VictoryRules, rules, "victory", "rules"),
        provenance=tuple(sorted((f"{file}.{k}", str(v)) for file in ("rules", "troops")
                                for k, v in raw[file].get("tags", {}).items())),
    )
    cities = set(tables.city_names)
    for city in tables.setup.start_cities:
        if city not in cities:
            r.problem("rules.setup.start_cities", f"unknown city {city!r}")
    if len(tables.setup.colours) < tables.setup.players_max:
        r.problem("rules.setup.colours", "one colour per family needed")
    per_sex = tables.setup.removed_per_sex + tables.setup.players_max
    for sex in ("m", "f"):
        if sum(1 for n in nobles if n.sex == sex) < per_sex:
            r.problem("cards.noble", f"at least {per_sex} nobles of sex {sex!r} needed (Setup)")
    if len(tables.battle.die_faces) != 6:
        r.problem("rules.battle.die_faces", "a battle die has six faces (FE 7.1)")
    if r.problems:
        raise TableError(r.problems)
    return tables
