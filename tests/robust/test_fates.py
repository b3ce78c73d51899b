"""Issue 13, "one fate per message": every message read ends in exactly one recorded fate,
whatever its Message-ID, and a reply whose orders are lost is never a new version."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.intake import process as process_module
from moderator.intake.process import IntakeResult, process_message
from moderator.intake.spool import content_digest
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Outbox, ReceivedMessage, Submission
from moderator.store.statuses import MessageStatus

from support import cpu_cost, make_game, order_mail

GOOD = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapier\n"
FATES = {MessageStatus.ACCEPTED, MessageStatus.REFUSED, MessageStatus.IGNORED,
         MessageStatus.FAILED}
CPYTHON = Path(__file__).resolve().parents[1] / "emails" / "cpython"


def rows(db: Engine) -> list[ReceivedMessage]:
    with Session(db) as session:
        return list(session.exec(select(ReceivedMessage).order_by(ReceivedMessage.id)))


def versions(db: Engine) -> list[Submission]:
    with Session(db) as session:
        return list(session.exec(select(Submission).order_by(Submission.version)))


def test_a_reused_message_id_with_other_content_gets_its_own_row_and_fate(
    db: Engine, config: Config
) -> None:
    make_game(db, config)
    first = order_mail("jacques@lyon.example", GOOD, message_id="<same@client.example>")
    edited = order_mail("jacques@lyon.example", GOOD + "WEEK 3: PRACTICE sabre\n",
                        message_id="<same@client.example>")
    assert process_message(db, config, first).status == "accepted"
    assert process_message(db, config, edited).status == "accepted"
    assert process_message(db, config, edited).status == "duplicate"  # the same mail again
    stored = rows(db)
    assert [r.message_id for r in stored] == ["same@client.example"] * 2
    assert all(r.status in FATES for r in stored)
    assert [s.version for s in versions(db)] == [1, 2]


def test_the_same_mail_delivered_twice_with_other_trace_headers_is_one_message(
    db: Engine, config: Config
) -> None:
    make_game(db, config)
    raw = order_mail("jacques@lyon.example", GOOD)
    again = b"Received: from relay2.example by mx.paris.example\r\n" \
            b"Delivered-To: moderator+paris@paris.example\r\n" + raw
    assert content_digest(raw) == content_digest(again)
    process_message(db, config, raw)
    assert process_message(db, config, again).status == "duplicate"
    assert len(rows(db)) == 1


@pytest.mark.parametrize("header", ["Message-ID: no-brackets", "Message-ID: ", None,
                                    "Message-ID: <two words@x>"])
def test_a_missing_or_malformed_message_id_still_gets_a_fate_and_an_id(
    db: Engine, config: Config, header: str | None
) -> None:
    make_game(db, config)
    results = []
    for body in (GOOD, GOOD + "WEEK 3: PRACTICE sabre\n"):
        raw = order_mail("jacques@lyon.example", body).replace(b"\r\n", b"\n")
        lines = [ln for ln in raw.split(b"\n") if not ln.lower().startswith(b"message-id:")]
        if header is not None:
            lines.insert(0, header.encode())
        results.append(process_message(db, config, b"\n".join(lines)))
    assert [r.status for r in results] == ["accepted", "accepted"]
    stored = rows(db)
    assert len(stored) == 2 and all(r.status in FATES for r in stored)
    for row in stored:
        assert "@" in row.message_id and " " not in row.message_id
    assert stored[0].message_id != stored[1].message_id


def test_every_cpython_test_message_ends_in_one_fate(db: Engine, config: Config) -> None:
    """CPython's own test messages (msg_03, msg_14, msg_20, msg_29, msg_44 left no trace)."""
    make_game(db, config)
    names = sorted(p.name for p in CPYTHON.glob("msg_*.txt"))
    seen: set[str] = set()
    for name in names:
        raw = (CPYTHON / name).read_bytes()
        process_message(db, config, raw)
        seen.add(content_digest(raw))
    stored = rows(db)
    assert len(stored) == len(seen) >= 45
    assert [r.status for r in stored if r.status not in FATES] == []
    assert all(r.detail for r in stored)
    with Session(db) as session:
        logged = [e for e in repo.gm_log(session) if e.event.startswith(("intake.", "mail."))]
    assert len(logged) >= len(stored), "the GM log records every fate"


def test_a_bottom_posted_reply_yields_the_new_orders(db: Engine, config: Config) -> None:
    """Password on top, the quoted receipt in the middle, the new orders below."""
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", GOOD))
    reply = (
        "PASSWORD: rapier\n\n"
        "On Tue, 1 Dec 2026 at 12:00, Moderator of paris <moderator+paris@paris.example>"
        " wrote:\n"
        "> Orders v1 for Jacques de Lyon, April 1625 (paris).\n"
        ">\n> WEEK 1: PRACTICE rapier\n> WEEK 2: PRACTICE rapier\n\n"
        "WEEK 1: PRACTICE sabre\nWEEK 2: PRACTICE sabre\n\n-- \nJacques\n"
    )
    result = process_message(db, config, order_mail("jacques@lyon.example", reply,
                                                    subject="Re: [paris] Orders v1"))
    assert result.status == "accepted"
    latest = versions(db)[-1]
    assert latest.version == 2
    assert "sabre" in latest.normal_form_json.lower()
    assert "rapier" not in latest.normal_form_json.lower().replace("practice rapier", "")


