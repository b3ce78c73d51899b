"""Secrets (issue 16, goal 4): generated passwords are typable tokens kept as HMACs under
a key file outside the database; after intake checked one, no stored copy (database,
spool, the sent welcome in the outbox) has it in clear: the files are grepped."""

from __future__ import annotations

import base64
import stat
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.desk import admin
from moderator.intake import process
from moderator.intake.process import process_message
from moderator.runners.incoming import process_inbox
from moderator.runners.outbox_recovery import settle_interrupted
from moderator.runners.outgoing import Outgoing, deliver_outbox
from moderator.settings.config import Config
from moderator.store import outbox_tidy, passwords
from moderator.store.db import session_scope
from moderator.store.models import Outbox, Player, ReceivedMessage
from moderator.transport.base import Handover, OutgoingMail, Verdict
from moderator.transport.maildir import open_maildir
from tests.support import mailbox_messages, make_game, order_mail

ORDERS = "WEEK 1: PRACTICE RAPIER\nWEEK 2: PRACTICE RAPIER\n"


def _files(*folders: Path) -> list[Path]:
    return [p for folder in folders if folder.exists() for p in folder.rglob("*") if p.is_file()]


def _grep(token: str, files: list[Path]) -> list[Path]:
    """Files holding the token in clear, or base64-encoded as a whole line would be."""
    needles = [token.encode(), base64.b64encode(f"PASSWORD: {token}".encode())[:16]]
    return [p for p in files if any(n in p.read_bytes() for n in needles)]


def _new_player(db: Engine, config: Config, email: str = "athos@musket.example",
                name: str = "Athos") -> str:
    with session_scope(db) as session:
        return admin.add_player(session, config, "paris", email, name).password


