"""A game that ends stops (DWTK 37, FE 8): its last turn is published without a deadline,
the game is marked finished, no turn runs any more, and orders are refused with the
reason while the players' commands are still answered; `turn rollback` takes it back."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session

from moderator import jsonio
from moderator.cli import cli
from moderator.desk import admin
from moderator.desk.rollback import rollback, rollforward
from moderator.games import find_engine
from moderator.intake.process import process_message
from moderator.publish.site.records import read_game
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.statuses import GameStatus
from moderator.turn.deadlines import current_turn
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import TurnError, run_turn

from support import body_text, mailbox_messages, make_game, order_mail

NOBLES = (("p1@fandonia.example", "Noble One"), ("p2@fandonia.example", "Noble Two"),
          ("p3@fandonia.example", "Noble Three"))
WON = "Noble One has won the game (DWTK 37)"


def _a_court_about_to_end(db: Engine, config: Config) -> int:
    """A DWTK game whose open turn ends it: Noble One's royal on the throne for two
    full turns already (DWTK 37: three win).  The open turn's number."""
    with session_scope(db) as session:
        admin.create_game(session, config, "fandonia", "dwtk", seed=3)
        for email, name in NOBLES:
            admin.add_player(session, config, "fandonia", email, name, password="pw")
    run_turn(db, config, "fandonia")  # the deal
    with session_scope(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "fandonia"))
        state = jsonio.loads(turn.state_before)
        state["royals"][state["offices"]["monarch"]]["owner"] = "noble-one"
        state["farc_monarch_turns"] = 2
        turn.state_before = jsonio.dumps(state)
        session.add(turn)
        return turn.number


def _status(db: Engine) -> str:
    with Session(db) as session:
        return repo.game_by_name(session, "fandonia").status


def test_the_turn_that_ends_a_game_is_its_last(db: Engine, config: Config) -> None:
    number = _a_court_about_to_end(db, config)
    report = run_turn(db, config, "fandonia")
    assert report.finished == WON
    assert report.next_deadlines.deadline is None
    assert _status(db) == GameStatus.FINISHED
    with Session(db) as session:
        game = repo.game_by_name(session, "fandonia")
        following = repo.open_turn(session, game)
        assert (following.deadline, following.announcement_deadline) == (None, None)
        assert any(e.event == "game.finished" and WON in e.detail
                   for e in repo.gm_log(session))
        # The scheduler's and the reminders' view: nothing to run for this game.
        assert current_turn(session, "fandonia", following.number) is None
    with pytest.raises(TurnError, match="finished"):
        run_turn(db, config, "fandonia")
    shown = " ".join(CliRunner().invoke(cli, ["--config", str(config.path), "status",
                                              "fandonia"]).output.split())
    assert f"finished after turn {number} (Turn 1): {WON}" in shown
    assert "orders due" not in shown and "Orders for" not in shown
    assert rerun_turn(db, config, "fandonia", number).identical
    deliver_outbox(db, config)
    last = [m for m in mailbox_messages(config, NOBLES[1][0])
            if "The Fandonian Courier" in str(m["Subject"])][-1]
    assert "are due" not in body_text(last)


def test_orders_for_a_finished_game_are_refused_and_commands_answered(
    db: Engine, config: Config
) -> None:
    _a_court_about_to_end(db, config)
    run_turn(db, config, "fandonia")
    refused = process_message(db, config, order_mail(
        NOBLES[1][0], "PASSWORD: pw\nDO DRAW EVENT\n", subject="[fandonia] orders"))
    assert refused.status == "refused"
    assert f"fandonia is over: {WON}; no more orders are read." in refused.detail
    # How to reach the GM, since no mail of ours gives his address.
    deliver_outbox(db, config)
    refusal = " ".join(body_text(mailbox_messages(config, NOBLES[1][0])[-1]).split())
    assert "write TO GM and your message, with your PASSWORD line: the GM gets it" in refusal
    answered = process_message(db, config, order_mail(
        NOBLES[2][0], "PASSWORD: pw\nSTATUS\n", subject="[fandonia] status"))
    assert answered.status != "refused", answered
    deliver_outbox(db, config)
    bodies = [body_text(m) for m in mailbox_messages(config, NOBLES[2][0])]
    assert any(f"fandonia is over: {WON}." in b and "Orders due" not in b for b in bodies)


