"""Tables for mistresses (EG §L), loans (EG §Q) and influence (EG §S).

Read from ``courting``, ``mistresses``, ``family``, ``names``, ``influence`` and
``loans`` (``data/engarde/*.toml``) into one frozen `Society`, validated by the
same collecting `Reader` as the other tables.  Sections may carry their own
``provenance`` (rulebook / sourced / PROPOSED); a bad one is reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moderator.dice import DiceSpec
from moderator.games.table_reader import Reader

SOCIETY_FILES = ("courting", "mistresses", "family", "names", "influence", "loans")


@dataclass(frozen=True)
class Position:
    """A row of Influence table A: the class of favour an NPC of this rank needs (EG §S)."""

    key: str
    name: str
    cls: int


@dataclass(frozen=True)
class Society:
    """Everything the mistress, influence and loan rules read."""

    courting: Mapping[str, int]
    courting_rows: tuple[tuple[int, int, int], ...]  # (min_diff, max_diff, needed)
    mistress: Mapping[str, Mapping[str, Any]]
    pregnancy: Mapping[str, int]
    birth: Mapping[str, Any]
    birth_rows: tuple[tuple[int, int, str], ...]  # (min, max, outcome) on d100
    honorifics: tuple[str, ...]
    given_names: tuple[str, ...]
    family_names: tuple[str, ...]
    influence: Mapping[str, Any]
    positions: tuple[Position, ...]
    sl_favours: tuple[tuple[int, int, int], ...]  # (min_sl, max_sl, class)
    mistress_favours: Mapping[int, tuple[int, int]]  # her SL -> (normal, influential)
    bribes: Mapping[int, int]  # class -> crowns
    loans: Mapping[str, int]

    def courting_needed(self, difference: int) -> int | None:
        """The Courting table (EG §L): None when the attempt always fails."""
        if difference < self.courting["always_fails_below"]:
            return None
        for low, high, needed in self.courting_rows:
            if low <= difference <= high:
                return needed
        return None

    def position(self, key: str) -> Position:
        return next(p for p in self.positions if p.key == key)

    def sl_favour(self, sl: int) -> int:
        """Influence table B (EG §S): the class of his seasonal favour, 0 for none."""
        return next((c for low, high, c in self.sl_favours if low <= sl <= high), 0)

    def lady_favours(self, sl: int, influential: bool) -> tuple[int, ...]:
        """Influence table C (EG §S): her yearly favours (above SL 18 counts as 18)."""
        top = max(self.mistress_favours)
        normal, extra = self.mistress_favours.get(min(sl, top), (0, 0))
        return tuple(c for c in (normal, extra if influential else 0) if c)

    def birth_outcome(self, d100: int) -> str:
        return next(o for low, high, o in self.birth_rows if low <= d100 <= high)

    def m(self, section: str, name: str) -> Any:
        """A value from ``mistresses.toml`` (section, name)."""
        return self.mistress[section][name]


_MISTRESS = {
    "generation": ("sl", "attribute_die", "attribute_faces", "per_character"),
    "loyalty": ("dice", "min", "max"),
    "support": ("per_sl", "wealthy_gift_per_sl"),
    "status": ("base_sp", "beautiful_sp"),
    "boredom": ("dice", "leaves_on", "loyalty_pivot"),
    "liaison": ("gift_per_sl", "double_modifier", "max_above", "love_face", "tells_face"),
    "proposal": ("steady_months", "gift_per_sl", "jilt_face"),
    "wedding": ("loyalty_bonus", "loyalty_public_liaison", "house_sl_divisor",
                "house_max_rank", "missed_sl", "months_to_wed", "unhoused_loyalty"),
    "pregnancy_answer": ("pay_off_per_sl", "assassins_per_sl", "pity_faces",
                         "pity_faces_beautiful", "answer_months"),
}
_DICE_FIELDS = {("generation", "sl"), ("generation", "attribute_die"), ("loyalty", "dice"),
                ("boredom", "dice")}
_FACE_FIELDS = {("generation", "attribute_faces"), ("pregnancy_answer", "pity_faces"),
                ("pregnancy_answer", "pity_faces_beautiful")}


def _section(r: Reader, data: Mapping[str, Any], name: str, where: str) -> Mapping[str, Any]:
    table = data.get(name)
    if not isinstance(table, Mapping):
        r.problem(where, f"missing [{name}]")
        return {}
    # A section may name its own provenance; the file's [meta] one applies otherwise.
    r.provenance(table, f"{where}.{name}", r.provenances[0])
    return table


def _mistress(r: Reader, data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for section, names in _MISTRESS.items():
        table = _section(r, data, section, "mistresses")
        values: dict[str, Any] = {}
        for n in names:
            where = f"mistresses.{section}"
            if (section, n) in _DICE_FIELDS:
                values[n] = str(table.get(n, ""))
                try:
                    DiceSpec.parse(values[n])
                except ValueError:
                    r.problem(where, f"{n} must be a dice expression like 3d6")
            elif (section, n) in _FACE_FIELDS:
                values[n] = r.faces(table, where, n)
            else:
                values[n] = r.int(table, n, where)
        out[section] = values
    return out


def _ranges(r: Reader, rows: list[Mapping[str, Any]], where: str, low: str, high: str,
            value: str, first: int, kind: type = int) -> list[tuple[int, int, Any]]:
    """Contiguous rows ``low..high -> value`` starting at ``first``."""
    out, expected = [], first
    for i, row in enumerate(rows):
        at = f"{where}[{i}]"
        a, b = r.int(row, low, at), r.int(row, high, at)
        v = r.int(row, value, at) if kind is int else r.str(row, value, at)
        if a != expected:
            r.problem(at, f"{low} should be {expected} (rows must be contiguous)")
        if b < a:
            r.problem(at, f"{high} is below {low}")
        expected = b + 1
        out.append((a, b, v))
    return out


def load_society(r: Reader, raw: Mapping[str, Mapping[str, Any]]) -> Society:
    empty: Mapping[str, Any] = {}
    courting, courting_rows = _courting(r, raw.get("courting", empty))
    pregnancy, birth, birth_rows = _family(r, raw.get("family", empty))
    lists = _names(r, raw.get("names", empty))
    influence, positions, sl_rows, lady_favours, bribes = _influence(
        r, raw.get("influence", empty))
    loans_t = raw.get("loans", empty).get("settings", {})
    loans = {n: r.int(loans_t, n, "loans.settings") for n in (
        "demand_after_months", "shylock_limit_per_sl", "shylock_months",
        "shylock_interest_pct")}
    return Society(
        courting=courting, courting_rows=tuple(courting_rows),
        mistress=_mistress(r, raw.get("mistresses", empty)), pregnancy=pregnancy,
        birth=birth, birth_rows=tuple(birth_rows), honorifics=lists["honorifics"],
        given_names=lists["given"], family_names=lists["family"], influence=influence,
        positions=tuple(positions), sl_favours=tuple(sl_rows),
        mistress_favours=lady_favours, bribes=bribes, loans=loans,
    )


def _courting(r: Reader, courting_raw: Mapping[str, Any]
              ) -> tuple[dict[str, int], list[tuple[int, int, Any]]]:
    """EG §L: the courting settings and the SL-difference rows (needed: a die face)."""
    settings = courting_raw.get("settings", {})
    courting = {n: r.int(settings, n, "courting.settings") for n in (
        "cost_per_sl", "extra_per_sl", "always_fails_below", "natural_fail",
        "other_pc_modifier", "indiscretion_face")}
    rows = [row for row in r.rows(courting_raw, "row", "courting")]
    courting_rows = _ranges(r, rows, "courting.row", "min_diff", "max_diff", "needed",
                            courting.get("always_fails_below", -6))
    for _, _, needed in courting_rows:
        if not 1 <= needed <= 6:
            r.problem("courting.row", f"needed {needed} is not a die face")
    return courting, courting_rows


def _family(r: Reader, family: Mapping[str, Any]
            ) -> tuple[dict[str, int], dict[str, Any], list[tuple[int, int, Any]]]:
    """EG §L: pregnancy, births and the d100 birth outcomes."""
    pregnancy = {n: r.int(family.get("pregnancy", {}), n, "family.pregnancy") for n in (
        "per_encounter_pct", "max_pct", "married_pct", "months")}
    birth_t = family.get("birth", {})
    birth: dict[str, Any] = {n: r.int(birth_t, n, "family.birth") for n in (
        "sp_per_son_sl", "daughter_divisor", "grieving_months", "twin_trouble_max",
        "resemblance_pct")}
    birth["child_survives_faces"] = r.faces(birth_t, "family.birth", "child_survives_faces")
    if birth["daughter_divisor"] <= 0:
        r.problem("family.birth", "daughter_divisor must be positive")
    birth_rows = _ranges(r, r.rows(family, "outcome", "family"), "family.outcome", "min",
                         "max", "outcome", 1, str)
    if birth_rows and birth_rows[-1][1] != 100:
        r.problem("family.outcome", "the d100 rows must end at 100")
    known = {"mother_dies", "stillbirth", "deformed", "healthy", "twins"}
    for _, _, outcome in birth_rows:
        if outcome not in known:
            r.problem("family.outcome", f"unknown outcome {outcome!r}")
    return pregnancy, birth, birth_rows


def _names(r: Reader, names_raw: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """Reference §10.1: the words the ladies' names are drawn from."""
    names = names_raw.get("settings", {})
    lists = {}
    for n in ("honorifics", "given", "family"):
        value = names.get(n)
        if not isinstance(value, list) or not value or not all(
                isinstance(v, str) and v for v in value):
            r.problem("names.settings", f"{n} must be a list of names")
            value = ["?"]
        lists[n] = tuple(value)
    return lists


