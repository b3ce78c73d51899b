"""Store growth (issue 16, goal 6): a newsletter is stored once, compressed, and its
mail by reference; the body written at send time is the very mail `compose` gives; the
migration 0008 upgrades a store with its data and downgrades it again."""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.utils import parsedate_to_datetime

import pytest
from alembic import command
from sqlalchemy import Engine, create_engine, text
from sqlmodel import Session, select

from moderator.desk import rollback
from moderator.publish.compose import compose
from moderator.publish.outgoing import game_address, mail_bytes
from moderator.runners import outgoing as outgoing_module
from moderator.runners.outgoing import deliver_outbox, outgoing_mail
from moderator.settings.config import Config
from moderator.store import outbox_tidy, repo
from moderator.store.db import alembic_config, engine_url, session_scope
from moderator.store.models import Game, Newsletter, Outbox, Turn, pack_texts
from moderator.transport import open_sender
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

from support import PLAYERS, mailbox_messages, make_game

pytestmark = pytest.mark.backends

LIST_ID = "paris gazette <paris.moderator.paris.example>"


def _rows(db: Engine) -> list[tuple[Outbox, Newsletter | None]]:
    with Session(db) as session:
        rows = list(session.exec(select(Outbox).order_by(Outbox.id)))
        return [(row, session.get(Newsletter, row.newsletter_id) if row.newsletter_id
                 else None) for row in rows]


def _as_queued_before(config: Config, row: Outbox, letter: Newsletter) -> bytes:
    """The whole mail as `outgoing.queue` stored it before goal 6: the same inputs."""
    headers = message_from_bytes(row.raw + b"\n\n", policy=policy.default)
    return compose(
        sender=game_address(config, Game(name="paris", kind="engarde", seed=1)),
        sender_name="Moderator of paris", to=row.to_addr, subject=letter.subject,
        text=letter.text, html=letter.html, message_id=row.message_id,
        date=parsedate_to_datetime(headers["Date"]), auto_submitted="auto-generated",
        extra_headers=(("List-Id", LIST_ID),) if row.kind == "gazette" else (),
    )


def _delivered(config: Config, address: str) -> dict[str, bytes]:
    box = mailbox.Maildir(str(config.mailbox_for(address)), factory=None, create=False)
    found = {}
    for key in box.iterkeys():
        with box.get_file(key) as handle:
            raw = handle.read()
        found[message_from_bytes(raw, policy=policy.default)["Message-ID"]] = raw
    return found


