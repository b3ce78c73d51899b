"""The game's tables: raw TOML dicts in, validated frozen values out.

The service reads ``data/engarde/*.toml`` and hands us ``{file stem: dict}``; we
only validate.  Every problem is collected (file, path, what is wrong) and raised
together as one `TableError`, so a GM fixes a data file in one pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moderator.dice import DiceSpec
from moderator.games.base import TableError
from moderator.games.engarde.tables.army import ARMY_FILES, Army, load_army
from moderator.games.engarde.tables.society import SOCIETY_FILES, Society, load_society
from moderator.games.table_reader import Reader

REQUIRED_FILES = ("birth", "clubs", "toady", "housing", "theatre", "rules", "calendar",
                  *SOCIETY_FILES, *ARMY_FILES)
PROVENANCES = ("rulebook", "sourced", "PROPOSED")


@dataclass(frozen=True)
class Club:
    """One row of the Clubs table (EG §G, §K)."""

    key: str
    name: str
    rank: int
    min_sl: int
    dues: int
    sp: int
    house_limit: int  # 0 = no limit
    min_wager: int
    divisor: int
    requires: str | None = None  # a requirement this game cannot meet yet


@dataclass(frozen=True)
class HousingType:
    """One row of the Housing table (EG §P)."""

    key: str
    name: str
    rank: int
    cost: int
    sp: int
    party_limit: int | None  # None = no limit


@dataclass(frozen=True)
class Area:
    """One row of the Lodgings table (EG §P)."""

    key: str
    name: str
    min_sl: int
    nobles_only: bool
    sp: int
    min_rank: int
    max_rank: int
    cost_pct: int


@dataclass(frozen=True)
class Outcome:
    """One row of the theatre outcome table (EG §O)."""

    key: str
    name: str
    faces: tuple[int, ...]
    first_night_sp: int
    box_sl_num: int
    box_sl_den: int


@dataclass(frozen=True)
class BirthRow:
    """A row of one of the birth tables (EG §B; reference §2)."""

    key: str
    name: str
    faces: tuple[int, ...]
    values: Mapping[str, Any]

    def get(self, name: str, default: int = 0) -> int:
        value = self.values.get(name, default)
        return int(value)


@dataclass(frozen=True)
class Tables:
    """Everything the engine reads from data files."""

    birth_stats: Mapping[str, str]
    weapons: tuple[str, ...]
    classes: tuple[BirthRow, ...]
    siblings: tuple[BirthRow, ...]
    positions: Mapping[str, tuple[BirthRow, ...]]
    titles: tuple[BirthRow, ...]
    clubs: tuple[Club, ...]
    no_club_rank: int
    rejoin_bar_weeks: int
    toady: tuple[tuple[int, int | None, int], ...]
    housing_types: tuple[HousingType, ...]
    areas: tuple[Area, ...]
    housing: Mapping[str, Any]
    theatre: Mapping[str, int]
    outcomes: tuple[Outcome, ...]
    rules: Mapping[str, Mapping[str, int]]
    start_month: int
    start_year: int
    months: tuple[str, ...]
    society: Society  # EG §L mistresses, §Q loans, §S influence
    army: Army  # reference §4-8, EG §R: regiments, the front, duels, offices, trials

    def club(self, key: str) -> Club:
        return next(c for c in self.clubs if c.key == key)

    def housing_type(self, key: str) -> HousingType:
        return next(h for h in self.housing_types if h.key == key)

    def area(self, key: str) -> Area:
        return next(a for a in self.areas if a.key == key)

    def rule(self, section: str, name: str) -> int:
        return int(self.rules[section][name])

    def toady_sp(self, difference: int) -> int:
        """The Toady table (EG §I): SP for the higher character."""
        for low, high, sp in self.toady:
            if difference >= low and (high is None or difference <= high):
                return sp
        return 0

    def outcome(self, face: int) -> Outcome:
        return next(o for o in self.outcomes if face in o.faces)


def _birth_row(r: Reader, row: Mapping[str, Any], where: str) -> BirthRow:
    return BirthRow(r.str(row, "key", where), r.str(row, "name", where), r.faces(row, where), row)


def _meta(r: Reader, raw: Mapping[str, Mapping[str, Any]]) -> None:
    for stem in REQUIRED_FILES:
        if stem not in raw:
            r.problem(stem, "file missing")
            continue
        meta = raw[stem].get("meta")
        if not isinstance(meta, Mapping):
            r.problem(stem, "missing [meta]")
            continue
        r.required_provenance(meta, f"{stem}.meta")
        r.str(meta, "source", f"{stem}.meta")


def _birth(r: Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    stats = data.get("stats", {})
    for name in ("strength", "constitution", "expertise", "military_ability"):
        try:
            DiceSpec.parse(str(stats.get(name, "")))
        except ValueError:
            r.problem("birth.stats", f"{name} must be a dice expression like 3d6")
    weapons = tuple(stats.get("weapons", ()))
    if not weapons:
        r.problem("birth.stats", "weapons must list at least one weapon")
    classes = tuple(_birth_row(r, c, f"birth.class[{i}]") for i, c in
                    enumerate(r.rows(data, "class", "birth")))
    siblings = tuple(_birth_row(r, c, f"birth.sibling[{i}]") for i, c in
                     enumerate(r.rows(data, "sibling", "birth")))
    titles = tuple(_birth_row(r, c, f"birth.title[{i}]") for i, c in
                   enumerate(r.rows(data, "title", "birth")))
    r.cover_d6(classes, "birth.class")
    r.cover_d6(siblings, "birth.sibling")
    r.cover_d6(titles, "birth.title")
    positions: dict[str, list[BirthRow]] = {c.key: [] for c in classes}
    for i, row in enumerate(r.rows(data, "position", "birth")):
        where = f"birth.position[{i}]"
        cls = row.get("class")
        if cls not in positions:
            r.problem(where, f"unknown class {cls!r}")
            continue
        for name in ("funds", "allowance", "inheritance", "sl"):
            r.int(row, name, where)
        positions[cls].append(_birth_row(r, row, where))
    for cls, rows in positions.items():
        r.cover_d6(tuple(rows), f"birth.position[{cls}]")
    return {
        "birth_stats": {k: str(v) for k, v in stats.items() if k != "weapons"},
        "weapons": weapons,
        "classes": classes,
        "siblings": siblings,
        "positions": {k: tuple(v) for k, v in positions.items()},
        "titles": titles,
    }


def _clubs(r: Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    clubs = []
    for i, row in enumerate(r.rows(data, "club", "clubs")):
        where = f"clubs.club[{i}]"
        clubs.append(Club(
            key=r.str(row, "key", where), name=r.str(row, "name", where),
            rank=r.int(row, "rank", where), min_sl=r.int(row, "min_sl", where),
            dues=r.int(row, "dues", where), sp=r.int(row, "sp", where),
            house_limit=r.int(row, "house_limit", where),
            min_wager=r.int(row, "min_wager", where, 0),
            divisor=r.int(row, "divisor", where), requires=row.get("requires"),
        ))
        if clubs[-1].divisor <= 0:
            r.problem(where, "divisor must be positive")
    ranks = [c.rank for c in clubs]
    if sorted(ranks) != list(range(1, len(clubs) + 1)):
        r.problem("clubs", f"ranks must run 1..{len(clubs)} once each, got {ranks}")
    settings = data.get("settings", {})
    return {
        "clubs": tuple(sorted(clubs, key=lambda c: c.rank)),
        "no_club_rank": r.int(settings, "no_club_rank", "clubs.settings"),
        "rejoin_bar_weeks": r.int(settings, "rejoin_bar_weeks", "clubs.settings"),
    }


def _toady(r: Reader, data: Mapping[str, Any]) -> tuple[tuple[int, int | None, int], ...]:
    rows = []
    expected = 0
    for i, row in enumerate(r.rows(data, "row", "toady")):
        where = f"toady.row[{i}]"
        low, high = r.int(row, "min_diff", where), r.int(row, "max_diff", where)
        if low != expected:
            r.problem(where, f"min_diff should be {expected} (rows must be contiguous)")
        expected = high + 1
        rows.append((low, None if high < 0 else high, r.int(row, "sp", where)))
    if rows and rows[-1][1] is not None:
        r.problem("toady", "the last row must be open-ended (max_diff = -1)")
    return tuple(rows)


def _housing(r: Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    types = []
    for i, row in enumerate(r.rows(data, "type", "housing")):
        where = f"housing.type[{i}]"
        limit = r.int(row, "party_limit", where)
        types.append(HousingType(
            r.str(row, "key", where), r.str(row, "name", where), r.int(row, "rank", where),
            r.int(row, "cost", where), r.int(row, "sp", where), None if limit < 0 else limit,
        ))
    rank_of = {t.key: t.rank for t in types}
    areas = []
    for i, row in enumerate(r.rows(data, "area", "housing")):
        where = f"housing.area[{i}]"
        bounds = []
        for name in ("min_type", "max_type"):
            if row.get(name) not in rank_of:
                r.problem(where, f"{name} {row.get(name)!r} is not a housing type")
            bounds.append(rank_of.get(row.get(name, ""), 0))
        if bounds[0] > bounds[1]:
            r.problem(where, "min_type is larger than max_type")
        areas.append(Area(
            r.str(row, "key", where), r.str(row, "name", where), r.int(row, "min_sl", where),
            bool(row.get("nobles_only", False)), r.int(row, "sp", where), bounds[0], bounds[1],
            r.int(row, "cost_pct", where),
        ))
    settings = dict(data.get("settings", {}))
    for name in ("buy_months", "sale_pct", "let_income_pct", "advert_cost", "move_cost",
                 "free_move_max_rank"):
        r.int(settings, name, "housing.settings")
    if settings.get("family_home_area") not in {a.key for a in areas}:
        r.problem("housing.settings", "family_home_area must name an area")
    return {"housing_types": tuple(sorted(types, key=lambda t: t.rank)),
            "areas": tuple(areas), "housing": settings}


def _theatre(r: Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    settings = data.get("settings", {})
    values = {}
    for name in ("trip_cost_per_sl", "trip_sp", "first_night_weekend", "first_night_cost_per_sl",
                 "box_cost", "box_sp", "run_on_face", "royal_modifier"):
        values[name] = r.int(settings, name, "theatre.settings")
    outcomes = []
    for i, row in enumerate(r.rows(data, "outcome", "theatre")):
        where = f"theatre.outcome[{i}]"
        den = r.int(row, "box_sl_den", where)
        if den == 0:
            r.problem(where, "box_sl_den must not be 0")
        outcomes.append(Outcome(
            r.str(row, "key", where), r.str(row, "name", where), r.faces(row, where),
            r.int(row, "first_night_sp", where), r.int(row, "box_sl_num", where), den or 1,
        ))
    r.cover_d6(tuple(outcomes), "theatre.outcome")
    return {"theatre": values, "outcomes": tuple(outcomes)}


_RULES = {
    "status": ("rise_multiple", "min_sl"),
    "support": ("normal_per_sl", "conspicuous_per_sl", "conspicuous_sp"),
    "carousing": ("cost_per_sl", "sp"),
    "gambling": ("max_wagers",),
    "party": ("sp_divisor", "bouncer_multiple", "royal_needs", "over_limit_sp", "royal_sp"),
    "companionship": ("penalty_step",),
    "bawdyhouse": ("company_cost_per_sl", "drink_cost_per_sl"),
    "practice": ("weeks_per_point", "cost_per_exp"),
}


def _rules(r: Reader, data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    rules: dict[str, dict[str, int]] = {}
    for section, names in _RULES.items():
        table = data.get(section)
        if not isinstance(table, Mapping):
            r.problem("rules", f"missing [{section}]")
            table = {}
        rules[section] = {n: r.int(table, n, f"rules.{section}") for n in names}
    return rules


def load_tables(raw: Mapping[str, Mapping[str, Any]]) -> Tables:
    """Validate every file and build `Tables`; raise `TableError` with all problems."""
    r = Reader(PROVENANCES)
    _meta(r, raw)
    empty: Mapping[str, Any] = {}
    calendar = raw.get("calendar", empty).get("settings", {})
    months = tuple(calendar.get("months", ()))
    if len(months) != 12:
        r.problem("calendar.settings", "months must list 12 names")
    start_month = r.int(calendar, "start_month", "calendar.settings")
    if not 1 <= start_month <= 12:
        r.problem("calendar.settings", "start_month must be 1-12")
    parts: dict[str, Any] = {
        **_birth(r, raw.get("birth", empty)),
        **_clubs(r, raw.get("clubs", empty)),
        "toady": _toady(r, raw.get("toady", empty)),
        **_housing(r, raw.get("housing", empty)),
        **_theatre(r, raw.get("theatre", empty)),
        "rules": _rules(r, raw.get("rules", empty)),
        "start_month": start_month,
        "start_year": r.int(calendar, "start_year", "calendar.settings"),
        "months": months,
        "society": load_society(r, raw),
        "army": load_army(r, raw),
    }
    homes = {t.key for t in parts["housing_types"]}
    for title in parts["titles"]:
        if title.values.get("home") not in homes:
            r.problem(f"birth.title[{title.key}]", "home must name a housing type")
    if r.problems:
        raise TableError(r.problems)
    return Tables(**parts)