def _influence(r: Reader, influence_raw: Mapping[str, Any]) -> tuple[
        dict[str, Any], list[Position], list[tuple[int, int, Any]],
        dict[int, tuple[int, int]], dict[int, int]]:
    """EG §S: settings, Table A positions, Table B (SL favours), Table C (a mistress's
    favours) and the bribes."""
    influence = dict(influence_raw.get("settings", {}))
    for n in ("base_needed", "max_class", "mistress_favour_months"):
        r.int(influence, n, "influence.settings")
    for n in ("direct_faces", "refused_faces"):
        influence[n] = r.faces(influence, "influence.settings", n)
    starts = influence.get("season_starts")
    if not isinstance(starts, list) or not all(isinstance(m, int) and 1 <= m <= 12
                                               for m in starts) or not starts:
        r.problem("influence.settings", "season_starts must list months 1-12")
        influence["season_starts"] = [1]
    top = int(influence.get("max_class", 9) or 9)
    royal = influence.get("royal_position")
    positions = []
    for i, row in enumerate(r.rows(influence_raw, "position", "influence")):
        at = f"influence.position[{i}]"
        positions.append(Position(r.str(row, "key", at), r.str(row, "name", at),
                                  r.int(row, "cls", at)))
        if not 1 <= positions[-1].cls <= top:
            r.problem(at, f"cls must be 1-{top}")
    if royal not in {p.key for p in positions}:
        r.problem("influence.settings", f"royal_position {royal!r} is not a Table A position")
    sl_rows = _ranges(r, r.rows(influence_raw, "sl_favour", "influence"),
                      "influence.sl_favour", "min_sl", "max_sl", "cls",
                      int(influence_raw.get("sl_favour", [{}])[0].get("min_sl", 1)))
    lady_favours: dict[int, tuple[int, int]] = {}
    for i, row in enumerate(r.rows(influence_raw, "mistress_favour", "influence")):
        at = f"influence.mistress_favour[{i}]"
        sl = r.int(row, "sl", at)
        if sl in lady_favours:
            r.problem(at, f"SL {sl} given twice")
        lady_favours[sl] = (r.int(row, "normal", at), r.int(row, "influential", at))
    bribes: dict[int, int] = {}
    for i, row in enumerate(r.rows(influence_raw, "bribe", "influence")):
        at = f"influence.bribe[{i}]"
        bribes[r.int(row, "cls", at)] = r.int(row, "cost", at)
    if sorted(bribes) != list(range(1, top + 1)):
        r.problem("influence.bribe", f"classes must run 1..{top} once each")
    return influence, positions, sl_rows, lady_favours, bribes
