"""The open turn's parse context is decoded once and never stale (issue 16, goal 3): a
new turn, an amendment and a rollback each make it again from what is stored, and the
receipts read the state as it is now."""

from __future__ import annotations

from email import message_from_bytes, policy

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.desk import actions
from moderator.desk.amend import parse_change
from moderator.desk.rollback import rollback
from moderator.games.engarde.engine import EnGardeEngine
from moderator.intake import turnstate
from moderator.intake.process import process_message
from moderator.intake.turnstate import TurnContext, turn_context
from moderator.settings.config import Config
from moderator.store import hostreads, repo
from moderator.store.db import session_scope
from moderator.store.models import Outbox
from moderator.turn.run import run_turn

from support import make_game, order_mail

ORDERS = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"


def context(db: Engine) -> TurnContext:
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        return turn_context(session, game, hostreads.open_turn_light(session, game))


def amend(db: Engine, config: Config, change: str) -> None:
    with session_scope(db) as session:
        actions.amend_state(session, config, repo.game_by_name(session, "paris"),
                            [parse_change("set", change)], "gm", "a test")


def last_receipt(db: Engine) -> str:
    with Session(db) as session:
        row = session.exec(select(Outbox).where(Outbox.kind == "receipt")
                           .order_by(Outbox.id.desc())).first()  # type: ignore[union-attr]
    assert row is not None
    part = message_from_bytes(row.raw, policy=policy.default).get_body(("plain",))
    return part.get_content()  # type: ignore[union-attr,no-any-return]


def test_the_context_is_kept_while_the_stored_state_is_the_same(
        db: Engine, config: Config) -> None:
    make_game(db, config)
    first = context(db)
    assert context(db) is first
    assert first.prepared is not None  # En Garde's forecast index


def test_an_amendment_makes_the_context_again(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", ORDERS))
    assert "Money: 500 crowns now." in last_receipt(db)
    before = context(db)
    amend(db, config, "characters.jacques-de-lyon.crowns=900")
    after = context(db)
    assert after is not before
    assert after.state["characters"]["jacques-de-lyon"]["crowns"] == 900
    assert before.state["characters"]["jacques-de-lyon"]["crowns"] == 500  # never changed in place
    process_message(db, config, order_mail("jacques@lyon.example", ORDERS))
    assert "Money: 900 crowns now." in last_receipt(db)


def test_a_new_turn_and_a_rollback_make_the_context_again(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", ORDERS))
    first = context(db)
    run_turn(db, config, "paris")
    second = context(db)
    assert second.key[2] == first.key[2] + 1
    assert second.state["turn"] == first.state["turn"] + 1
    with session_scope(db) as session:
        rollback(session, repo.game_by_name(session, "paris"), 1, "gm", "a test")
    again = context(db)
    assert again.key[2] == first.key[2]
    assert again.state == first.state


def test_the_state_is_decoded_from_the_bytes_the_key_holds(
        db: Engine, config: Config) -> None:
    """An amendment committed between two reads of the row cannot pair its bytes with
    the state read before it (review of the intake cache): the turn object handed in is
    stale here, yet the context is the stored state's."""
    make_game(db, config)
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        turn = repo.open_turn(session, game)
        assert turn.state_before  # loaded now, before the amendment
        amend(db, config, "characters.jacques-de-lyon.crowns=777")
        made = turn_context(session, game, turn)
    assert made.state["characters"]["jacques-de-lyon"]["crowns"] == 777


def test_a_failing_forecast_index_costs_no_message(
        db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index is a courtesy for the forecast: when it fails, the orders are still
    accepted and the forecast runs on the whole state."""
    make_game(db, config)

    def broken(_self: object, _state: object) -> None:
        raise RuntimeError("a state the index cannot read")

    monkeypatch.setattr(EnGardeEngine, "prepare_forecast", broken)
    result = process_message(db, config, order_mail("jacques@lyon.example", ORDERS))
    assert result.status == "accepted"
    assert context(db).prepared is None
    assert "Money: 500 crowns now." in last_receipt(db)


def test_only_the_most_recent_games_are_kept(
        db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turnstate, "KEPT_GAMES", 1)
    make_game(db, config)
    first = context(db)
    with Session(db) as session:
        other = repo.game_by_name(session, "paris").model_copy(update={"id": 10_000})
        turn_context(session, other, hostreads.open_turn_light(session, repo.game_by_name(
            session, "paris")))
    assert list(turnstate._contexts) == [10_000]
    assert context(db) is not first
