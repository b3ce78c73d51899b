"""The game's tables: ``data/dwtk/*.toml`` in, validated frozen values out.

The service reads the files and hands us ``{file stem: dict}``; we only validate.
Every problem (file, row, what is wrong) is collected and raised together as one
`TableError`.  Each file carries ``[meta] provenance``: ``rulebook`` (printed in the
rules), ``PROPOSED`` (our design, reference tables §3-8); rows may override it with
``inferred``/``derived``/``PROPOSED``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any

from moderator.games.base import TableError
from moderator.games.dwtk.validation import Reader

REQUIRED_FILES = ("characters", "offices", "cards", "counters", "rules", "crown_events",
                  "problems", "court_ball", "prestige", "justice", "counseling", "titles")
CROWN_RESULTS = ("royal_death", "plague", "famine", "scandal", "one_problem",
                 "two_problems", "court_ball", "intrigue")
PRESTIGE_TABLES = ("carousing", "sporting", "romance", "socializing", "privateering")
JUSTICE_TABLES = ("scandal", "assassination", "interrogation", "trial", "royal_favor")
DICE_COUNTS = tuple(10 * r + w for r in range(1, 7) for w in range(1, 7))

# Effects a table row may carry, and the kind of argument each takes (after a colon).
EFFECTS: Mapping[str, str | None] = {
    "pp": "int", "ip": "int", "support": "int", "cargo": "int", "trial_mod": "int",
    "next_roll": "int", "discard": "card", "discharge": "office",
    "banned": None, "accused": None, "scandal": None, "duel": None, "duel_drunk": None,
    "free_counsel": None, "proposal": None, "hearing": None, "accuser_accused": None,
    "assassin_dies": None, "assassin_trial": None, "assassin_hearing": None,
    "assassin_accused": None, "target_dies": None, "dies": None, "implicates": None,
    "not_guilty": None, "banished": None, "imprisoned": None, "awaiting_execution": None,
    "executed": None, "farc_lost": None, "voyage_ends": None, "cargo_lost": None,
    "captain_dies": None, "storm": None, "returns": None, "armed_ship": None,
    "rejected": None, "accepted": None, "lose_office": None, "to_besyzan": None,
    "resolve": None, "resolve_quietly": None, "extradite_named": None,
    "accuse_named": None, "besyzan_named": None, "title_named": None,
    "office_named": None, "ban_named": None, "hearing_object": None, "ban_object": None,
    "purge_counselor_named": None,
}


class Sex(StrEnum):
    MALE = "m"
    FEMALE = "f"


class NobleKind(StrEnum):
    """Card groups of the Nobles Deck (DWTK 2.1.2, 16.1, 19.2, 20.7)."""

    NOBLE = "noble"  # 11-44: may hold office and duel
    OFFICIAL = "official"  # 45-54: Magistrate, Judges, Sheriff, General, Admiral
    CLERGY = "clergy"  # 55: the Archbishop
    LADY = "lady"  # 56, 61-66


class OfficeKind(StrEnum):
    MONARCH = "monarch"
    MINISTER = "minister"
    AMBASSADOR = "ambassador"


@dataclass(frozen=True)
class NobleCard:
    """One card of the Nobles Deck (DWTK 2.1.2): Status, Ability, Dueling (or Seduction)."""

    id: int
    name: str
    kind: NobleKind
    status: int
    ability: int | None = None
    dueling: int | None = None
    seduction: int | None = None
    trial_numbers: tuple[int, ...] = ()
    provenance: str = "rulebook"

    @property
    def key(self) -> str:
        return str(self.id)

    @property
    def sex(self) -> Sex:
        return Sex.FEMALE if self.kind is NobleKind.LADY else Sex.MALE

    @property
    def office_holder(self) -> bool:
        """DWTK 16.1: only characters 11-44 may hold office."""
        return self.kind is NobleKind.NOBLE

    @property
    def can_duel(self) -> bool:
        """DWTK 19.2: 11-44 and 52-54."""
        return self.dueling is not None

    @property
    def can_travel(self) -> bool:
        """DWTK 20.7: the Magistrate, Judges, Sheriff and Archbishop never leave Fandonia."""
        return self.kind in (NobleKind.NOBLE, NobleKind.LADY) or self.id in (53, 54)


@dataclass(frozen=True)
class RoyalCard:
    """One card of the Royalty Deck (DWTK 2.1.1)."""

    key: str
    name: str
    sex: Sex
    status: int
    dice: str
    times: int
    halve: bool
    deaths: tuple[int, ...]


@dataclass(frozen=True)
class Country:
    key: str
    name: str


@dataclass(frozen=True)
class Office:
    """One card of the Office Deck (DWTK 2.1.3)."""

    key: str
    name: str
    kind: OfficeKind
    status: int
    portfolio: str = ""
    country: str | None = None


@dataclass(frozen=True)
class SupportValue:
    """A Support card's Usurpation Value and what raises it (DWTK 14.5.2, 7.10.5, 7.11)."""

    dice: str
    times: int
    boosted: int
    when: tuple[str, ...]
    at_war: int | None = None
    pirates: int | None = None