def test_a_generated_password_is_a_typable_token_kept_as_an_hmac(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    token = _new_player(db, config)
    groups = token.split("-")
    assert [len(g) for g in groups] == [4, 4, 4, 4, 4]
    assert set(token.replace("-", "")) <= set(passwords.ALPHABET)
    with Session(db) as session:
        player = session.exec(select(Player).where(Player.name == "Athos")).one()
    assert player.password_hash.startswith("hmac-sha256$")
    key = passwords.server_key(config.key_file)
    # Typed the forgiving way: case, spaces and dashes, I/L/O read as 1/1/0.
    typed = token.upper().replace("-", " ").replace("1", "l").replace("0", "O")
    assert passwords.verify_password(typed, player.password_hash, key)
    assert not passwords.verify_password(passwords.new_password(), player.password_hash, key)
    # The key lives in its own file, mode 0600, not in the database.
    assert stat.S_IMODE(config.key_file.stat().st_mode) == 0o600
    assert config.key_file.read_text().strip() not in Path(
        config.database_url.removeprefix("sqlite:///")).read_bytes().decode("latin-1")
    # Another key does not verify it.
    other = passwords.ServerKey(config.key_file.with_name("other.key"))
    assert not passwords.verify_password(token, player.password_hash, other)


def test_a_chosen_password_is_hashed_with_scrypt_at_current_parameters() -> None:
    stored = passwords.hash_password("rapier")
    assert stored.startswith("scrypt$16384$8$5$")
    assert passwords.verify_password("rapier", stored)
    assert not passwords.verify_password("rapieR", stored)
    old = "scrypt$16384$8$1$" + "00" * 16 + "$"  # an older hash's form still parses
    assert not passwords.verify_password("rapier", old + "00")


def test_no_password_in_clear_in_the_database_spool_or_sent_mail_after_intake(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    token = _new_player(db, config)
    deliver_outbox(db, config)  # the welcome is sent (into the player's Maildir), masked
    with session_scope(db) as session:
        assert outbox_tidy.mask_sent_secrets(session) == 0  # nothing left for the catch-up
    # Orders with the password: plain, quoted in a reply, and one base64-encoded body.
    result = process_message(db, config, order_mail(
        "athos@musket.example", f"PASSWORD: {token}\n{ORDERS}\n> PASSWORD: {token}\n"))
    assert result.status == "accepted", result
    encoded = EmailMessage()
    encoded["From"], encoded["To"] = "athos@musket.example", "moderator@paris.example"
    encoded["Subject"], encoded["Message-ID"] = "[paris] orders", "<b64@client.example>"
    encoded.set_content(f"PASSWORD: {token}\n{ORDERS}", cte="base64")
    assert process_message(db, config, encoded.as_bytes()).status == "accepted"
    # A wrong password is refused, and not kept in clear either.
    wrong = passwords.new_password()
    refused = process_message(db, config, order_mail("athos@musket.example",
                                                     f"PASSWORD: {wrong}\n{ORDERS}"))
    assert refused.status == "refused"
    db.dispose()  # the last connection closes: SQLite checkpoints its WAL into the file

    database = Path(config.database_url.removeprefix("sqlite:///"))
    stored = _files(database.parent, config.spool_dir, config.archive_dir)
    stored = [p for p in stored if config.maildir_mailboxes not in p.parents]
    assert database in stored and any(config.spool_dir in p.parents for p in stored)
    assert _grep(token, stored) == []
    assert _grep(wrong, stored) == []
    # The messages are kept, all but the password.
    with Session(db) as session:
        rows = list(session.exec(select(ReceivedMessage)))
        welcome = session.exec(select(Outbox).where(Outbox.kind == "welcome",
                                                    Outbox.to_addr == "athos@musket.example")
                               ).one()
    assert len(rows) == 3
    for row in rows:
        message = message_from_bytes(row.raw, policy=policy.default)
        body = message.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
        assert "PRACTICE RAPIER" in body and passwords.MASK in body
    assert welcome.masked_at is not None and passwords.MASK.encode() in welcome.raw


def test_outbox_bodies_are_compacted_after_the_configured_age(
    db: Engine, config: Config,
) -> None:
    from datetime import UTC, datetime, timedelta

    make_game(db, config)
    deliver_outbox(db, config)
    with session_scope(db) as session:
        assert outbox_tidy.compact_outbox(session, datetime.now(UTC) - timedelta(days=1)) == 0
        count = outbox_tidy.compact_outbox(session, datetime.now(UTC) + timedelta(seconds=1))
    assert count == 3
    with Session(db) as session:
        for row in session.exec(select(Outbox)):
            assert row.compacted_at is not None and outbox_tidy.COMPACTED_NOTE in row.raw
            assert b"Message-ID" in row.raw and b"order form" not in row.raw.lower()


def test_log_lines_mask_the_password_of_any_url() -> None:
    import io
    import json

    from moderator.runners.service import JsonLog
    from moderator.settings.config import mask_credentials

    assert mask_credentials("postgresql://mod:s3cret@db.example/moderator") == \
        "postgresql://mod:***@db.example/moderator"
    assert mask_credentials("sqlite:////var/moderator.sqlite") == "sqlite:////var/moderator.sqlite"
    stream = io.StringIO()
    JsonLog(stream)("info", "service", "starting",
                    database="postgresql+psycopg://mod:s3cret@db.example:5432/moderator")
    line = stream.getvalue()
    assert "s3cret" not in line and json.loads(line)["database"].startswith(
        "postgresql+psycopg://mod:***@")


def _welcomed_player(db: Engine, config: Config) -> str:
    """A new player whose welcome was sent, and so masked in the outbox."""
    token = _new_player(db, config)
    deliver_outbox(db, config)
    with session_scope(db) as session:
        assert outbox_tidy.mask_sent_secrets(session) == 0  # the sender masked it
    return token


def _stored_files(db: Engine, config: Config) -> list[Path]:
    db.dispose()  # the last connection closes: SQLite checkpoints its WAL into the file
    database = Path(config.database_url.removeprefix("sqlite:///"))
    return [database, *_files(config.spool_dir)]


def test_a_command_mail_keeps_no_password_in_clear(db: Engine, config: Config) -> None:
    """Commands prove who writes with the password too (HELP, STATUS, `PASSWORD new`):
    they were answered before the identify step, the only one that masked, so the stored
    message and its spool file kept the password, a wrong one, and the new one."""
    make_game(db, config)
    token = _welcomed_player(db, config)
    wrong, new = passwords.new_password(), passwords.new_password()
    mails = [f"PASSWORD: {token}\nSTATUS\n", f"PASSWORD: {wrong}\nHELP\n",
             f"PASSWORD: {token}\nPASSWORD {new}\n"]
    fates = [process_message(db, config, order_mail(
        "athos@musket.example", body, subject="[paris] commands",
        message_id=f"<c{i}@client.example>")).status for i, body in enumerate(mails)]
    assert fates == ["accepted", "refused", "accepted"]
    with Session(db) as session:
        player = session.exec(select(Player).where(Player.email == "athos@musket.example")).one()
        assert passwords.verify_password(new, player.password_hash)  # the change was made
    stored = _stored_files(db, config)
    assert len(stored) == 4
    for secret in (token, wrong, new):
        assert _grep(secret, stored) == []


def test_a_failed_message_keeps_no_password_in_clear(
    db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step that fails rolls its transaction back, masking and all: the failure's own
    transaction masks the stored message again (its spool copy was masked already)."""
    make_game(db, config)
    token = _welcomed_player(db, config)

    def broken(intake: object) -> None:
        raise RuntimeError("the parser broke")

    steps = tuple((name, broken if name == "parse" else step)
                  for name, step in process.INTAKE_STEPS)
    monkeypatch.setattr(process, "INTAKE_STEPS", steps)
    result = process_message(db, config, order_mail("athos@musket.example",
                                                    f"PASSWORD: {token}\n{ORDERS}"))
    assert result.status == "failed"
    with Session(db) as session:
        row = session.exec(select(ReceivedMessage)).one()
        assert row.status == "failed" and passwords.MASK.encode() in row.raw
    assert _grep(token, _stored_files(db, config)) == []


def test_a_redelivered_message_leaves_no_password_in_its_spool_copy(
    db: Engine, config: Config,
) -> None:
    """The same mail again under another trace header is a duplicate (same content), but
    its spool copy has another name: it is masked as the first one was."""
    make_game(db, config)
    token = _welcomed_player(db, config)
    raw = order_mail("athos@musket.example", f"PASSWORD: {token}\n{ORDERS}")
    assert process_message(db, config, raw).status == "accepted"
    again = b"Received: from relay.example by mx.example; Mon, 7 Dec 2026 10:00:00 +0000\n" + raw
    assert process_message(db, config, again).status == "duplicate"
    spooled = _files(config.spool_dir)
    assert len(spooled) == 2 and _grep(token, spooled) == []


def test_the_inbox_maildir_files_its_messages_without_the_password(
    db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A local Maildir inbox files each message it read into ``.processed`` or
    ``.quarantine`` by writing a copy: the copy is the message as intake keeps it,
    password masked: accepted, refused (wrong password), a command, a redelivery (the
    duplicate) and a failure alike.  The rest of each message is there."""
    make_game(db, config)
    token = _welcomed_player(db, config)
    wrong = passwords.new_password()
    raw = order_mail("athos@musket.example", f"PASSWORD: {token}\n{ORDERS}")
    inbox = open_maildir(config.maildir_inbox)
    for mail in (raw,
                 b"Received: from relay.example by mx.example; Mon, 7 Dec 2026 10:00:00 +0000\n"
                 + raw,
                 order_mail("athos@musket.example", f"PASSWORD: {wrong}\n{ORDERS}",
                            message_id="<wrong@client.example>"),
                 order_mail("athos@musket.example", f"PASSWORD: {token}\nSTATUS\n",
                            subject="[paris] commands", message_id="<cmd@client.example>")):
        inbox.add(mail)
    fates = sorted(r.status for r in process_inbox(db, config))
    assert fates == ["accepted", "accepted", "duplicate", "refused"]

    def broken(intake: object) -> None:
        raise RuntimeError("the parser broke")

    monkeypatch.setattr(process, "INTAKE_STEPS", tuple(
        (name, broken if name == "parse" else step) for name, step in process.INTAKE_STEPS))
    inbox.add(order_mail("athos@musket.example", f"PASSWORD: {token}\n{ORDERS}",
                         message_id="<broken@client.example>"))
    assert [r.status for r in process_inbox(db, config)] == ["failed"]

    processed, quarantined = (open_maildir(config.maildir_inbox).get_folder(name)
                              for name in ("processed", "quarantine"))
    assert (len(processed), len(quarantined), len(inbox)) == (4, 1, 0)
    filed = _files(config.maildir_inbox)
    assert _grep(token, filed) == [] and _grep(wrong, filed) == []
    for message in [*processed, *quarantined]:
        assert passwords.MASK in message.get_payload()


def test_a_short_chosen_password_is_masked_in_html_parts_too(db: Engine, config: Config) -> None:
    """A GM-chosen password may be short (``player add --password``): under 8 characters
    it is masked only after the PASSWORD keyword, and in an HTML part the keyword stands
    inside markup (``<div dir="ltr">PASSWORD: tricorn<div>``, as Gmail and Apple Mail
    write it), not at a line's start: it stayed there in clear in the stored message and
    the spool.  An alternative mail (quoted-printable, its lines folded), one in 8bit and
    an HTML-only mail; the word elsewhere in the message is left as written."""
    make_game(db, config)
    with session_scope(db) as session:
        admin.add_player(session, config, "paris", "athos@musket.example", "Athos",
                         password="tricorn")
    deliver_outbox(db, config)  # the welcome, sent and masked
    padding = "x" * 70  # folds the quoted-printable line around the password
    html = (f'<div dir="ltr">{padding}PASSWORD: tricorn<div>WEEK 1: PRACTICE RAPIER</div>'
            '<div>WEEK 2: PRACTICE RAPIER</div><p>PW:&nbsp;<b>tricorn</b></p></div>')
    mails = []
    for number, cte in enumerate(("quoted-printable", "8bit")):
        mail = EmailMessage()
        mail["From"], mail["To"] = "athos@musket.example", "moderator@paris.example"
        mail["Subject"], mail["Message-ID"] = "[paris] orders", f"<alt{number}@client.example>"
        mail.set_content(f"PASSWORD: tricorn\n{ORDERS}")
        mail.add_alternative(html, subtype="html", cte=cte)
        mails.append(mail.as_bytes())
    mails.append(order_mail("athos@musket.example", f"PASSWORD: tricorn\n{ORDERS}",
                            html=True, message_id="<html@client.example>"))
    assert [process_message(db, config, raw).status for raw in mails] == ["accepted"] * 3
    assert _grep("tricorn", _stored_files(db, config)) == []
    with Session(db) as session:
        for row in session.exec(select(ReceivedMessage)):
            message = message_from_bytes(row.raw, policy=policy.default)
            assert all(passwords.MASK in part.get_content() for part in message.walk()
                       if part.get_content_maintype() == "text")


def test_a_welcome_keeps_no_password_once_sent_whichever_way_it_went(
    db: Engine, config: Config,
) -> None:
    """The sender masks a welcome as it records it sent: `make demo` and any other caller
    of `deliver_outbox` (only `outbox send` and `serve`'s heartbeat masked before) left
    sent welcomes with the password in clear; so did a crash's recovery that finds a mail
    delivered.  Nothing else is asked of the caller."""
    make_game(db, config)
    token = _new_player(db, config)
    porthos = _new_player(db, config, "porthos@vallon.example", "Porthos")
    deliver_outbox(db, config)
    with session_scope(db) as session:  # as if a crash had come after Porthos's handover
        row = session.exec(select(Outbox).where(Outbox.to_addr == "porthos@vallon.example")
                           ).one()
        row.status, row.masked_at, row.raw = "sending", None, row.raw.replace(
            passwords.MASK.encode(), porthos.encode())
        stuck = [row]
    settle_interrupted(db, stuck, {stuck[0].message_id}, "", datetime.now(UTC))
    with Session(db) as session:
        welcomes = list(session.exec(select(Outbox).where(Outbox.kind == "welcome")))
    assert len(welcomes) == 2 + 3  # make_game's three players and these two
    assert all(w.status == "sent" and w.masked_at is not None for w in welcomes)
    assert _grep(token, _stored_files(db, config)) == []
    assert _grep(porthos, _stored_files(db, config)) == []
    with session_scope(db) as session:  # a row sent by an older version: the catch-up
        row = session.exec(select(Outbox).where(Outbox.to_addr == "athos@musket.example")
                           ).one()
        row.masked_at, row.raw = None, row.raw.replace(passwords.MASK.encode(), token.encode())
    with session_scope(db) as session:
        assert outbox_tidy.mask_sent_secrets(session) == 1
    assert _grep(token, _stored_files(db, config)) == []


class _RefusingHop:
    """A next hop that refuses every mail for good (``550 no such user``)."""

    name = "maildir"

    def open(self) -> None:
        pass

    def send(self, mail: OutgoingMail) -> Handover:
        return Handover(Verdict.REFUSED, "550 5.1.1 no such user")

    def close(self) -> None:
        pass

    def delivered(self, mails: object) -> set[str]:
        return set()


def _bounce_of(returned: bytes, address: str) -> bytes:
    """A DSN (RFC 3464) from the next hop, returning the whole mail, as Postfix does."""
    head = (f"From: Mail Delivery System <MAILER-DAEMON@smtp.paris.example>\n"
            f"To: moderator@paris.example\nSubject: Undelivered Mail Returned to Sender\n"
            f"Auto-Submitted: auto-replied\nMessage-ID: <dsn-{address}@smtp.paris.example>\n"
            f"MIME-Version: 1.0\nContent-Type: multipart/report; "
            f'report-type=delivery-status; boundary="DSN"\n\n'
            f"--DSN\nContent-Type: text/plain; charset=utf-8\n\n"
            f"<{address}>: host mx said: 550 5.1.1 User unknown\n\n"
            f"--DSN\nContent-Type: message/delivery-status\n\n"
            f"Reporting-MTA: dns; smtp.paris.example\n\nFinal-Recipient: rfc822; {address}\n"
            f"Action: failed\nStatus: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 User unknown\n\n"
            f"--DSN\nContent-Type: message/rfc822\n\n")
    return head.encode() + returned + b"\n--DSN--\n"


def _sent_welcome(db: Engine, config: Config, email: str, name: str) -> tuple[str, bytes]:
    """A new player's password and his welcome as his mailbox got it."""
    token = _new_player(db, config, email, name)
    deliver_outbox(db, config)
    [welcome] = [m for m in mailbox_messages(config, email) if "Welcome" in m["Subject"]]
    return token, welcome.as_bytes()


def test_a_welcome_that_bounced_or_failed_keeps_no_password_in_the_outbox(
    db: Engine, config: Config,
) -> None:
    """Only sent welcomes were masked.  A welcome that bounces (the bounce is back in
    seconds, before the heartbeat's tidy) or that the next hop refuses for good is never
    sent again, yet kept its password in clear for as long as the outbox row lives (a
    failed or bounced row is never compacted either)."""
    make_game(db, config)
    bounced, returned = _sent_welcome(db, config, "athos@musket.example", "Athos")
    assert process_message(db, config, _bounce_of(returned, "athos@musket.example")
                           ).status == "ignored"
    failed = _new_player(db, config, "aramis@musket.example", "Aramis")
    Outgoing(db, config, _RefusingHop()).send_due()
    with session_scope(db) as session:
        outbox_tidy.mask_sent_secrets(session)
    with Session(db) as session:
        rows = {row.to_addr: row for row in session.exec(select(Outbox).where(
            Outbox.kind == "welcome"))}
    athos, aramis = rows["athos@musket.example"], rows["aramis@musket.example"]
    assert (athos.status, aramis.status) == ("bounced", "failed")
    for row, token in ((athos, bounced), (aramis, failed)):
        assert token.encode() not in row.raw and passwords.MASK.encode() in row.raw
        assert row.masked_at is not None


def test_a_bounce_returning_a_welcome_keeps_no_password_in_clear(
    db: Engine, config: Config,
) -> None:
    """A bounce (or a vacation reply quoting us) returns the whole welcome; intake keeps
    it in the database and the spool, where it kept the welcome's password in clear."""
    make_game(db, config)
    token, returned = _sent_welcome(db, config, "athos@musket.example", "Athos")
    assert process_message(db, config, _bounce_of(returned, "athos@musket.example")
                           ).status == "ignored"
    with session_scope(db) as session:
        outbox_tidy.mask_sent_secrets(session)
    assert _grep(token, _stored_files(db, config)) == []


def test_a_password_written_among_the_orders_is_kept_nowhere_in_clear(
    db: Engine, config: Config,
) -> None:
    """The stored message loses the password wherever it is written (a value of 8
    characters or more, `passwords.masked`); the submission's text and the receipt that
    reads a wrong line back kept it."""
    make_game(db, config)
    token = _welcomed_player(db, config)
    for body in (f"PASSWORD: {token}\n{ORDERS}my password is {token}\n",
                 f"PASSWORD: {token}\nWEEK 1: PRACTICE RAPIER {token}\n"):
        process_message(db, config, order_mail("athos@musket.example", body))
    assert _grep(token, _stored_files(db, config)) == []


def test_a_password_put_in_the_subject_is_kept_nowhere_in_clear(
    db: Engine, config: Config,
) -> None:
    """Some players put the password in the subject.  Intake reads it from the body only,
    so the mail is refused ("no PASSWORD: line"); nothing masked the subject, which the
    stored message, its spool copy and the refusal's own subject kept."""
    make_game(db, config)
    token = _welcomed_player(db, config)
    result = process_message(db, config, order_mail(
        "athos@musket.example", ORDERS, subject=f"[paris] PASSWORD: {token}"))
    assert result.status == "refused"
    assert _grep(token, _stored_files(db, config)) == []


def test_a_running_service_leaves_no_password_in_the_sqlite_write_ahead_log(
    db: Engine, config: Config,
) -> None:
    """SQLite writes each change as a new page in its write-ahead log and, after a
    checkpoint, reuses the file from its start: the page that held the password before
    intake masked it stayed in ``moderator.sqlite-wal`` until the log grew that far
    again (4 MB of writes: hours or days on a quiet host), for as long as `serve` kept
    the store open.  The heartbeat checkpoints, and the log is cut when it restarts."""
    from moderator.runners.schedule import DeadlineScheduler

    make_game(db, config)
    token = _welcomed_player(db, config)
    assert process_message(db, config, order_mail(
        "athos@musket.example", f"PASSWORD: {token}\n{ORDERS}")).status == "accepted"
    service = DeadlineScheduler(db, config)
    service.heartbeat()
    service.heartbeat()  # the next beat's write restarts the log
    database = Path(config.database_url.removeprefix("sqlite:///"))
    log = database.with_name(database.name + "-wal")
    assert log.exists()  # the store is open: this is the log `serve` runs with
    assert _grep(token, [database, log]) == []


@pytest.mark.parametrize(("subject", "kept"), [
    ("[paris] PASSWORD: k7m2-9xqp", f"[paris] PASSWORD: {passwords.MASK}"),
    ("Re: [paris] pw=tricorn orders", f"Re: [paris] pw={passwords.MASK} orders"),
    ("[paris] password reset, please", "[paris] password reset, please"),
    ("[paris] new passwords", "[paris] new passwords"),
])
def test_a_subject_loses_a_password_written_in_it_and_nothing_else(subject: str,
                                                                   kept: str) -> None:
    """Only the ``PASSWORD:``/``PW=`` forms name a password in a subject."""
    assert passwords.masked_subject(subject) == kept
    raw = f"Subject: {subject}\nFrom: a@b.example\n\nWEEK 1: CLUB\n".encode()
    assert passwords.masked(raw) == f"Subject: {kept}\nFrom: a@b.example\n\nWEEK 1: CLUB\n".encode()


@pytest.mark.parametrize("cte", ["8bit", "quoted-printable", "base64", "html"])
@pytest.mark.parametrize("line", ["PASSWORD:\u3000{}", "Password\u2003{}"])
def test_a_password_after_a_unicode_blank_is_kept_nowhere_in_clear(
    db: Engine, config: Config, line: str, cte: str,
) -> None:
    """Intake reads a password after any blank (`route` matches ``\\s``: the ideographic
    space a Japanese input method types, an em space), and accepted the orders; masking
    knew only spaces and tabs, so the stored message and its spool copy kept the
    password in clear.  A GM's short password (masked only after its keyword) and a
    generated token, in each encoding a client sends."""
    make_game(db, config)
    token = _welcomed_player(db, config)
    for sender, password in (("jacques@lyon.example", "rapier"), ("athos@musket.example", token)):
        body = f"{line.format(password)}\n{ORDERS}"
        if cte == "html":
            raw = order_mail(sender, body, html=True)
        else:
            message = EmailMessage()
            message["From"], message["To"] = sender, "moderator@paris.example"
            message["Subject"], message["Message-ID"] = "[paris] orders", f"<{sender}>"
            message.set_content(body, cte=cte)
            raw = message.as_bytes()
        assert process_message(db, config, raw).status == "accepted", (sender, raw)
    stored = _stored_files(db, config)
    assert _grep(token, stored) == []
    with Session(db) as session:
        kept = [row.raw for row in session.exec(select(ReceivedMessage))]
    assert len(kept) == 2
    for raw in kept:
        body = message_from_bytes(raw, policy=policy.default).get_body(("plain", "html"))
        text = body.get_content()  # type: ignore[union-attr]
        assert "rapier" not in text.replace("RAPIER", "") and token not in text
        assert passwords.MASK in text and "PRACTICE RAPIER" in text


def test_an_oversized_message_keeps_no_password_in_clear(db: Engine, config: Config) -> None:
    """A message over ``intake.max_bytes`` is refused on its size, unread (its body is
    never parsed); the password lines it held stayed in clear in the stored copy and the
    spool.  What its bytes show is masked: the lines, and their value in its HTML too."""
    make_game(db, config)
    token = _welcomed_player(db, config)
    body = f"PASSWORD: {token}\n{ORDERS}" + "# " + "x" * (config.max_bytes + 10) + "\n"
    result = process_message(db, config, order_mail("athos@musket.example", body, html=True))
    assert result.status == "refused" and "the moderator reads at most" in result.detail
    plain = order_mail("athos@musket.example", body, message_id="<big@client.example>")
    assert process_message(db, config, plain).status == "refused"
    assert _grep(token, _stored_files(db, config)) == []
