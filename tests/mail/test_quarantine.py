"""One quarantine policy for every transport: the same mail, the same fates, on a local
Maildir and on a real IMAP server (Dovecot).

A message intake failed on goes to the inbox's quarantine (Maildir ``.quarantine``, IMAP
``Quarantine``), whether intake's own guard caught the failure or the runner did; every
other fate is filed as processed; a database outage files nothing.  (The Maildir case
needs no server, but lives here so that both run side by side.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from moderator.runners import incoming
from moderator.runners.incoming import InboxUnavailable, Incoming
from moderator.settings.config import Config, load_config
from moderator.store import repo
from moderator.store.db import open_store
from moderator.store.models import Outbox
from moderator.transport import open_inbox
from moderator.transport.base import Inbox
from moderator.transport.maildir import delivery_order, open_maildir

from support import make_game, order_mail, write_config, write_mail_config

MODERATOR = "moderator@pbem.test"
JACQUES = ("jacques@lyon.example", "rapier", "<jacques@client.example>")
CYRANO = ("cyrano@bergerac.example", "panache", "<cyrano@client.example>")
PORTHOS = ("porthos@musket.example", "wine", "<porthos@client.example>")


@dataclass
class Box:
    """One transport's inbox seen from outside: drop mail in, list each folder."""

    transport: str
    config: Config
    db: Engine
    put: Callable[[bytes], None]
    folder: Callable[[str], list[bytes]]  # "inbox" | "processed" | "quarantine"

    def ids(self, name: str) -> list[str]:
        return [str(message_from_bytes(raw, policy=policy.default)["Message-ID"])
                for raw in self.folder(name)]

    def open(self) -> Inbox:
        return open_inbox(self.config)


def _maildir_box(tmp_path: Path) -> Box:
    config = load_config(write_config(tmp_path))
    root = open_maildir(config.maildir_inbox)

    def folder(name: str) -> list[bytes]:
        if name != "inbox" and name not in root.list_folders():
            return []
        box = root if name == "inbox" else root.get_folder(name)
        found = []
        for key in sorted(box.iterkeys(), key=delivery_order):
            with box.get_file(key) as handle:
                found.append(handle.read())
        return found

    return Box("maildir", config, open_store(config.database_url), root.add, folder)


def _imap_box(tmp_path: Path, mail: Any, monkeypatch: pytest.MonkeyPatch) -> Box:
    monkeypatch.setenv("MODERATOR_IMAP_PASSWORD", mail.password(MODERATOR))
    config = load_config(write_mail_config(tmp_path, mail))
    names = {"inbox": "INBOX", "processed": "Processed", "quarantine": "Quarantine"}

    def put(raw: bytes) -> None:  # straight into INBOX: UID order is the order put
        with mail.imap(MODERATOR) as client:
            client.append("INBOX", raw)

    def folder(name: str) -> list[bytes]:
        with mail.imap(MODERATOR) as client:
            if not client.folder_exists(names[name]):
                return []
        return list(mail.fetch_messages(MODERATOR, names[name]))

    return Box("imap", config, open_store(config.database_url), put, folder)


@pytest.fixture(params=["maildir", "imap"])
def box(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Box:
    if request.param == "maildir":
        built = _maildir_box(tmp_path)
    else:
        built = _imap_box(tmp_path, request.getfixturevalue("clean_mailboxes"), monkeypatch)
    make_game(built.db, built.config)
    return built


def _orders(who: tuple[str, str, str]) -> bytes:
    address, password, message_id = who
    return order_mail(address, f"PASSWORD: {password}\nWEEK 1: PRACTICE rapier\n",
                      message_id=message_id)


def _one_pass(box: Box) -> list[incoming.IntakeResult]:
    inbox = box.open()
    try:
        return Incoming(box.db, box.config, inbox).read_once()
    finally:
        inbox.close()


def test_a_failed_message_is_quarantined_the_same_way_on_every_transport(
    box: Box, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cyrano's orders crash the engine (intake's own guard marks them failed); Porthos's
    crash the runner outside intake: both are quarantined, the GM hears of each once,
    Jacques's are processed, and a second pass finds nothing."""
    from moderator.games.engarde import ENGINE

    real_parse, real_process = ENGINE.parse_orders, incoming.process_message

    def explode_for_cyrano(text, state, character, tables):  # type: ignore[no-untyped-def]
        if character.startswith("cyrano"):
            raise RuntimeError("boom")
        return real_parse(text, state, character, tables)

    def explode_on_porthos(db, config, raw, *, now=None, received=None):  # type: ignore[no-untyped-def]
        if b"PASSWORD: wine" in raw:
            raise ValueError("unreadable")
        return real_process(db, config, raw, now=now, received=received)

    monkeypatch.setattr(ENGINE, "parse_orders", explode_for_cyrano)
    monkeypatch.setattr(incoming, "process_message", explode_on_porthos)
    for who in (JACQUES, CYRANO, PORTHOS):
        box.put(_orders(who))

    results = _one_pass(box)

    assert [r.status for r in results] == ["accepted", "failed", "failed"]
    assert "ValueError" in results[2].detail
    assert box.ids("inbox") == []
    assert box.ids("processed") == [JACQUES[2]]
    assert sorted(box.ids("quarantine")) == sorted([CYRANO[2], PORTHOS[2]])
    with Session(box.db) as session:
        events = [e.event for e in repo.gm_log(session) if e.level == "error"]
        notices = session.exec(select(Outbox).where(Outbox.kind == "gm-notice")).all()
    assert sorted(events) == sorted(["intake.failed", f"{box.transport}.quarantined"])
    assert len(notices) == 2

    assert _one_pass(box) == []
    assert sorted(box.ids("quarantine")) == sorted([CYRANO[2], PORTHOS[2]])


def test_a_database_outage_files_nothing_on_any_transport(
    box: Box, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unavailable database is nobody's message's fault: the pass stops, the message
    stays in the inbox (not in quarantine), and the next pass reads it normally."""
    real_process = incoming.process_message

    def locked(db, config, raw, *, now=None, received=None):  # type: ignore[no-untyped-def]
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    box.put(_orders(JACQUES))
    monkeypatch.setattr(incoming, "process_message", locked)
    with pytest.raises(InboxUnavailable, match="database is locked") as stopped:
        _one_pass(box)
    assert stopped.value.results == []
    assert box.ids("inbox") == [JACQUES[2]]
    assert box.ids("quarantine") == [] and box.ids("processed") == []

    monkeypatch.setattr(incoming, "process_message", real_process)
    assert [r.status for r in _one_pass(box)] == ["accepted"]
    assert box.ids("inbox") == [] and box.ids("processed") == [JACQUES[2]]
