"""The GM overrides any table value for one game from config.toml (PROPOSED ones above all)."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator import jsonio
from moderator.settings.config import ConfigError, load_config
from moderator.settings.tables import apply_overrides, read_raw_tables
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.turn.run import run_turn

from support import ROOT, make_game, write_config

OVERRIDE = """
[games.paris]
kind = "engarde"
[games.paris.tables.rules.status]
min_sl = 2
"""


def sl_after_an_idle_month(folder: Path, extra: str) -> int:
    """Jacques starts at SL 2, sends no orders (SP 0 < SL 2), and must fall."""
    path = write_config(folder)
    path.write_text(path.read_text() + extra)
    config = load_config(path)
    db = open_store(config.database_url)
    make_game(db, config)
    with session_scope(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "paris"))
        state = jsonio.loads(turn.state_before)
        state["characters"]["jacques-de-lyon"]["sl"] = 2
        turn.state_before = jsonio.dumps(state)
    run_turn(db, config, "paris")
    with session_scope(db) as session:
        after = jsonio.loads(repo.open_turn(session, repo.game_by_name(session, "paris"))
                             .state_before)
    return int(after["characters"]["jacques-de-lyon"]["sl"])


def test_a_proposed_table_override_changes_the_result(tmp_path: Path) -> None:
    """EG §E (fall one SL) with the PROPOSED floor 'min_sl' raised to 2 for this game."""
    (tmp_path / "plain").mkdir()
    (tmp_path / "house").mkdir()
    assert sl_after_an_idle_month(tmp_path / "plain", "") == 1
    assert sl_after_an_idle_month(tmp_path / "house", OVERRIDE) == 2


@pytest.mark.parametrize(("override", "named"), [
    ("[games.paris.tables.clubz]\nx = 1\n", "games.paris.tables.clubz: no such table"),
    ("[games.paris.tables.rules.status]\nmin_sl = \"two\"\n",
     "games.paris.tables.rules.status.min_sl must be int"),
    ("[games.paris.tables.rules.status]\nmin_sll = 2\n",
     "games.paris.tables.rules.status.min_sll: no such key"),
    ("[games.paris.tables.theatre.outcome.flopp]\nfirst_night_sp = -5\n",
     "games.paris.tables.theatre.outcome.flopp: no such row"),
    ("[games.paris]\ncolour = \"red\"\n", "games.paris.colour"),
])
def test_a_broken_override_is_refused_at_load_with_file_and_key(
    tmp_path: Path, override: str, named: str
) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + override)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert any(str(path) in p and named in p for p in caught.value.problems), caught.value


def test_every_problem_of_an_override_is_reported_at_once(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "[games.paris]\nkind = \"engarde\"\n"
                    "[games.paris.tables.rules.status]\n"
                    "min_sl = \"x\"\nrise_multiple = 1.5\nbogus = 1\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert len(caught.value.problems) == 3


def test_rows_are_addressed_by_key_and_lists_replaced_whole() -> None:
    raw = read_raw_tables(ROOT / "data", "engarde")
    merged, problems = apply_overrides(
        raw, {"theatre": {"outcome": {"flop": {"first_night_sp": -5}}}}, "t")
    assert problems == []
    flop = next(row for row in merged["theatre"]["outcome"] if row["key"] == "flop")
    assert flop["first_night_sp"] == -5
    assert raw["theatre"] is not merged["theatre"]  # the shipped tables are untouched
    assert next(r for r in raw["theatre"]["outcome"] if r["key"] == "flop")["first_night_sp"] == -3
