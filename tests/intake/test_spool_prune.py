"""The spool's retention (``[intake] spool_keep_days``): a received email's spool file goes
once its message has a fate and is older than the limit; a message in flight, a newer
one, and a file no stored message holds stay (`moderator.intake.spool_prune`)."""

from __future__ import annotations

import dataclasses
import io
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.cli import cli
from moderator.intake.extract import extract_message
from moderator.intake.process import process_message
from moderator.intake.spool import spool_raw, store_raw
from moderator.intake.spool_prune import prune_spool
from moderator.runners.service import JsonLog, Service
from moderator.settings.config import Config
from moderator.store import audit
from moderator.store.models import ReceivedMessage
from moderator.store.statuses import MessageStatus

from support import make_game, order_mail

NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
OLD = NOW - timedelta(days=40)
ORDERS = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"


def _age(path: Path, when: datetime) -> None:
    """Set a file's times to ``when`` (what a file spooled then would have)."""
    os.utime(path, (when.timestamp(), when.timestamp()))


def _received(db: Engine, config: Config, raw: bytes, when: datetime) -> ReceivedMessage:
    """Intake's first step only: spooled and stored, no fate yet (a run that died there)."""
    path = spool_raw(config, raw, when)
    _age(path, when)
    store_raw(db, extract_message(raw), raw, path, when)
    return _row(db, path)


def _handled(db: Engine, config: Config, raw: bytes, when: datetime) -> ReceivedMessage:
    process_message(db, config, raw, now=when)
    with Session(db) as session:
        row = session.exec(select(ReceivedMessage).order_by(
            ReceivedMessage.id.desc())).first()  # type: ignore[union-attr]
    assert row is not None and row.spool_path and row.status != MessageStatus.RECEIVED
    _age(Path(row.spool_path), when)
    return row


def _row(db: Engine, path: Path) -> ReceivedMessage:
    with Session(db) as session:
        return session.exec(select(ReceivedMessage).where(
            ReceivedMessage.spool_path == str(path))).one()


def _spooled(config: Config) -> set[Path]:
    return set(config.spool_dir.rglob("*.eml"))


def test_an_old_file_with_a_fate_goes_a_newer_one_and_one_in_flight_stay(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    old = _handled(db, config, order_mail("jacques@lyon.example", ORDERS), OLD)
    new = _handled(db, config, order_mail("cyrano@bergerac.example", "PASSWORD: panache\n"),
                   NOW - timedelta(days=2))
    in_flight = _received(db, config, order_mail("porthos@musket.example", "x"), OLD)
    assert old.status == MessageStatus.ACCEPTED
    pruned = prune_spool(db, config, NOW)
    assert (pruned.removed, pruned.kept) == (1, 1)
    assert _spooled(config) == {Path(new.spool_path or ""), Path(in_flight.spool_path or "")}
    with Session(db) as session:
        stored = session.get(ReceivedMessage, old.id)
        assert stored is not None and stored.spool_path is None and b"WEEK 1" in stored.raw
    assert prune_spool(db, config, NOW) == dataclasses.replace(pruned, removed=0)


def test_the_setting_0_keeps_every_file(db: Engine, config: Config) -> None:
    make_game(db, config)
    _handled(db, config, order_mail("jacques@lyon.example", ORDERS), OLD)
    before = _spooled(config)
    keep_all = dataclasses.replace(config, spool_keep_days=0)
    assert prune_spool(db, keep_all, NOW).removed == 0
    assert _spooled(config) == before and len(before) == 1
    assert prune_spool(db, config, NOW).removed == 1  # the default (30 days) prunes it


def test_a_second_delivery_of_a_handled_message_goes_an_unknown_file_stays(
    db: Engine, config: Config,
) -> None:
    """A redelivery (other trace headers: another spool file no row names) goes with its
    message's fate, even with its password masked; a file no stored message holds (an
    intake that died before storing it) may be the only copy: it stays."""
    make_game(db, config)
    raw = order_mail("jacques@lyon.example", ORDERS, message_id="<twice@lyon.example>")
    _handled(db, config, raw, OLD)
    again = b"Received: from relay.example by mx.example\r\n" + raw
    assert process_message(db, config, again, now=OLD).status == "duplicate"
    lonely = spool_raw(config, order_mail("aramis@musket.example", "x"), OLD)
    for path in _spooled(config):
        _age(path, OLD)
    assert len(_spooled(config)) == 3
    pruned = prune_spool(db, config, NOW)
    assert (pruned.removed, pruned.kept) == (2, 1)
    assert _spooled(config) == {lonely}


def test_a_file_outside_the_spool_folder_is_never_deleted(
    db: Engine, config: Config, tmp_path: Path,
) -> None:
    """A store moved from another host names that host's paths: nothing there is ours."""
    make_game(db, config)
    row = _handled(db, config, order_mail("jacques@lyon.example", ORDERS), OLD)
    moved = dataclasses.replace(config, spool_dir=tmp_path / "elsewhere")
    assert prune_spool(db, moved, NOW).removed == 0
    assert Path(row.spool_path or "").exists()


def test_serve_prunes_the_spool_and_a_gm_can_by_hand_audited(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    _handled(db, config, order_mail("jacques@lyon.example", ORDERS), OLD)
    out = io.StringIO()
    service = Service(db, config, JsonLog(out))
    service.stop.set()  # one round, no wait
    service._spool()
    [line] = [json.loads(x) for x in out.getvalue().splitlines()]
    assert (line["component"], line["event"], line["removed"]) == ("spool", "pruned", 1)
    assert _spooled(config) == set()

    _handled(db, config, order_mail("cyrano@bergerac.example", "PASSWORD: panache\n"),
             NOW - timedelta(days=8))
    result = CliRunner().invoke(cli, ["--config", str(config.path), "inbox", "prune-spool",
                                      "--keep-days", "7", "--reason", "disk nearly full"])
    assert result.exit_code == 0, result.output
    assert "Deleted 1 spool file older than 7 days" in result.output
    with Session(db) as session:
        [entry] = [e for e in audit.entries(session, None) if e.action == "spool.prune"]
    assert entry.reason == "disk nearly full" and "1 deleted" in entry.detail


def test_serve_does_not_prune_a_spool_kept_for_ever(db: Engine, config: Config) -> None:
    service = Service(db, dataclasses.replace(config, spool_keep_days=0), JsonLog(io.StringIO()))
    service.start()
    try:
        assert [t.name for t in service.threads] == ["intake", "outbox", "scheduler"]
    finally:
        service.shutdown()
