"""The SMTP outbox against real Postfix + Dovecot: delivery, refusals, retries, crashes, bounces."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.desk import admin
from moderator.intake.bounces import detect_bounce, record_bounce
from moderator.intake.extract import extract_message
from moderator.publish.outgoing import queue
from moderator.runners.outgoing import Outgoing
from moderator.settings.config import Config, load_config
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.store.models import Outbox
from moderator.transport.smtp import SmtpSender

from support import write_mail_config

MODERATOR = "moderator@pbem.test"
GM = "gm@pbem.test"
PLAYER1, PLAYER2, PLAYER3 = "player1@pbem.test", "player2@pbem.test", "player3@pbem.test"
SENT_COPY = "outbox-copy@pbem.test"
SENT_COPY_SECRET = "outbox-copy-secret"
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

# The service as a separate process, so that a crash point can SIGKILL it.
SENDER_SCRIPT = """
import sys
from pathlib import Path
from moderator.settings.config import load_config
from moderator.store.db import open_store
from moderator.runners.outgoing import Outgoing
from moderator.transport.smtp import SmtpSender
config = load_config(Path(sys.argv[1]))
sender = SmtpSender(config, sent_copy_wait=2.0)
report = Outgoing(open_store(config.database_url), config, sender).send_due()
print(report.summary())
"""


def write_smtp_config(
    folder: Path,
    mail,
    *,
    security: str = "starttls",
    port: int | None = None,
    sent_copy: str = "",
    max_attempts: int = 3,
    retry_seconds: int = 60,
) -> Config:
    smtp = f"retry_seconds = {retry_seconds}\nmax_attempts = {max_attempts}\n" \
           f'sent_copy = "{sent_copy}"'
    return load_config(write_mail_config(folder, mail, smtp_security=security,
                                         smtp_port=port, smtp=smtp))


@pytest.fixture(scope="module")
def sent_copy_box(mailserver):
    """A dedicated mailbox for the sent copy (created before `clean_mailboxes` empties it)."""
    if SENT_COPY not in mailserver.users:
        mailserver.add_user(SENT_COPY, SENT_COPY_SECRET)
    return SENT_COPY


@pytest.fixture
def mail(sent_copy_box, clean_mailboxes, monkeypatch):
    monkeypatch.setenv("MODERATOR_SMTP_PASSWORD", clean_mailboxes.password(MODERATOR))
    monkeypatch.setenv("MODERATOR_SENT_COPY_PASSWORD", SENT_COPY_SECRET)
    monkeypatch.delenv("MODERATOR_CRASH_AT", raising=False)
    return clean_mailboxes


def queue_mail(db: Engine, config: Config, to: str, subject: str, text: str = "") -> Outbox:
    with session_scope(db) as session:
        row = queue(
            session,
            config,
            game=None,
            kind="gm-notice",
            to=to,
            subject=subject,
            text=text or f"{subject}\n",
        )
    return row


def rows(db: Engine) -> dict[int, Outbox]:
    with Session(db) as session:
        return {r.id: r for r in session.exec(select(Outbox))}  # type: ignore[misc]


def message_ids(mail, address: str, folder: str = "INBOX") -> list[str]:
    found = []
    for raw in mail.fetch_messages(address, folder):
        found.append(message_from_bytes(raw, policy=policy.default)["Message-ID"])
    return found


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ---- delivery


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_queued_mail_is_delivered_unchanged(mail, tmp_path, security):
    config = write_smtp_config(tmp_path, mail, security=security)
    db = open_store(config.database_url)
    first = queue_mail(db, config, PLAYER1, "[paris] Receipt", "Grüße aus Zürich!\nÀ bientôt.\n")
    second = queue_mail(db, config, PLAYER2, "[paris] Le Sport de Paris")

    report = Outgoing(db, config, SmtpSender(config), clock=lambda: T0).send_due()

    assert [o.outbox_id for o in report.sent] == [first.id, second.id]
    assert report.failed == report.deferred == () and report.error is None
    [got1] = mail.wait_for_messages(PLAYER1)
    [got2] = mail.wait_for_messages(PLAYER2)
    for got, row in ((got1, first), (got2, second)):
        assert got.endswith(row.raw.replace(b"\n", b"\r\n")), "the stored bytes were altered"
        parsed = message_from_bytes(got, policy=policy.default)
        assert parsed["Message-ID"] == row.message_id
        assert parsed["Return-Path"] == f"<{MODERATOR}>"  # bounces come back to the moderator
    stored = rows(db)
    assert {r.status for r in stored.values()} == {"sent"}
    assert all(r.attempts == 1 and r.sent_at is not None for r in stored.values())
    with Session(db) as session:
        status = repo.service_status(session)["smtp.last_send"].value
    assert "sent 2, failed 0, deferred 0" in status

    again = Outgoing(db, config, SmtpSender(config)).send_due()
    assert again.sent == () and again.error is None
    time.sleep(0.3)
    assert len(mail.fetch_messages(PLAYER1)) == 1


def test_unknown_recipient_fails_and_the_batch_goes_on(mail, tmp_path):
    config = write_smtp_config(tmp_path, mail)
    db = open_store(config.database_url)
    first = queue_mail(db, config, PLAYER1, "one")
    lost = queue_mail(db, config, "nobody@pbem.test", "two")
    third = queue_mail(db, config, PLAYER2, "three")

    report = Outgoing(db, config, SmtpSender(config)).send_due()

    assert [o.outbox_id for o in report.sent] == [first.id, third.id]
    assert [o.outbox_id for o in report.failed] == [lost.id]
    mail.wait_for_messages(PLAYER1)
    mail.wait_for_messages(PLAYER2)
    row = rows(db)[lost.id]  # type: ignore[index]
    assert row.status == "failed" and row.attempts == 1
    assert "550" in (row.last_error or "") and "RCPT" in (row.last_error or "")
    with Session(db) as session:
        [entry] = [e for e in repo.gm_log(session) if e.event == "mail.failed"]
    assert entry.level == "error" and "nobody@pbem.test" in entry.detail


def test_unreachable_server_defers_with_backoff_then_sends(mail, tmp_path):
    down = write_smtp_config(tmp_path, mail, port=closed_port(), retry_seconds=60)
    db = open_store(down.database_url)
    first = queue_mail(db, down, PLAYER1, "one")
    second = queue_mail(db, down, PLAYER2, "two")

    report = Outgoing(db, down, SmtpSender(down)).send_due(now=T0)
    assert report.sent == () and len(report.deferred) == 2
    assert report.error and "ConnectionRefusedError" in report.error
    for row in rows(db).values():
        assert (row.status, row.attempts) == ("queued", 1)
        assert row.next_attempt_at is not None
        assert row.next_attempt_at.replace(tzinfo=UTC) == T0 + timedelta(seconds=60)
        assert "cannot reach SMTP server" in (row.last_error or "")

    # Not due yet: not even tried.
    report = Outgoing(db, down, SmtpSender(down)).send_due(now=T0 + timedelta(seconds=30))
    assert report.deferred == () and report.error is None
    assert {r.attempts for r in rows(db).values()} == {1}

    # Second failure doubles the wait.
    Outgoing(db, down, SmtpSender(down)).send_due(now=T0 + timedelta(seconds=60))
    for row in rows(db).values():
        assert row.attempts == 2
        assert row.next_attempt_at.replace(tzinfo=UTC) == T0 + timedelta(seconds=180)  # type: ignore[union-attr]

    up = write_smtp_config(tmp_path, mail, retry_seconds=60)
    report = Outgoing(db, up, SmtpSender(up)).send_due(now=T0 + timedelta(seconds=180))
    assert [o.outbox_id for o in report.sent] == [first.id, second.id]
    mail.wait_for_messages(PLAYER1)
    mail.wait_for_messages(PLAYER2)
    assert {(r.status, r.attempts) for r in rows(db).values()} == {("sent", 3)}


def test_gives_up_after_max_attempts(mail, tmp_path):
    config = write_smtp_config(tmp_path, mail, port=closed_port(), max_attempts=2)
    db = open_store(config.database_url)
    row = queue_mail(db, config, PLAYER1, "doomed")
    sender = Outgoing(db, config, SmtpSender(config))
    sender.send_due(now=T0)
    report = sender.send_due(now=T0 + timedelta(hours=1))
    assert [o.outbox_id for o in report.failed] == [row.id]
    stored = rows(db)[row.id]  # type: ignore[index]
    assert (stored.status, stored.attempts) == ("failed", 2)
    with Session(db) as session:
        [entry] = [e for e in repo.gm_log(session) if e.event == "mail.failed"]
    assert entry.level == "error" and PLAYER1 in entry.detail and "after 2 attempts" in entry.detail


def test_retry_delay_doubles_and_is_capped(tmp_path, mail):
    config = write_smtp_config(tmp_path, mail, retry_seconds=60)
    sender = Outgoing(open_store(config.database_url), config, SmtpSender(config))
    assert [sender.retry_delay(n).total_seconds() for n in (1, 2, 3, 4)] == [60, 120, 240, 480]
    assert sender.retry_delay(30) == timedelta(hours=6)


# ---- crashes


def run_sender(config: Config, crash_at: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("MODERATOR_CRASH_AT", None)
    if crash_at:
        env["MODERATOR_CRASH_AT"] = crash_at
    assert config.path is not None
    return subprocess.run(
        [sys.executable, "-c", SENDER_SCRIPT, str(config.path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def settle(mail, expected: dict[str, int]) -> None:
    """Wait for every expected message, then a little longer for any stray duplicate."""
    for address, count in expected.items():
        mail.wait_for_messages(address, count)
    time.sleep(0.5)


@pytest.mark.parametrize("point", ["smtp.before-send", "smtp.after-send"])
def test_crash_then_restart_sends_each_mail_exactly_once(mail, tmp_path, point):
    config = write_smtp_config(tmp_path, mail, sent_copy=SENT_COPY)
    db = open_store(config.database_url)
    queued = [
        queue_mail(db, config, PLAYER1, "one"),
        queue_mail(db, config, PLAYER2, "two"),
        queue_mail(db, config, PLAYER1, "three"),
    ]

    crashed = run_sender(config, crash_at=point)
    assert crashed.returncode == -9, crashed.stderr
    assert [r.status for r in rows(db).values()] == ["sending", "queued", "queued"]

    restarted = run_sender(config)
    assert restarted.returncode == 0, restarted.stderr
    assert "recovered 1" in restarted.stdout

    settle(mail, {PLAYER1: 2, PLAYER2: 1, SENT_COPY: 3})
    for address in (PLAYER1, PLAYER2):
        got = message_ids(mail, address)
        want = [r.message_id for r in queued if r.to_addr == address]
        assert sorted(got) == sorted(want), f"{address}: {got}"
    assert sorted(message_ids(mail, SENT_COPY)) == sorted(r.message_id for r in queued)
    assert {r.status for r in rows(db).values()} == {"sent"}
    with Session(db) as session:
        events = [e.event for e in repo.gm_log(session)]
    assert events == ["mail.resend" if point == "smtp.before-send" else "mail.recovered"]


@pytest.mark.parametrize(("point", "copies"), [("smtp.before-send", 1), ("smtp.after-send", 2)])
def test_crash_without_sent_copy_resends_with_the_same_message_id(mail, tmp_path, point, copies):
    config = write_smtp_config(tmp_path, mail)
    db = open_store(config.database_url)
    row = queue_mail(db, config, PLAYER3, "orders received")

    assert run_sender(config, crash_at=point).returncode == -9
    assert run_sender(config).returncode == 0

    settle(mail, {PLAYER3: copies})
    assert message_ids(mail, PLAYER3) == [row.message_id] * copies
    with Session(db) as session:
        [entry] = repo.gm_log(session)
    assert (entry.event, entry.level) == ("mail.resend", "warning")
    assert "may get it twice" in entry.detail and PLAYER3 in entry.detail


# ---- bounces


def test_postfix_bounce_is_detected_and_recorded(mail, tmp_path):
    """A real Postfix DSN: the mail is submitted locally (as a smarthost would have accepted it),
    Postfix's delivery to the unknown user fails, and Postfix bounces it to the moderator."""
    sendmail = shutil.which("sendmail", path="/usr/sbin:/usr/bin")
    if sendmail is None:
        pytest.skip("Postfix's sendmail is not installed")
    config = write_smtp_config(tmp_path, mail)
    db = open_store(config.database_url)
    with session_scope(db) as session:
        admin.create_game(session, config, "paris", "engarde", seed=1625)
        admin.add_player(session, config, "paris", "ghost@pbem.test", "Gaston le Fantôme")
    with Session(db) as session:
        welcome = session.exec(select(Outbox)).one()
    subprocess.run(
        [sendmail, "-C", f"{mail.dir}/etc/postfix", "-f", MODERATOR, welcome.to_addr],
        input=welcome.raw,
        check=True,
        timeout=30,
    )
    with session_scope(db) as session:
        sent = session.get(Outbox, welcome.id)
        assert sent is not None
        sent.status, sent.sent_at = "sent", T0

    [raw] = mail.wait_for_messages(MODERATOR)
    assert extract_message(raw).auto_reason  # intake never answers it ...
    bounce = detect_bounce(raw)  # ... and sees what it is
    assert bounce is not None
    assert bounce.recipients == ("ghost@pbem.test",) and bounce.permanent
    assert bounce.original_message_id == welcome.message_id
    assert "550" in bounce.diagnostic

    with session_scope(db) as session:
        [record] = record_bounce(session, bounce)
    assert (record.outbox_id, record.player_name, record.game) == (
        welcome.id,
        "Gaston le Fantôme",
        "paris",
    )
    stored = rows(db)[welcome.id]  # type: ignore[index]
    assert stored.status == "bounced" and "550" in (stored.last_error or "")
    with Session(db) as session:
        [entry] = [e for e in repo.gm_log(session) if e.event == "mail.bounced"]
    assert entry.level == "warning"
    assert "Gaston le Fantôme" in entry.detail and "paris" in entry.detail