def test_a_message_with_no_orders_is_not_a_new_version(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", GOOD))
    empty = "PASSWORD: rapier\n\n> WEEK 1: PRACTICE rapier\n"
    result = process_message(db, config, order_mail("jacques@lyon.example", empty))
    assert result.status == "refused"
    assert "stand" in result.detail
    assert [s.version for s in versions(db)] == [1]
    with Session(db) as session:
        receipt = session.exec(select(Outbox).order_by(Outbox.id.desc())).first()  # type: ignore[union-attr]
    assert receipt is not None and receipt.kind == "receipt"
    assert b"No orders could be read" in receipt.raw
    assert b"still stand" in receipt.raw


def test_an_oversized_message_is_refused_before_its_body_is_parsed(
    db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_game(db, config)
    parsed: list[int] = []
    real = process_module.extract_message

    def watching(raw: bytes, max_lines: int = 500):  # type: ignore[no-untyped-def]
        parsed.append(len(raw))
        return real(raw, max_lines)

    monkeypatch.setattr(process_module, "extract_message", watching)
    body = GOOD + ("# " + "x" * 998 + "\n") * 20_000  # 20 MB
    results: list[IntakeResult] = []

    def runs() -> Iterator[Callable[[], None]]:
        for _ in range(3):  # each a new message (another Message-ID), the same work
            raw = order_mail("jacques@lyon.example", body)
            yield lambda raw=raw: results.append(process_message(db, config, raw))

    assert cpu_cost(runs(), 2.0) <= 2.0
    result = results[0]
    assert result.status == "refused" and "at most" in result.detail
    assert parsed and max(parsed) < 100_000, "only the header block was read"


def test_migration_0006_keys_stored_mail_by_its_content_digest(tmp_path: Path) -> None:
    """Mail stored before the digest gets the same digest intake computes; the
    Message-ID is no longer unique."""
    from alembic import command
    from sqlalchemy import create_engine, text

    from moderator.store.db import alembic_config

    db = create_engine(f"sqlite:///{tmp_path / 'old.sqlite'}")
    alembic = alembic_config()
    raw = order_mail("jacques@lyon.example", GOOD, message_id="<old@client.example>")
    with db.begin() as connection:
        alembic.attributes["connection"] = connection
        command.upgrade(alembic, "0005")
        connection.execute(text(
            "INSERT INTO receivedmessage (message_id, raw, received_at, status) "
            "VALUES ('old@client.example', :r, '2026-01-01', 'accepted')"), {"r": raw})
        command.upgrade(alembic, "0006")
        [(digest,)] = connection.execute(text("SELECT digest FROM receivedmessage")).all()
        connection.execute(text(
            "INSERT INTO receivedmessage (message_id, digest, raw, received_at, status) "
            "VALUES ('old@client.example', 'other', :r, '2026-01-01', 'accepted')"),
            {"r": b"x"})
    assert digest == content_digest(raw)


@pytest.mark.parametrize("name", ["mutated_from_1.eml", "mutated_from_2.eml"])
def test_a_from_no_answer_can_be_addressed_to_is_ignored_not_failed(
    db: Engine, config: Config, name: str
) -> None:
    """Found by the 10,000-message fuzz run: mutated From bytes that the email package's
    header parser crashes on when the refusal is addressed to them."""
    make_game(db, config)
    raw = (Path(__file__).resolve().parents[1] / "emails" / "fuzz_regressions" / name).read_bytes()
    result = process_message(db, config, raw)
    assert result.status == "ignored" and "no usable sender" in result.detail


@pytest.mark.parametrize("sender", ["Bob <=?utf-8?q?a=0D=0A?=@evil.example>",
                                    "=?utf-8?b?DQo=?=@evil.example"])
def test_a_from_address_holding_an_encoded_word_is_ignored_not_failed(
    db: Engine, config: Config, sender: str
) -> None:
    """An address with "=?" is no address to answer: the email package decodes the word
    in the refusal's To (here to a line break) and raised, so the message ended "failed"
    and the GM was mailed about a crash."""
    make_game(db, config)
    raw = order_mail("x@y.example", "JOIN GAME AS Bob\n", subject="[paris] hi")
    result = process_message(db, config, raw.replace(b"From: x@y.example",
                                                     f"From: {sender}".encode()))
    assert result.status == "ignored" and "no usable sender" in result.detail


def test_a_failure_never_overwrites_the_fate_another_run_gave(
    db: Engine, config: Config
) -> None:
    """A failed run's rollback undoes its claim, so another intake may take the message and
    give it its fate before the failure is written: the failure then leaves that fate (and
    tells the GM nothing more than its log line), where it used to write FAILED over it."""
    make_game(db, config)
    raw = order_mail("jacques@lyon.example", GOOD)
    assert process_message(db, config, raw).status == "accepted"
    [stored] = rows(db)
    message = process_module.read_message(config, raw, content_digest(raw))
    with Session(db) as session:
        notices = len(list(session.exec(select(Outbox))))
    process_module._mark_failed(db, config, stored.id, message, RuntimeError("late failure"))
    [after] = rows(db)
    assert (after.status, after.detail) == (stored.status, stored.detail)
    with Session(db) as session:
        assert len(list(session.exec(select(Outbox)))) == notices  # no GM notice
        assert any("late failure" in line.detail for line in repo.gm_log(session))
