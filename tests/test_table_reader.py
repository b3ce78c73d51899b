"""The shared table reader (moderator/games/table_reader.py): every problem, named by place."""

from __future__ import annotations

from dataclasses import dataclass

from moderator.games.table_reader import PROVENANCES, Reader


@dataclass(frozen=True)
class _Row:
    faces: tuple[int, ...]


def test_bad_values_are_all_collected_with_their_place() -> None:
    r = Reader()
    row = {"n": True, "s": "", "b": 1, "d": "2x6", "l": [1, "a"], "f": [0, 7]}
    assert r.int(row, "n", "t.row[0]") == 0
    assert r.str(row, "s", "t.row[0]") == ""
    assert r.bool(row, "b", "t.row[0]", False) is False
    assert r.dice(row, "d", "t.row[0]") == "1d6"
    assert r.ints(row, "l", "t.row[0]") == ()
    assert r.faces(row, "t.row[0]", "f") == ()
    assert len(r.problems) == 6 and all(p.startswith("t.row[0]: ") for p in r.problems)


def test_good_values_read_through() -> None:
    r = Reader()
    row = {"n": 3, "s": "x", "b": True, "d": "2d6+1", "l": [1, 2], "f": [1, 6], "w": ["a"]}
    assert (r.int(row, "n", "w"), r.opt_int(row, "m", "w"), r.str(row, "s", "w")) == (3, None, "x")
    assert (r.bool(row, "b", "w", False), r.dice(row, "d", "w")) == (True, "2d6+1")
    assert (r.ints(row, "l", "w"), r.faces(row, "w", "f"), r.strs(row, "w", "w")) == \
        ((1, 2), (1, 6), ("a",))
    assert r.problems == []


def test_rows_report_entries_that_are_not_tables() -> None:
    r = Reader()
    assert r.rows({"row": [{"a": 1}, 3]}, "row", "t") == [{"a": 1}]
    assert r.rows({}, "row", "t") == [] and r.table({}, "x", "t") == {}
    assert r.problems == ["t[1]: must be a table", "t: missing [[row]] rows",
                          "t: missing [x] table"]


def test_provenance_words_are_the_games_own() -> None:
    default = Reader()
    assert default.provenances == PROVENANCES
    assert default.provenance({"provenance": "sourced"}, "m", "rulebook") == "rulebook"
    eg = Reader(("rulebook", "sourced", "PROPOSED"))
    assert eg.provenance({"provenance": "sourced"}, "m", "rulebook") == "sourced"
    assert eg.required_provenance({}, "m") is None
    assert len(default.problems) == 1 and len(eg.problems) == 1


def test_unique_and_cover_d6() -> None:
    r = Reader()
    r.unique(["a", "b", "a"], "keys")
    r.cover_d6([_Row((1, 2, 3)), _Row((3, 4, 5))], "d6")
    assert r.problems == ["keys: 'a' appears twice", "d6: face 3 is covered 2 times, not once",
                          "d6: face 6 is covered 0 times, not once"]
