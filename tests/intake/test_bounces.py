"""Bounce recognition (RFC 3464 DSNs and non-standard bounces) and what it records."""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.intake.bounces import Bounce, detect_bounce, record_bounce
from moderator.intake.extract import extract_message
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Game, Outbox

from support import make_game, order_mail

EMAILS = Path(__file__).resolve().parents[1] / "emails"
SENT = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)


def email(name: str) -> bytes:
    return (EMAILS / name).read_bytes()


# ---- detection

BOUNCES = [
    # fixture, recipient, permanent, returned Message-ID, words of the diagnostic
    (
        "dsn_postfix_user_unknown.eml",
        "jacques@lyon.example",
        True,
        "<179612280412.4242.1001moderator@paris.example>",
        "550 5.1.1",
    ),
    (
        "dsn_postfix_delayed.eml",
        "porthos@musket.example",
        False,
        "<179612280912.4242.1003moderator@paris.example>",
        "Connection timed out",
    ),
    (
        "dsn_gmail_no_such_user.eml",
        "porthos@musket.example",
        True,
        "<179612341112.4242.1005moderator@paris.example>",
        "does not exist",
    ),
    (
        "dsn_exim_failed.eml",
        "cyrano@bergerac.example",
        True,
        "<179612310012.4242.1004moderator@paris.example>",
        "mailbox is full",
    ),
    (
        "dsn_qmail_nonstandard.eml",
        "jacques@lyon.example",
        True,
        "<179612400212.4242.1006moderator@paris.example>",
        "no mailbox here",
    ),
    (
        "dsn_bounce.eml",
        "nobody@example.net",
        True,
        "<receipt-1-nobody@example.org>",
        "User unknown",
    ),
]


@pytest.mark.parametrize(("name", "address", "permanent", "message_id", "words"), BOUNCES)
def test_bounces_are_recognised(name, address, permanent, message_id, words):
    raw = email(name)
    bounce = detect_bounce(raw)
    assert bounce is not None
    assert bounce.recipients == (address,)
    assert bounce.permanent is permanent
    assert bounce.original_message_id == message_id
    assert words in bounce.diagnostic
    # Intake flags every one of them as automated, so it never answers a bounce.
    assert extract_message(raw).auto_reason


@pytest.mark.parametrize(
    "name",
    [
        "dsn_postfix_success.eml",  # a DSN, but everything was delivered
        "outlook_out_of_office.eml",
        "gmail_vacation.eml",
        "mailing_list.eml",
        "demo_thunderbird_plain.eml",
        "demo_gmail_html_only.eml",
        "garbage.eml",
        "broken_mime_truncated.eml",
    ],
)
def test_other_mail_is_not_a_bounce(name):
    assert detect_bounce(email(name)) is None


def test_an_order_mail_is_not_a_bounce():
    raw = order_mail("jacques@lyon.example", "PASSWORD: rapier\nGo to the Frog & Peach\n")
    assert detect_bounce(raw) is None


def test_a_player_forwarding_a_bounce_is_not_a_bounce():
    """Heuristic detectors only run on mail from a robot, never on what a person wrote."""
    quoted = email("dsn_qmail_nonstandard.eml").split(b"\n\n", 1)[1].decode()
    raw = order_mail(
        "jacques@lyon.example",
        f"Why did I get this?\n\n{quoted}",
        subject="Fwd: failure notice",
    )
    assert detect_bounce(raw) is None


def test_base64_delivery_status_part_is_read():
    report = base64.b64encode(
        b"Reporting-MTA: dns; mx.example.org\r\n\r\n"
        b"Final-Recipient: rfc822; <Cyrano@Bergerac.example>\r\n"
        b"Action: failed\r\nStatus: 5.2.2\r\n"
    )
    raw = (
        b"From: MAILER-DAEMON@mx.example.org\n"
        b"To: moderator@paris.example\n"
        b"Subject: Returned mail\n"
        b"MIME-Version: 1.0\n"
        b'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nDelivery failed.\n"
        b"--b\nContent-Type: message/delivery-status\nContent-Transfer-Encoding: base64\n\n"
        + report
        + b"\n--b--\n"
    )
    bounce = detect_bounce(raw)
    assert bounce is not None
    assert bounce.recipients == ("cyrano@bergerac.example",)
    assert bounce.permanent and bounce.diagnostic == "status 5.2.2"
    assert bounce.original_message_id is None


