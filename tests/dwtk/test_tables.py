"""Every data/dwtk table loads; validation reports every problem at once (style rule 9)."""

from __future__ import annotations

import copy

import pytest

from moderator.games.base import TableError
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.tables import kind_of
from tests.dwtk.conftest import TABLES, raw_tables


def test_every_file_loads_with_provenance_and_source() -> None:
    raw = raw_tables()
    assert set(raw) >= {"characters", "cards", "counters", "offices", "rules", "crown_events",
                        "problems", "court_ball", "prestige", "justice", "counseling", "titles"}
    ENGINE.load_tables(raw)
    for stem, data in raw.items():
        assert data["meta"]["provenance"] in ("rulebook", "PROPOSED"), stem
        assert data["meta"]["source"], stem


def test_the_event_deck_holds_120_cards() -> None:
    """DWTK 2.1.4: 120 Event cards; 6 DOWN WITH THE KING; illegal per 14.2.7."""
    cards = TABLES.card_instances()
    assert len(cards) == len(set(cards)) == 120
    assert sum(kind_of(c) == "dwtk" for c in cards) == 6
    illegal = {c.key for c in TABLES.cards if not c.legal}
    assert illegal == {"dwtk", "assassination", "foreign_support_sandarkan",
                       "foreign_support_epalin", "foreign_support_cronos",
                       "foreign_support_city_states"}


def test_counters_and_characters() -> None:
    """DWTK 2.2.2 (24 counters), 2.1.2 (36 nobles), 2.1.1 death numbers cover 11-66 once."""
    assert len(TABLES.opportunity_instances()) == 24
    assert len(TABLES.nobles) == 36
    assert TABLES.noble(12).name == "Sir Guy" and TABLES.noble(12).ability == 5
    assert sorted(d for r in TABLES.royals for d in r.deaths) == sorted(
        10 * a + b for a in range(1, 7) for b in range(1, 7))
    assert TABLES.noble(55).provenance == "PROPOSED"


def test_proposed_tables_are_marked() -> None:
    raw = raw_tables()
    for stem in ("crown_events", "problems", "court_ball", "prestige", "justice",
                 "counseling", "titles"):
        assert raw[stem]["meta"]["provenance"] == "PROPOSED", stem
    assert all(k in TABLES.readings for k in ("illegal_cards", "crisis_counsel",
                                              "extradition_target"))


def test_validation_reports_every_problem() -> None:
    raw = copy.deepcopy(raw_tables())
    raw["cards"]["card"][0]["count"] = 7            # 121 cards
    raw["characters"]["royal"][0]["deaths"] = [55]  # counts uncovered
    raw["crown_events"]["row"].pop()                # roll 12 missing
    raw["court_ball"]["row"][3]["min"] = 6          # gap after 4
    raw["prestige"]["carousing"]["rows"][0]["effects"] = ["pp:lots"]
    raw["problems"]["problem"][0]["minister"] = "jester"
    raw["justice"]["meta"]["provenance"] = "guess"
    del raw["titles"]
    with pytest.raises(TableError) as info:
        ENGINE.load_tables(raw)
    joined = "\n".join(info.value.problems)
    for expected in ("the deck holds 121 cards", "death numbers must cover",
                     "rolls [12] have no row", "court_ball.row: rows 2 and 3 are not contiguous",
                     "effect 'pp' needs an integer", "unknown office 'jester'",
                     "justice.meta: provenance must be one of", "titles: file missing"):
        assert expected in joined, expected
