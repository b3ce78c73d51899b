"""The turn runner: one transaction, never twice, rerun byte-identical, newsletters out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator import jsonio
from moderator.intake.process import process_message
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Newsletter, Outbox, Turn
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import TurnError, run_turn

from support import body_text, mailbox_messages, make_game, order_mail

JACQUES = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapier\n" \
          "WEEK 3: PRACTICE rapier\nWEEK 4: PRACTICE rapier\n"


def test_a_month_is_adjudicated_stored_and_published(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    report = run_turn(db, config, "paris")
    assert (report.number, report.label) == (1, "April 1625")
    assert report.orders_from == ("jacques-de-lyon",)
    assert set(report.no_orders_from) == {"cyrano-de-bergerac", "porthos-du-vallon"}
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        done = repo.turn_by_number(session, game, 1)
        assert done.status == "done"
        assert jsonio.loads(done.inputs_json)["jacques-de-lyon"]["version"] == 1
        assert jsonio.loads(done.events_json)
        assert jsonio.loads(done.dice_json) is not None
        following = repo.open_turn(session, game)
        assert (following.number, following.label) == (2, "May 1625")
        assert following.state_before == done.state_after
        kinds = sorted(n.kind for n in session.exec(select(Newsletter)))
        assert kinds == ["gazette", "turnsheet", "turnsheet", "turnsheet"]
    gazette = (report.archive / "gazette.html").read_text(encoding="utf-8")
    assert "Le Sport de Paris" in gazette and "<table" in gazette
    assert (report.archive / "sheets" / "jacques-de-lyon.txt").exists()


def test_newsletters_are_mailed_as_text_and_html(db: Engine, config: Config) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    deliver_outbox(db, config)
    mails = mailbox_messages(config, "cyrano@bergerac.example")
    subjects = [m["Subject"] for m in mails]
    assert "[paris] Le Sport de Paris, April 1625" in subjects
    assert "[paris] Turn sheet for Cyrano de Bergerac, April 1625" in subjects
    gazette = mails[subjects.index("[paris] Le Sport de Paris, April 1625")]
    assert gazette.get_content_type() == "multipart/alternative"
    assert gazette["List-Id"]
    assert gazette.get_body(preferencelist=("html",)) is not None
    assert "Greasy Pole" in body_text(gazette) or "greasy pole" in body_text(gazette).lower()


def test_running_a_turn_twice_processes_it_once(db: Engine, config: Config) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    with Session(db) as session:
        before = len(session.exec(select(Outbox)).all())
        done = session.exec(select(Turn).where(Turn.number == 1)).one()
    # The guarded claim refuses a turn that is no longer open, e.g. a stale second runner.
    with pytest.raises(TurnError), session_scope(db) as session:
        from moderator.turn.run import _claim

        _claim(session, done)
    report = run_turn(db, config, "paris")  # runs turn 2, not turn 1 again
    assert report.number == 2
    with Session(db) as session:
        assert len(session.exec(select(Turn).where(Turn.number == 1)).all()) == 1
        assert len(session.exec(select(Outbox)).all()) > before


def test_rerun_is_byte_identical_and_detects_tampering(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    run_turn(db, config, "paris")
    assert rerun_turn(db, config, "paris", 1).identical
    with session_scope(db) as session:
        turn = session.exec(select(Turn).where(Turn.number == 1)).one()
        events = jsonio.loads(turn.events_json)
        events[0]["args"] = {"tampered": True}
        turn.events_json = jsonio.dumps(events)
    report = rerun_turn(db, config, "paris", 1)
    assert not report.identical and report.differences == ("events",)


def test_latest_orders_before_the_deadline_win(db: Engine, config: Config) -> None:
    make_game(db, config)
    with session_scope(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "paris"))
        turn.deadline = datetime(2026, 12, 10, 18, 0, tzinfo=UTC)
    early = datetime(2026, 12, 9, tzinfo=UTC)
    late = datetime(2026, 12, 11, tzinfo=UTC)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES), now=early)
    process_message(db, config, order_mail("jacques@lyon.example",
                                           "PASSWORD: rapier\nWEEK 1: PRACTICE sabre\n"), now=late)
    run_turn(db, config, "paris")
    with Session(db) as session:
        turn = session.exec(select(Turn).where(Turn.number == 1)).one()
        assert jsonio.loads(turn.inputs_json)["jacques-de-lyon"]["version"] == 1
        nxt = session.exec(select(Turn).where(Turn.number == 2)).one()
        assert nxt.deadline is not None and nxt.deadline.month == 1


def test_rerun_stays_identical_after_the_gm_moves_the_next_deadline(
    db: Engine, config: Config
) -> None:
    """The newsletters printed turn 2's deadline as it was then; moving it later is not a
    difference in turn 1 (the render inputs are stored with the turn)."""
    from moderator.turn.deadlines import set_deadlines

    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    run_turn(db, config, "paris", now=datetime(2026, 12, 1, tzinfo=UTC))
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"),
                      datetime(2027, 3, 1, 17, tzinfo=UTC))
        game = repo.game_by_name(session, "paris")
        porthos = repo.player_by_email(session, game, "porthos@musket.example")
        porthos.name = "Porthos, Baron du Vallon"
    assert rerun_turn(db, config, "paris", 1).identical
