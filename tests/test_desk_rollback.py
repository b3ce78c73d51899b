"""The GM's desk: rollback, rollforward, amendments and corrections (issue 6 acceptance).

Three turns are run; rolling back to turn 2 and forward again with no change gives
byte-identical newsletters (and mails nobody); amending the state with a reason and
rolling forward reissues the newsletters as corrections, with the amended value in the
state, the audit entry in the log and the GM note in the gazette."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator import jsonio
from moderator.cli import cli
from moderator.desk.rollback import _correction
from moderator.intake.process import process_message
from moderator.settings.config import Config
from moderator.store import audit, repo
from moderator.store.models import Game, Newsletter, Outbox, Turn
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

from support import make_game, order_mail

JACQUES = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapier\n"
CROWNS = "characters.jacques-de-lyon.crowns"


def invoke(config: Config, *args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config.path), "--as", "gm-anne", *args],
                                input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def published(db: Engine, numbers: range) -> dict[tuple, tuple[str, str, str, str]]:
    with Session(db) as session:
        rows = session.exec(select(Newsletter).where(Newsletter.kind != "announcements"))
        return {(n.turn_number, n.kind, n.player_id): (n.subject, n.markdown, n.html, n.text)
                for n in rows if n.turn_number in numbers}


def outbox_subjects(db: Engine) -> list[str]:
    with Session(db) as session:
        return [row.subject for row in session.exec(select(Outbox).order_by(Outbox.id))]


def three_turns(db: Engine, config: Config) -> None:
    make_game(db, config)
    for _ in range(3):
        process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
        run_turn(db, config, "paris")


def test_rollback_and_rollforward_without_change_is_byte_identical(
    db: Engine, config: Config
) -> None:
    three_turns(db, config)
    before, mails = published(db, range(1, 4)), outbox_subjects(db)
    out = invoke(config, "turn", "rollback", "paris", "2", "--reason", "check a duel")
    assert "start of turn 2" in out
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert game.status == "rollback"
        assert repo.open_turn(session, game).number == 2
    assert published(db, range(2, 4)) == {}
    out = invoke(config, "turn", "rollforward", "paris", "--reason", "nothing wrong")
    assert out.count("identical, not mailed again") == 2
    assert published(db, range(1, 4)) == before
    assert outbox_subjects(db) == mails  # nothing mailed again
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert game.status == "active" and repo.open_turn(session, game).number == 4
    assert rerun_turn(db, config, "paris", 2).identical
    assert rerun_turn(db, config, "paris", 3).identical


def test_the_audit_trail_names_the_turns_a_rollback_undid(db: Engine, config: Config) -> None:
    """One turn undone read "turns 1-1 undone"."""
    make_game(db, config)
    run_turn(db, config, "paris")
    invoke(config, "turn", "rollback", "paris", "1", "--reason", "check")
    invoke(config, "turn", "rollforward", "paris", "--reason", "fine", "--yes")
    run_turn(db, config, "paris")
    invoke(config, "turn", "rollback", "paris", "1", "--reason", "check again")
    with Session(db) as session:
        details = [e.detail for e in audit.entries(session, repo.game_by_name(session, "paris"))
                   if e.action == "turn.rollback"]
    assert details == ["back to the start of turn 1; turn 1 undone",
                       "back to the start of turn 1; turns 1-2 undone"]


def test_an_amendment_is_rolled_forward_audited_and_announced(
    db: Engine, config: Config
) -> None:
    three_turns(db, config)
    before = published(db, range(2, 4))
    invoke(config, "turn", "rollback", "paris", "2", "--reason", "bank error in April")
    out = invoke(config, "state", "amend", "paris", "--set", f"{CROWNS}=777",
                 "--reason", "the bank's error", input="y\n")
    assert "+" in out and "777" in out  # the diff was shown before the question
    invoke(config, "turn", "rollforward", "paris", "--reason", "bank error corrected")
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        turn2 = repo.turn_by_number(session, game, 2)
        assert jsonio.loads(turn2.state_before)["characters"]["jacques-de-lyon"]["crowns"] \
            == 777
        entries = [e for e in audit.entries(session, game) if e.action == "state.amend"]
        assert len(entries) == 1
        entry = entries[0]
        assert (entry.who, entry.reason, entry.noted_in_turn) == ("gm-anne", "the bank's error",
                                                                  2)
        assert "777" in entry.detail
        gazette = [n for n in repo.newsletters(session, game, 2) if n.kind == "gazette"][-1]
    # The GM note is in the rendered gazette text, and the reissue says CORRECTION.
    assert entry.note is not None and entry.note in gazette.markdown
    # Issue 12: the reason and the values stay in the audit log, out of the gazette.
    assert "the bank's error" not in gazette.text and "777" not in gazette.text
    assert gazette.subject.startswith("CORRECTION: ")
    assert "CORRECTION: this issue replaces" in gazette.markdown
    after = published(db, range(2, 4))
    assert after[(2, "gazette", None)] != before[(2, "gazette", None)]
    corrected = [s for s in outbox_subjects(db) if s.startswith("CORRECTION: [paris]")]
    assert any("Le Sport de Paris" in s for s in corrected)
    assert rerun_turn(db, config, "paris", 2).identical  # the reissue reruns identically
    log = invoke(config, "log", "paris")
    for action in ("turn.rollback", "state.amend", "turn.rollforward"):
        assert action in log
    assert "gm-anne" in log


def test_amend_asks_first_and_a_no_changes_nothing(db: Engine, config: Config) -> None:
    make_game(db, config)
    result = CliRunner().invoke(cli, ["--config", str(config.path), "state", "amend", "paris",
                                      "--grant", f"{CROWNS}=10", "--reason", "gift"],
                                input="n\n")
    assert result.exit_code == 0 and "Nothing changed" in result.output
    with Session(db) as session:
        assert not audit.entries(session, repo.game_by_name(session, "paris"))


def test_a_rolled_back_game_does_not_run_until_rolled_forward(
    db: Engine, config: Config
) -> None:
    three_turns(db, config)
    invoke(config, "turn", "rollback", "paris", "3", "--reason", "check")
    result = CliRunner().invoke(cli, ["--config", str(config.path), "turn", "run", "paris"])
    assert result.exit_code != 0
    result = CliRunner().invoke(cli, ["--config", str(config.path), "game", "resume", "paris",
                                      "--reason", "x"])
    assert result.exit_code != 0 and "rollforward" in str(result.exception)


def _local(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def _mails(db: Engine, kind: str) -> list[Outbox]:
    with Session(db) as session:
        return list(session.exec(select(Outbox).where(Outbox.kind == kind)
                                 .order_by(Outbox.id)))  # type: ignore[arg-type]


def test_a_deadline_set_during_a_rollback_is_mailed_only_when_the_turn_reopens(
    db: Engine, config: Config
) -> None:
    """`deadline set` while a game is rolled back (docs/gm-desk.md, Rollback and
    rollforward).  A deadline already past only decides which stored orders the replay
    reads: the players, who have read that turn's results, get no mail (before: a "new
    deadline" for April's replay).  A deadline ahead reopens the turn, since orders sent
    until then count at the replay: every player is told it takes orders again, and
    orders sent meanwhile are what `turn rollforward` replays."""
    now = datetime.now(UTC)
    make_game(db, config)
    invoke(config, "deadline", "set", "paris", _local(now + timedelta(days=10)))
    for _ in range(3):
        process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
        run_turn(db, config, "paris")
    invoke(config, "turn", "rollback", "paris", "2", "--reason", "check a duel")
    before = len(_mails(db, "deadline-moved"))

    out = invoke(config, "deadline", "set", "paris", _local(now - timedelta(days=2)),
                 "--force", "--reason", "the real cutoff")
    assert len(_mails(db, "deadline-moved")) == before
    assert "is not mailed to the players" in " ".join(out.split())

    out = invoke(config, "deadline", "set", "paris", _local(now + timedelta(days=60)),
                 "--reason", "replay with new orders", "--note", "the duel is refought")
    assert "takes orders again" in " ".join(out.split())
    moved = _mails(db, "deadline-moved")[before:]
    with Session(db) as session:
        label = repo.open_turn(session, repo.game_by_name(session, "paris")).label
    assert len(moved) == 3
    assert {m.subject for m in moved} == {f"[paris] {label}: reopened for orders"}
    process_message(db, config, order_mail(
        "jacques@lyon.example", "PASSWORD: rapier\nWEEK 1: PRACTICE sabre\n", date=now))
    # Before that deadline the replay would cut off orders still to come: it asks first.
    asked = CliRunner().invoke(cli, ["--config", str(config.path), "turn", "rollforward",
                                     "paris", "--reason", "refought"], input="n\n")
    assert asked.exit_code == 1 and "replay it now, before then?" in asked.output
    with Session(db) as session:
        assert repo.game_by_name(session, "paris").status == "rollback"
    out = invoke(config, "turn", "rollforward", "paris", "--reason", "refought", "--yes")
    assert f"Turn 2 ({label}): CORRECTED" in out


def test_a_correction_names_the_turn_it_replaces_inside_its_sentence() -> None:
    """A reissue of Fief's first turn read "replaces the The muster issue"."""
    game = Game(name="england", kind="fief", seed=1, time_zone="Europe/London")
    for label, said in (("The muster", "the one for the muster."),
                        ("April 1625", "the one for April 1625.")):
        turn = Turn(game_id=1, number=1, label=label, seed=1, state_before="{}")
        assert _correction(game, turn, {}, "typo") == \
            f"CORRECTION: this issue replaces {said}"