@dataclass(frozen=True)
class CardKind:
    """A kind of Event card and how many the deck holds (DWTK 2.1.4, 14.5)."""

    key: str
    name: str
    count: int
    legal: bool = True
    support: SupportValue | None = None
    royal: str | None = None
    provenance: str = "rulebook"


@dataclass(frozen=True)
class Opportunity:
    key: str
    name: str
    count: int


@dataclass(frozen=True)
class Effect:
    """One effect of a table row: ``pp:-2`` is Effect("pp", -2)."""

    name: str
    arg: int | str | None = None

    @property
    def amount(self) -> int:
        return self.arg if isinstance(self.arg, int) else 0

    def __str__(self) -> str:
        return self.name if self.arg is None else f"{self.name}:{self.arg}"


@dataclass(frozen=True)
class RangeRow:
    """A row over a modified dice total; ``low``/``high`` None mean open-ended."""

    low: int | None
    high: int | None
    effects: tuple[Effect, ...]
    mod: int = 0

    def has(self, name: str) -> bool:
        return any(e.name == name for e in self.effects)

    def total(self, name: str) -> int:
        return sum(e.amount for e in self.effects if e.name == name)


@dataclass(frozen=True)
class RangeTable:
    key: str
    rows: tuple[RangeRow, ...]

    def lookup(self, total: int) -> RangeRow:
        for row in self.rows:
            if (row.low is None or total >= row.low) and (row.high is None or total <= row.high):
                return row
        raise LookupError(f"{self.key}: no row for {total}")  # validation prevents this


@dataclass(frozen=True)
class Problem:
    """A row of the Political Problems Table (DWTK 7.1; PROPOSED)."""

    key: str
    name: str
    minister: str
    modifiers: tuple[str, ...]
    rolls: tuple[int, ...]


@dataclass(frozen=True)
class PrestigeTable:
    key: str
    name: str
    cost: int
    male_only: bool
    table: RangeTable


