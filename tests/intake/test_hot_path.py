"""The per-message shortcuts of intake's hot path (issue 16, goal 3) answer exactly what
the slower code they replace answered: the header parse made once per value, the robots
step's player check, and the open turn found with its state's bytes in one statement."""

from __future__ import annotations

from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.policy import default
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from moderator.desk import admin
from moderator.intake import extract
from moderator.intake.bounces import find_recipient, is_player_address
from moderator.intake.turnstate import open_turn_context, turn_context
from moderator.mailpolicy import CACHED
from moderator.publish import compose as composing
from moderator.settings.config import Config
from moderator.store import hostreads, repo
from moderator.store.db import session_scope
from moderator.store.models import Turn

from support import make_game

EMAILS = sorted((Path(__file__).parents[1] / "emails").rglob("*.eml"))


@pytest.mark.parametrize("path", EMAILS, ids=lambda p: p.name)
def test_a_mail_reads_the_same_with_each_header_parsed_once(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = path.read_bytes()
    twice = extract.extract_message(raw)  # a second read: every value from the cache
    assert extract.extract_message(raw) == twice
    monkeypatch.setattr(extract, "CACHED", policy.default)
    assert extract.extract_message(raw) == twice


@pytest.mark.parametrize("path", EMAILS, ids=lambda p: p.name)
def test_the_cache_changes_no_parsed_header(path: Path) -> None:
    raw = path.read_bytes()
    BytesParser(policy=CACHED).parsebytes(raw)  # fills the cache
    cached = BytesParser(policy=CACHED).parsebytes(raw)
    plain = BytesParser(policy=policy.default).parsebytes(raw)
    for name in plain:
        assert _headers(cached, name) == _headers(plain, name), name


def _headers(message: Message, name: str) -> object:
    """What reading the headers ``name`` gives: values, kinds and defects, or the error
    the standard library's parser raises on some hostile values."""
    try:
        return [(str(v), type(v).__name__, tuple(map(type, v.defects)))  # type: ignore[attr-defined]
                for v in message.get_all(name) or ()]
    except Exception as exc:
        return type(exc)


@pytest.mark.parametrize("html", [None, "<p>Ses ordres</p>"])
def test_a_composed_mail_is_byte_for_byte_the_default_policys(
        html: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    def mail() -> bytes:
        return composing.compose(
            sender="moderator+paris@paris.example", sender_name="Moderator of paris",
            to="Cyrano de Bergérac <cyrano@bergerac.example>",
            subject="[paris] Orders received: Cyrano de Bergérac, " + "très long " * 12,
            text="WEEK 1: PRACTICE rapier\nÉpée\n" * 20, html=html,
            message_id="<1.2@paris.example>", date=datetime(2026, 12, 1, tzinfo=UTC),
            in_reply_to="<a@b.example>", references=("<r@b.example>",),
            auto_submitted="auto-replied")

    cached = [mail(), mail()]
    monkeypatch.setattr(composing, "EmailMessage",
                        lambda policy=None: EmailMessage(policy=default))
    assert cached == [mail(), mail()]


def test_the_player_check_answers_as_find_recipient(db: Engine, config: Config) -> None:
    make_game(db, config)
    with session_scope(db) as session:
        admin.add_address(session, "paris", "cyrano@bergerac.example", "cyrano@moon.example")
    with Session(db) as session:
        for address in ("cyrano@bergerac.example", "Cyrano@Moon.example ", "nobody@x.example",
                        "moderator@paris.example", ""):
            assert is_player_address(session, address) == \
                (find_recipient(session, address).player is not None), address


def test_the_open_turn_comes_with_its_context(db: Engine, config: Config) -> None:
    make_game(db, config)
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        full = hostreads.open_turn_light(session, game)
        turn, context = open_turn_context(session, game)
        assert turn not in session  # transient: read, never written
        for name in ("id", "game_id", "number", "label", "seed", "status", "deadline",
                     "announcement_deadline"):
            assert getattr(turn, name) == getattr(full, name), name
        assert context is turn_context(session, game, full)


def test_a_game_without_an_open_turn_says_so(db: Engine, config: Config) -> None:
    make_game(db, config)
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        session.get(Turn, hostreads.open_turn_light(session, game).id).status = "done"  # type: ignore[union-attr]
    with Session(db) as session, pytest.raises(repo.NotFound, match="no open turn"):
        open_turn_context(session, repo.game_by_name(session, "paris"))
