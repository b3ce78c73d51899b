"""Several `moderator serve --worker` processes on one PostgreSQL database (issue 15).

Three workers share a Maildir inbox of 300 order emails across 20 games, with the
deadlines set inside the test once the mail is in: every message is handled once (one
stored row and one version of the orders each, versions 1..5 for every player), every turn
is run once (one ``turn.run`` line among all the workers' logs), and every mail is sent
once (each Message-ID of the outbox in its recipient's Maildir exactly once).

Then the same with one worker killed (SIGKILL, at the crash point inside a turn run:
claimed, adjudicated, published, not committed) while two others run beside it: the turn is
left to another worker, which finishes it once, and the results are byte for byte those of
the run without the kill (stored state, events and dice; and each turn's newsletters as
`rerun_turn` recomputes them from the stored inputs).
"""

from __future__ import annotations

import json
import mailbox
import os
import signal
import subprocess
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from moderator.desk import admin
from moderator.settings.config import Config, load_config
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.store.models import Outbox, ReceivedMessage, Submission, Turn
from moderator.store.statuses import MessageStatus, OutboxStatus, TurnStatus
from moderator.transport.maildir import open_maildir
from moderator.turn.deadlines import set_deadlines
from moderator.turn.rerun import rerun_turn
from pg.cluster import PgCluster

from support import order_mail, write_config

MODERATOR = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "moderator"
GAMES = 20
PLAYERS = 3
VERSIONS = 5
WORKERS = 3
ORDERS = ("WEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapier\n",
          "WEEK 1: PRACTICE rapier\nWEEK 2: CAROUSE\n",
          "WEEK 1: CAROUSE\nWEEK 2: PRACTICE rapier\n")

pytestmark = [pytest.mark.postgresql,
              pytest.mark.skipif(not MODERATOR.exists(), reason="needs .venv/bin/moderator")]


def _players(game: int) -> list[tuple[str, str, str]]:
    return [(f"p{p}.g{game}@pbem.example", f"Player {p} of {game}", f"pw{p}{game}")
            for p in range(PLAYERS)]


def _setup(folder: Path, url: str) -> Config:
    """20 games of 3 players, and 300 order emails in the inbox (5 versions each)."""
    folder.mkdir(parents=True, exist_ok=True)
    config = load_config(write_config(folder, database_url=url))
    db = open_store(config.database_url)
    with session_scope(db) as session:
        for g in range(GAMES):
            admin.create_game(session, config, f"g{g:02d}", "engarde", seed=1000 + g)
            for email, name, password in _players(g):
                admin.add_player(session, config, f"g{g:02d}", email, name, password=password)
            set_deadlines(session, repo.game_by_name(session, f"g{g:02d}"),
                          datetime.now(UTC) + timedelta(days=3))
    db.dispose()
    inbox = open_maildir(config.maildir_inbox)
    for version in range(VERSIONS):
        for g in range(GAMES):
            for p, (email, _name, password) in enumerate(_players(g)):
                body = f"PASSWORD: {password}\n{ORDERS[(p + version) % len(ORDERS)]}"
                inbox.add(order_mail(email, body, subject=f"[g{g:02d}] orders v{version}",
                                     message_id=f"<v{version}.{p}.{g}@pbem.example>",
                                     date=datetime(2026, 12, 1, 12, version, tzinfo=UTC)))
    return config


def _start(config: Config, crash_at: str | None = None,
           n: int = 0) -> subprocess.Popen[str]:
    """A worker, its log in ``worker-N.log`` / ``.err`` next to the config (a pipe
    nobody reads while it runs would fill, and every thread that logs would wait)."""
    env = {k: v for k, v in os.environ.items() if k != "MODERATOR_CRASH_AT"}
    if crash_at:
        env["MODERATOR_CRASH_AT"] = crash_at
    folder = config.base_dir
    with (folder / f"worker-{n}.log").open("w") as out, \
            (folder / f"worker-{n}.err").open("w") as err:
        return subprocess.Popen(
            [str(MODERATOR), "--config", str(config.path), "serve", "--worker"],
            stdout=out, stderr=err, text=True, env=env)


def _output(config: Config, n: int) -> tuple[str, str]:
    folder = config.base_dir
    return ((folder / f"worker-{n}.log").read_text(), (folder / f"worker-{n}.err").read_text())


def _wait(what: str, check, procs: list[subprocess.Popen[str]], seconds: float = 900) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def _count(db: Engine, query) -> int:  # type: ignore[no-untyped-def]
    with Session(db) as session:
        return int(session.exec(query).one())


