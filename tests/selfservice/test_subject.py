"""A command in the subject (``[paris] HELP``: Eressea's and pbmserv's way) is answered
when the body gives none, instead of a receipt saying no orders could be read; only the
commands that read, never ORDERS or CHECK (the subject of many players' orders), and
never a reply's subject."""

from __future__ import annotations

import pytest
from players.test_commands import count, mails, reply, send, text_of
from sqlalchemy import Engine

from moderator.settings.config import Config
from moderator.store.models import Submission

from support import make_game


@pytest.mark.parametrize(("subject", "answer"), [
    ("[paris] HELP", "HELP: the player's guide"),
    ("[paris] status?", "== STATUS ==\n\nparis: April 1625, active."),
    ("deadline [paris]", "No deadline is set yet for April 1625"),
])
def test_a_command_in_the_subject_is_answered(db: Engine, config: Config, subject: str,
                                              answer: str) -> None:
    """Before: "[paris] Orders NOT accepted ... No orders could be read"."""
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\n", subject=subject) == "accepted"
    assert answer in reply(db) and not mails(db, "receipt")


def test_orders_under_a_subject_command_are_stored_and_the_command_answered(
        db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n",
                subject="[paris] STATUS") == "accepted"
    assert "Your orders: v1 stand." in reply(db) and count(db, Submission) == 1


@pytest.mark.parametrize("subject", ["[paris] Orders", "[paris] check",
                                     "Re: [paris] HELP", "[paris] RESIGN"])
def test_orders_a_reply_and_what_changes_anything_are_never_read_from_the_subject(
        db: Engine, config: Config, subject: str) -> None:
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n",
                subject=subject) == "accepted"
    assert not mails(db, "command-reply") and not mails(db, "gm-notice")
    assert text_of(mails(db, "receipt")[-1]).startswith("Orders v1 for Jacques de Lyon")


def test_games_in_the_subject_from_a_newcomer(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "\n", sender="new@example.org", subject="GAMES") == "accepted"
    assert "paris: En Garde!" in text_of(mails(db, "command-reply", "new@example.org")[-1])
