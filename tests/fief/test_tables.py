"""The tables: every file loads, every value carries its provenance, problems are collected."""

from __future__ import annotations

import copy

import pytest

from moderator.games.base import TableError
from moderator.games.fief import ENGINE
from tests.fief.conftest import TABLES, raw_tables


def test_the_shipped_tables_load_with_the_rulebook_counts() -> None:
    assert len(TABLES.city_names) == 18 and len(TABLES.regions) == 6
    assert sum(c for _, c in TABLES.character_cards) + len(TABLES.nobles) == 31    # FE 2.2
    assert sum(c for _, c in TABLES.fortune_cards) == 16                          # Components
    assert sum(c for _, c in TABLES.disaster_cards) == 9
    assert sum(c for _, c, _ in TABLES.retainers) == 23
    assert TABLES.battle.die_faces == (0, 1, 1, 2, 2, 3)                           # FE 7.1
    assert [TABLES.battle_dice(sp) for sp in (1, 6, 7, 12, 13)] == [1, 1, 2, 2, 3]  # FE 7.3
    assert TABLES.neighbours("King's Lynn") == ("Coventry", "Lincoln", "Norwich")  # Ex 6-2
    assert TABLES.sea_distance(3, 2) == 1 and TABLES.sea_distance(4, 6) == 2       # Ex 5-4, 5-5


def test_every_number_and_row_is_tagged_with_its_provenance() -> None:
    raw = raw_tables()
    for file in ("map", "cards", "troops", "rules"):
        assert raw[file]["meta"]["provenance"]
    for file, rows in (("map", ("region", "district", "road")),
                       ("cards", ("noble", "character", "fortune", "disaster", "retainer"))):
        for key in rows:
            assert all(r["status"] for r in raw[file][key]), (file, key)
    tagged = dict(TABLES.provenance)
    for section in ("setup", "cards", "money", "battle", "invaders", "plague", "victory"):
        for key in raw["rules"][section]:
            assert f"rules.{section}.{key}" in tagged, (section, key)


def test_an_untagged_value_and_a_bad_road_are_both_reported() -> None:
    raw = copy.deepcopy(raw_tables())
    del raw["rules"]["tags"]["money.danegeld"]
    raw["map"]["road"].append({"a": "London", "b": "Atlantis", "dir_ab": "N", "dir_ba": "S",
                               "status": "PROPOSED"})
    raw["map"]["road"].append({"a": "Oxford", "b": "Canterbury", "dir_ab": "E", "dir_ba": "W",
                               "status": "PROPOSED"})
    with pytest.raises(TableError) as err:
        ENGINE.load_tables(raw)
    text = " ".join(err.value.problems)
    assert "money.danegeld: has no provenance tag" in text
    assert "Atlantis" in text and "Oxford has two roads E" in text


def test_the_low_confidence_roads_ship_disabled_and_can_be_enabled() -> None:
    assert "York" not in TABLES.neighbours("Nottingham")
    raw = copy.deepcopy(raw_tables())
    for road in raw["map"]["road"]:
        road.pop("enabled", None)
    assert "York" in ENGINE.load_tables(raw).neighbours("Nottingham")
