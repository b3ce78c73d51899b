"""No player's character may take a non-player character's name (moderator/desk/names.py,
docs/players-guide.md "Your character's name"): not by the GM's `player add`, not by a
JOIN by mail (open or waiting for approval), not as the new name of a replacement.

The names come from each engine's `reserved_names`: En Garde!'s ladies of Paris, every
name their tables can give (EG §L) and every lady's now; Down with the King's character
cards (DWTK 2.1.1, 2.1.2); Fief: England's Noble and Retainer cards (FE 2.2, 2.12) and
every noble's now.  Compared as names are (case, accents, spaces, punctuation ignored).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session

from moderator import jsonio
from moderator.cli import cli
from moderator.desk import admin, names
from moderator.desk.errors import DeskError
from moderator.desk.players import pending_joins, request_join
from moderator.games.engarde.state import Lady
from moderator.intake.process import process_message
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from tests.players.test_commands import configured, mails, text_of

from support import make_game, order_mail

GAMES = {"engarde": "paris", "dwtk": "fandonia", "fief": "england"}

# (kind, a name an NPC has or may be given, written as a player might, the NPC's name)
TAKEN = [
    ("engarde", "Anne de Rohan", "Anne de Rohan"),  # any honorific: EG §L draws from these
    ("engarde", "MME  anne DE ROHAN", "Mme Anne de Rohan"),
    ("engarde", "Mlle Geneviève de Sévigné", "Mlle Geneviève de Sévigné"),
    ("engarde", "Genevieve de Sevigne", "Geneviève de Sévigné"),
    ("dwtk", "Sir Drew", "Sir Drew"),
    ("dwtk", "king george", "King George"),
    ("dwtk", "John the Brother", "John (the Brother)"),
    ("dwtk", "Lady Victoria", "Lady Victoria"),
    ("dwtk", "an opponent", "An Opponent"),
    ("fief", "William", "William"),
    ("fief", "matilda", "Matilda"),
    ("fief", "Mata", "Mata"),
]

# Names near an NPC's that are nobody's: still free.
FREE = [("engarde", "Anne"), ("engarde", "Rohan"), ("dwtk", "Drew"), ("dwtk", "George"),
        ("fief", "Williamson")]


def _game(db: Engine, config: Config, kind: str) -> str:
    name = GAMES[kind]
    if kind == "engarde":
        make_game(db, config)
        return name
    with session_scope(db) as session:
        admin.create_game(session, config, name, kind, seed=3)
        admin.add_player(session, config, name, f"one@{name}.example", "One",
                         password="secret")
    return name


def _players(db: Engine, game: str) -> list[str]:
    with Session(db) as session:
        return [p.name for p in repo.players(session, repo.game_by_name(session, game))]


@pytest.mark.parametrize(("kind", "written", "npc"), TAKEN)
def test_the_gms_player_add_refuses_an_npcs_name(db: Engine, config: Config, kind: str,
                                                 written: str, npc: str) -> None:
    game = _game(db, config, kind)
    with session_scope(db) as session, pytest.raises(admin.AdminError) as refused:
        admin.add_player(session, config, game, "new@example.org", written)
    assert repr(npc) in str(refused.value)  # "'X' is ..." or "'x' reads as 'X', ..."
    assert "which no player may take: choose another name" in str(refused.value)
    assert len(_players(db, game)) == (3 if kind == "engarde" else 1)


@pytest.mark.parametrize(("kind", "written"), FREE)
def test_a_name_near_an_npcs_is_still_free(db: Engine, config: Config, kind: str,
                                           written: str) -> None:
    game = _game(db, config, kind)
    with session_scope(db) as session:
        admin.add_player(session, config, game, "new@example.org", written)
    assert written in _players(db, game)


@pytest.mark.parametrize(("kind", "written", "npc"), TAKEN)
def test_a_join_by_mail_is_refused_and_told_why(db: Engine, config: Config, kind: str,
                                                written: str, npc: str) -> None:
    game = _game(db, config, kind)
    raw = order_mail("new@example.org", f"JOIN GAME AS {written}\n", subject=f"[{game}] join")
    assert process_message(db, config, raw).status == "refused"
    text = text_of(mails(db, "refusal")[-1])
    assert repr(npc) in " ".join(text.split())
    assert "JOIN GAME AS" in text  # how to write another
    assert written not in _players(db, game)


def test_a_join_waiting_for_approval_is_refused_at_once(tmp_path: Path) -> None:
    """Refused when asked, not when the GM approves: the player learns why now."""
    db, config = configured(tmp_path, 'joining = "approval"')
    make_game(db, config)
    with session_scope(db) as session, pytest.raises(DeskError, match="Mlle Ninon de Lenclos"):
        request_join(session, config, repo.game_by_name(session, "paris"), "n@example.org",
                     "Mlle Ninon de Lenclos")
    with Session(db) as session:
        assert not pending_joins(session, repo.game_by_name(session, "paris"))


@pytest.mark.parametrize(("kind", "written", "npc"), TAKEN[::3])
def test_a_replacement_may_not_be_renamed_as_an_npc(db: Engine, config: Config, kind: str,
                                                    written: str, npc: str) -> None:
    game = _game(db, config, kind)
    old = "jacques@lyon.example" if kind == "engarde" else f"one@{game}.example"
    result = CliRunner().invoke(cli, ["--config", str(config.path), "player", "replace", game,
                                      old, "new@example.org", "--name", written,
                                      "--reason", "resigned", "--no-send"])
    assert isinstance(result.exception, DeskError)  # `main` prints it as one red line
    assert repr(npc) in str(result.exception)
    assert written not in _players(db, game)


def _amend_state(db: Engine, game: str, change: dict[str, object]) -> None:
    with session_scope(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, game))
        state = jsonio.loads(turn.state_before)
        for field, rows in change.items():
            state.setdefault(field, {}).update(rows)  # type: ignore[arg-type]
        turn.state_before = jsonio.dumps(state)
        session.add(turn)


def test_a_ladys_name_now_is_reserved_though_the_tables_no_longer_make_it(
        db: Engine, config: Config) -> None:
    """EG §L: a lady named before the tables changed (or numbered when the names ran out)
    keeps her name while she is in Paris."""
    _game(db, config, "engarde")
    lady = Lady("lady9", "Mlle Zélie Zorn", 8, False, False, False, 3, 1)
    _amend_state(db, "paris", {"ladies": {"lady9": lady.to_dict()}})
    with session_scope(db) as session, pytest.raises(admin.AdminError, match="Zélie Zorn"):
        admin.add_player(session, config, "paris", "z@example.org", "Zelie Zorn")


def test_a_fief_nobles_name_now_is_reserved(db: Engine, config: Config) -> None:
    _game(db, config, "fief")
    noble = {"key": "n1", "name": "Gilbert", "sex": "m", "family": "red", "city": "York"}
    _amend_state(db, "england", {"nobles": {"n1": noble}})
    with session_scope(db) as session, pytest.raises(admin.AdminError, match="'Gilbert'"):
        admin.add_player(session, config, "england", "g@example.org", "gilbert")


def test_the_refusal_says_whose_name_it_is(db: Engine, config: Config) -> None:
    _game(db, config, "engarde")
    with session_scope(db) as session, pytest.raises(admin.AdminError) as same:
        admin.add_player(session, config, "paris", "n@example.org", "Ninon de Lenclos")
    assert str(same.value).startswith("'Ninon de Lenclos' is a name the ladies of Paris are "
                                      "given (EG §L), which no player may take")
    with session_scope(db) as session, pytest.raises(admin.AdminError) as alike:
        admin.add_player(session, config, "paris", "n@example.org", "NINON DE LENCLOS")
    assert str(alike.value).startswith("'NINON DE LENCLOS' reads as 'Ninon de Lenclos', a name")


def test_npc_problem_reads_names_as_the_name_rule_does() -> None:
    """moderator/desk/names.py: case, accents, spaces and punctuation ignored; an invisible
    character cannot hide the likeness (it is refused first by chosen_name_problem)."""
    reserved = {"Mlle Anne de Rohan": "a lady", "Sir Drew": "a noble"}
    assert names.npc_problem("Jacques de Lyon", reserved) is None
    assert names.npc_problem("Sir Drew", reserved) == (
        "'Sir Drew' is a noble, which no player may take: choose another name")
    problem = names.npc_problem("mlle ANNE-DE-ROHÁN", reserved)
    assert problem is not None and problem.startswith(
        "'mlle ANNE-DE-ROHÁN' reads as 'Mlle Anne de Rohan', a lady,")