def _run(folder: Path, cluster: PgCluster, *, kill: bool) -> dict[str, object]:
    """Three workers read the inbox; at the deadlines three workers run the turns.

    With ``kill``, the first worker is the one that dies at the crash point inside its
    first turn run.  So that it is the one to take a turn first, the other two stop once
    the mail is in, and two fresh workers start only once it has died: they find the
    deadlines passed and the turn it claimed still open (its claim died with its
    transaction), and run every turn once.
    """
    config = _setup(folder, cluster.own_database())
    db = open_store(config.database_url)
    procs = [_start(config, "turn.adjudicated" if kill and i == 0 else None, i)
             for i in range(WORKERS)]
    try:
        total = GAMES * PLAYERS * VERSIONS
        _wait("intake", lambda: _count(db, select(func.count()).select_from(Submission)) >= total
              and _count(db, select(func.count()).select_from(ReceivedMessage)
                         .where(col(ReceivedMessage.status) != MessageStatus.ACCEPTED)) == 0,
              procs)
        if kill:
            for proc in procs[1:]:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=120)
        due = datetime.now(UTC) + timedelta(seconds=3)
        with session_scope(db) as session:  # the deadlines, inside the test
            for g in range(GAMES):
                set_deadlines(session, repo.game_by_name(session, f"g{g:02d}"), due)
        if kill:  # fresh workers only once the first has died inside its first turn:
            # started earlier, they could take every turn before it syncs the new deadlines
            _wait("the kill", lambda: procs[0].poll() is not None, procs, seconds=300)
            procs += [_start(config, None, n) for n in range(WORKERS, 2 * WORKERS - 1)]
        _wait("the turns", lambda: _count(db, select(func.count()).select_from(Turn).where(
            Turn.number == 1, Turn.status == TurnStatus.DONE)) == GAMES, procs)
        _wait("the outbox", lambda: _count(db, select(func.count()).select_from(Outbox).where(
            col(Outbox.status).in_((OutboxStatus.QUEUED, OutboxStatus.SENDING)))) == 0, procs)
    finally:
        codes, logs = [], []
        for n, proc in enumerate(procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=120)
            codes.append(proc.returncode)
            out, err = _output(config, n)
            logs += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
            assert "Traceback" not in err, err
    if kill:
        assert codes[0] == -signal.SIGKILL, f"the first worker was not killed mid-turn: {codes}"
        assert codes[1:] == [0] * (len(procs) - 1), codes
        killed_in = _output(config, 0)[0]
        assert '"event": "turn.run"' not in killed_in  # it died inside its first turn
    else:
        assert codes == [0] * WORKERS, codes
    return {"config": config, "db": db, "logs": logs}


def _check_once(config: Config, db: Engine, logs: list[dict]) -> None:
    total = GAMES * PLAYERS * VERSIONS
    with Session(db) as session:
        messages = session.exec(select(ReceivedMessage)).all()
        assert len(messages) == total
        assert {m.status for m in messages} == {MessageStatus.ACCEPTED}
        versions = Counter((s.player_id, s.version) for s in session.exec(select(Submission)))
        assert len(versions) == total and set(versions.values()) == {1}
        assert {v for _p, v in versions} == set(range(1, VERSIONS + 1))
        turns = session.exec(select(Turn).where(Turn.number == 1)).all()
        assert len(turns) == GAMES and {t.status for t in turns} == {TurnStatus.DONE}
        outbox = session.exec(select(Outbox)).all()
    runs = Counter(line["game"] for line in logs if line.get("event") == "turn.run")
    assert runs == {f"g{g:02d}": 1 for g in range(GAMES)}
    assert {o.status for o in outbox} == {OutboxStatus.SENT}
    delivered: Counter[str] = Counter()
    for folder in config.maildir_mailboxes.iterdir():
        if folder.name == config.maildir_inbox.name or not (folder / "cur").exists():
            continue
        box = mailbox.Maildir(str(folder), factory=None, create=False)
        for key in box.iterkeys():
            with box.get_file(key) as handle:
                msg = message_from_bytes(handle.read(), policy=policy.default)
            delivered[str(msg["Message-ID"])] += 1
    assert delivered == {o.message_id: 1 for o in outbox}


def _results(db: Engine) -> dict[str, tuple[str | None, str | None, str | None]]:
    with Session(db) as session:
        return {g.name: (t.state_after, t.events_json, t.dice_json)
                for g in repo.games(session)
                for t in [repo.turn_by_number(session, g, 1)]}


def test_three_workers_do_everything_once_even_when_one_is_killed_mid_turn(
        tmp_path: Path, pg_cluster: PgCluster) -> None:
    plain = _run(tmp_path / "plain", pg_cluster, kill=False)
    _check_once(plain["config"], plain["db"], plain["logs"])  # type: ignore[arg-type]

    killed = _run(tmp_path / "killed", pg_cluster, kill=True)
    _check_once(killed["config"], killed["db"], killed["logs"])  # type: ignore[arg-type]
    assert _results(killed["db"]) == _results(plain["db"])  # type: ignore[arg-type]
    for g in range(GAMES):
        rerun = rerun_turn(killed["db"], killed["config"], f"g{g:02d}", 1)  # type: ignore[arg-type]
        assert rerun.identical, rerun
