"""Issue 13, build item 6/7: SIGKILL trials.  The real CLI runs in a subprocess and is
killed, at a named crash point (`moderator.faults`) or at a random moment; then it is run
again without, and nothing may be lost or done twice:

* `inbox process`: every distinct message ends with exactly one row and one fate, at most
  one submission and one answer;
* `turn run`: the turn is adjudicated once, the next run runs the next turn, and the
  archive of a turn whose run was killed after its commit is written from the commit.

Each wait is for a condition (the process's exit) with a generous timeout.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzmail import messages
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.settings.config import Config, load_config
from moderator.store.db import open_store
from moderator.store.models import Newsletter, Outbox, ReceivedMessage, Submission, Turn
from moderator.store.statuses import MessageStatus, TurnStatus
from moderator.transport.maildir import open_maildir

from support import make_game, write_config

CLI = [sys.executable, "-c", "from moderator.cli import main; main()"]
TIMEOUT = 300  # seconds: only ends a hang; a trial takes one or two, ten times that loaded
FATES = {MessageStatus.ACCEPTED, MessageStatus.REFUSED, MessageStatus.IGNORED,
         MessageStatus.FAILED}
TRIALS = Counter[str]()


def _run(config: Config, *args: str, crash_at: str | None = None,
         kill_after: float | None = None) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MODERATOR_CRASH_AT"}
    if crash_at:
        env["MODERATOR_CRASH_AT"] = crash_at
    proc = subprocess.Popen([*CLI, "--config", str(config.path), *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
    try:
        proc.wait(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.stderr is not None
    proc.stderr.close()
    return proc.returncode


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Config, Engine]:
    config = load_config(write_config(tmp_path))
    db = open_store(config.database_url)
    make_game(db, config)
    return config, db


def _fill_inbox(config: Config, count: int, seed: int) -> set[bytes]:
    inbox = open_maildir(config.maildir_inbox)
    raws = set()
    for category, raw in messages(count, seed):
        if category != "oversized":
            inbox.add(raw)
            raws.add(raw)
    return raws


def _check_intake(db: Engine, config: Config) -> None:
    assert open_maildir(config.maildir_inbox).keys() == [], "every message was read"
    with Session(db) as session:
        stored = list(session.exec(select(ReceivedMessage)))
        subs = list(session.exec(select(Submission)))
        answers = list(session.exec(select(Outbox).where(
            Outbox.kind.in_(("receipt", "refusal")))))  # type: ignore[attr-defined]
    assert [r.id for r in stored if r.status not in FATES] == []
    assert len({r.digest for r in stored}) == len(stored)
    per_message = Counter(s.message_id for s in subs)
    assert all(n == 1 for n in per_message.values()), "no message stored twice as orders"
    accepted = {r.id for r in stored if r.status == MessageStatus.ACCEPTED}
    assert set(per_message) == accepted
    answered = sum(1 for r in stored if r.answered_at is not None)
    assert len(answers) <= answered + len(accepted), "no message answered twice"


@pytest.mark.parametrize("point", ["intake.raw-stored", "intake.fate-committed",
                                   "maildir.filed-copy"])
def test_inbox_process_killed_at_a_named_point_loses_nothing(
    setup: tuple[Config, Engine], point: str
) -> None:
    config, db = setup
    _fill_inbox(config, 30, seed=1)
    assert _run(config, "inbox", "process", crash_at=point) == -signal.SIGKILL
    with Session(db) as session:
        assert session.exec(select(ReceivedMessage)).first() is not None
    assert _run(config, "inbox", "process") == 0
    _check_intake(db, config)
    TRIALS[f"inbox process at {point}"] += 1


def test_inbox_process_killed_at_random_moments_loses_nothing(
    setup: tuple[Config, Engine]
) -> None:
    config, db = setup
    _fill_inbox(config, 60, seed=2)
    rng = random.Random(13)
    kills = 0
    for _ in range(5):
        code = _run(config, "inbox", "process", kill_after=rng.uniform(0.3, 3.0))
        kills += code == -signal.SIGKILL
        if code == 0:
            break
    assert _run(config, "inbox", "process") == 0
    _check_intake(db, config)
    assert kills >= 1
    TRIALS["inbox process at random"] += kills


def _turns(db: Engine) -> list[Turn]:
    with Session(db) as session:
        return list(session.exec(select(Turn).order_by(Turn.number)))


def _archive(config: Config, number: int) -> Path:
    return config.archive_dir / "paris" / f"turn-{number:03d}"


def test_serve_writes_the_archive_a_killed_turn_run_left_unwritten(
    setup: tuple[Config, Engine]
) -> None:
    config, db = setup
    assert _run(config, "turn", "run", "paris", "--no-send",
                crash_at="turn.committed") == -signal.SIGKILL
    assert not _archive(config, 1).exists()
    proc = _serve(config)
    try:
        _wait_for(lambda: _archive(config, 1).exists())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=TIMEOUT)
    assert [t.status for t in _turns(db)] == [TurnStatus.DONE, TurnStatus.OPEN]
    TRIALS["turn run at turn.committed, then serve"] += 1


@pytest.mark.parametrize("point", ["turn.committed", "turn.archived"])
def test_turn_run_killed_after_its_commit_keeps_the_turn_and_writes_the_archive(
    setup: tuple[Config, Engine], point: str
) -> None:
    config, db = setup
    assert _run(config, "turn", "run", "paris", "--no-send", crash_at=point) == -signal.SIGKILL
    first = _turns(db)
    assert [t.status for t in first] == [TurnStatus.DONE, TurnStatus.OPEN]
    assert _archive(config, 1).exists() == (point == "turn.archived")
    assert _run(config, "turn", "run", "paris", "--no-send") == 0
    turns = _turns(db)
    assert [t.status for t in turns] == [TurnStatus.DONE, TurnStatus.DONE, TurnStatus.OPEN]
    assert turns[0].state_after == first[0].state_after, "turn 1 was not run again"
    with Session(db) as session:
        gazette = session.exec(select(Newsletter).where(
            Newsletter.turn_number == 1, Newsletter.kind == "gazette")).one()
    assert (_archive(config, 1) / "gazette.md").read_text(encoding="utf-8") == gazette.markdown
    assert _archive(config, 2).exists()
    TRIALS[f"turn run at {point}"] += 1


def test_turn_run_killed_at_random_moments_runs_each_turn_once(
    setup: tuple[Config, Engine]
) -> None:
    config, db = setup
    rng = random.Random(7)
    kills = 0
    for _ in range(4):
        code = _run(config, "turn", "run", "paris", "--no-send",
                    kill_after=rng.uniform(0.5, 4.0))
        kills += code == -signal.SIGKILL
        # A killed run either committed its turn or not: never half of it.
        statuses = [t.status for t in _turns(db)]
        assert statuses.count(TurnStatus.OPEN) == 1 and TurnStatus.RUNNING not in statuses
    assert _run(config, "turn", "run", "paris", "--no-send") == 0
    turns = _turns(db)
    for turn in turns[:-1]:
        assert _archive(config, turn.number).exists(), turn.number
    with Session(db) as session:
        gazettes = Counter(n.turn_number for n in session.exec(
            select(Newsletter).where(Newsletter.kind == "gazette")))
    assert all(n == 1 for n in gazettes.values()), "no turn published twice"
    TRIALS["turn run at random"] += kills


def _delivered_ids(config: Config) -> Counter[str]:
    """Message-IDs in every recipient's Maildir, with how often each is there."""
    found: Counter[str] = Counter()
    for folder in sorted(config.maildir_mailboxes.iterdir()):
        if folder.resolve() == config.maildir_inbox.resolve() or not (folder / "cur").exists():
            continue
        for path in sorted((folder / "new").iterdir()) + sorted((folder / "cur").iterdir()):
            for line in path.read_bytes().split(b"\n"):
                if line.lower().startswith(b"message-id:"):
                    found[line.split(b":", 1)[1].strip().decode()] += 1
                    break
    return found


