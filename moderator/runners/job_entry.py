"""What runs when a scheduler job fires: the jobs' entry points and the runtime they read.

A stored job names its function by module and name, and its arguments are only names
(a game's and a turn's number): the entry points find everything else in the runtime
the service set (`set_runtime`).  Jobs stored before these lived here name them in
`moderator.runners.schedule` (``_job_deadline`` ...), which keeps those names as
aliases so such jobs still load.  What the jobs do is in `moderator.runners.jobs`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from moderator.runners.jobs import Runtime, run_announcements, run_due_turn, run_reminders

_runtime: Runtime | None = None
# The jobs running now in this process, by job id.  APScheduler drops a one-shot job from
# the store as it starts it; a sync during the run (the run's own writes move the change
# stamp) must not put it back while its turn is still open, or it fires a second time.
_running: set[str] = set()
_running_lock = threading.Lock()


def set_runtime(runtime: Runtime | None) -> None:
    """The runtime the jobs of this process use (None: jobs that fire do nothing)."""
    global _runtime
    _runtime = runtime


def current_runtime() -> Runtime | None:
    return _runtime


@contextmanager
def running(rt: Runtime, kind: str, game_name: str, number: int) -> Iterator[None]:
    """Around a job: its lock (workers), noted as running, and a re-sync once it ended
    (its job is put back if still wanted, say when the deadline moved later)."""
    job_id = f"{kind}:{game_name}"
    with _running_lock:
        _running.add(job_id)
    try:
        with rt.job_lock(f"{kind}:{game_name}:{number}"):
            yield
    finally:
        with _running_lock:
            _running.discard(job_id)
        if rt.on_change is not None:
            rt.on_change()


def running_jobs() -> frozenset[str]:
    with _running_lock:
        return frozenset(_running)


def job_deadline(game_name: str, number: int) -> None:
    """A job stores only names: it runs in the service process, which set the runtime.
    With workers, the job lock lets one at a time at it (`Runtime.job_lock`)."""
    rt = _runtime
    if rt is not None:
        with running(rt, "deadline", game_name, number):
            # When the deadline's job started (how late after the deadline a turn starts).
            rt.log("info", "deadline.due", game=game_name, turn=number)
            run_due_turn(rt, game_name, number)


def job_announcements(game_name: str, number: int) -> None:
    """The announcements job (see `job_deadline` for why it reads the runtime)."""
    rt = _runtime
    if rt is not None:
        with running(rt, "announcements", game_name, number):
            run_announcements(rt, game_name, number)


def job_reminder(game_name: str, number: int) -> None:
    """The reminder job (see `job_deadline` for why it reads the runtime)."""
    rt = _runtime
    if rt is not None:
        with running(rt, "reminder", game_name, number):
            run_reminders(rt, game_name, number)
