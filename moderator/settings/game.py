"""Per-game settings: the ``[games.NAME]`` sections of config.toml.

Every key is declared once in `GAME_SETTINGS` (default, allowed values, help), so the
loader can check a section completely and report *every* problem with the file and the
key, and the README and config.toml can document the same list.  ``tables`` (table
overrides, checked by `moderator.settings.tables`) and ``deadline`` (a recurring deadline rule,
checked by `moderator.settings.deadline_rule.Rule`) are sub-tables handled here too.

This module imports nothing from the rest of the service (config.py imports it).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.settings.deadline_rule import WEEKDAYS, WEEKS, Rule, ScheduleError

Check = Callable[[Any], str | None]  # a value -> a problem, or None


@dataclass(frozen=True)
class GameSetting:
    key: str
    default: Any
    help: str
    check: Check | None = None


def _choice(*allowed: str) -> Check:
    def check(value: Any) -> str | None:
        return None if value in allowed else f"must be one of {', '.join(map(repr, allowed))}"
    return check


def _at_least(least: int) -> Check:
    def check(value: Any) -> str | None:
        return None if value >= least else f"must be at least {least}"
    return check


def _zone(value: Any) -> str | None:
    if value == "":
        return None
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        return f"{value!r} is not an IANA time zone"
    return None


def _hours_list(value: Any) -> str | None:
    if not all(isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in value):
        return "must be a list of whole hours above 0, e.g. [48, 24]"
    return None


GAME_SETTINGS: tuple[GameSetting, ...] = (
    GameSetting("kind", "", "The game: 'engarde', 'dwtk' or 'fief', what `game new NAME` "
                "creates (a --kind must match it); the table overrides are checked with it.",
                None),
    GameSetting("time_zone", "", "Time zone of the game's deadlines (IANA name); empty: "
                "[time] zone.  Used when the game is created.", _zone),
    GameSetting("deadlines", 2, "Deadlines per turn: 1 (orders only) or 2 (announcements "
                "and challenges, then orders).", lambda v: None if v in (1, 2) else
                "must be 1 or 2"),
    GameSetting("early_run", False, "Run the turn early once every active player has sent "
                "orders (after early_run_delay_minutes, so players may still change them)."),
    GameSetting("early_run_delay_minutes", 30, "Wait after the last orders before an early "
                "run.", _at_least(0)),
    GameSetting("reminder_hours", [24], "Hours before the orders deadline that players "
                "without orders are reminded (one reminder each time); [] for none; not "
                "set: [service] reminder_hours (Config.reminder_hours_of).",
                _hours_list),
    GameSetting("grace_hours", 0, "Hours after the deadline before the turn runs.",
                _at_least(0)),
    GameSetting("late_orders", "refuse", "Orders received after the deadline: 'refuse' "
                "(only `orders accept-late` makes them count) or 'accept' (those received "
                "within grace_hours count).", _choice("refuse", "accept")),
    GameSetting("nmr_limit", 0, "Misses in a row (absences excused) before nmr_action; "
                "0: never.", _at_least(0)),
    GameSetting("nmr_action", "civil-disorder", "After nmr_limit misses: 'civil-disorder' "
                "(the player is marked; his character goes on as one without orders does: En "
                "Garde! his NMR orders, else indisposed; DWTK and Fief his standing orders) or "
                "'remove' (the player is ejected).", _choice("civil-disorder", "remove")),
    GameSetting("absences", True, "Players may be marked absent (`player absence`)."),
    GameSetting("absence_max_days", 28, "Longest absence allowed, in days.", _at_least(1)),
    GameSetting("absence_moves_deadline", False, "An absence (ABSENCE UNTIL by mail) that "
                "covers the open turn's deadline moves that deadline to the absence's end."),
    GameSetting("press", True, "Announcements (ANNOUNCE) are printed at all."),
    GameSetting("anonymous_press", True, "Unsigned announcements allowed (else signed)."),
    GameSetting("alias_press", True, "Announcements under an alias allowed (else signed)."),
    GameSetting("press_moderation", False, "Announcements wait in the press queue for the "
                "GM (`press approve|reject`); those not approved by the run are dropped."),
    GameSetting("joining", "open", "Who may join by mail (JOIN GAME): 'open' (the "
                "character is created and the welcome mailed), 'approval' (the request waits "
                "for `player approve|reject`) or 'closed' (refused; `player add` too, "
                "without --force).", _choice("open", "closed", "approval")),
    GameSetting("status_who_sent", True, "The STATUS command by mail and the announcements "
                "gazette name the players who have sent orders (never what they ordered); "
                "false: they give only how many have."),
)
_BY_KEY = {s.key: s for s in GAME_SETTINGS}


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"; did you mean 'press'?"`` for the nearest known name, or "" if none is near."""
    near = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""