@pytest.mark.parametrize("point", ["maildir.before-send", "maildir.after-send"])
def test_outbox_send_killed_around_the_maildir_delivery_delivers_each_mail_once(
    setup: tuple[Config, Engine], point: str
) -> None:
    """Killed right after the Maildir write (before "sent" is committed) or right before
    it: the next run finds what was delivered (by Message-ID) and sends the rest."""
    config, db = setup
    assert _run(config, "outbox", "send", crash_at=point) == -signal.SIGKILL
    assert _run(config, "outbox", "send") == 0
    with Session(db) as session:
        rows = list(session.exec(select(Outbox)))
    assert rows and all(r.status == "sent" for r in rows)
    delivered = _delivered_ids(config)
    assert {r.message_id for r in rows} == set(delivered)
    assert all(n == 1 for n in delivered.values()), delivered
    TRIALS[f"outbox send at {point}"] += 1


def _serve(config: Config) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "MODERATOR_CRASH_AT"}
    return subprocess.Popen([*CLI, "--config", str(config.path), "serve"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_for(check, seconds: float = TIMEOUT) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.1)


def test_serve_killed_at_random_moments_loses_nothing_and_sends_nothing_twice(
    setup: tuple[Config, Engine]
) -> None:
    config, db = setup
    _fill_inbox(config, 40, seed=3)
    rng = random.Random(11)
    kills = 0
    for _ in range(3):
        proc = _serve(config)
        try:
            proc.wait(timeout=rng.uniform(1.0, 6.0))
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait(timeout=TIMEOUT)
    proc = _serve(config)
    try:
        def settled() -> bool:
            with Session(db) as session:
                waiting = session.exec(select(Outbox).where(
                    Outbox.status.in_(("queued", "sending")))).first()  # type: ignore[attr-defined]
            return not open_maildir(config.maildir_inbox).keys() and waiting is None
        _wait_for(settled)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=TIMEOUT)
    _check_intake(db, config)
    delivered = _delivered_ids(config)
    assert all(n == 1 for n in delivered.values()), delivered
    assert kills >= 1
    TRIALS["serve at random"] += kills


@pytest.fixture(scope="module", autouse=True)
def _report_the_trial_counts() -> Iterator[None]:
    """The trials' counts, printed after the module for BENCHMARKS.md (pytest -s); a
    fixture, not a test: each trial asserts its own outcomes."""
    yield
    print("SIGKILL trials:", dict(sorted(TRIALS.items())))
