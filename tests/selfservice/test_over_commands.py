"""The players' commands to a game that is over (DWTK 37, FE 8): what acts on a turn to
come (ORDERS, CHECK, ABSENCE, orders beside commands) is answered with the reason, and
the rest (STATUS, RESEND, HELP, PASSWORD) as in a game that goes on."""

from __future__ import annotations

from players.test_commands import count, mails, reply, send, text_of
from sqlalchemy import Engine
from sqlmodel import Session
from test_game_over import NOBLES, WON, _a_court_about_to_end

from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Submission
from moderator.turn.run import run_turn

OVER = f"Not done: fandonia is over: {WON}; no more orders are read."


def _over(db: Engine, config: Config) -> None:
    _a_court_about_to_end(db, config)
    run_turn(db, config, "fandonia")


def _send(db: Engine, config: Config, body: str, who: int = 1) -> str:
    return send(db, config, "PASSWORD: pw\n" + body, sender=NOBLES[who][0],
                subject="[fandonia] commands")


def test_status_beside_orders_is_answered_and_the_orders_said_unread(
        db: Engine, config: Config) -> None:
    """Before: the orders' refusal dropped the STATUS beside them unanswered."""
    _over(db, config)
    assert _send(db, config, "STATUS\nDO DRAW EVENT\n") == "accepted"
    text = reply(db)
    assert f"fandonia is over: {WON}." in text and "Orders due" not in text
    assert f"== Your orders ==\n\nNot read: fandonia is over: {WON}" in text
    assert not mails(db, "refusal") and not mails(db, "receipt")


def test_check_orders_and_absence_say_the_game_is_over(db: Engine, config: Config) -> None:
    """Before: CHECK forecast a turn that never runs ("send a corrected set before the
    deadline"), ORDERS said "no orders standing for Turn 1", ABSENCE weighed the date."""
    _over(db, config)
    submissions = count(db, Submission)
    assert _send(db, config, "CHECK\nDO DRAW EVENT\nORDERS\nABSENCE UNTIL 2099-01-01\n") \
        == "accepted"
    text = reply(db)
    flat = " ".join(text.split())  # replies are wrapped at 78 columns
    for title in ("CHECK", "ORDERS", "ABSENCE"):
        assert f"== {title} == {OVER}" in flat, text
    assert "RESEND sends a printed issue again" in text
    assert not mails(db, "receipt") and count(db, Submission) == submissions
    with Session(db) as session:
        game = repo.game_by_name(session, "fandonia")
        assert all(p.absent_until is None for p in repo.members(session, game))


def test_help_and_password_still_work(db: Engine, config: Config) -> None:
    _over(db, config)
    _send(db, config, "HELP\nNEW PASSWORD sabre\n")
    text = text_of(mails(db, "command-reply")[-1])
    assert "HELP: the player's guide" in text and "Your password is changed" in text
    assert send(db, config, "PASSWORD: sabre\nSTATUS\n", sender=NOBLES[1][0],
                subject="[fandonia] x") == "accepted"


def test_the_answers_say_how_to_reach_the_gm_and_that_way_works(
        db: Engine, config: Config) -> None:
    """A finished game's answers said "write to the GM", and no mail of ours gives his
    address: they name TO GM, which reaches him from a game that is over."""
    _over(db, config)
    _send(db, config, "CHECK\nDO DRAW EVENT\n")
    flat = " ".join(reply(db).split())
    assert "write TO GM and your message: the GM gets it" in flat
    assert _send(db, config, "TO GM\nWho won, in the end?\n") == "accepted"
    to_gm = [m for m in mails(db, to=config.gm_address) if m.newsletter_id is None
             and "Who won, in the end?" in text_of(m)]
    assert to_gm
