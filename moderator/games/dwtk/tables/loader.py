"""The game's tables: ``data/dwtk/*.toml`` in, validated frozen values out.

The service reads the files and hands us ``{file stem: dict}``; we only validate.
Every problem (file, row, what is wrong) is collected and raised together as one
`TableError`.  Each file carries ``[meta] provenance``: ``rulebook`` (printed in the
rules), ``PROPOSED`` (our design, reference tables §3-8); rows may override it with
``inferred``/``derived``/``PROPOSED``.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from moderator.games.base import TableError
from moderator.games.dwtk.tables import deck
from moderator.games.dwtk.tables.values import (
    EFFECTS,
    Counsel,
    Effect,
    PrestigeTable,
    Problem,
    RangeRow,
    RangeTable,
    Tables,
    Title,
)
from moderator.games.table_reader import Reader

REQUIRED_FILES = ("characters", "offices", "cards", "counters", "rules", "crown_events",
                  "problems", "court_ball", "prestige", "justice", "counseling", "titles")
CROWN_RESULTS = ("royal_death", "plague", "famine", "scandal", "one_problem",
                 "two_problems", "court_ball", "intrigue")
PRESTIGE_TABLES = ("carousing", "sporting", "romance", "socializing", "privateering")
JUSTICE_TABLES = ("scandal", "assassination", "interrogation", "trial", "royal_favor")


def _effect(r: Reader, text: Any, where: str, tables: Mapping[str, set[str]]) -> Effect:
    if not isinstance(text, str):
        r.problem(where, f"effect must be a string, got {text!r}")
        return Effect("rejected")
    name, _, arg = text.partition(":")
    if name not in EFFECTS:
        r.problem(where, f"unknown effect {name!r}")
        return Effect(name)
    kind = EFFECTS[name]
    if kind is None:
        if arg:
            r.problem(where, f"effect {name!r} takes no argument")
        return Effect(name)
    if kind == "int":
        try:
            return Effect(name, int(arg))
        except ValueError:
            r.problem(where, f"effect {name!r} needs an integer, got {arg!r}")
            return Effect(name, 0)
    if arg not in tables.get(kind, set()):
        r.problem(where, f"effect {name!r}: unknown {kind} {arg!r}")
    return Effect(name, arg)


def _range_table(r: Reader, key: str, rows: Any, where: str, refs: Mapping[str, set[str]],
                 lowest: int = 2, highest: int = 12) -> RangeTable:
    """Rows over a modified total; they must be contiguous and cover lowest..highest."""
    out: list[RangeRow] = []
    if not isinstance(rows, list) or not rows:
        r.problem(where, "missing rows")
        return RangeTable(key, ())
    for i, row in enumerate(rows):
        w = f"{where}[{i}]"
        if not isinstance(row, Mapping):
            r.problem(w, "must be a table")
            continue
        effects = row.get("effects", [])
        if not isinstance(effects, list):
            r.problem(w, "effects must be a list")
            effects = []
        out.append(RangeRow(r.opt_int(row, "min", w), r.opt_int(row, "max", w),
                            tuple(_effect(r, e, w, refs) for e in effects),
                            r.int(row, "mod", w, 0)))
    if out and out[0].low is not None and out[0].low > lowest:
        r.problem(where, f"the first row must start at {lowest} or below (or omit min)")
    if out and out[-1].high is not None and out[-1].high < highest:
        r.problem(where, f"the last row must reach {highest} or above (or omit max)")
    for i, (a, b) in enumerate(pairwise(out)):
        if a.high is None or b.low is None or b.low != a.high + 1:
            r.problem(where, f"rows {i} and {i + 1} are not contiguous")
    for i, row in enumerate(out):
        if row.low is not None and row.high is not None and row.low > row.high:
            r.problem(f"{where}[{i}]", "min is above max")
    return RangeTable(key, tuple(out))


def _meta(r: Reader, raw: Mapping[str, Mapping[str, Any]]) -> None:
    for stem in REQUIRED_FILES:
        if stem not in raw:
            r.problem(stem, "file missing")
            continue
        meta = raw[stem].get("meta")
        if not isinstance(meta, Mapping):
            r.problem(f"{stem}.meta", "missing [meta] with provenance and source")
            continue
        r.provenance(meta, f"{stem}.meta", "rulebook")
        if "provenance" not in meta:
            r.problem(f"{stem}.meta", "provenance missing")
        r.str(meta, "source", f"{stem}.meta")


_SETUP_INTS = ("players_min", "players_max", "two_player_lady_status", "start_ip",
               "start_pp", "hand", "support_times")
_TURN_INTS = ("office_cost", "office_activity_cost", "activities", "hand_limit",
              "intrigue_min_hand", "problem_failures_discharge", "support_step",
              "support_max", "mourning_discards", "draw_cost", "pp_price",
              "prestige_modifier_cost", "prestige_modifier_cap", "court_ball_modifier_cap",
              "court_ball_modifier_floor", "court_ball_ban_loss", "free_counsel_from",
              "proposal_farc_cost", "duel_buyout", "prison_death_ip", "crisis_support_value",
              "farc_monarch_bonus_pp", "farc_monarch_bonus_ip", "victory_turns",
              "suicide_turns")
_READINGS = ("illegal_cards", "extradition_target", "activity_count", "office_cost",
             "henchman_counsel", "court_ball_eight", "crisis_counsel", "hiding_in_fandonia",
             "free_counsel_counter", "female_titles", "support_steps_of_five",
             "mourning_turn")


def _rules(r: Reader, data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any],
                                                        dict[str, Any],
                                                        tuple[tuple[int, int], ...]]:
    setup = dict(r.table(data, "setup", "rules"))
    turn = dict(r.table(data, "turn", "rules"))
    readings = dict(r.table(data, "readings", "rules"))
    for name in _SETUP_INTS:
        r.int(setup, name, "rules.setup")
    for name in ("pc_cards", "pc_cards_two_players", "office_holder_cards"):
        setup[name] = r.ints(setup, name, "rules.setup")
    r.dice(setup, "support_dice", "rules.setup")
    for name in _TURN_INTS:
        r.int(turn, name, "rules.turn")
    for name in _READINGS:
        if name not in readings:
            r.problem("rules.readings", f"{name} missing")
    raw_sv = turn.get("support_value", [])
    sv: list[tuple[int, int]] = []
    if not isinstance(raw_sv, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p)
            for p in raw_sv):
        r.problem("rules.turn", "support_value must be a list of [lowest, value] pairs")
    else:
        sv = [(p[0], p[1]) for p in raw_sv]
        if [p[0] for p in sv] != sorted((p[0] for p in sv), reverse=True) or \
                (sv and sv[-1][0] != 0):
            r.problem("rules.turn", "support_value must run from the highest down to 0")
    return setup, turn, readings, tuple(sv)


def _roll_rows(r: Reader, rows: list[Mapping[str, Any]], where: str,
               field: str) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for i, row in enumerate(rows):
        roll = r.int(row, "roll", f"{where}[{i}]")
        if roll in out:
            r.problem(where, f"roll {roll} appears twice")
        out[roll] = row.get(field)
    missing = [n for n in range(2, 13) if n not in out]
    if missing:
        r.problem(where, f"rolls {missing} have no row (2d6 sums 2-12)")
    return out


def _problems(r: Reader, data: Mapping[str, Any], offices: set[str],
              countries: set[str]) -> tuple[tuple[Problem, ...], dict[int, tuple[str, ...]]]:
    problems = []
    for i, row in enumerate(r.rows(data, "problem", "problems.problem")):
        w = f"problems.problem[{i}]"
        p = Problem(r.str(row, "key", w), r.str(row, "name", w), r.str(row, "minister", w),
                    r.strs(row, "modifiers", w), r.ints(row, "rolls", w))
        for office in (p.minister, *p.modifiers):
            if office not in offices:
                r.problem(w, f"unknown office {office!r}")
        problems.append(p)
    r.unique([p.key for p in problems], "problems.problem")
    r.unique([p.minister for p in problems], "problems.problem minister (7.7: one per Minister)")
    rolls = sorted(n for p in problems for n in p.rolls)
    if rolls != list(range(2, 13)):
        r.problem("problems.problem", "rolls must cover the sums 2-12 exactly once")
    if not any(p.key == "foreign_war" for p in problems):
        r.problem("problems.problem", "a 'foreign_war' problem is required (7.10)")
    wars_raw = _roll_rows(r, r.rows(data, "war", "problems.war"), "problems.war", "countries")
    wars: dict[int, tuple[str, ...]] = {}
    for roll, names in wars_raw.items():
        if not isinstance(names, list) or not names or any(n not in countries for n in names):
            r.problem("problems.war", f"roll {roll}: countries must name known countries")
            names = []
        wars[roll] = tuple(names)
    return tuple(problems), wars


def _prestige(r: Reader, data: Mapping[str, Any], refs: Mapping[str, set[str]]) -> tuple[
        dict[str, PrestigeTable], dict[str, int]]:
    out = {}
    for key in PRESTIGE_TABLES:
        section = r.table(data, key, "prestige")
        w = f"prestige.{key}"
        out[key] = PrestigeTable(key, r.str(section, "name", w, key), r.int(section, "cost", w),
                                 r.bool(section, "male_only", w, False),
                                 _range_table(r, key, section.get("rows"), w, refs))
    priv = data.get("privateering", {})
    extra = {name: r.int(priv, name, "prestige.privateering", 3)
             for name in ("anonymous_captain_ability", "no_ability_captain")}
    return out, extra


def _counseling(r: Reader, data: Mapping[str, Any], refs: Mapping[str, set[str]],
                valid_tables: set[str], modifier_refs: set[str]) -> tuple[
        RangeTable, dict[str, tuple[Counsel, ...]]]:
    results = _range_table(r, "results", data.get("results"), "counseling.results", refs)
    tables: dict[str, tuple[Counsel, ...]] = {}
    for i, row in enumerate(r.rows(data, "table", "counseling.table")):
        w = f"counseling.table[{i}]"
        key = r.str(row, "key", w)
        if key not in valid_tables:
            r.problem(w, f"{key!r} is neither a political problem nor a Crown Event")
        counsels = []
        raw = row.get("counsels")
        if not isinstance(raw, list) or not raw:
            r.problem(w, "missing counsels")
            raw = []
        for j, c in enumerate(raw):
            cw = f"{w}.counsels[{j}]"
            mods = r.strs(c, "modifiers", cw)
            for m in mods:
                if m not in modifier_refs:
                    r.problem(cw, f"modifier {m!r} is not an office or character id")
            effects = c.get("effects", [])
            counsels.append(Counsel(r.str(c, "key", cw), r.str(c, "name", cw), mods,
                                    tuple(_effect(r, e, cw, refs) for e in effects)))
        r.unique([c.key for c in counsels], w)
        tables[key] = tuple(counsels)
    return results, tables


def _titles(r: Reader, data: Mapping[str, Any]) -> tuple[tuple[Title, ...], tuple[int, ...]]:
    titles = []
    for i, row in enumerate(r.rows(data, "title", "titles.title")):
        w = f"titles.title[{i}]"
        titles.append(Title(r.str(row, "male", w), r.str(row, "female", w),
                            r.int(row, "status", w), r.int(row, "cost", w)))
    if [t.status for t in titles] != list(range(1, len(titles) + 1)):
        r.problem("titles.title", "statuses must run 1, 2, 3 ... (Sir/Lady first)")
    return tuple(titles), r.ints(data.get("meta", {}), "no_titles", "titles.meta")


def load_tables(raw: Mapping[str, Mapping[str, Any]]) -> Tables:
    """Validate every file; raise `TableError` with every problem found."""
    r = Reader()
    _meta(r, raw)

    def get(stem: str) -> Mapping[str, Any]:
        return raw.get(stem, {})

    royals, nobles, succession = deck.characters(r, get("characters"))
    countries, offices = deck.offices(r, get("offices"))
    cards = deck.cards(r, get("cards"), {x.key for x in royals})
    opportunities = deck.opportunities(r, get("counters"))
    setup, turn, readings, support_value = _rules(r, get("rules"))
    office_keys = {o.key for o in offices}
    refs = {"card": {c.key for c in cards}, "office": office_keys}
    crown = _roll_rows(r, r.rows(get("crown_events"), "row", "crown_events.row"),
                       "crown_events.row", "result")
    for roll, result in crown.items():
        if result not in CROWN_RESULTS:
            r.problem("crown_events.row", f"roll {roll}: unknown result {result!r}")
    problems, wars = _problems(r, get("problems"), office_keys, {c.key for c in countries})
    court_ball = _range_table(r, "court_ball", get("court_ball").get("row"), "court_ball.row",
                              refs)
    prestige, privateering = _prestige(r, get("prestige"), refs)
    justice_raw = get("justice")
    justice = {key: _range_table(r, key, justice_raw.get(key), f"justice.{key}", refs,
                                 highest=14 if key == "royal_favor" else 12)
               for key in JUSTICE_TABLES}
    jrules_raw = justice_raw.get("rules", {})
    jrules = {k: r.int(jrules_raw, k, "justice.rules") for k in jrules_raw
              if k != "provenance"}
    counsel_tables = {p.key for p in problems} | {"royal_death", "intrigue", "court_ball",
                                                  "scandal"}
    mod_refs = office_keys | {str(n.id) for n in nobles}
    results, counseling = _counseling(r, get("counseling"), refs, counsel_tables, mod_refs)
    titles, no_titles = _titles(r, get("titles"))
    if r.problems:
        raise TableError(r.problems)
    return Tables(royals, nobles, succession, countries, offices, cards, opportunities, setup,
                  turn, readings, support_value, dict(sorted(crown.items())), problems,
                  wars, court_ball, prestige, privateering, justice, jrules, results,
                  counseling, titles, no_titles)
