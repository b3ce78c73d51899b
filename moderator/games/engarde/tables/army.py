"""Tables for the army (reference §4–5), duels (§6), appointments and titles (§7–8)
and prosecutions (EG §R), read from ``army.toml`` and ``offices.toml``.

Validated by the collecting `Reader` like every other table: a GM fixes a data
file in one pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moderator.games.table_reader import Reader

ARMY_FILES = ("army", "offices")
MODS = ("death", "mention", "promotion", "crowns")
MISSIONS = ("siege", "assault", "defence", "field")


@dataclass(frozen=True)
class Regiment:
    """A row of the regiment list (reference §4.2)."""

    key: str
    name: str
    abbr: str
    brigade: str
    arm: str
    weapon: str
    column: int
    first_sl: int
    mods: Mapping[str, int]
    friends: tuple[str, ...]
    enemies: tuple[str, ...]
    order: int  # place in the table: Royal Foot Guards 0 ... frontier last

    @property
    def cavalry(self) -> bool:
        return self.arm == "cavalry"

    @property
    def frontier(self) -> bool:
        return self.brigade == "frontier"


@dataclass(frozen=True)
class RankRow:
    min_sl: tuple[int, ...]
    price: tuple[int, ...]
    sp: tuple[int, ...]
    pay: tuple[int, ...]


@dataclass(frozen=True)
class General:
    key: str
    name: str
    pay: int
    sp: int
    min_sl: int


@dataclass(frozen=True)
class Appointment:
    """A row of the appointments table (reference §7)."""

    key: str
    name: str
    rank: str
    title_rank: int
    min_sl: int
    min_ma: int
    slots: int
    per_regiment: bool
    sp: int
    pay: int
    favour: int
    appointer: str
    minister: bool
    office: str | None


@dataclass(frozen=True)
class TitleRow:
    key: str
    rank: int
    min_sl: int
    raise_to: int
    sp: int
    pension: int


@dataclass(frozen=True)
class Crime:
    key: str
    name: str
    kind: str  # civil | treason | divorce
    modifier: int
    fine_dice: int
    prison: int
    disgrace: bool


@dataclass(frozen=True)
class Army:
    """Everything the army, duel, appointment and trial rules read."""

    settings: Mapping[str, Any]
    regiments: tuple[Regiment, ...]
    table_b: Mapping[str, RankRow]
    generals: tuple[General, ...]
    rank_mods: Mapping[str, Mapping[str, int]]
    brigades: Mapping[str, tuple[str, int]]  # key -> (name, deploys on 1d6 <= n)
    missions: tuple[tuple[str, str, tuple[int, ...]], ...]
    battle: tuple[tuple[int, ...], ...]  # [MA-1][face-1]
    outcome: Mapping[str, tuple[tuple[int, ...], ...]]  # mission -> [result-1] -> row
    appointments: tuple[Appointment, ...]
    appointment_rules: Mapping[str, int]
    titles: tuple[TitleRow, ...]
    trial: Mapping[str, int]
    convict: tuple[tuple[int, int, int], ...]
    crimes: tuple[Crime, ...]
    divorce: Mapping[str, Any]
    duel: Mapping[str, int]
    announcements: Mapping[str, int]

    # --- lookups ---------------------------------------------------------------------
    def regiment(self, key: str) -> Regiment:
        return next(r for r in self.regiments if r.key == key)

    @property
    def ranks(self) -> tuple[str, ...]:
        return tuple(self.settings["ranks"])

    @property
    def all_ranks(self) -> tuple[str, ...]:
        """Regimental ranks then general ranks, lowest first."""
        return self.ranks + tuple(g.key for g in self.generals)

    def rank_index(self, rank: str | None) -> int:
        return self.all_ranks.index(rank) if rank in self.all_ranks else -1

    def rank_name(self, rank: str) -> str:
        if rank in self.ranks:
            return str(self.settings["rank_names"][self.ranks.index(rank)])
        return next(g.name for g in self.generals if g.key == rank)

    def general(self, key: str) -> General | None:
        return next((g for g in self.generals if g.key == key), None)

    def cell(self, rank: str, regiment: str, what: str) -> int:
        """Regiment Table B: min_sl / price / sp / pay for a rank in a regiment."""
        general = self.general(rank)
        if general is not None:
            return int(getattr(general, what)) if what != "price" else 0
        column = self.regiment(regiment).column
        return int(getattr(self.table_b[rank], what)[column - 1])

    def table_a(self, sl: int, regiment: str) -> int | None:
        """Regiment Table A: the roll needed, None when the regiment will not take him."""
        reg = self.regiment(regiment)
        if reg.frontier:
            return 0
        if sl < reg.first_sl:
            return None
        return int(self.settings["table_a_base"]) - (sl - reg.first_sl) // 2

    def battle_result(self, ma: int, face: int) -> int:
        ma = max(1, min(int(self.settings["max_ma"]), ma))
        return self.battle[ma - 1][face - 1]

    def mission(self, face: int) -> tuple[str, str]:
        return next((k, n) for k, n, faces in self.missions if face in faces)

    def appointment(self, key: str) -> Appointment:
        return next(a for a in self.appointments if a.key == key)

    def office(self, office: str) -> Appointment:
        return next(a for a in self.appointments if a.office == office)

    def title(self, key: str) -> TitleRow | None:
        return next((t for t in self.titles if t.key == key), None)

    def title_by_rank(self, rank: int) -> TitleRow | None:
        return next((t for t in self.titles if t.rank == rank), None)

    def crime(self, key: str) -> Crime:
        return next(c for c in self.crimes if c.key == key)

    def to_convict(self, sl: int) -> int:
        return next((n for low, high, n in self.convict if low <= sl <= high), 12)


def _ints(r: Reader, value: Any, where: str, n: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        r.problem(where, f"must be a list of {n} integers, got {value!r}")
        return (0,) * n
    return tuple(value)


def _mods(r: Reader, value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        r.problem(where, "mods must be a table of death/mention/promotion/crowns")
        return dict.fromkeys(MODS, 0)
    return {k: r.int(value, k, where) for k in MODS}


def _regiments(r: Reader, data: Mapping[str, Any]) -> list[Regiment]:
    """Reference §4.2: the regiment list; friends and enemies must be regiments."""
    regiments = []
    for i, row in enumerate(r.rows(data, "regiment", "army")):
        at = f"army.regiment[{i}]"
        regiments.append(Regiment(
            r.str(row, "key", at), r.str(row, "name", at), r.str(row, "abbr", at),
            r.str(row, "brigade", at), r.str(row, "arm", at), r.str(row, "weapon", at),
            r.int(row, "column", at), r.int(row, "first_sl", at), _mods(r, row.get("mods"), at),
            tuple(row.get("friends", ())), tuple(row.get("enemies", ())), i))
        if not 1 <= regiments[-1].column <= 10:
            r.problem(at, "column must be 1-10")
    keys = {reg.key for reg in regiments}
    for reg in regiments:
        for other in (*reg.friends, *reg.enemies):
            if other not in keys:
                r.problem(f"army.regiment[{reg.key}]", f"unknown regiment {other!r}")
    return regiments


def _army(r: Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    settings = dict(data.get("settings", {}))
    for name in ("table_a_base", "rejections_per_penalty", "duty_fine", "duty_fine_sp",
                 "horse_price", "horse_upkeep", "groom_upkeep", "horses_cavalry",
                 "horses_captain", "horses_major", "horse_lacking_sp", "season_start",
                 "season_months", "volunteer_months", "mention_sp", "max_ma", "adjutant_gap",
                 "sell_pct"):
        r.int(settings, name, "army.settings")
    ranks = settings.get("ranks", [])
    if not isinstance(ranks, list) or len(ranks) != len(settings.get("rank_names", [])):
        r.problem("army.settings", "ranks and rank_names must be lists of the same length")
    regiments = _regiments(r, data)
    table_b = {}
    for rank in ranks:
        row = data.get("table_b", {}).get(rank, {})
        at = f"army.table_b.{rank}"
        table_b[rank] = RankRow(*(_ints(r, row.get(n), f"{at}.{n}", 10)
                                  for n in ("min_sl", "price", "sp", "pay")))
    generals = tuple(General(r.str(g, "key", "army.general"), r.str(g, "name", "army.general"),
                             r.int(g, "pay", "army.general"), r.int(g, "sp", "army.general"),
                             r.int(g, "min_sl", "army.general"))
                     for g in r.rows(data, "general", "army"))
    rank_mods = {}
    for rank in (*ranks, *(g.key for g in generals)):
        rank_mods[rank] = _mods(r, data.get("rank_mods", {}).get(rank), f"army.rank_mods.{rank}")
    brigades = {}
    for i, row in enumerate(r.rows(data, "brigade", "army")):
        at = f"army.brigade[{i}]"
        brigades[r.str(row, "key", at)] = (r.str(row, "name", at), r.int(row, "deploy", at))
    for reg in regiments:
        if reg.brigade not in brigades:
            r.problem(f"army.regiment[{reg.key}]", f"unknown brigade {reg.brigade!r}")
    missions = tuple((r.str(row, "key", "army.mission"), r.str(row, "name", "army.mission"),
                      r.faces(row, "army.mission")) for row in r.rows(data, "mission", "army"))
    r.cover_d6([_Faces(f) for _, _, f in missions], "army.mission")
    battle_raw = data.get("battle", {})
    battle = tuple(_ints(r, battle_raw.get(f"ma{n}"), f"army.battle.ma{n}", 6)
                   for n in range(1, 11))
    outcome = {}
    for mission in MISSIONS:
        rows = data.get("outcome", {}).get(mission)
        if not isinstance(rows, list) or len(rows) != 6:
            r.problem(f"army.outcome.{mission}", "must list 6 result rows")
            rows = [[0] * 6] * 6
        outcome[mission] = tuple(_ints(r, row, f"army.outcome.{mission}", 6) for row in rows)
    return {"settings": settings, "regiments": tuple(regiments), "table_b": table_b,
            "generals": generals, "rank_mods": rank_mods, "brigades": brigades,
            "missions": missions, "battle": battle, "outcome": outcome}


@dataclass(frozen=True)
class _Faces:
    faces: tuple[int, ...]


def _offices(r: Reader, data: Mapping[str, Any], ranks: tuple[str, ...]) -> dict[str, Any]:
    appointments = []
    for i, row in enumerate(r.rows(data, "appointment", "offices")):
        at = f"offices.appointment[{i}]"
        appointments.append(Appointment(
            r.str(row, "key", at), r.str(row, "name", at), r.str(row, "rank", at),
            r.int(row, "title_rank", at), r.int(row, "min_sl", at), r.int(row, "min_ma", at),
            r.int(row, "slots", at, 1), bool(row.get("regiment", False)), r.int(row, "sp", at),
            r.int(row, "pay", at), r.int(row, "favour", at), r.str(row, "appointer", at),
            bool(row.get("minister", False)), row.get("office")))
        if appointments[-1].rank not in ranks:
            r.problem(at, f"unknown rank {appointments[-1].rank!r}")
    offices = {a.office for a in appointments}
    for needed in ("treason_prosecutor", "civil_prosecutor", "civil_judge", "treason_judge"):
        if needed not in offices:
            r.problem("offices.appointment", f"no appointment holds the office {needed!r}")
    titles = tuple(TitleRow(r.str(t, "key", "offices.title"), r.int(t, "rank", "offices.title"),
                            r.int(t, "min_sl", "offices.title"),
                            r.int(t, "raise_to", "offices.title"), r.int(t, "sp", "offices.title"),
                            r.int(t, "pension", "offices.title"))
                   for t in r.rows(data, "title", "offices"))
    convict = tuple((r.int(c, "min_sl", "offices.convict"), r.int(c, "max_sl", "offices.convict"),
                     r.int(c, "needs", "offices.convict"))
                    for c in r.rows(data, "convict", "offices"))
    crimes = []
    for i, row in enumerate(r.rows(data, "crime", "offices")):
        at = f"offices.crime[{i}]"
        crimes.append(Crime(r.str(row, "key", at), r.str(row, "name", at), r.str(row, "kind", at),
                            r.int(row, "modifier", at), r.int(row, "fine_dice", at),
                            r.int(row, "prison", at), bool(row.get("disgrace", True))))
        if crimes[-1].kind not in ("civil", "treason", "divorce"):
            r.problem(at, "kind must be civil, treason or divorce")

    def ints(section: str) -> dict[str, int]:
        table = data.get(section, {})
        if not isinstance(table, Mapping) or not table:
            r.problem("offices", f"missing [{section}]")
            return {}
        return {k: (v if isinstance(v, int) else 0) for k, v in table.items()
                if k != "provenance" and not isinstance(v, str)}

    return {"appointments": tuple(appointments), "appointment_rules": ints("appointment_rules"),
            "titles": titles, "trial": ints("trial_rules"), "convict": convict,
            "crimes": tuple(crimes), "divorce": dict(data.get("divorce", {})),
            "duel": ints("duel"), "announcements": ints("announcements")}


def load_army(r: Reader, raw: Mapping[str, Mapping[str, Any]]) -> Army:
    empty: Mapping[str, Any] = {}
    army = _army(r, raw.get("army", empty))
    ranks = tuple(army["settings"].get("ranks", ())) + tuple(g.key for g in army["generals"])
    return Army(**army, **_offices(r, raw.get("offices", empty), ranks))
