"""Results never depend on names, keys or the order characters come in (DEVELOPERS.md).

EG §S: favours are reserved at the start of the month, so every USE FAVOUR of the
month bears on a decision whoever's name sorts first; the influence example
(Athos, Porthos, Cyrano) is run here in both name orders.

The property test takes the golden game's twelve months (real states and orders),
adds random favours, applications and pushes, renames every character (keys and
names, so the sort order changes), shuffles the order the characters are stored
in, and asserts the same results once the names are mapped back.  Its dice follow
the character: the n-th roll of a subsystem for a character is the same face in
both runs, whatever order the characters are handled in (the seeded dice of a
real turn hand faces out in handling order, so a renamed character would roll
other numbers: a fair game either way, but not a test of the rules' logic).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import defaultdict
from functools import cache
from typing import Any

import pytest

from moderator.dice import Dice, FaceSource, Roll
from moderator.games.engarde import ENGINE
from tests.engarde.conftest import (
    _TABLES,
    assert_event,
    dice,
    give_orders,
    make_char,
    make_state,
    run_month,
)
from tests.engarde.test_golden import GOLDEN, SEED, cast, read_orders


def _captain(key: str, name: str, **extra: Any) -> dict[str, Any]:
    """A lieutenant general, as Athos is in the EG §S example."""
    return make_char(key, name, sl=10, rank="lieutenant_general", military_ability=6, **extra)


def _athos_example(applicant: str) -> tuple[Any, list[Roll]]:
    """EG §S: Athos applies to the Minister of War; Porthos pushes with a class 8
    favour, Cyrano against with a class 9.  ``applicant`` is Athos's name (and key)."""
    key = applicant.lower()
    porthos = _captain("porthos", "Porthos", favours=[
        {"id": "porthos.1", "cls": 8, "source": "npc", "expires": None, "lady": None}])
    cyrano = _captain("cyrano", "Cyrano", favours=[
        {"id": "cyrano.1", "cls": 9, "source": "npc", "expires": None, "lady": None}])
    state = make_state(_captain(key, applicant), porthos, cyrano)
    orders = give_orders(state, **{
        key: "ANYTIME: APPLY FOR Inspector-General of Cavalry",
        "porthos": f"ANYTIME: USE FAVOUR 8 ON APPOINTMENT FOR {applicant}",
        "cyrano": f"ANYTIME: USE FAVOUR 9 ON APPOINTMENT AGAINST {applicant}"})
    rolls = dice(offices=[6])
    result = run_month(state, orders, rolls)
    return result, [r for r in rolls.log if r.subsystem == "offices"]


@pytest.mark.parametrize("applicant", ["Athos", "Zacharie"],
                         ids=["applicant-sorts-first", "applicant-sorts-last"])
def test_influence_example_in_both_name_orders(applicant: str) -> None:
    """EG §S example: the base roll - 2 (Porthos's class 8) + 3 (Cyrano's class 9)
    against a Minister (class 7 minimum), whichever name sorts first; both spent."""
    result, rolls = _athos_example(applicant)
    base = _TABLES.army.appointment_rules["apply_needs"]
    assert [r.needs for r in rolls] == [base - 2 + 3]
    assert_event(result, "appointment.refused", applicant.lower(), reason="roll")
    assert_event(result, "favour.used", "porthos", cls=8, against=False)
    assert_event(result, "favour.used", "cyrano", cls=9, against=True)


# -- the property: rename and reorder, same results ---------------------------------

# New names, all sorting differently from the golden cast and from each other.
_NEW_NAMES = ("Zebulon", "Yorick", "Xerxes", "Wystan", "Vortigern", "Ulfric", "Thaddeus",
              "Sigismund", "Barnabe", "Anselme", "Quentin", "Lucien")


