"""`moderator panic`: a real `serve` stops intake, turn runs and sending within one poll
interval; `panic --off` resumes and nothing is lost."""

from __future__ import annotations

import signal
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select
from test_service import MODERATOR, _polled, _start, _stop, _wait_for

from moderator.cli import cli
from moderator.intake.process import IntakeResult
from moderator.publish import outgoing
from moderator.runners import incoming
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.host import set_panic
from moderator.store.models import Outbox
from moderator.transport.base import Handover, OutgoingMail
from moderator.transport.maildir import MaildirSender, open_maildir
from moderator.turn.deadlines import set_deadlines

from support import mailbox_messages, make_game, order_mail

GM = "gm@paris.example"


def _panic(config: Config, *args: str) -> None:
    result = CliRunner().invoke(cli, ["--config", str(config.path), "panic", *args])
    assert result.exit_code == 0, (result.output, result.exception)


def _subjects(config: Config, address: str) -> list[str]:
    return [str(m["Subject"]) for m in mailbox_messages(config, address)]


def _turn_open(db: Engine) -> int:
    with Session(db) as session:
        return repo.open_turn(session, repo.game_by_name(session, "paris")).number


@pytest.mark.skipif(not MODERATOR.exists(), reason="needs the installed moderator script")
def test_panic_stops_everything_within_a_poll_and_loses_nothing(
    config: Config, db: Engine
) -> None:
    setup = make_game(db, config)
    email, _name, password = setup.players[0]
    proc = _start(config)
    try:
        _wait_for(lambda: _polled(config))
        _wait_for(lambda: any("Welcome" in s for s in _subjects(config, email)))
        _panic(config, "--reason", "wrong tables deployed")
        # Work arrives while stopped: orders, a due deadline, and mail to send.  A pass,
        # sync or batch already under way sees it only after the flag was set, and each
        # loop asks for the flag again before each message, turn and mail.
        inbox = open_maildir(config.maildir_inbox)
        inbox.add(order_mail(email, f"PASSWORD: {password}\nWEEK 1: PRACTICE rapier\n"))
        with session_scope(db) as session:
            game = repo.game_by_name(session, "paris")
            set_deadlines(session, game, datetime.now(UTC) - timedelta(seconds=1))
            outgoing.queue_gm_notice(session, config, game, "queued while stopped", "text")
        # One poll interval of each loop (inbox 2 s, outbox 5 s, scheduler 5 s), and more.
        time.sleep(max(config.maildir_poll_seconds, config.outbox_seconds) + 3)
        assert len(inbox.keys()) == 1, "the inbox was read during the panic"
        assert not any("Orders v1" in s for s in _subjects(config, email))
        assert _turn_open(db) == 1, "a turn ran during the panic"
        assert not any("queued while stopped" in s for s in _subjects(config, GM))
        _panic(config, "--off", "--reason", "tables fixed")
        # Waits for conditions, as long as `serve`'s start may take on a loaded machine.
        _wait_for(lambda: any("Orders v1" in s for s in _subjects(config, email)))
        _wait_for(lambda: any("queued while stopped" in s for s in _subjects(config, GM)))
        _wait_for(lambda: _turn_open(db) == 2)
        _wait_for(lambda: any("Turn sheet" in s for s in _subjects(config, email)))
    except AssertionError:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"stdout:\n{out}\nstderr:\n{err}") from None
    _took, _lines = _stop(proc, signal.SIGTERM)
    assert len(open_maildir(config.maildir_inbox).keys()) == 0
    with Session(db) as session:  # the orders that came during the panic are stored
        game = repo.game_by_name(session, "paris")
        jacques = repo.player_by_email(session, game, email)
        kept = repo.submissions(session, jacques, 1) + repo.submissions(session, jacques, 2)
        assert len(kept) == 1  # for whichever turn was open when it was read


def _set_panic(db: Engine, reason: str | None) -> None:
    with session_scope(db) as session:
        set_panic(session, reason)


def test_a_panic_during_an_intake_pass_stops_it_before_the_next_message(
    config: Config, db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flag is read before each message, not only as a pass starts: a long pass stops
    at once, and mail that came after the panic is never read (CI: an order dropped just
    after `panic` was read by a pass that had looked at the flag a moment before)."""
    setup = make_game(db, config)
    inbox = open_maildir(config.maildir_inbox)
    for email, _name, password in setup.players[:2]:
        inbox.add(order_mail(email, f"PASSWORD: {password}\nWEEK 1: PRACTICE rapier\n"))
    real = incoming.process_message

    def then_panic(*args: Any, **kwargs: Any) -> IntakeResult:
        result = real(*args, **kwargs)
        _set_panic(db, "set during the pass")
        return result

    monkeypatch.setattr(incoming, "process_message", then_panic)
    assert [r.status for r in incoming.process_inbox(db, config)] == ["accepted"]
    assert len(inbox.keys()) == 1, "the second message stays in the inbox"
    monkeypatch.setattr(incoming, "process_message", real)
    _set_panic(db, None)
    assert [r.status for r in incoming.process_inbox(db, config)] == ["accepted"]
    assert inbox.keys() == []


def test_a_panic_during_an_outbox_batch_stops_it_before_the_next_mail(
    config: Config, db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_game(db, config)  # three welcome mails queued
    real = MaildirSender.send

    def then_panic(self: MaildirSender, mail: OutgoingMail) -> Handover:
        handover = real(self, mail)
        _set_panic(db, "set during the batch")
        return handover

    monkeypatch.setattr(MaildirSender, "send", then_panic)
    assert len(deliver_outbox(db, config).sent) == 1
    with Session(db) as session:
        statuses = sorted(str(row.status) for row in session.exec(select(Outbox)))
    assert statuses == ["queued", "queued", "sent"], "the rest wait, unclaimed"
    monkeypatch.setattr(MaildirSender, "send", real)
    _set_panic(db, None)
    assert len(deliver_outbox(db, config).sent) == 2