def test_a_newsletter_is_stored_once_and_its_mail_is_headers_and_a_reference(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    deliver_outbox(db, config)  # the welcomes
    run_turn(db, config, "paris")
    rows = [(row, letter) for row, letter in _rows(db) if row.kind in ("gazette", "turnsheet")]
    assert len(rows) == 2 * len(PLAYERS)
    gazettes = {letter.id for row, letter in rows if row.kind == "gazette" and letter}
    assert len(gazettes) == 1  # one stored gazette for every reader
    for row, letter in rows:
        assert letter is not None and letter.kind == row.kind
        assert b"\n\n" not in row.raw and len(row.raw) < 1024  # no body in the outbox
        assert b"Message-ID: " + row.message_id.encode() in row.raw


def test_the_mail_sent_is_the_mail_compose_gives_for_a_gazette_and_a_private_sheet(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    expected = {row.message_id: (row.to_addr, _as_queued_before(config, row, letter))
                for row, letter in _rows(db) if letter is not None}
    with Session(db) as session:  # what the sender is handed, before it is sent
        for row in session.exec(select(Outbox).where(Outbox.newsletter_id != None)):  # noqa: E711
            assert mail_bytes(session, row) == expected[row.message_id][1]
    report = deliver_outbox(db, config)
    assert not report.failed and not report.deferred
    kinds = set()
    for message_id, (address, whole) in expected.items():
        assert _delivered(config, address)[message_id] == whole
        kinds.add(message_from_bytes(whole, policy=policy.default)["Subject"].split(",")[0])
    assert {"[paris] Le Sport de Paris", "[paris] Turn sheet for Cyrano de Bergerac"} <= kinds


def test_each_private_sheet_reaches_only_its_owner(db: Engine, config: Config) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    deliver_outbox(db, config)
    for address, name, _password in PLAYERS:
        sheets = [m for m in mailbox_messages(config, address)
                  if "Turn sheet" in str(m["Subject"])]
        assert [str(m["Subject"]) for m in sheets] == \
            [f"[paris] Turn sheet for {name}, April 1625"]
        body = sheets[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]
        others = [other for _a, other, _p in PLAYERS if other != name]
        assert f"CHARACTER: {name}" in body  # its own order form, and no one else's
        assert not any(f"CHARACTER: {other}" in body for other in others)


def test_a_crash_after_handing_over_a_newsletter_mail_is_settled_by_its_message_id(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    deliver_outbox(db, config)
    run_turn(db, config, "paris")
    with session_scope(db) as session:  # handed over, then the process died
        row = session.exec(select(Outbox).where(Outbox.kind == "turnsheet")).first()
        assert row is not None and row.newsletter_id is not None
        open_sender(config).send(outgoing_mail(session, row))
        row.status = "sending"
        row_id, address = row.id, row.to_addr
    report = deliver_outbox(db, config)
    assert [o.outbox_id for o in report.recovered] == [row_id]
    assert report.recovered[0].status == "sent"
    subjects = [str(m["Subject"]) for m in mailbox_messages(config, address)]
    assert len([s for s in subjects if "Turn sheet" in s]) == 1  # not sent twice


def test_compaction_leaves_a_newsletter_mail_whole_and_the_rest_as_before(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    deliver_outbox(db, config)
    before = {row.id: row.raw for row, _letter in _rows(db)}
    with session_scope(db) as session:
        count = outbox_tidy.compact_outbox(session, datetime.now(UTC) + timedelta(seconds=1))
    assert count == len(before)
    with Session(db) as session:
        for row in session.exec(select(Outbox)):
            assert row.compacted_at is not None
            if row.newsletter_id is not None:
                assert row.raw == before[row.id] and b"Subject:" in mail_bytes(session, row)
            else:
                assert outbox_tidy.COMPACTED_NOTE in row.raw


def test_rollback_gives_the_mail_of_the_undone_turns_their_whole_bytes(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    run_turn(db, config, "paris")
    with Session(db) as session:
        whole = {row.id: mail_bytes(session, row)
                 for row in session.exec(select(Outbox).where(Outbox.newsletter_id != None))}  # noqa: E711
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        rollback.rollback(session, game, 1, "gm-anne", "a test")
    with Session(db) as session:
        kept = {row.id: row for row in session.exec(select(Outbox)) if row.id in whole}
        assert all(row.raw == whole[row.id] for row in kept.values())
        assert {row.newsletter_id for row in kept.values()} == {None}
        assert repo.newsletters(session, repo.game_by_name(session, "paris"), 2) == []
    assert deliver_outbox(db, config).failed == ()


def test_turn_json_and_newsletters_are_compressed_and_read_back_unchanged(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    with db.connect() as connection:
        state, events = connection.execute(text(
            "SELECT state_after, events_json FROM turn WHERE number = 1")).one()
        content = connection.execute(text(
            "SELECT content FROM newsletter WHERE kind = 'gazette'")).scalar_one()
    with Session(db) as session:
        turn = session.exec(select(Turn).where(Turn.number == 1)).one()
        gazette = session.exec(select(Newsletter).where(Newsletter.kind == "gazette")).one()
        assert turn.state_after and turn.state_after.startswith("{")
        assert len(bytes(state)) * 4 < len(turn.state_after.encode())  # zlib, not text
        assert bytes(events) != (turn.events_json or "").encode()
        assert bytes(content) == pack_texts(gazette.parts())
        assert len(bytes(content)) * 3 < sum(len(p.encode()) for p in gazette.parts())
    assert rerun_turn(db, config, "paris", 1).identical


# --- the migration ----------------------------------------------------------------------

MARKDOWN, HTML, TEXT = "# Le Sport\n\nÉtienne wins.\n", "<h1>Le Sport</h1>", "LE SPORT\n"
STATE = '{"characters":{"x":{"crowns":5,"name":"Étienne"}}}'
RAW = b"From: m@x\nTo: p@y\nSubject: old\nMessage-ID: <1@x>\n\nthe whole body\n"


def test_0008_upgrades_a_0007_store_keeping_its_data(empty_database_url: str) -> None:
    engine = create_engine(engine_url(empty_database_url))
    alembic = alembic_config()
    with engine.begin() as connection:
        alembic.attributes["connection"] = connection
        command.upgrade(alembic, "0007")
        connection.execute(text(
            "INSERT INTO game (id, name, kind, seed, status, time_zone, created_at) "
            "VALUES (1, 'paris', 'engarde', 1, 'active', 'UTC', '2026-01-01')"))
        connection.execute(text(
            "INSERT INTO turn (id, game_id, number, label, seed, status, state_before, "
            "state_after, events_json) VALUES (1, 1, 1, 'April', 1, 'done', :s, :s, '[]')"),
            {"s": STATE})
        connection.execute(text(
            "INSERT INTO newsletter (id, game_id, turn_number, kind, subject, markdown, html, "
            "text) VALUES (1, 1, 1, 'gazette', 'Le Sport', :m, :h, :t)"),
            {"m": MARKDOWN, "h": HTML, "t": TEXT})
        connection.execute(text(
            "INSERT INTO outbox (id, message_id, game_id, kind, to_addr, subject, raw, "
            "created_at, status, attempts) VALUES (1, '<1@x>', 1, 'gazette', 'p@y', 'old', "
            ":r, '2026-01-01', 'sent', 1)"), {"r": RAW})
        command.upgrade(alembic, "head")
    with Session(engine) as session:
        turn = session.exec(select(Turn)).one()
        assert (turn.state_before, turn.state_after, turn.events_json) == (STATE, STATE, "[]")
        assert turn.inputs_json is None
        letter = session.exec(select(Newsletter)).one()
        assert letter.parts() == (MARKDOWN, HTML, TEXT)
        row = session.exec(select(Outbox)).one()
        assert row.newsletter_id is None and mail_bytes(session, row) == RAW
    engine.dispose()


def test_0008_downgrades_writing_every_newsletter_mail_out_in_full(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    with Session(db) as session:
        whole = {row.id: mail_bytes(session, row) for row in session.exec(select(Outbox))}
        letters = {n.id: n.parts() for n in session.exec(select(Newsletter))}
        states = {t.id: (t.state_before, t.state_after, t.dice_json)
                  for t in session.exec(select(Turn))}
    alembic = alembic_config()
    with db.begin() as connection:
        alembic.attributes["connection"] = connection
        command.downgrade(alembic, "0007")
        raws = dict(connection.execute(text("SELECT id, raw FROM outbox")).all())
        assert {key: bytes(value) for key, value in raws.items()} == whole
        old = {row[0]: tuple(row[1:]) for row in connection.execute(text(
            "SELECT id, markdown, html, text FROM newsletter"))}
        assert old == letters
        old_states = {row[0]: tuple(row[1:]) for row in connection.execute(text(
            "SELECT id, state_before, state_after, dice_json FROM turn"))}
        assert old_states == states
        command.upgrade(alembic, "head")  # and up again: still the same store
    with Session(db) as session:
        assert {row.id: mail_bytes(session, row) for row in session.exec(select(Outbox))} \
            == whole
        assert {n.id: n.parts() for n in session.exec(select(Newsletter))} == letters
    assert rerun_turn(db, config, "paris", 1).identical
    assert deliver_outbox(db, config).failed == ()


def test_a_mail_that_cannot_be_written_fails_once_and_never_sits_in_sending(
    db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The body of a newsletter's mail is written at send time: if that fails, the row
    fails with its reason (GM log) before it is claimed, and the other rows go on."""
    make_game(db, config)
    deliver_outbox(db, config)
    run_turn(db, config, "paris")
    with Session(db) as session:
        broken = session.exec(select(Outbox).where(Outbox.kind == "turnsheet")).first()
        assert broken is not None
        broken_id = broken.id
    real = outgoing_module.mail_bytes

    def mail_bytes_or_fail(session: Session, row: Outbox) -> bytes:
        if row.id == broken_id:
            raise ValueError("unreadable newsletter")
        return real(session, row)

    monkeypatch.setattr(outgoing_module, "mail_bytes", mail_bytes_or_fail)
    report = deliver_outbox(db, config)
    assert [o.outbox_id for o in report.failed] == [broken_id]
    assert "unreadable newsletter" in report.failed[0].detail
    assert report.sent  # the others went
    with Session(db) as session:
        row = session.get(Outbox, broken_id)
        assert row is not None and row.status == "failed"
        assert not session.exec(select(Outbox).where(Outbox.status == "sending")).all()
        assert any("unreadable newsletter" in entry.detail
                   for entry in repo.gm_log(session) if entry.event == "mail.failed")
