"""The mail commands with the imap transport, against the real test servers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from moderator.cli import cli
from moderator.desk import admin
from moderator.settings.config import load_config
from moderator.store.db import open_store, session_scope

from support import order_mail, write_mail_config

pytestmark = pytest.mark.mail

MODERATOR, PLAYER = "moderator@pbem.test", "player1@pbem.test"


def test_inbox_process_and_outbox_send_use_imap_and_smtp(
    clean_mailboxes: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`player add` queues a welcome that `outbox send` hands to SMTP; `inbox process`
    reads the player's orders over IMAP and its receipt reaches him by SMTP."""
    mail = clean_mailboxes
    monkeypatch.setenv("MODERATOR_IMAP_PASSWORD", mail.password(MODERATOR))
    monkeypatch.setenv("MODERATOR_SMTP_PASSWORD", mail.password(MODERATOR))
    path = write_mail_config(tmp_path, mail)
    config = load_config(path)
    with session_scope(open_store(config.database_url)) as session:
        admin.create_game(session, config, "paris", "engarde", seed=1625)
        admin.add_player(session, config, "paris", PLAYER, "Jacques de Lyon", password="rapier")
    runner = CliRunner()

    sent = runner.invoke(cli, ["--config", str(path), "outbox", "send"])
    assert sent.exit_code == 0, sent.output
    assert f"mailed {PLAYER}: [paris] Welcome, Jacques de Lyon" in sent.output
    mail.wait_for_messages(PLAYER, 1)

    raw = order_mail(PLAYER, "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n",
                     subject="[paris] orders", to=MODERATOR)
    with mail.smtp(PLAYER) as smtp:
        smtp.sendmail(PLAYER, [MODERATOR], raw)
    mail.wait_for_messages(MODERATOR, 1)
    read = runner.invoke(cli, ["--config", str(path), "inbox", "process"])
    assert read.exit_code == 0, read.output
    assert "accepted" in read.output
    assert "Orders v1" in read.output  # the receipt was sent at the end of the command
    assert len(mail.wait_for_messages(PLAYER, 2)) == 2
    assert mail.fetch_messages(MODERATOR) == []  # filed in Processed
