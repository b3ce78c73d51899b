"""Smoke tests for the test mail system itself (scripts/mailtest.sh + the `mailserver` fixture).

If these fail, the moderator's end-to-end mail tests cannot be trusted either.
"""

from __future__ import annotations

import smtplib
import ssl
import time
import uuid
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from imapclient.exceptions import LoginError

pytestmark = pytest.mark.mail

MODERATOR = "moderator@pbem.test"
PLAYER1 = "player1@pbem.test"
PLAYER2 = "player2@pbem.test"
PLAYER3 = "player3@pbem.test"


def _raw(sender: str, to: list[str], subject: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Date"] = "Sat, 01 Mar 2025 12:00:00 +0100"
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@pbem.test>"
    msg.set_content(body)  # UTF-8, 8bit transfer encoding under policy.SMTP
    return msg.as_bytes(policy=policy.SMTP)


def test_starttls_auth_delivers_byte_exact(clean_mailboxes):
    mail = clean_mailboxes
    subject = "Befehle für Zürich – Runde 3"
    body = "Grüße aus Zürich!\nMove to the Frog & Peach; challenge Graf von Öl.\n"
    raw = _raw(PLAYER1, [MODERATOR], subject, body)

    with mail.smtp(PLAYER1) as smtp:  # STARTTLS (cert verified against the CA file) + AUTH
        assert smtp.sock is not None
        assert isinstance(smtp.sock, ssl.SSLSocket)
        refused = smtp.sendmail(PLAYER1, [MODERATOR], raw, mail_options=["BODY=8BITMIME"])
    assert refused == {}

    [got] = mail.wait_for_messages(MODERATOR)
    assert got.endswith(raw), "Postfix/Dovecot altered the message body or headers"
    parsed = message_from_bytes(got, policy=policy.default)
    assert parsed["Subject"] == subject
    assert parsed.get_content().replace("\r\n", "\n") == body
    assert parsed["Return-Path"] == f"<{PLAYER1}>"
    assert mail.fetch_messages(PLAYER1) == []


def test_smtps_one_transaction_to_two_players(clean_mailboxes):
    mail = clean_mailboxes
    raw = _raw(MODERATOR, [PLAYER1, PLAYER2], "Newsletter, March", "The King is dead.\n")

    with mail.smtp(MODERATOR, tls=True) as smtp:  # implicit TLS
        refused = smtp.sendmail(MODERATOR, [PLAYER1, PLAYER2], raw)
    assert refused == {}

    for player in (PLAYER1, PLAYER2):
        with mail.imap(player, tls=True) as imap:  # IMAPS, cert verified
            assert imap.has_capability("IMAP4REV1")
        [got] = mail.wait_for_messages(player)
        assert got.endswith(raw)
    assert mail.fetch_messages(PLAYER3) == []
    assert mail.fetch_messages(MODERATOR) == []


@pytest.mark.parametrize("authenticated", [True, False], ids=["auth", "anonymous"])
def test_unknown_local_user_rejected_550(mailserver, authenticated):
    with mailserver.smtp(PLAYER1 if authenticated else None) as smtp:
        smtp.ehlo()
        assert smtp.mail(PLAYER1)[0] == 250
        code, reply = smtp.rcpt("no-such-player@pbem.test")
    assert code == 550, reply


@pytest.mark.parametrize("authenticated", [True, False], ids=["auth", "anonymous"])
def test_foreign_domain_not_relayed_554(mailserver, authenticated):
    with mailserver.smtp(PLAYER1 if authenticated else None) as smtp:
        smtp.ehlo()
        assert smtp.mail(PLAYER1)[0] == 250
        code, reply = smtp.rcpt("someone@example.com")
    assert code == 554, reply
    assert b"Relay access denied" in reply


def test_wrong_password_fails_fast_on_imap_and_smtp(mailserver):
    # Dovecot's default failure delay holds every failed login for 2 s (and the anvil
    # penalty adds more with each failure): the quickest of five tries under 2 s shows it
    # is off, and a loaded machine can only make some tries slower, not all of them.
    quickest = float("inf")
    for _try in range(5):
        started = time.monotonic()
        with pytest.raises(LoginError):
            mailserver.imap(PLAYER1, "not-the-password")
        with pytest.raises(smtplib.SMTPAuthenticationError) as excinfo:
            mailserver.smtp(PLAYER1, "not-the-password")
        assert excinfo.value.smtp_code == 535
        quickest = min(quickest, time.monotonic() - started)
    assert quickest < 2
    # A real login still works right after (no lingering penalty).
    with mailserver.imap(PLAYER1) as imap:
        imap.noop()


def test_user_added_at_runtime_receives_mail(mailserver):
    address = "latecomer@late.test"  # a new domain, too
    mailserver.add_user(address, "late-secret")
    mailserver.reset(address)
    raw = _raw(MODERATOR, [address], "Welcome to the game", "You arrive in Paris.\n")
    with mailserver.smtp(MODERATOR) as smtp:
        assert smtp.sendmail(MODERATOR, [address], raw) == {}
    [got] = mailserver.wait_for_messages(address)
    assert got.endswith(raw)


def test_imap_idle_offered_and_wakes_on_delivery(clean_mailboxes):
    mail = clean_mailboxes
    with mail.imap(MODERATOR) as imap:
        assert b"IDLE" in imap.capabilities()
        imap.select_folder("INBOX")
        imap.idle()
        try:
            raw = _raw(PLAYER3, [MODERATOR], "Orders", "I toady to the Cardinal.\n")
            with mail.smtp(PLAYER3) as smtp:
                smtp.sendmail(PLAYER3, [MODERATOR], raw)
            deadline = time.monotonic() + 60
            responses: list = []
            while time.monotonic() < deadline:
                responses = imap.idle_check(timeout=1)
                if any(r[1:2] == (b"EXISTS",) for r in responses):
                    break
            assert any(r[1:2] == (b"EXISTS",) for r in responses), responses
        finally:
            imap.idle_done()