class _FollowingFaces:
    """Faces that follow the character: the n-th d`sides` roll of a subsystem for
    one (canonical) character is fixed by the case seed, not by handling order."""

    def __init__(self, seed: int, canon: dict[str, str]) -> None:
        self.seed = seed
        self.canon = canon
        self.counts: dict[tuple[str, str | None], int] = defaultdict(int)
        self.actor: str | None = None

    def face(self, subsystem: str, sides: int) -> int:
        who = self.canon.get(self.actor or "", self.actor)
        n = self.counts[(subsystem, who)]
        self.counts[(subsystem, who)] += 1
        digest = hashlib.sha256(f"{self.seed}:{subsystem}:{who}:{n}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % sides + 1


class FollowingDice(Dice):
    def __init__(self, seed: int, canon: dict[str, str]) -> None:
        self.following = _FollowingFaces(seed, canon)
        faces: FaceSource = self.following
        super().__init__(faces)

    def roll(self, subsystem: str, spec: str, purpose: str, *, actor: str | None = None,
             needs: int | None = None, modifier: int = 0) -> Roll:
        self.following.actor = actor
        return super().roll(subsystem, spec, purpose, actor=actor, needs=needs,
                            modifier=modifier)


@cache
def _golden_months() -> tuple[tuple[str, dict[str, str], dict[str, str]], ...]:
    """(state JSON before the month, order texts, decisions) for the twelve months."""
    state = cast()
    months = []
    for number in range(1, 13):
        texts, decisions = read_orders(GOLDEN / "orders" / f"{number:02d}.txt")
        months.append((json.dumps(state), texts, decisions))
        state = dict(state, decisions={**state.get("decisions", {}), **decisions})
        orders = {k: ENGINE.parse_orders(t, state, k, _TABLES).orders
                  for k, t in sorted(texts.items())}
        state = ENGINE.adjudicate(state, orders, _TABLES,
                                  Dice.for_turn(SEED, state["turn"])).state
    return tuple(months)


_DECISIONS = ("appointment", "regiment", "charge", "warrant", "pardon", "title", "trial")


def _extras(rng: random.Random, state: dict[str, Any]) -> dict[str, list[str]]:
    """Random favours (into the state) and random USE FAVOUR / APPLY / BRIBE orders."""
    chars = state["characters"]
    keys = sorted(k for k, c in chars.items() if not c.get("dead"))
    posts = sorted(p.name for p in _TABLES.army.appointments)
    extra: dict[str, list[str]] = defaultdict(list)
    for key in keys:
        c = chars[key]
        if rng.random() < 0.6:
            serial = c.get("favour_serial", 0) + 1
            cls = rng.randint(1, 9)
            c["favours"] = [*c.get("favours", []), {"id": f"{key}.{serial}", "cls": cls,
                                                    "source": "npc", "expires": None,
                                                    "lady": None}]
            c["favour_serial"] = serial
            target = chars[rng.choice(keys)]["name"]
            way = rng.choice(("FOR", "AGAINST"))
            extra[key].append(f"ANYTIME: USE FAVOUR {cls} ON {rng.choice(_DECISIONS).upper()}"
                              f" {way} {target}")
        if rng.random() < 0.3:
            extra[key].append(f"ANYTIME: APPLY FOR {rng.choice(posts)}")
        if rng.random() < 0.2:
            extra[key].append(f"ANYTIME: BRIBE {rng.choice(('Minister', 'General', 'Colonel'))}"
                              f" CLASS {rng.randint(1, 6)}")
    return extra


def _token(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z']){re.escape(word)}(?![A-Za-z])")


def _renamer(pairs: dict[str, str]) -> Any:
    """Replace whole words (keys and names) in one pass, longest first."""
    words = sorted(pairs, key=len, reverse=True)
    pattern = re.compile("|".join(rf"(?<![A-Za-z']){re.escape(w)}(?![A-Za-z])" for w in words))
    return lambda text: pattern.sub(lambda m: pairs[m.group(0)], text)


def _case(seed: int) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    months = _golden_months()
    before, texts, decisions = months[seed % len(months)]
    rng = random.Random(seed)
    state = json.loads(before)
    state["decisions"] = {**state.get("decisions", {}), **decisions}
    texts = dict(texts)
    for key, lines in _extras(rng, state).items():
        if rng.random() < 0.5:
            texts[key] = texts.get(key, "") + "\n".join(lines) + "\n"
    return state, texts, decisions


def _run(state: dict[str, Any], texts: dict[str, str], seed: int,
         canon: dict[str, str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    orders = {k: ENGINE.parse_orders(t, state, k, _TABLES).orders for k, t in texts.items()}
    result = ENGINE.adjudicate(state, orders, _TABLES, FollowingDice(seed, canon))
    return result.state, [e.to_dict() for e in result.events]


def _by_actor(events: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Each character's events (and the world's), as sorted lists.

    Sorted: the lines another character's order puts on a sheet (a charge, a
    no-show) are interleaved with his own in handling order; what they say (ids,
    rolls, SP, crowns) must not depend on it."""
    out: dict[str, list[str]] = defaultdict(list)
    for e in events:
        out[str(e["actor"])].append(json.dumps(e, sort_keys=True))
    return {k: sorted(v) for k, v in out.items()}


@pytest.mark.parametrize("seed", range(50))
def test_renamed_and_reordered_months_give_the_same_results(seed: int) -> None:
    state, texts, _ = _case(seed)
    rng = random.Random(1000 + seed)
    chars = state["characters"]
    keys = sorted(chars)
    names = rng.sample(_NEW_NAMES, len(keys))
    forward: dict[str, str] = {}
    for key, new in zip(keys, names, strict=True):
        forward[key] = new.lower()
        forward[chars[key]["name"]] = new
        if "'" in chars[key]["name"]:  # D'Artagnan is also written Dartagnan
            bare = chars[key]["name"].replace("'", "")
            forward[bare] = forward[bare.capitalize()] = new
    back = {}
    for key in keys:
        back[forward[key]] = key
        back[forward[chars[key]["name"]]] = chars[key]["name"]
    rename, unname = _renamer(forward), _renamer(back)
    renamed = json.loads(rename(json.dumps(state)))
    order = list(renamed["characters"])
    rng.shuffle(order)
    renamed["characters"] = {k: renamed["characters"][k] for k in order}
    renamed_texts = {rename(k): rename(t) for k, t in texts.items()}
    canon = {forward[k]: k for k in keys}

    plain_state, plain_events = _run(state, texts, seed, {k: k for k in keys})
    new_state, new_events = _run(renamed, renamed_texts, seed, canon)

    mapped_state = json.loads(unname(json.dumps(new_state)))
    mapped_events = json.loads(unname(json.dumps(new_events)))
    assert json.dumps(mapped_state, sort_keys=True) == json.dumps(plain_state, sort_keys=True)
    assert _by_actor(mapped_events) == _by_actor(plain_events)


@pytest.mark.parametrize("applicant", ["Athos", "Zacharie"],
                         ids=["applicant-sorts-first", "applicant-sorts-last"])
def test_regiment_application_pushed_whoever_sorts_first(applicant: str) -> None:
    """EG §S "Influence may be used to join a regiment": a class 5 favour on the
    colonel (class 3 minimum) is -3 on Table A's roll, whichever name sorts first."""
    key = applicant.lower()
    friend = make_char("porthos", "Porthos", sl=8, favours=[
        {"id": "porthos.1", "cls": 5, "source": "npc", "expires": None, "lady": None}])
    state = make_state(make_char(key, applicant, sl=8, crowns=2000), friend)
    orders = give_orders(state, **{
        key: "ANYTIME: JOIN REGIMENT King's Musketeers",
        "porthos": f"ANYTIME: USE FAVOUR 5 ON REGIMENT FOR {applicant}"})
    rolls = dice(army=[1])
    run_month(state, orders, rolls)
    applying = [r for r in rolls.log if r.subsystem == "army" and r.actor == key]
    assert [r.needs for r in applying] == [_TABLES.army.table_a(8, "km") - 3]


@pytest.mark.parametrize("names", [("Athos", "Zacharie"), ("Zacharie", "Athos")],
                         ids=["better-sorts-first", "better-sorts-last"])
def test_one_vacancy_goes_to_the_better_result_whoever_sorts_first(
        names: tuple[str, str]) -> None:
    """Reference §7 (one slot): both applications succeed (each pushed to 5+ by his own
    favour); the better roll takes the post and the other is told it is filled,
    whichever name sorts first."""
    better, worse = names
    def favour(key: str) -> list[dict[str, Any]]:
        return [{"id": f"{key}.1", "cls": 7, "source": "npc", "expires": None, "lady": None}]

    state = make_state(_captain(better.lower(), better, favours=favour(better.lower())),
                       _captain(worse.lower(), worse, favours=favour(worse.lower())))
    post = "ANYTIME: APPLY FOR Inspector-General of Cavalry\n"
    orders = give_orders(state, **{
        k.lower(): post + f"ANYTIME: USE FAVOUR 7 ON APPOINTMENT FOR {k}" for k in names})
    faces = {better.lower(): 6, worse.lower(): 5}
    rolls = FollowingDice(0, {})
    rolls.following.face = lambda subsystem, sides: faces.get(  # type: ignore[method-assign]
        rolls.following.actor or "", 3)
    result = run_month(state, orders, rolls)
    assert_event(result, "appointment.granted", better.lower())
    assert_event(result, "appointment.refused", worse.lower(), reason="vacancy")


@pytest.mark.parametrize("first", ["Athos", "Zacharie"])
def test_equal_results_draw_lots_for_one_vacancy(first: str) -> None:
    """Equal margins and SL: lots decide (PROPOSED), not the order of the names."""
    other = "Zacharie" if first == "Athos" else "Athos"
    state = make_state(_captain(first.lower(), first), _captain(other.lower(), other))
    post = "ANYTIME: APPLY FOR Inspector-General of Cavalry"
    orders = give_orders(state, **{first.lower(): post, other.lower(): post})
    lots = {"athos": [6, 2], "zacharie": [6, 5]}  # both roll 6 to apply; Zacharie's lot wins
    rolls = FollowingDice(0, {})
    rolls.following.face = lambda subsystem, sides: lots.get(  # type: ignore[method-assign]
        rolls.following.actor or "", [3]).pop(0) if subsystem == "offices" else 3
    result = run_month(state, orders, rolls)
    assert_event(result, "appointment.granted", "zacharie")
    assert_event(result, "appointment.refused", "athos", reason="vacancy")
