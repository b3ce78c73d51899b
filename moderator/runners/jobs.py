"""What the scheduler's jobs do when they fire: run a due turn, mail the announcements
gazette, send reminders.

`moderator.runners.schedule` decides when the jobs run and keeps them in step with the
database; the job store only names its small ``_job_*`` entry points, which hand the
work to the functions here with the process's `Runtime`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session

from moderator.clock import as_utc, format_deadline
from moderator.runners.reminders import send_announcements, send_reminders
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.turn.deadlines import current_turn, now_utc
from moderator.turn.inputs import due_at
from moderator.turn.run import TurnError, run_turn

# After a turn run fails with an unexpected error, try again this much later.
RETRY_AFTER = timedelta(minutes=10)
# A due turn waits until intake has read the inbox since the turn became due (orders the
# mail server received in time are read first), looking again this often, this long at most.
INBOX_RECHECK = timedelta(seconds=5)
INBOX_WAIT = timedelta(minutes=5)

Log = Callable[..., None]  # log(level, event, **fields)
JobLock = Callable[[str], AbstractContextManager[None]]


def no_job_lock(name: str) -> AbstractContextManager[None]:
    """One `serve`: its own `Runtime.turn_lock` and the store's claims are enough."""
    return nullcontext()


def no_log(level: str, event: str, **fields: Any) -> None:
    return None


@dataclass
class Runtime:
    """What the jobs need in the process that runs them (jobs store only names)."""

    db: Engine
    config: Config
    log: Log = no_log
    started_at: datetime = field(default_factory=now_utc)
    # Periods the service was not running: a deadline inside one was missed.
    outages: list[tuple[datetime, datetime]] = field(default_factory=list)
    retry_at: dict[tuple[str, int], datetime] = field(default_factory=dict)
    turn_lock: threading.Lock = field(default_factory=threading.Lock)
    on_change: Callable[[], None] | None = None
    # Workers (`serve --worker`): each job under a database lock, one worker at a time
    # (moderator.store.guard.job_lock).
    job_lock: JobLock = no_job_lock
    # When intake last began a pass that emptied the inbox (`Incoming.last_emptied`);
    # None: no intake in this process, so no waiting for it.
    inbox_emptied: Callable[[], datetime | None] | None = None
    # Since when each due turn has been waiting for intake, by (game, number).
    waiting: dict[tuple[str, int], datetime] = field(default_factory=dict)

    def missed(self, deadline: datetime) -> bool:
        """Whether ``deadline`` fell in a period the service was not running."""
        return any(start < deadline <= end for start, end in self.outages)


def run_announcements(rt: Runtime, game_name: str, number: int) -> None:
    """The announcements job: mail turn ``number``'s gazette to the players."""
    count = send_announcements(rt.db, rt.config, game_name, number)
    if count:
        rt.log("info", "announcements.sent", game=game_name, turn=number, players=count)
        _changed(rt)


def run_reminders(rt: Runtime, game_name: str, number: int) -> None:
    """The reminder job: remind the players who have sent no orders for turn ``number``."""
    sent = send_reminders(rt.db, rt.config, game_name, number)
    rt.log("info", "reminders.sent", game=game_name, turn=number, count=len(sent))
    if sent:
        _changed(rt)


def _changed(rt: Runtime) -> None:
    """Let the service re-sync its jobs and wake its outbox after a job changed things."""
    if rt.on_change is not None:
        rt.on_change()


