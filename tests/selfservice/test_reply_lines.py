"""Every command's answer, in each game, fits 78 columns (RFC 5322 2.1.1): the autouse
fixture of tests/conftest.py checks every command reply queued here, the sections
with the longest lines included (HELP's guide and form, STATUS, ORDERS read back,
DEADLINE in a second zone with an offset, RESEND of a published turn)."""

from __future__ import annotations

import pytest
from players.test_commands import _game_of_kind, mails, send
from sqlalchemy import Engine

from moderator.settings.config import Config
from moderator.turn.run import run_turn


@pytest.mark.parametrize("kind", ["engarde", "dwtk", "fief"])
def test_every_command_reply_fits(db: Engine, config: Config, kind: str) -> None:
    game, address, password = _game_of_kind(db, config, kind)
    label = run_turn(db, config, game).label
    commands = ("HELP", "ORDERS", "STATUS", "FORM", "DEADLINE IN Asia/Kolkata",
                f"RESEND {label}", "ABSENCE UNTIL someday", "DEADLINE IN Mars/Olympus")
    for command in commands:
        assert send(db, config, f"PASSWORD: {password}\n{command}\n", sender=address,
                    subject=f"[{game}] commands") == "accepted", command
    assert len(mails(db, "command-reply")) == len(commands)