@dataclass(frozen=True)
class Counsel:
    key: str
    name: str
    modifiers: tuple[str, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Title:
    male: str
    female: str
    status: int
    cost: int


@dataclass(frozen=True)
class Tables:
    """Everything the engine reads from data files."""

    royals: tuple[RoyalCard, ...]
    nobles: tuple[NobleCard, ...]
    succession: tuple[str, ...]
    countries: tuple[Country, ...]
    offices: tuple[Office, ...]
    cards: tuple[CardKind, ...]
    opportunities: tuple[Opportunity, ...]
    setup: Mapping[str, Any]
    turn: Mapping[str, Any]
    readings: Mapping[str, Any]
    support_value: tuple[tuple[int, int], ...]
    crown_events: Mapping[int, str]
    problems: tuple[Problem, ...]
    wars: Mapping[int, tuple[str, ...]]
    court_ball: RangeTable
    prestige: Mapping[str, PrestigeTable]
    privateering: Mapping[str, int]
    justice: Mapping[str, RangeTable]
    justice_rules: Mapping[str, int]
    counseling_results: RangeTable
    counseling: Mapping[str, tuple[Counsel, ...]]
    titles: tuple[Title, ...]
    no_titles: tuple[int, ...]

    def noble(self, cid: int | str) -> NobleCard:
        return self._nobles[int(cid)]

    def royal(self, key: str) -> RoyalCard:
        return next(r for r in self.royals if r.key == key)

    def office(self, key: str) -> Office:
        return next(o for o in self.offices if o.key == key)

    def country(self, key: str) -> Country:
        return next(c for c in self.countries if c.key == key)

    def card_kind(self, key: str) -> CardKind:
        return next(c for c in self.cards if c.key == key)

    def problem(self, key: str) -> Problem:
        return next(p for p in self.problems if p.key == key)

    def problem_for_roll(self, total: int) -> Problem:
        return next(p for p in self.problems if total in p.rolls)

    def ambassador_of(self, country: str) -> Office:
        return next(o for o in self.offices if o.country == country)

    @property
    def _nobles(self) -> dict[int, NobleCard]:
        return {n.id: n for n in self.nobles}

    def card_instances(self) -> tuple[str, ...]:
        """Every physical Event card: ``treachery-1`` ... (the 120 of DWTK 2.1.4)."""
        return tuple(f"{c.key}-{n}" for c in self.cards for n in range(1, c.count + 1))

    def opportunity_instances(self) -> tuple[str, ...]:
        return tuple(f"{o.key}-{n}" for o in self.opportunities
                     for n in range(1, o.count + 1))

    def rule(self, name: str) -> int:
        return int(self.turn[name])

    def reading(self, name: str) -> Any:
        return self.readings[name]


def kind_of(card: str) -> str:
    """``treachery-3`` -> ``treachery``."""
    return card.rsplit("-", 1)[0]


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


def _characters(r: Reader, data: Mapping[str, Any]) -> tuple[
        tuple[RoyalCard, ...], tuple[NobleCard, ...], tuple[str, ...]]:
    royals = []
    for i, row in enumerate(r.rows(data, "royal", "characters.royal")):
        w = f"characters.royal[{i}]"
        usurp = row.get("usurpation", {})
        if not isinstance(usurp, Mapping):
            r.problem(w, "usurpation must be a table")
            usurp = {}
        sex = row.get("sex")
        if sex not in ("m", "f"):
            r.problem(w, f"sex must be 'm' or 'f', got {sex!r}")
        royals.append(RoyalCard(r.str(row, "key", w), r.str(row, "name", w),
                                Sex(sex) if sex in ("m", "f") else Sex.MALE,
                                r.int(row, "status", w), r.dice(usurp, "dice", w),
                                r.int(usurp, "times", w), r.bool(usurp, "halve", w, False),
                                r.ints(row, "deaths", w)))
    r.unique([x.key for x in royals], "characters.royal")
    deaths = sorted(d for x in royals for d in x.deaths)
    if deaths != sorted(DICE_COUNTS):
        r.problem("characters.royal", "death numbers must cover each dice count 11-66 "
                                      "exactly once (DWTK 8.4.1)")
    nobles = []
    for i, row in enumerate(r.rows(data, "noble", "characters.noble")):
        w = f"characters.noble[{i}]"
        kind = row.get("kind")
        if kind not in {k.value for k in NobleKind}:
            r.problem(w, f"kind must be one of noble, official, clergy, lady; got {kind!r}")
            kind = "noble"
        card = NobleCard(r.int(row, "id", w), r.str(row, "name", w), NobleKind(kind),
                         r.int(row, "status", w), r.opt_int(row, "ability", w),
                         r.opt_int(row, "dueling", w), r.opt_int(row, "seduction", w),
                         r.ints(row, "trial_numbers", w) if "trial_numbers" in row else (),
                         r.provenance(row, w, "rulebook"))
        if card.kind is NobleKind.NOBLE and (card.ability is None or card.dueling is None):
            r.problem(w, "a noble (11-44) needs ability and dueling")
        if card.kind is NobleKind.LADY and card.seduction is None:
            r.problem(w, "a lady needs a seduction rating")
        nobles.append(card)
    ids = sorted(n.id for n in nobles)
    r.unique(ids, "characters.noble")
    if ids != sorted(DICE_COUNTS):
        missing = sorted(set(DICE_COUNTS) - set(ids))
        r.problem("characters.noble", f"ids must be the 36 dice counts; missing {missing}")
    keys = {x.key for x in royals}
    succession = r.strs(data.get("meta", {}), "succession", "characters.meta")
    for key in succession:
        if key not in keys:
            r.problem("characters.meta", f"succession names unknown royal {key!r}")
    return tuple(royals), tuple(nobles), succession


def _offices(r: Reader, data: Mapping[str, Any]) -> tuple[tuple[Country, ...],
                                                           tuple[Office, ...]]:
    countries = tuple(Country(r.str(row, "key", f"offices.country[{i}]"),
                              r.str(row, "name", f"offices.country[{i}]"))
                      for i, row in enumerate(r.rows(data, "country", "offices.country")))
    offices = []
    for i, row in enumerate(r.rows(data, "office", "offices.office")):
        w = f"offices.office[{i}]"
        kind = row.get("kind")
        if kind not in {k.value for k in OfficeKind}:
            r.problem(w, f"kind must be monarch, minister or ambassador; got {kind!r}")
            kind = "minister"
        country = row.get("country")
        if kind == "ambassador" and country not in {c.key for c in countries}:
            r.problem(w, f"an ambassador needs a known country, got {country!r}")
        offices.append(Office(r.str(row, "key", w), r.str(row, "name", w), OfficeKind(kind),
                              r.int(row, "status", w), str(row.get("portfolio", "")),
                              country if isinstance(country, str) else None))
    r.unique([o.key for o in offices], "offices.office")
    if sum(o.kind is OfficeKind.MONARCH for o in offices) != 1:
        r.problem("offices.office", "there must be exactly one monarch office")
    return countries, tuple(offices)


def _support(r: Reader, value: Any, where: str) -> SupportValue | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        r.problem(where, "support must be a table")
        return None
    when = r.strs(value, "when", where)
    for cond in when:
        kind, _, arg = cond.partition(":")
        if kind not in ("fac", "problem", "crown", "ambassador") or not arg:
            r.problem(where, f"unknown support condition {cond!r}")
    return SupportValue(r.dice(value, "dice", where), r.int(value, "times", where),
                        r.int(value, "boosted", where), when, r.opt_int(value, "at_war", where),
                        r.opt_int(value, "pirates", where))


def _cards(r: Reader, data: Mapping[str, Any], royal_keys: set[str]) -> tuple[CardKind, ...]:
    cards = []
    for i, row in enumerate(r.rows(data, "card", "cards.card")):
        w = f"cards.card[{i}]"
        royal = row.get("royal")
        if royal is not None and royal not in royal_keys:
            r.problem(w, f"royal {royal!r} is not a royal card")
        card = CardKind(r.str(row, "key", w), r.str(row, "name", w), r.int(row, "count", w),
                        r.bool(row, "legal", w, True), _support(r, row.get("support"), w),
                        royal if isinstance(royal, str) else None,
                        r.provenance(row, w, "rulebook"))
        if card.count < 1:
            r.problem(w, "count must be at least 1")
        cards.append(card)
    r.unique([c.key for c in cards], "cards.card")
    total = sum(c.count for c in cards)
    expected = data.get("meta", {}).get("total", 120)
    if total != expected:
        r.problem("cards", f"the deck holds {total} cards, not {expected} (DWTK 2.1.4)")
    if not any(c.key == "dwtk" for c in cards):
        r.problem("cards", "the DOWN WITH THE KING card (key 'dwtk') is required (3.9)")
    return tuple(cards)


def _opportunities(r: Reader, data: Mapping[str, Any]) -> tuple[Opportunity, ...]:
    out = []
    for i, row in enumerate(r.rows(data, "opportunity", "counters.opportunity")):
        w = f"counters.opportunity[{i}]"
        r.provenance(row, w, "rulebook")
        out.append(Opportunity(r.str(row, "key", w), r.str(row, "name", w),
                               r.int(row, "count", w)))
    r.unique([o.key for o in out], "counters.opportunity")
    total = sum(o.count for o in out)
    expected = data.get("meta", {}).get("total", 24)
    if total != expected:
        r.problem("counters", f"{total} opportunity counters, not {expected} (DWTK 2.2.2)")
    return tuple(out)


_SETUP_INTS = ("players_min", "players_max", "two_player_lady_status", "start_ip",
               "start_pp", "hand", "support_times")
_TURN_INTS = ("office_cost", "office_activity_cost", "activities", "hand_limit",
              "intrigue_min_hand", "problem_failures_discharge", "support_step",
              "support_max", "mourning_discards", "draw_cost", "pp_price",
              "prestige_modifier_cost", "prestige_modifier_cap", "court_ball_modifier_cap",
              "court_ball_modifier_floor", "court_ball_ban_loss", "free_counsel_from",
              "proposal_farc_cost", "duel_buyout", "prison_death_ip", "crisis_support_value",
              "farc_monarch_bonus_pp", "farc_monarch_bonus_ip", "victory_turns")
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

    royals, nobles, succession = _characters(r, get("characters"))
    countries, offices = _offices(r, get("offices"))
    cards = _cards(r, get("cards"), {x.key for x in royals})
    opportunities = _opportunities(r, get("counters"))
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
