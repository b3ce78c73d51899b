"""LOST PASSWORD: a player who lost his password could not reach the GM by mail (every
command, TO GM too, asks for it, and the GM's address is not given out); now the GM is
asked to reset it and the player told, at his registered address only."""

from __future__ import annotations

import shlex

from players.test_commands import JACQUES, SHELL_ADDRESS, mails, send, text_of
from sqlalchemy import Engine
from sqlmodel import Session

from moderator.desk.admin import add_address, add_player
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope

from support import make_game


def test_lost_password_asks_the_gm_and_answers_the_registered_address(
        db: Engine, config: Config) -> None:
    make_game(db, config)
    with session_scope(db) as session:
        add_address(session, "paris", JACQUES, "jacques@work.example")
    assert send(db, config, "Hello,\nI lost my password\nSTATUS\n",
                sender="jacques@work.example") == "refused"  # a sentence is not the command
    assert send(db, config, "LOST PASSWORD\nSTATUS\n", sender="jacques@work.example") \
        == "accepted"
    notice = mails(db, "gm-notice")[-1]
    assert notice.subject == "[paris] Jacques de Lyon: password lost"
    assert f"moderator player password paris {JACQUES} --reset" in text_of(notice)
    [answer] = mails(db, "command-reply")
    assert answer.to_addr == JACQUES
    assert "The GM is asked to give you a new password" in text_of(answer)
    assert "other commands in your mail need your password: they were not done" in text_of(answer)
    with Session(db) as session:
        assert any(e.event == "player.password-lost" for e in repo.gm_log(session))


def test_lost_password_from_a_stranger_is_refused(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "FORGOT PASSWORD\n", sender="spy@evil.example") == "refused"
    assert not mails(db, "gm-notice") and not mails(db, "command-reply")
    assert "is not registered in paris" in text_of(mails(db, "refusal")[-1])


def test_lost_password_notice_quotes_the_address_for_the_shell(
        db: Engine, config: Config) -> None:
    """The notice's ``player password`` line names the player's address; one with shell
    characters (an RFC 5322 local part may hold backquotes) is quoted for the paste."""
    make_game(db, config)
    with session_scope(db) as session:
        add_player(session, config, "paris", SHELL_ADDRESS, "Mordaunt", password="dark")
    assert send(db, config, "LOST PASSWORD\n", sender=SHELL_ADDRESS) == "accepted"
    line = next(line for line in text_of(mails(db, "gm-notice")[-1]).splitlines()
                if "player password" in line)
    assert line.strip() == (f"moderator player password paris '{SHELL_ADDRESS}' --reset "
                            "--reason \"lost it\"")
    assert shlex.split(line)[4] == SHELL_ADDRESS
