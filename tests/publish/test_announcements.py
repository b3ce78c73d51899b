"""Issue 12, Build 3: the announcements gazette's text part is written for reading, as
the turn's newsletters are (aligned tables, 72 columns), not its Markdown source; and a
player's name in it never becomes markup."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.desk import admin
from moderator.runners import reminders
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config, load_config
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.store.models import Newsletter
from moderator.turn import deadlines
from tests.publish.payloads import PAYLOADS, html_problems

from support import body_text, mailbox_messages, make_game, write_config

HOSTILE = "Eve <img src=x onerror=alert(1)> | *x*"


def _announced(db: Engine, config: Config, *names: str) -> tuple[Newsletter, list[EmailMessage]]:
    """The announcements gazette of ``paris`` (three players and ``names``), as stored
    and as mailed to each player."""
    make_game(db, config)
    now = datetime.now(UTC)
    with session_scope(db) as session:
        for k, name in enumerate(names):
            admin.add_player(session, config, "paris", f"p{k}@x.example", name, password="pw")
        deadlines.set_deadlines(session, repo.game_by_name(session, "paris"),
                                now + timedelta(days=4), now - timedelta(minutes=1))
    assert reminders.send_announcements(db, config, "paris", 1) == 3 + len(names)
    with Session(db) as session:
        letter = session.exec(select(Newsletter).where(Newsletter.kind == "announcements")).one()
        emails = [p.email for p in repo.members(session, repo.game_by_name(session, "paris"))]
    deliver_outbox(db, config)
    mails = [m for e in emails for m in mailbox_messages(config, e)
             if "announcements" in str(m["Subject"])]
    assert len(mails) == len(emails)
    return letter, mails


def test_the_text_part_is_for_reading_not_the_markdown(db: Engine, config: Config) -> None:
    letter, mails = _announced(db, config, HOSTILE)
    text = letter.text
    assert text != letter.markdown
    assert "LE SPORT DE PARIS: ANNOUNCEMENTS" in text
    for markdown in ("# ", "**", "|---|", "| Jacques de Lyon |"):
        assert markdown not in text
    assert max(len(line) for line in text.splitlines()) <= 72
    # The roster is an aligned table: every "not yet" starts in the same column, also
    # after a name full of markup characters (shown as the player wrote it).
    rows = [line for line in text.splitlines() if line.endswith("not yet")]
    assert len(rows) == 4 and len({row.index("not yet") for row in rows}) == 1
    assert any(row.startswith(HOSTILE) for row in rows)
    assert {body_text(m).replace("\r\n", "\n").rstrip() for m in mails} == {text.rstrip()}


def test_no_name_becomes_markup_in_the_announcements(db: Engine, config: Config) -> None:
    letter, mails = _announced(db, config, *PAYLOADS[:10])
    assert html_problems(letter.html) == []
    for mail in mails:
        html = mail.get_body(preferencelist=("html",))
        assert html is not None and html_problems(html.get_content()) == []


def test_the_roster_follows_status_who_sent(tmp_path: Path) -> None:
    """With ``status_who_sent = false`` the game keeps private who has sent orders: STATUS
    by mail named nobody, but the announcements gazette listed every character with
    "received" or "not yet".  Now it gives only how many have sent orders."""
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "[games.paris]\nstatus_who_sent = false\n")
    config = load_config(path)
    letter, mails = _announced(open_store(config.database_url), config)
    assert "0 of 3 have sent orders." in letter.markdown
    for text in (letter.markdown, letter.text, *(body_text(m) for m in mails)):
        assert "Jacques de Lyon" not in text and "not yet" not in text
