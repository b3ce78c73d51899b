"""A player who sent no orders for a turn reads so on his own sheet, with what was done
instead (EG §D NMR orders or indisposed; DWTK: no action, standing reactions, 14.1);
the sheets of players whose orders came in say nothing of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from players.test_commands import configured
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.intake.process import process_message
from moderator.publish.newsletter import NO_ORDERS_TEMPLATE
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Newsletter
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

from support import absent_porthos, make_dwtk_game, make_game, order_mail

JACQUES = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapier\n" \
          "WEEK 3: PRACTICE rapier\nWEEK 4: PRACTICE rapier\n"
NOTICE = "No orders from you were received for"


def _sheets(db: Engine, game_name: str, number: int) -> dict[str, str]:
    """The turn's sheets by character key (their plain-text part)."""
    with Session(db) as session:
        game = repo.game_by_name(session, game_name)
        keys = {p.id: p.character_key for p in repo.players(session, game)}
        rows = session.exec(select(Newsletter).where(
            Newsletter.game_id == game.id, Newsletter.turn_number == number,
            Newsletter.kind == "turnsheet"))
        return {keys[n.player_id]: n.text for n in rows}


def test_an_engarde_sheet_says_no_orders_came_in_and_the_month_was_indisposed(
        db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    run_turn(db, config, "paris")
    sheets = _sheets(db, "paris", 1)
    assert NOTICE not in sheets["jacques-de-lyon"]
    for key in ("cyrano-de-bergerac", "porthos-du-vallon"):
        assert f"{NOTICE} April 1625." in sheets[key], sheets[key]
        assert "indisposed" in sheets[key].split(NOTICE)[1].split("\n\n")[0]
    assert rerun_turn(db, config, "paris", 1).identical


def test_a_dwtk_sheet_says_no_orders_came_in_and_no_action_was_taken(
        db: Engine, config: Config) -> None:
    make_dwtk_game(db, config)
    run_turn(db, config, "fandonia")
    result = process_message(db, config, order_mail(
        "p1@f.example", "PASSWORD: pw\nDO DRAW EVENT\nBUY 1 PP\n", subject="[fandonia] orders"))
    assert result.status == "accepted", result
    second = run_turn(db, config, "fandonia")
    sheets = _sheets(db, "fandonia", second.number)
    assert NOTICE not in sheets["noble-one"]
    assert NOTICE in sheets["noble-two"] and "standing reactions" in sheets["noble-two"]
    assert rerun_turn(db, config, "fandonia", second.number).identical


def test_the_game_is_asked_for_its_no_orders_notice_once_a_turn(
        db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sheets without orders, one look for the template (not one per sheet)."""
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    looked: list[Path] = []
    real = Path.exists

    def exists(path: Path, *args: Any, **kwargs: Any) -> bool:
        if path.name == NO_ORDERS_TEMPLATE:
            looked.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(Path, "exists", exists)
    run_turn(db, config, "paris")
    sheets = _sheets(db, "paris", 1)
    assert sum(NOTICE in sheet for sheet in sheets.values()) == 2
    assert len(looked) == 1, looked


def test_the_nmr_policy_is_told_on_the_players_own_sheet(tmp_path: Path) -> None:
    """The policy runs after the sheets are rendered; the gazette after announces it,
    and the sheet of the player it acts on says it that turn: the misses toward the
    limit, civil disorder, and the way back (an absent player's misses are excused)."""
    db, config = configured(tmp_path, 'nmr_limit = 2\nnmr_action = "civil-disorder"')
    make_game(db, config)
    absent_porthos(db)
    cyrano = "cyrano-de-bergerac"
    said = []
    for number in (1, 2, 3):
        process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
        if number == 3:
            process_message(db, config, order_mail(
                "cyrano@bergerac.example", JACQUES.replace("rapier\n", "panache\n", 1)))
        run_turn(db, config, "paris")
        sheets = {key: " ".join(text.split()) for key, text in _sheets(db, "paris", number).items()}
        said.append(sheets[cyrano])
        assert "civil disorder" not in sheets["jacques-de-lyon"]
        assert "civil disorder" not in sheets["porthos-du-vallon"]
        assert rerun_turn(db, config, "paris", number).identical
    assert "You have now had 1 month in a row without orders; at 2, your character " \
           "falls into civil disorder." in said[0]
    assert "After 2 months in a row without orders, you are in civil disorder: your " \
           "character follows your standing orders" in said[1]
    assert "you are back from civil disorder" in said[2]
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert repo.player_by_email(session, game, "cyrano@bergerac.example").status \
            == "active"