def run_due_turn(rt: Runtime, game_name: str, number: int, *, now: datetime | None = None) -> bool:
    """The deadline job: run turn ``number`` if it is still open and due, exactly once."""
    with rt.turn_lock:  # one turn at a time in this process
        now = now or now_utc()
        found = _due_deadline(rt, game_name, number, now)
        if found is None or _inbox_behind(rt, game_name, number, found[1], now):
            return False
        deadline = found[0]
        missed = rt.missed(deadline)
        try:
            # `number` makes the runner refuse if a GM ran the turn since the check above.
            report = run_turn(rt.db, rt.config, game_name, number=number, missed=missed)
        except TurnError as exc:
            rt.log("info", "turn.skipped", game=game_name, turn=number, reason=str(exc))
            return False
        except Exception as exc:
            _turn_failed(rt, game_name, number, exc)
            return False
        rt.retry_at.pop((game_name, number), None)
        if missed:
            _log_missed(rt, game_name, number, deadline, now)
        following = report.next_deadlines.deadline
        rt.log("info", "turn.run", game=game_name, turn=report.number, label=report.label,
               events=report.events, late=missed,
               next_deadline=following.isoformat() if following else None)
    _changed(rt)
    return True


def _due_deadline(rt: Runtime, game_name: str, number: int, now: datetime
                  ) -> tuple[datetime, datetime] | None:
    """Turn ``number``'s deadline and when it became due, if the turn is still open and
    due (the deadline plus grace has come, or the game runs early and all orders are in)."""
    with Session(rt.db) as session:
        found = current_turn(session, game_name, number)
        if found is None or found[1].deadline is None:
            rt.log("info", "deadline.skipped", game=game_name, turn=number,
                   reason="not the open turn any more")
            return None
        deadline = as_utc(found[1].deadline)
        due = due_at(session, rt.config, found[0], found[1]) or deadline
    # Moved later since the job was made: the next sync reschedules it.
    return (deadline, due) if due <= now else None


def _inbox_behind(rt: Runtime, game_name: str, number: int, due: datetime,
                  now: datetime) -> bool:
    """Whether the due turn waits for intake: until a pass that began after the turn
    became due has emptied the inbox, so orders the mail server received in time (the
    service was down, the inbox server away, intake busy) are read before the turn runs,
    not stored for the next one.  Looked at again every `INBOX_RECHECK` (the retry the
    next sync schedules); after `INBOX_WAIT` the turn runs anyway and the GM is told."""
    if rt.inbox_emptied is None:
        return False
    key = (game_name, number)
    emptied = rt.inbox_emptied()
    if emptied is not None and emptied >= due:
        rt.waiting.pop(key, None)
        return False
    if key not in rt.waiting:
        rt.waiting[key] = now
        rt.log("info", "deadline.waiting", game=game_name, turn=number,
               reason="intake has not read the inbox since the turn became due")
    if now - rt.waiting[key] < INBOX_WAIT:
        rt.retry_at[key] = now + INBOX_RECHECK
        return True
    rt.waiting.pop(key, None)
    rt.log("warning", "deadline.inbox", game=game_name, turn=number,
           inbox=emptied.isoformat() if emptied else None)
    with session_scope(rt.db) as session:
        repo.log_gm(session, "deadline.inbox",
                    f"turn {number}: run without intake reading the inbox since it became "
                    f"due ({format_deadline(due, 'UTC')}): orders still waiting there go "
                    f"to turn {number + 1}", game=repo.find_game(session, game_name),
                    level="warning")
    return False


def _turn_failed(rt: Runtime, game_name: str, number: int, exc: Exception) -> None:
    """Log an unexpected failure (stdout and GM log) and have the job retried later."""
    rt.retry_at[(game_name, number)] = now_utc() + RETRY_AFTER
    rt.log("error", "turn.failed", game=game_name, turn=number, error=repr(exc))
    with session_scope(rt.db) as session:
        repo.log_gm(session, "turn.failed", f"turn {number}: {exc!r}; retrying in "
                    f"{RETRY_AFTER}", game=repo.find_game(session, game_name), level="error")


def _log_missed(rt: Runtime, game_name: str, number: int, deadline: datetime,
                now: datetime) -> None:
    """Tell the GM a deadline passed while the service was down and the turn ran late."""
    with session_scope(rt.db) as session:
        repo.log_gm(session, "deadline.missed",
                    f"turn {number}: deadline {format_deadline(deadline, 'UTC')} passed "
                    f"while the service was down; run late at {now:%Y-%m-%d %H:%M} UTC",
                    game=repo.find_game(session, game_name), level="warning")
