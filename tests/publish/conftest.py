"""Games played through the real service for the publishing tests: orders by mail, turns
run, a rollback with an amendment and a correction."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from moderator.cli import cli
from moderator.desk import admin
from moderator.intake.process import process_message
from moderator.settings.config import Config, load_config
from moderator.store.db import open_store, session_scope
from moderator.turn.run import run_turn

from support import make_game, order_mail, write_config

JACQUES = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapier\n"


def invoke(config: Config, *args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config.path), "--as", "gm-anne", *args],
                                input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def played(db: Engine, config: Config, turns: int = 3) -> None:
    """An En Garde! game ``paris`` of three players, ``turns`` months run."""
    make_game(db, config)
    invoke(config, "deadline", "rule", "paris", "--monthly-day", "1", "--apply-now")
    for _ in range(turns):
        process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
        run_turn(db, config, "paris")


def corrected(db: Engine, config: Config) -> None:
    """Three months, then month 2 rolled back, amended and reissued as a correction."""
    played(db, config, 3)
    invoke(config, "turn", "rollback", "paris", "2", "--reason", "bank error in April")
    invoke(config, "state", "amend", "paris", "--set",
           "characters.jacques-de-lyon.sl=9", "--reason", "the bank's error", "--yes",
           "--note", "Jacques de Lyon's standing is restored.")
    # The months ran before their deadlines (the rule's 1st of the month is ahead), so
    # month 2 takes orders again until then: the replay is confirmed (--yes).
    invoke(config, "turn", "rollforward", "paris", "--reason", "standing restored", "--yes")


def dwtk_game(db: Engine, config: Config, turns: int = 2) -> None:
    """A Down with the King game ``fandonia`` of three players, ``turns`` turns run."""
    with session_scope(db) as session:
        admin.create_game(session, config, "fandonia", "dwtk", seed=7)
        for k, (email, name) in enumerate((("ann@court.example", "Ann"),
                                           ("bob@court.example", "Bob"),
                                           ("cid@court.example", "Cid"))):
            admin.add_player(session, config, "fandonia", email, name, password=f"pw{k}")
    for _ in range(turns):
        run_turn(db, config, "fandonia")


@dataclass(frozen=True)
class Played:
    """Both games played once for a whole test module (playing them is the slow part)."""

    config: Config
    db: Engine
    folder: Path
    site: Path


@pytest.fixture(scope="module")
def played_games(tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("played")
    config = load_config(write_config(folder))
    db = open_store(config.database_url)
    corrected(db, config)
    dwtk_game(db, config, 2)
    site = folder / "site"
    invoke(config, "site", "build", "--out", str(site))
    return Played(config, db, folder, site)


@pytest.fixture
def site_config(tmp_path: Path) -> Config:
    return load_config(write_config(tmp_path))


@pytest.fixture
def site_db(site_config: Config) -> Engine:
    return open_store(site_config.database_url)
