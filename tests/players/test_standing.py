"""The orders that stand (issue 11): one rule, ``min(Date, received)``, replies to a
receipt, the GM's act-as; every reader (orders show, game show, status, preview, the
run, the receipt) names the same version."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator import jsonio
from moderator.cli import cli
from moderator.intake.process import process_message
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Outbox, ReceivedMessage, Turn
from moderator.turn.inputs import standing, turn_inputs
from moderator.turn.run import run_turn
from players.clients import deliver

from support import make_game, order_mail

JACQUES = "jacques@lyon.example"
FIRST = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"
CORRECTION = "PASSWORD: rapier\nWEEK 1: PRACTICE sabre\n"


def invoke(config: Config, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config.path), *args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def standing_version(db: Engine, config: Config) -> tuple[int, str]:
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        turn = repo.open_turn(session, game)
        stands = standing(session, config, game, turn, repo.player_by_email(session, game,
                                                                            JACQUES))
        assert stands is not None
        return stands.version, stands.reason


def receipt_subjects(db: Engine) -> list[str]:
    with Session(db) as session:
        return [o.subject for o in session.exec(
            select(Outbox).where(Outbox.kind == "receipt").order_by(Outbox.id))]


def test_future_date_then_correction_then_act_as(db: Engine, config: Config,
                                                  tmp_path: Path) -> None:
    make_game(db, config)
    now = datetime.now(UTC)
    fast = order_mail(JACQUES, FIRST, date=now + timedelta(hours=2))  # a clock 2 hours fast
    assert process_message(db, config, fast, now=now).status == "accepted"
    fixed = order_mail(JACQUES, CORRECTION, date=now + timedelta(minutes=5))
    assert process_message(db, config, fixed, now=now + timedelta(minutes=5)).status \
        == "accepted"
    # The fast clock does not beat the later correction: its time is when it arrived.
    assert standing_version(db, config) == (2, "it is the latest version")
    assert receipt_subjects(db)[-1].startswith("[paris] Orders v2 stand:")
    orders = tmp_path / "orders.txt"
    orders.write_text("WEEK 1: PRACTICE cutlass\n")
    invoke(config, "player", "act-as", "paris", JACQUES, str(orders), "--reason", "phoned",
           "--no-send")
    version, reason = standing_version(db, config)
    assert (version, reason) == (3, "the GM entered it (act-as)")
    shown = invoke(config, "orders", "show", "paris", "--player", JACQUES)
    assert "v3 stands: the GM entered it" in shown and "cutlass" in shown.lower()
    assert "v3 stands" in invoke(config, "game", "show", "paris")
    assert "v3 stands" in invoke(config, "status", "paris")
    with Session(db) as session:  # what `turn preview` runs
        game = repo.game_by_name(session, "paris")
        inputs, _ = turn_inputs(session, config, game, repo.open_turn(session, game))
    assert inputs["jacques-de-lyon"]["version"] == 3
    assert "orders from jacques-de-lyon" in invoke(config, "turn", "preview", "paris")
    run_turn(db, config, "paris")
    with Session(db) as session:
        done = session.exec(select(Turn).where(Turn.number == 1)).one()
    assert jsonio.loads(done.inputs_json or "{}")["jacques-de-lyon"]["version"] == 3


def test_a_reply_to_a_receipt_supersedes_that_version(db: Engine, config: Config) -> None:
    """His second device's clock runs an hour slow: by Date the reply is older, but it
    answers the receipt for v1, so it replaces v1."""
    make_game(db, config)
    now = datetime.now(UTC)
    process_message(db, config, order_mail(JACQUES, FIRST, date=now), now=now)
    with Session(db) as session:
        receipt = session.exec(select(Outbox).where(Outbox.kind == "receipt")).one()
        assert "X-Moderator-Submission" in receipt.raw.decode()
        receipt_id = receipt.message_id
    reply = order_mail(JACQUES, CORRECTION, date=now - timedelta(minutes=50),
                       subject="Re: [paris] Orders v1 stand",
                       headers={"In-Reply-To": receipt_id, "References": receipt_id})
    process_message(db, config, reply, now=now + timedelta(minutes=10))
    assert standing_version(db, config) == (2, "it answers the receipt for v1")
    # The same slow mail without the reply headers loses to v1 by time.
    stray = order_mail(JACQUES, FIRST, date=now - timedelta(minutes=40))
    process_message(db, config, stray, now=now + timedelta(minutes=20))
    assert standing_version(db, config)[0] == 2
    assert receipt_subjects(db)[-1].startswith("[paris] Orders v3 kept, v2 stands")
    deliver_outbox(db, config)


def test_mail_that_overtook_mail_still_ordered_by_date(db: Engine, config: Config) -> None:
    make_game(db, config)
    now = datetime.now(UTC)
    newer = order_mail(JACQUES, CORRECTION, date=now - timedelta(minutes=5))
    older = order_mail(JACQUES, FIRST, date=now - timedelta(minutes=30))
    process_message(db, config, newer, now=now)
    process_message(db, config, older, now=now + timedelta(minutes=1))
    version, reason = standing_version(db, config)
    assert version == 1 and "written after v2" in reason
    shown = invoke(config, "orders", "show", "paris", "--all-versions")
    assert "v1 stands" in shown and "v2 does not stand (v1 does)" in shown


def test_the_gms_intake_table_shows_sender_game_version_and_errors(
        db: Engine, config: Config) -> None:
    make_game(db, config)
    deliver(config, order_mail(JACQUES, FIRST + "WEEK 2: PRACTICE rapeir\nWEEK 3: DANCE\n"))
    deliver(config, order_mail("cyrano@bergerac.example", "PASSWORD: panache\nSTATUS\n"))
    out = invoke(config, "inbox", "process", "--no-send")
    flat = " ".join(out.split())
    jacques = next(line for line in out.splitlines() if JACQUES in line)
    assert "paris" in jacques and "v1" in jacques and " 2 " in jacques
    assert "v1 stored," in flat and "commands" in flat
    with Session(db) as session:
        details = {m.sender: m.detail for m in session.exec(select(ReceivedMessage))}
    assert details == {JACQUES: "v1 stored, stands, 2 errors",
                       "cyrano@bergerac.example": "commands STATUS"}
    assert "cyrano@bergerac.example" in out and "@client.example" not in out