# ---- recording


def sent_row(session: Session, game: Game | None, to: str, message_id: str, **fields) -> Outbox:
    row = Outbox(
        message_id=message_id,
        game_id=game.id if game else None,
        kind=fields.pop("kind", "receipt"),
        to_addr=to,
        subject=fields.pop("subject", "[paris] Receipt for your orders"),
        raw=b"Subject: x\n\nx\n",
        status=fields.pop("status", "sent"),
        attempts=1,
        sent_at=fields.pop("sent_at", SENT),
    )
    session.add(row)
    session.flush()
    return row


def test_record_bounce_marks_the_row_and_tells_the_gm(config: Config, db: Engine):
    make_game(db, config)
    bounce = detect_bounce(email("dsn_postfix_user_unknown.eml"))
    assert bounce is not None
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        other = sent_row(session, game, "jacques@lyon.example", "<later@paris.example>")
        row = sent_row(session, game, "jacques@lyon.example", bounce.original_message_id)
        [record] = record_bounce(session, bounce)
    assert record.event == "mail.bounced"
    assert (record.outbox_id, record.player_name, record.game) == (
        row.id,
        "Jacques de Lyon",
        "paris",
    )
    with Session(db) as session:
        stored = session.get(Outbox, row.id)
        untouched = session.get(Outbox, other.id)
        entries = [e for e in repo.gm_log(session) if e.event == "mail.bounced"]
    assert stored is not None and stored.status == "bounced"
    assert "550 5.1.1" in (stored.last_error or "")
    assert untouched is not None and untouched.status == "sent"
    [entry] = entries
    assert entry.level == "warning" and entry.game_id == row.game_id
    for words in ("Jacques de Lyon", "jacques@lyon.example", "paris", "Receipt", "550 5.1.1"):
        assert words in entry.detail


def test_without_returned_message_id_the_latest_sent_mail_to_the_address_bounces(
    config: Config, db: Engine
):
    make_game(db, config)
    bounce = Bounce(("porthos@musket.example",), True, None, "550 5.1.1 no such user")
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        older = sent_row(session, game, "porthos@musket.example", "<a@paris.example>")
        newer = sent_row(
            session,
            game,
            "Porthos@Musket.example",
            "<b@paris.example>",
            sent_at=datetime(2026, 12, 2, tzinfo=UTC),
        )
        [record] = record_bounce(session, bounce)
    assert record.outbox_id == newer.id and record.player_name == "Porthos du Vallon"
    with Session(db) as session:
        statuses = {r.id: r.status for r in session.exec(select(Outbox))}
    assert statuses[newer.id] == "bounced" and statuses[older.id] == "sent"


def test_a_delay_warning_changes_no_row(config: Config, db: Engine):
    make_game(db, config)
    bounce = detect_bounce(email("dsn_postfix_delayed.eml"))
    assert bounce is not None and not bounce.permanent
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        row = sent_row(session, game, "porthos@musket.example", bounce.original_message_id)
        [record] = record_bounce(session, bounce)
    assert record.event == "mail.delayed"
    with Session(db) as session:
        stored = session.get(Outbox, row.id)
        [entry] = [e for e in repo.gm_log(session) if e.event == "mail.delayed"]
    assert stored is not None and stored.status == "sent"
    assert entry.level == "info" and "Porthos du Vallon" in entry.detail


def test_a_bounce_for_an_unknown_address_is_still_logged(config: Config, db: Engine):
    bounce = detect_bounce(email("dsn_bounce.eml"))
    assert bounce is not None
    with session_scope(db) as session:
        [record] = record_bounce(session, bounce)
    assert (record.outbox_id, record.player_id, record.game) == (None, None, None)
    with Session(db) as session:
        [entry] = [e for e in repo.gm_log(session) if e.event == "mail.bounced"]
    assert "nobody@example.net" in entry.detail and "not found in the outbox" in entry.detail
