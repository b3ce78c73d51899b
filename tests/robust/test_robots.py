"""Issue 13, "robots never answered twice" and "identity": out-of-office mail without
headers, flufl.bounce's real bounces, a ticket robot, our own addresses, backscatter, a
mis-parsed From, Authentication-Results from our own server only, and threading."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.intake.process import process_message
from moderator.intake.robots import out_of_office_subject, own_address
from moderator.intake.sender import authentication_failure, mailbox_address
from moderator.publish.compose import compose
from moderator.settings.config import Config, load_config
from moderator.store import repo
from moderator.store.db import open_store
from moderator.store.models import Outbox, ReceivedMessage

from support import make_game, order_mail, write_config

GOOD = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapier\n"
BOUNCES = Path(__file__).resolve().parents[1] / "emails" / "flufl_bounce"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

OUT_OF_OFFICE = [
    "Automatische Antwort: [paris] my orders",
    "I am away until Monday [paris]",
    "Automatic reply: [paris] my orders",
    "Out of Office: Re: [paris] Orders v1",
    "[paris] Out of office",
    "Réponse automatique : [paris] mes ordres",
    "Abwesenheitsnotiz: [paris] Befehle",
    "Respuesta automática: [paris] órdenes",
    "Risposta automatica: [paris] ordini",
    "Automatisch antwoord: [paris] orders",
    "Autosvar: [paris] order",
    "Automatisk svar: [paris] ordrer",
    "Odpowiedź automatyczna: [paris] rozkazy",
    "Автоматический ответ: [paris] приказы",
    "自動応答: [paris] 注文",
]
NOT_OUT_OF_OFFICE = [
    "[paris] my orders, out of office next week",
    "[paris] Orders: absent from the salon",
    "Re: [paris] Orders v1 for Jacques",
    "[paris] vacation plans for Jacques' regiment",
]


def outbox(db: Engine) -> list[Outbox]:
    with Session(db) as session:
        return list(session.exec(select(Outbox).where(Outbox.kind != "welcome")
                                 .order_by(Outbox.id)))


def answered(db: Engine, address: str) -> int:
    return sum(1 for row in outbox(db) if row.to_addr.lower() == address.lower())


@pytest.mark.parametrize("subject", OUT_OF_OFFICE)
def test_out_of_office_mail_without_auto_headers_is_never_answered(
    db: Engine, config: Config, subject: str
) -> None:
    make_game(db, config)
    raw = order_mail("jacques@lyon.example", "I am out until Monday.", subject=subject)
    result = process_message(db, config, raw, now=NOW)
    assert result.status == "ignored", result
    assert answered(db, "jacques@lyon.example") == 0


@pytest.mark.parametrize("subject", NOT_OUT_OF_OFFICE)
def test_a_player_mentioning_his_absence_is_still_read(subject: str) -> None:
    assert out_of_office_subject(subject) is None


# flufl.bounce's samples that are no bounce at all (its table expects no address):
# a person's mail, answered once like any stranger's.
PEOPLE = {"groupwise_03.txt"}


def _bounce_cases() -> list[str]:
    return sorted(p.name for p in BOUNCES.glob("*.txt") if p.name not in PEOPLE)


def test_no_real_bounce_sample_is_answered(tmp_path: Path) -> None:
    # No refusal limit here: it must not be what keeps the bounces unanswered.
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "[intake]\nrefusals_per_hour = 1000\n")
    config = load_config(path)
    db = open_store(config.database_url)
    make_game(db, config)
    answered_samples = []
    for name in _bounce_cases():
        before = len(outbox(db))
        result = process_message(db, config, (BOUNCES / name).read_bytes(), now=NOW)
        assert result.status in ("ignored", "refused", "failed", "duplicate"), name
        if any(row.kind in ("refusal", "receipt") for row in outbox(db)[before:]):
            answered_samples.append(name)
    assert answered_samples == []


def test_the_people_among_the_bounce_samples_are_in_its_table_as_no_bounce() -> None:
    table = {name: expected for _d, name, expected, _t in
             json.loads((BOUNCES / "expected.json").read_text())}
    assert all(table.get(name, []) == [] for name in PEOPLE)


def test_bounce_detection_agrees_with_flufl_bounces_own_table() -> None:
    from moderator.intake.bounces import detect_bounce

    table = json.loads((BOUNCES / "expected.json").read_text())
    agree = 0
    for _detector, name, expected, _temporary in table:
        bounce = detect_bounce((BOUNCES / name).read_bytes(), person=False)
        found = set(bounce.recipients) if bounce else set()
        agree += found == {a.lower() for a in expected}
    print(f"bounces: {agree} of {len(table)} agree with flufl.bounce's table")
    # 101 on main; the two left are mail the table calls no bounce that its own
    # detectors call one (simple_42, groupwise_02).
    assert agree >= 114


def test_a_ticket_robot_that_sets_no_headers_gets_one_refusal_at_most(
    db: Engine, config: Config
) -> None:
    make_game(db, config)
    subject = "[paris] my orders"
    for number in range(11):
        subject = f"[Ticket #{10 + number}] Re: Not accepted: {subject}"
        raw = order_mail("helpdesk@tickets.example", "Your ticket was received.",
                         subject=subject)
        process_message(db, config, raw, now=NOW + timedelta(minutes=number))
    assert answered(db, "helpdesk@tickets.example") == 1
    with Session(db) as session:
        suppressed = [e for e in repo.gm_log(session) if e.event == "intake.refusal-suppressed"]
        fates = session.exec(select(ReceivedMessage.status)).all()
    assert len(suppressed) == 10
    assert fates == ["refused"] * 11


def test_refusals_to_one_sender_are_limited_per_hour(db: Engine, config: Config) -> None:
    make_game(db, config)
    for minutes in (0, 10, 59, 61, 62):
        raw = order_mail("forged@nowhere.example", GOOD + f"# {minutes}\n")
        process_message(db, config, raw, now=NOW + timedelta(minutes=minutes))
    assert answered(db, "forged@nowhere.example") == 2  # at 0 and at 61 minutes


@pytest.mark.parametrize("sender", ["moderator+paris@paris.example", "moderator@paris.example",
                                    "moderator", "MODERATOR+x@Paris.Example"])
def test_mail_from_our_own_addresses_is_never_answered(
    db: Engine, config: Config, sender: str
) -> None:
    make_game(db, config)
    raw = order_mail(sender, "Not accepted: something", subject="Not accepted: [paris] x")
    result = process_message(db, config, raw, now=NOW)
    assert result.status in ("ignored", "refused")
    assert outbox(db) == []
    assert not (config.maildir_mailboxes / "moderator").exists()


def test_own_address_is_ours_only() -> None:
    assert own_address("moderator+paris@paris.example", "moderator@paris.example")
    assert not own_address("moderator@other.example", "moderator@paris.example")
    assert not own_address("jacques@paris.example", "moderator@paris.example")


# --- identity ---------------------------------------------------------------------------

@pytest.mark.parametrize(("header", "address"), [
    ("From: cyrano@bergerac.example <evil@x.example>", "evil@x.example"),
    ('From: "cyrano@bergerac.example" <evil@x.example>', "evil@x.example"),
    ("From: Cyrano <cyrano@bergerac.example>", "cyrano@bergerac.example"),
    ("From: cyrano@bergerac.example (Cyrano <evil@x.example>)", "cyrano@bergerac.example"),
    ('From: "a <b@c.example>" <d@e.example>', "d@e.example"),
    ("From: =?utf-8?q?J=C3=B6rg?= <Joerg@Example.DE>", "joerg@example.de"),
    ("From: Friends: cyrano@bergerac.example, x@y.example;", "cyrano@bergerac.example"),
])
def test_the_address_is_taken_as_a_mail_server_takes_it(header: str, address: str) -> None:
    assert mailbox_address(header.encode() + b"\r\nTo: x@y\r\n\r\nbody") == address


def test_a_display_name_that_looks_like_a_player_is_not_the_player(
    db: Engine, config: Config
) -> None:
    make_game(db, config)
    raw = order_mail("x@y.example", "PASSWORD: panache\nWEEK 1: PRACTICE rapier\n")
    raw = raw.replace(b"From: x@y.example", b"From: cyrano@bergerac.example <evil@x.example>")
    result = process_message(db, config, raw, now=NOW)
    assert result.status == "refused" and "evil@x.example" in result.detail
    with Session(db) as session:
        row = session.exec(select(ReceivedMessage)).one()
    assert row.sender == "evil@x.example" and row.player_id is None


def _with_results(*headers: str) -> bytes:
    lines = [f"Authentication-Results: {h}" for h in headers]
    return ("\r\n".join([*lines, "From: jacques@lyon.example", "Subject: x"])
            + "\r\n\r\nbody").encode()


def test_only_our_servers_verdict_counts() -> None:
    ours = "mx.paris.example; dkim=pass header.d=lyon.example"
    forged = "mx.paris.example; dkim=fail header.d=lyon.example"
    other = "mx.elsewhere.example; dmarc=fail header.from=lyon.example"
    sender = "jacques@lyon.example"
    # Our header is on top; the sender's copy (with our id) below it is never read.
    assert authentication_failure(_with_results(ours, forged), sender, "mx.paris.example") is None
    # Another server's header above ours (a later relay) is not our verdict.
    assert authentication_failure(_with_results(other, ours), sender, "mx.paris.example") is None
    assert "dkim=fail" in (authentication_failure(_with_results(other, forged), sender,
                                                  "mx.paris.example") or "")
    assert authentication_failure(_with_results("garbage ;;; ==", forged), sender) is None


def test_the_dmarc_verdict_is_read_for_the_real_sender_domain() -> None:
    head = (b"Authentication-Results: mx.paris.example; dmarc=fail header.from=x.example\r\n"
            b"From: cyrano@bergerac.example <evil@x.example>\r\n\r\nbody")
    sender = mailbox_address(head)
    assert sender == "evil@x.example"
    assert "x.example" in (authentication_failure(head, sender, "mx.paris.example") or "")


def test_the_authserv_id_is_a_setting(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + '[intake]\nauthserv_id = "MX.Paris.Example"\n'
                    "refusals_per_hour = 3\n")
    config = load_config(path)
    assert config.authserv_id == "mx.paris.example" and config.refusals_per_hour == 3
    open_store(config.database_url)


# --- threading ---------------------------------------------------------------------------

@pytest.mark.parametrize("length", [78, 120, 300])
def test_answers_to_long_message_ids_can_be_threaded(length: int) -> None:
    parent = "<" + "a" * (length - 20) + "@prod.outlook.example>"
    raw = compose(sender="moderator@paris.example", sender_name="Moderator", to="j@l.example",
                  subject="Re: x", text="hello", message_id="<m@paris.example>", date=NOW,
                  in_reply_to=parent, references=["<root@x.example>", parent])
    msg = message_from_bytes(raw, policy=policy.default)
    assert b"=?" not in raw
    assert str(msg["In-Reply-To"]) == parent
    assert str(msg["References"]).split() == ["<root@x.example>", parent]
