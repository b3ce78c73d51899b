"""The GM's desk: preview, process, deadlines, decisions, late orders, players, press,
resending and the audit log."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator import jsonio
from moderator.cli import cli
from moderator.intake.process import process_message
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config, load_config
from moderator.store import audit, repo
from moderator.store.db import open_store, session_scope
from moderator.store.models import Outbox, PressItem
from moderator.turn.deadlines import set_deadlines
from moderator.turn.run import run_turn

from support import database_dump, gazette_of, make_game, order_mail, write_config

JACQUES = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"


def invoke(config: Config, *args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config.path), *args])
    if ok:
        assert result.exit_code == 0, (result.output, result.exception)
    return result.output + (str(result.exception) if result.exception else "")


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and "sqlite" not in p.name}


def test_preview_shows_everything_and_changes_nothing(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    deliver_outbox(db, config)
    run_turn(db, config, "paris")  # one turn done, so the archive and outbox hold things
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    db.dispose()
    before_db, before_files = database_dump(config.database_url), files(config.base_dir)
    out = invoke(config, "turn", "preview", "paris")
    assert "PREVIEW of turn 2 (May 1625)" in out and "orders from jacques-de-lyon" in out
    assert "Le Sport de Paris" in out
    for name in ("Jacques de Lyon", "Cyrano de Bergerac", "Porthos du Vallon"):
        assert f"Turn sheet for {name}, May 1625" in out
    assert database_dump(config.database_url) == before_db
    assert files(config.base_dir) == before_files  # outbox Maildirs, archive, spool


def test_the_decisions_due_are_shown_to_the_gm_not_in_the_gazette(db: Engine,
                                                                    config: Config) -> None:
    """Reference §6: a challenge with no cause on record waits for the GM's decision
    ``cause:<challenger>:<challenged>``.  `turn run` and `turn preview` list it to the GM;
    the gazette printed the keys to every player."""
    make_game(db, config)
    process_message(db, config, order_mail(
        "jacques@lyon.example", "PASSWORD: rapier\nANYTIME: CHALLENGE Cyrano de Bergerac\n"))
    due = "cause:jacques-de-lyon:cyrano-de-bergerac: does the challenger have cause?"
    assert due in invoke(config, "turn", "run", "paris", "--yes")
    assert "cause:" not in gazette_of(db, 1).text
    assert due in invoke(config, "turn", "preview", "paris")


def test_process_now_runs_early_and_is_audited(db: Engine, config: Config) -> None:
    make_game(db, config)
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"),
                      datetime.now(UTC) + timedelta(days=3))
    out = invoke(config, "turn", "process", "paris", "--reason", "x", "--no-send", ok=False)
    assert "not due yet" in out
    out = invoke(config, "--as", "gm-bob", "turn", "process", "paris", "--now",
                 "--reason", "all in early", "--no-send")
    assert "Ran turn 1" in out
    with Session(db) as session:
        [entry] = audit.entries(session, repo.game_by_name(session, "paris"))
    assert (entry.action, entry.who, entry.reason) == ("turn.process", "gm-bob", "all in early")


def test_pause_resume_extend_and_reason_required(db: Engine, config: Config) -> None:
    make_game(db, config)
    deadline = datetime(2030, 7, 12, 16, 0, tzinfo=UTC)
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"), deadline)
    assert "--reason" in invoke(config, "game", "pause", "paris", ok=False)
    invoke(config, "game", "pause", "paris", "--reason", "holiday")
    assert "paused" in invoke(config, "turn", "run", "paris", ok=False)
    invoke(config, "game", "resume", "paris", "--reason", "back")
    out = invoke(config, "deadline", "extend", "paris", "--hours", "48", "--reason", "Easter")
    assert "Sunday 14 July 2030, 18:00 CEST" in out
    log = invoke(config, "log", "paris")
    assert "game.pause" in log and "game.resume" in log and "deadline.extend" in log
    assert invoke(config, "log", "paris", "--since", "2099-01-01").startswith("No GM actions")


def test_new_deadlines_tell_the_players_the_note_never_the_reason(
        db: Engine, config: Config) -> None:
    """Issue 12: the --reason stays in the audit log; the players' mail about new deadlines
    carries only the --note (extend and set alike)."""
    make_game(db, config)
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"),
                      datetime(2030, 7, 12, 16, 0, tzinfo=UTC))
    invoke(config, "deadline", "extend", "paris", "--hours", "48",
           "--reason", "Anne's divorce", "--no-send")
    invoke(config, "deadline", "set", "paris", "2030-07-20 18:00",
           "--reason", "Jacques in hospital", "--note", "two players are away", "--no-send")
    with Session(db) as session:
        mails = [" ".join(message_from_bytes(o.raw, policy=policy.default)
                          .get_body(("plain",)).get_content().split())  # type: ignore[union-attr]
                 for o in session.exec(select(Outbox).where(Outbox.kind == "deadline-moved")
                                       .order_by(Outbox.id))]
    assert mails and not any("divorce" in m or "hospital" in m for m in mails)
    assert any("extended by 48 hours." in m for m in mails)
    assert any("moved by the GM: two players are away." in m for m in mails)
    assert "Jacques in hospital" in invoke(config, "log", "paris")


def test_decide_writes_the_decision_and_announces_it(db: Engine, config: Config) -> None:
    make_game(db, config)
    invoke(config, "decide", "paris", "cause:jacques-de-lyon:cyrano-de-bergerac", "yes",
           "--reason", "he insulted his regiment")
    with Session(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "paris"))
        decisions = jsonio.loads(turn.state_before)["decisions"]
    assert decisions == {"cause:jacques-de-lyon:cyrano-de-bergerac": "yes"}
    run_turn(db, config, "paris")
    gazette = gazette_of(db, 1)
    # Announced without its key (a decision key is the GM's; the sheets say it in words).
    assert "The GM made a ruling for April 1625" in gazette.text
    assert "cause:jacques-de-lyon" not in gazette.text
    assert "he insulted his regiment" not in gazette.text  # issue 12: the reason is the GM's


def test_accept_late_makes_late_orders_count(db: Engine, config: Config) -> None:
    make_game(db, config)
    deadline = datetime(2026, 12, 10, 18, tzinfo=UTC)
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"), deadline)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES),
                    now=deadline + timedelta(hours=2))
    invoke(config, "orders", "accept-late", "paris", "jacques@lyon.example",
           "--reason", "his mail server was down")
    report = run_turn(db, config, "paris")
    assert report.orders_from == ("jacques-de-lyon",)
    gazette = gazette_of(db, 1)
    assert "arrived late and were accepted by the GM" in gazette.markdown


def test_act_as_replace_eject_absence(db: Engine, config: Config, tmp_path: Path) -> None:
    make_game(db, config)
    orders = tmp_path / "orders.txt"
    orders.write_text("WEEK 1: PRACTICE sabre\n")
    out = invoke(config, "player", "act-as", "paris", "porthos@musket.example", str(orders),
                 "--reason", "phoned in", "--no-send")
    assert "Stored as orders v1" in out and "PRACTICE" in out
    invoke(config, "player", "replace", "paris", "cyrano@bergerac.example", "anne@example.org",
           "--name", "Anne", "--reason", "resigned", "--no-send")
    invoke(config, "player", "eject", "paris", "jacques@lyon.example", "--reason", "cheating")
    until = (datetime.now(UTC) + timedelta(days=5)).strftime("%Y-%m-%d")
    invoke(config, "player", "absence", "paris", "anne@example.org", "--until", until,
           "--reason", "travel")
    far = (datetime.now(UTC) + timedelta(days=90)).strftime("%Y-%m-%d")
    assert "at most 28 days" in invoke(config, "player", "absence", "paris",
                                       "anne@example.org", "--until", far, "--reason", "x",
                                       ok=False)
    # The ejected player's orders are refused; the replacement's are accepted.
    assert process_message(db, config, order_mail("jacques@lyon.example", JACQUES)).status \
        == "refused"
    report = run_turn(db, config, "paris")
    assert report.orders_from == ("porthos-du-vallon",)
    gazette = gazette_of(db, 1)
    with Session(db) as session:
        to = {row.to_addr for row in session.exec(select(Outbox).where(
            Outbox.kind == "gazette"))}
    assert "The GM entered Porthos du Vallon's orders" in gazette.markdown
    assert "is now played by Anne" in gazette.markdown
    assert "Jacques de Lyon has left the game" in gazette.markdown
    assert to == {"anne@example.org", "porthos@musket.example"}


def test_resend_queues_new_messages_marked_resent(db: Engine, config: Config) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    invoke(config, "newsletter", "resend", "paris", "--player", "jacques@lyon.example",
           "--reason", "mailbox full", "--no-send")
    with Session(db) as session:
        rows = list(session.exec(select(Outbox).where(Outbox.to_addr == "jacques@lyon.example",
                                                      Outbox.kind.endswith("-resent"))))
    assert sorted(r.kind for r in rows) == ["gazette-resent", "turnsheet-resent"]
    assert all(r.subject.endswith("(resent)") for r in rows)
    assert len({r.message_id for r in rows}) == 2


MODERATED = """
[games.paris]
kind = "engarde"
press_moderation = true
anonymous_press = false
"""


def test_moderated_press_is_held_until_approved(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + MODERATED)
    config = load_config(path)
    db = open_store(config.database_url)
    make_game(db, config)
    text = ('PASSWORD: rapier\nANNOUNCE "The Cardinal cheats at cards" UNSIGNED\n'
            'ANNOUNCE "Rochefort is a coward"\n')
    process_message(db, config, order_mail("jacques@lyon.example", text))
    with Session(db) as session:
        items = list(session.exec(select(PressItem).order_by(PressItem.id)))
    assert [i.status for i in items] == ["pending", "pending"]
    out = invoke(config, "press", "queue", "paris")
    assert "Cardinal" in out and "Rochefort" in out
    invoke(config, "press", "approve", "paris", str(items[0].id), "--reason", "fair comment")
    invoke(config, "press", "reject", "paris", str(items[1].id), "--reason", "libel")
    run_turn(db, config, "paris")
    gazette = gazette_of(db, 1)
    assert "The Cardinal cheats at cards" in gazette.markdown
    assert "Rochefort is a coward" not in gazette.markdown
    # anonymous_press = false: the unsigned announcement is printed signed.
    # (the signature closes the quoted letter, on the line after it)
    at = gazette.markdown.index("Cardinal cheats")
    assert "— Jacques" in gazette.markdown[at:at + 200], gazette.markdown[at:at + 200]


@pytest.mark.parametrize("value", ["yes", "no"])
def test_the_reason_is_kept_verbatim(db: Engine, config: Config, value: str) -> None:
    make_game(db, config)
    invoke(config, "decide", "paris", "cause:jacques-de-lyon:cyrano-de-bergerac", value,
           "--reason", f"  why {value}  ")
    with Session(db) as session:
        [entry] = audit.entries(session, repo.game_by_name(session, "paris"))
    assert entry.reason == f"why {value}"