def test_a_rollback_takes_a_finished_game_back_and_the_replay_ends_it_again(
    db: Engine, config: Config
) -> None:
    number = _a_court_about_to_end(db, config)
    run_turn(db, config, "fandonia")
    with session_scope(db) as session:
        game = repo.game_by_name(session, "fandonia")
        assert rollback(session, game, number, "gm", "a mistake in the last turn") == [number]
        assert game.status == GameStatus.ROLLBACK
    with session_scope(db) as session:
        game = repo.game_by_name(session, "fandonia")
        rollforward(session, config, game, "gm", "replayed as it was")
        assert game.status == GameStatus.FINISHED


def test_en_garde_never_ends_by_its_rules() -> None:
    """An En Garde! campaign runs for as long as its GM runs it."""
    assert find_engine("engarde").finished({}) is None


def _cli(config: Config, *args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config.path), *args])
    assert (result.exit_code == 0) == ok, (result.output, result.exception)
    return " ".join((result.output + (str(result.exception) if result.exception else ""))
                    .split())


def _mails(config: Config, address: str, subject: str) -> list[str]:
    return [body_text(m) for m in mailbox_messages(config, address)
            if subject in str(m["Subject"])]


def test_the_gm_ends_a_game_its_players_are_told_and_it_stops(db: Engine,
                                                              config: Config) -> None:
    """En Garde! never ends by its rules: the GM ends a campaign (`game end`).  Its open
    turn is not played, orders are refused with the GM's words, STATUS and `status` say
    so, the players are told (the note, never the reason), and `game resume` reopens it."""
    make_game(db, config)
    run_turn(db, config, "paris")
    out = _cli(config, "game", "end", "paris", "--reason", "the GM moves abroad",
               "--note", "The campaign closes with the spring of 1625.")
    assert "paris is over; its open turn 2 will not run" in out
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert game.status == GameStatus.FINISHED
        assert current_turn(session, "paris", 2) is None  # the scheduler leaves it
    [told] = _mails(config, "jacques@lyon.example", "[paris] the game is over")
    assert "The GM has ended paris after April 1625. The campaign closes" in " ".join(
        told.split())
    assert "abroad" not in told
    refused = process_message(db, config, order_mail(
        "jacques@lyon.example", "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"))
    assert refused.status == "refused"
    assert ("paris is over: the GM ended it: The campaign closes with the spring of 1625; "
            "no more orders are read.") in refused.detail
    shown = _cli(config, "status", "paris")
    assert "finished after turn 1 (April 1625): the GM ended it: The campaign" in shown
    assert "the spring of 1625; no turn runs any more" in _cli(config, "turn", "run", "paris",
                                                                ok=False)
    assert "game.end" in _cli(config, "log", "paris")
    assert "│ paris │ engarde │ finished │ - │ - │ 3 │" in _cli(config, "game", "list")
    assert "Over: the GM ended it: The campaign closes with the spring of 1625; turn 2 (May " \
        "1625) will not run" in _cli(config, "game", "show", "paris")
    with Session(db) as session:  # the public site prints no deadline for it
        assert read_game(session, repo.game_by_name(session, "paris")).open_turn is None
    _cli(config, "game", "resume", "paris", "--reason", "back after all")
    [reopened] = _mails(config, "cyrano@bergerac.example", "the game goes on")
    assert "The GM has reopened paris: May 1625 takes orders again." in reopened
    accepted = process_message(db, config, order_mail(
        "jacques@lyon.example", "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"))
    assert accepted.status == "accepted", accepted


def test_a_game_ended_before_its_first_turn(db: Engine, config: Config) -> None:
    make_game(db, config)
    _cli(config, "game", "end", "paris", "--reason", "too few players", "--no-send")
    assert "finished before its first turn: the GM ended it" in _cli(config, "status", "paris")
    _cli(config, "game", "end", "paris", "--reason", "twice", ok=False)


def test_a_game_its_rules_ended_is_not_reopened_nor_ended_again(db: Engine,
                                                                config: Config) -> None:
    _a_court_about_to_end(db, config)
    run_turn(db, config, "fandonia")
    out = _cli(config, "game", "resume", "fandonia", "--reason", "more", ok=False)
    assert f"fandonia is over by its rules ({WON}): `turn rollback`" in out
    assert "only an active or paused game can be ended" in _cli(
        config, "game", "end", "fandonia", "--reason", "x", ok=False)
    assert _status(db) == GameStatus.FINISHED