# Settings that were validated and stored but never acted on, now gone: a config that
# still names one is told why and what happens instead (not just "unknown setting").
REMOVED = {
    "nmr_orders": "was removed: it never changed anything; an En Garde! character "
                  "without orders always follows his NMR orders (their empty slots from "
                  "his standing orders), else he is indisposed; delete the line",
}
SUBTABLES = ("tables", "deadline")
# The type of each deadline key: a rule built from another type (time = 1800) would fail
# with a Python error, or (monthly_day = true) be taken as a number: checked with `is`.
_DEADLINE_TYPES: dict[str, type] = {"monthly_day": int, "weekday": str, "week": str,
                                    "every_days": int, "time": str,
                                    "announcements_days_before": int}


DEADLINE_KEYS = tuple(_DEADLINE_TYPES)


@dataclass(frozen=True)
class GameSettings:
    """One game's section, ``[games.NAME]``; a game without one gets the defaults."""

    kind: str | None = None
    tables: Mapping[str, Any] = field(default_factory=dict)
    deadline: Mapping[str, Any] = field(default_factory=dict)
    values: Mapping[str, Any] = field(default_factory=dict)

    def __getattr__(self, key: str) -> Any:
        # Declared settings read as attributes: settings.early_run, settings.nmr_limit ...
        if key in _BY_KEY and key != "kind":
            return self.values.get(key, _BY_KEY[key].default)
        raise AttributeError(key)

    def effective(self) -> dict[str, Any]:
        """Every declared setting with its value (defaults filled in)."""
        out = {s.key: self.values.get(s.key, s.default) for s in GAME_SETTINGS}
        out["kind"] = self.kind or ""
        return out


DEFAULTS = GameSettings()


def _same_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return type(default) is type(value)
    return type(default) is type(value)


def parse_game(game: str, body: Mapping[str, Any], name: str,
               problems: list[str]) -> GameSettings:
    """One ``[games.NAME]`` table, every problem appended as ``FILE: games.NAME.KEY ...``."""
    where = f"{name}: games.{game}"
    values: dict[str, Any] = {}
    for key, value in body.items():
        if key in SUBTABLES:
            continue
        setting = _BY_KEY.get(key)
        if key in REMOVED:
            problems.append(f"{where}.{key} {REMOVED[key]}")
        elif setting is None:
            problems.append(f"{name}: unknown setting 'games.{game}.{key}'"
                            + did_you_mean(key, _BY_KEY))
        elif not _same_type(setting.default, value):
            problems.append(f"{where}.{key} must be {type(setting.default).__name__}, "
                            f"not {value!r}")
        elif setting.check is not None and (problem := setting.check(value)):
            problems.append(f"{where}.{key} {problem}")
        else:
            values[key] = value
    tables = body.get("tables", {})
    if not isinstance(tables, Mapping):
        problems.append(f"{where}.tables must be a table")
        tables = {}
    deadline = _deadline(body.get("deadline", {}), where, problems)
    kind = values.pop("kind", None) or None
    return GameSettings(kind, dict(tables), deadline, values)


_WEEK_WORDS = {"1": "1st", "first": "1st", "2": "2nd", "second": "2nd", "3": "3rd",
               "third": "3rd", "4": "4th", "fourth": "4th", "final": "last"}


def weekday_key(text: str) -> str | None:
    """``saturday``, ``Sat``, ``sat.`` or ``satur`` -> ``sat``; None if it is no weekday."""
    word = text.strip().lower().rstrip(".")
    days = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    found = [key for key, day in zip(WEEKDAYS, days, strict=True)
             if len(word) >= 3 and day.startswith(word)]
    return found[0] if found else None


def week_key(text: str) -> str | None:
    """``2nd``, ``2`` or ``second`` -> ``2nd``; ``last``; None if it is none of them."""
    word = text.strip().lower()
    word = _WEEK_WORDS.get(word, word)
    return word if word in WEEKS else None


def _deadline(section: Any, where: str, problems: list[str]) -> dict[str, Any]:
    """``[games.NAME.deadline]``: a recurring rule, checked by building it."""
    if not isinstance(section, Mapping):
        problems.append(f"{where}.deadline must be a table")
        return {}
    if not section:
        return {}
    unknown = [k for k in section if k not in DEADLINE_KEYS]
    for key in unknown:
        problems.append(f"{where}.deadline.{key}: no such key (known: "
                        f"{', '.join(DEADLINE_KEYS)})")
    wrong = [key for key, value in section.items()
             if key in _DEADLINE_TYPES and type(value) is not _DEADLINE_TYPES[key]]
    for key in wrong:
        problems.append(f"{where}.deadline.{key} must be {_DEADLINE_TYPES[key].__name__}, "
                        f"not {section[key]!r}")
    if unknown or wrong:
        return {}
    section = dict(section)
    for key, read in (("weekday", weekday_key), ("week", week_key)):
        if isinstance(section.get(key), str):  # "saturday" as well as "sat"
            section[key] = read(section[key]) or section[key]
    try:
        Rule(**dict(section))
    except (ScheduleError, TypeError) as exc:
        problems.append(f"{where}.deadline: {exc}")
        return {}
    return dict(section)
