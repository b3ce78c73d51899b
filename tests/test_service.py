"""`moderator serve` as a real process, its loops, and `moderator status`."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest.mock import patch

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from moderator.cli import cli
from moderator.cli.app import App
from moderator.intake.process import process_message
from moderator.runners import schedule
from moderator.runners.service import JsonLog, Service
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.transport.maildir import open_maildir
from moderator.turn import deadlines

from support import ROOT, mailbox_messages, make_game, order_mail

MODERATOR = ROOT / ".venv" / "bin" / "moderator"


def _start(config: Config) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(MODERATOR), "--config", str(config.path), "serve"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


# Generous: every wait is for a condition, and a loaded machine (a CI run beside other
# work, a bounded CPU burner on each core) starts `serve` ten times slower than an idle one.
WAIT_SECONDS = 90.0
STOP_SECONDS = 30.0


def _wait_for(check, seconds: float = WAIT_SECONDS) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def _polled(config: Config) -> bool:
    from moderator.store.db import open_store

    with session_scope(open_store(config.database_url, upgrade=False)) as session:
        return "maildir.last_poll" in repo.service_status(session)


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[float, list[dict]]:
    began = time.monotonic()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=WAIT_SECONDS)
    took = time.monotonic() - began
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    return took, [json.loads(line) for line in out.splitlines() if line.strip()]


def _serve_until(config: Config, check, sig: int, then=None) -> tuple[float, list[dict]]:  # type: ignore[no-untyped-def]
    """Run `serve` (and ``then()`` once it is up) until ``check()`` holds, then stop it
    with ``sig``; its log lines."""
    proc = _start(config)
    try:
        if then is not None:
            _wait_for(lambda: _polled(config))
            then()
        _wait_for(check)
    except AssertionError:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"timed out; stdout:\n{out}\nstderr:\n{err}") from None
    try:
        return _stop(proc, sig)
    finally:
        if proc.poll() is None:  # never leave a serve behind, whatever failed
            proc.kill()
            proc.wait(timeout=10)


@pytest.mark.skipif(not MODERATOR.exists(), reason="needs the installed moderator script")
def test_serve_reads_orders_mails_receipts_and_stops_on_sigterm(
    config: Config, db: Engine,
) -> None:
    setup = make_game(db, config)
    email, _name, password = setup.players[0]

    def drop_orders() -> None:  # into the inbox of the running service
        open_maildir(config.maildir_inbox).add(
            order_mail(email, f"PASSWORD: {password}\nWEEK 1: PRACTICE rapier\n"))

    took, lines = _serve_until(
        config,
        lambda: any("Orders v1" in str(m["Subject"]) for m in mailbox_messages(config, email)),
        signal.SIGTERM,
        then=drop_orders,
    )
    assert took < STOP_SECONDS, f"took {took:.1f} s to stop"
    for line in lines:
        assert {"time", "level", "component", "event"} <= line.keys()
        datetime.fromisoformat(line["time"])
    events = {(line["component"], line["event"]) for line in lines}
    assert {("service", "ready"), ("service", "signal"), ("service", "stopped"),
            ("intake", "message"), ("outbox", "delivered")} <= events
    accepted = [x for x in lines if x["event"] == "message"]
    assert accepted[0]["status"] == "accepted"
    with session_scope(db) as session:
        status = repo.service_status(session)
    assert {"maildir.last_poll", "maildir.last_send", schedule.HEARTBEAT} <= status.keys()


@pytest.mark.skipif(not MODERATOR.exists(), reason="needs the installed moderator script")
def test_serve_runs_a_deadline_and_stops_on_sigint(config: Config, db: Engine) -> None:
    """A deadline set while `serve` runs (a command notes the change) fires on time."""
    make_game(db, config)

    def set_deadline() -> None:  # once the service is up: a busy machine starts it slowly
        with session_scope(db) as session:
            deadlines.set_deadlines(session, repo.game_by_name(session, "paris"),
                                   datetime.now(UTC) + timedelta(seconds=2))

    took, lines = _serve_until(
        config,
        lambda: any("Turn sheet" in str(m["Subject"])
                    for m in mailbox_messages(config, "jacques@lyon.example")),
        signal.SIGINT,
        then=set_deadline,
    )
    assert took < STOP_SECONDS
    runs = [x for x in lines if x["event"] == "turn.run"]
    assert len(runs) == 1 and runs[0]["turn"] == 1 and runs[0]["late"] is False


def test_a_failing_loop_is_logged_and_retried(config: Config, db: Engine) -> None:
    out = io.StringIO()
    service = Service(db, config, JsonLog(out))
    calls: list[int] = []

    def body() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("disk on fire")
        service.stop.set()

    thread = threading.Thread(target=service._guarded("intake", body))
    thread.start()
    thread.join(WAIT_SECONDS)  # a second round after a 1 s back-off: seconds when loaded
    assert not thread.is_alive() and len(calls) == 2
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    failed = [x for x in lines if x["event"] == "failed"]
    assert failed[0]["component"] == "intake" and "disk on fire" in failed[0]["error"]
    with session_scope(db) as session:
        assert [e.event for e in repo.gm_log(session) if e.level == "error"] == ["intake.failed"]


def test_status_shows_deadlines_orders_backlog_and_problems(config: Config, db: Engine) -> None:
    setup = make_game(db, config)  # three welcome mails stay queued
    email, _name, password = setup.players[0]
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        deadline = deadlines.local_to_utc(datetime(2030, 7, 12, 18), game)
        deadlines.set_deadlines(session, game, deadline)
        repo.set_status(session, "maildir.last_poll", "2030-07-01T09:00:00+00:00 messages=2 "
                        "accepted=2")
        repo.set_status(session, "maildir.last_send", "2030-07-01T09:00:01+00:00: sent 3")
        repo.log_gm(session, "mail.bounced", "cyrano@bergerac.example: 550 no such user",
                    game=game, level="warning")
    orders = f"PASSWORD: {password}\nWEEK 1: PRACTICE rapier\n"
    assert process_message(db, config, order_mail(email, orders)).status == "accepted"
    result = CliRunner().invoke(cli, ["--config", str(config.path), "status"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "orders due: Friday 12 July 2030, 18:00 CEST" in out
    assert "Orders for April 1625: 1 of 3 players" in out
    assert "Jacques de Lyon" in out and "v1" in out and out.count("none yet") == 2
    assert "outbox: 4 not sent (queued 4, sending 0, failed 0, bounced 0)" in out
    assert "maildir.last_poll" in out
    # the note beside each row, without the time the "last" column shows already
    assert "messages=2 accepted=2" in out and "sent 3" in out and "2030-07-01T" not in out
    assert "mail.bounced" in out and "550 no such user" in out
    one = CliRunner().invoke(cli, ["--config", str(config.path), "status", "paris"])
    assert one.exit_code == 0 and "1 of 3 players" in one.output


def test_status_of_a_fresh_store(tmp_path: Path, config: Config) -> None:
    """A new GM's first `status` says there is no game yet and how to make one (it said
    nothing about games at all)."""
    result = CliRunner().invoke(cli, ["--config", str(config.path), "status"])
    assert result.exit_code == 0
    assert "has not run yet" in result.output
    assert "No games yet: `moderator game new NAME --kind" in " ".join(result.output.split())


def test_imap_intake_wakes_the_outbox_in_serve(config: Config, db: Engine) -> None:
    from moderator.intake.process import IntakeResult

    out = io.StringIO()
    service = Service(db, config, JsonLog(out))
    service._after_intake([])
    assert not service.kick_outbox.is_set()
    service._after_intake([IntakeResult("<a@x>", "accepted", "v1")])
    assert service.kick_outbox.is_set()
    assert json.loads(out.getvalue())["event"] == "message"


# One outbox batch in a child process, so that a crash point can SIGKILL it.
DELIVER = """
import sys
from pathlib import Path
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import load_config
from moderator.store.db import open_store
config = load_config(Path(sys.argv[1]))
print(deliver_outbox(open_store(config.database_url), config).summary())
"""


@pytest.mark.parametrize(("point", "event", "sent"), [
    ("maildir.before-send", "mail.resend", 3),  # not delivered: sent again with the rest
    ("maildir.after-send", "mail.recovered", 2),  # found delivered: only the rest go
])
def test_a_crash_while_delivering_to_maildirs_delivers_each_mail_once(
    config: Config, db: Engine, point: str, event: str, sent: int
) -> None:
    """The Maildir sender goes through the same claim (`sending`) and recovery as SMTP:
    after a SIGKILL the next batch looks in the recipient's Maildir and settles the row."""
    setup = make_game(db, config)  # a welcome mail queued for each player

    def batch(crash_at: str | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k != "MODERATOR_CRASH_AT"}
        if crash_at:
            env["MODERATOR_CRASH_AT"] = crash_at
        return subprocess.run([sys.executable, "-c", DELIVER, str(config.path)], env=env,
                              capture_output=True, text=True, timeout=WAIT_SECONDS,
                              check=False)

    crashed = batch(point)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    restarted = batch()
    assert restarted.returncode == 0, restarted.stderr
    assert f"sent {sent}, failed 0, deferred 0, recovered 1" in restarted.stdout
    for email, _name, _password in setup.players:
        welcomes = [m for m in mailbox_messages(config, email) if "Welcome" in str(m["Subject"])]
        assert len(welcomes) == 1, email
    with session_scope(db) as session:
        assert [e.event for e in repo.gm_log(session) if e.event.startswith("mail.")] == [event]


def test_status_shows_scheduled_jobs_only_while_serve_runs(config: Config, db: Engine) -> None:
    """A stopped service's job rows are what it last scheduled: `status` showed them as
    "scheduled" (a paused game's deadline, the deadline of a turn since run by hand)."""
    make_game(db, config)
    with session_scope(db) as session:
        deadlines.set_deadlines(session, repo.game_by_name(session, "paris"),
                                datetime.now(UTC) + timedelta(days=3))
    scheduler = schedule.new_scheduler(db)
    scheduler.start(paused=True)
    try:
        schedule.sync_jobs(scheduler, db, config)
    finally:
        scheduler.shutdown(wait=False)
    run = CliRunner()
    beat = {"value": None}
    with patch.object(App, "running_service", lambda _app: beat["value"]):
        stopped = run.invoke(cli, ["--config", str(config.path), "status", "paris"])
        beat["value"] = datetime.now(UTC)
        running = run.invoke(cli, ["--config", str(config.path), "status", "paris"])
    assert stopped.exit_code == 0 and "scheduled:" not in stopped.output, stopped.output
    assert "scheduled: reminder" in running.output and "deadline" in running.output
