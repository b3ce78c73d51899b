"""TIME ZONE by mail: a player keeps his own time zone (password checked, audited,
answered), and every deadline told to him then shows it beside the game's: the
DEADLINE and STATUS answers, his receipts' deadline line and his turn sheet's next
deadline.  An
unknown zone is refused with the names he may have meant; TIME ZONE NONE forgets it."""

from __future__ import annotations

from players.test_commands import JACQUES, mails, reply, send, text_of
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.desk import actions
from moderator.intake.commands import find_commands
from moderator.runners import reminders
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import AuditEntry, Newsletter, Player
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn
from selfservice.test_requests import _deadline

from support import make_game

GAME_TIME = "Sunday 10 January 2027, 19:00 CET"
NEW_YORK = "Sunday 10 January 2027, 13:00 EST (UTC-05:00)"


def _flat(text: str) -> str:
    return " ".join(text.split())


def _zone(db: Engine) -> str | None:
    with Session(db) as session:
        return session.exec(select(Player).where(Player.email == JACQUES)).one().time_zone


def test_the_command_is_read_with_its_zone() -> None:
    found, _ = find_commands("PASSWORD: rapier\nTIME ZONE Europe/Paris.\ntimezone: Asia/Kolkata\n")
    assert [(c.name, c.argument) for c in found] == [("TIME ZONE", "Europe/Paris"),
                                                    ("TIME ZONE", "Asia/Kolkata")]


def test_a_players_zone_is_kept_and_shown_beside_the_games(db: Engine, config: Config) -> None:
    make_game(db, config)
    _deadline(db)
    assert send(db, config, "PASSWORD: rapier\nTIME ZONE america/new_york\n") == "accepted"
    answer = _flat(reply(db))
    assert "Your time zone is now America/New_York" in answer
    assert f"Orders for April 1625 are due {GAME_TIME} = {NEW_YORK}." in answer
    assert _zone(db) == "America/New_York"
    with Session(db) as session:
        [entry] = session.exec(select(AuditEntry).where(
            AuditEntry.action == "player.time-zone")).all()
        assert (entry.who, entry.reason) == (JACQUES, "TIME ZONE by mail")
        assert entry.detail == "time zone America/New_York (was the game's)"
    send(db, config, "PASSWORD: rapier\nDEADLINE\n")
    assert f"due {GAME_TIME} = {NEW_YORK}." in _flat(reply(db))
    send(db, config, "PASSWORD: rapier\nSTATUS\n")
    assert f"Orders due: {GAME_TIME} (your time: {NEW_YORK})" in _flat(reply(db))
    send(db, config, "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n")
    assert f"Deadline: {GAME_TIME} (your time: {NEW_YORK})." in _flat(
        text_of(mails(db, "receipt")[-1]))
    send(db, config, "PASSWORD: panache\nWEEK 1: PRACTICE rapier\n",
         sender="cyrano@bergerac.example")
    report = run_turn(db, config, "paris")
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        sheets = {p.email: n.text for p in repo.players(session, game)
                  for n in session.exec(select(Newsletter).where(
                      Newsletter.player_id == p.id, Newsletter.turn_number == 1))}
    assert "your time: " in _flat(sheets[JACQUES])
    assert "EST (UTC-05:00))" in _flat(sheets[JACQUES])
    assert all("your time" not in text for email, text in sheets.items() if email != JACQUES)
    assert rerun_turn(db, config, "paris", report.number).identical
    send(db, config, "PASSWORD: rapier\nTIME ZONE NONE\n")
    assert _zone(db) is None and "game's (Europe/Paris) only" in _flat(reply(db))
    send(db, config, "PASSWORD: rapier\nDEADLINE\n")
    assert "EST" not in reply(db)


def test_an_unknown_zone_is_refused_with_a_hint(db: Engine, config: Config) -> None:
    make_game(db, config)
    send(db, config, "PASSWORD: rapier\nTIME ZONE Paris\n")
    assert ("Not done: 'Paris' is not a time zone the moderator knows: did you mean "
            "Europe/Paris?") in _flat(reply(db))
    send(db, config, "PASSWORD: rapier\nTIME ZONE\n")
    assert "no zone given" in _flat(reply(db)) and "TIME ZONE Europe/Paris" in _flat(reply(db))
    assert _zone(db) is None


def test_a_wrong_password_changes_nothing(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "PASSWORD: wrong\nTIME ZONE Asia/Kolkata\n") == "refused"
    assert _zone(db) is None


def test_the_reminder_and_a_moved_deadline_show_his_zone_too(db: Engine,
                                                             config: Config) -> None:
    """TIME ZONE was shown on the answers, receipts and sheets, but the reminder and
    the GM's new-deadline notice still told the game's zone alone."""
    make_game(db, config)
    _deadline(db)
    send(db, config, "PASSWORD: rapier\nTIME ZONE America/New_York\n")
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        reminders._queue_reminder(session, config, game, repo.open_turn(session, game),
                                  repo.player_by_address(session, game, JACQUES))
    reminder = _flat(text_of(mails(db, "reminder")[-1]))
    assert f"Orders are due: {GAME_TIME} your time: {NEW_YORK}" in reminder
    with session_scope(db) as session:
        actions.extend(session, config, repo.game_by_name(session, "paris"), 24, "gm",
                       "a day more")
    moved = {m.to_addr: _flat(text_of(m)) for m in mails(db, "deadline-moved")}
    later = "Monday 11 January 2027"
    assert f"(your time: {later}, 13:00 EST (UTC-05:00))." in moved[JACQUES]
    assert all("your time" not in text and later in text
               for who, text in moved.items() if who != JACQUES)
