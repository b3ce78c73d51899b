"""``moderator serve``: one process that reads mail, sends mail and keeps the deadlines.

Three loops run in threads, each wrapped so that a failure is logged and retried
(after a pause that grows to `MAX_BACKOFF` seconds) and never stops the service:

* intake: `moderator.runners.incoming.Incoming.run` over the configured inbox (a Maildir
  polled every ``service.maildir_poll_seconds``, or IMAP with IDLE);
* outbox: `moderator.runners.outgoing.Outgoing.run` with the configured sender (recipients'
  Maildirs, or SMTP), every ``service.outbox_seconds``, and at once when intake queued
  receipts or a deadline queued mail (both set `Service.kick_outbox`);
* scheduler: `moderator.runners.schedule.DeadlineScheduler` (APScheduler, jobs in the store),
  re-synced from the database when its change stamp moves (read every
  `schedule.CHANGE_POLL_SECONDS`) and every `schedule.FULL_SYNC_SECONDS`; its first sync
  runs in its thread after `ready`;
* spool (unless ``intake.spool_keep_days`` is 0): `moderator.intake.spool_prune` at the
  start and every `SPOOL_PRUNE_SECONDS` (not while the host is stopped).

The transport is chosen in one place, `moderator.transport.open_inbox` / `open_sender`.

Logs go to stdout, one JSON object a line: ``time``, ``level``, ``component``, ``event``
and the event's fields.  SIGTERM or SIGINT sets the stop event (from the main thread, not
the handler); the loops return, the threads are joined, the scheduler is shut down, and
the process exits 0.
"""

from __future__ import annotations

import json
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TextIO

from sqlalchemy import Engine, make_url

from moderator.intake.process import IntakeResult
from moderator.intake.spool_prune import prune_spool
from moderator.runners.incoming import Incoming
from moderator.runners.outgoing import Outgoing, SendFate, SendReport
from moderator.runners.schedule import STOPPED, DeadlineScheduler
from moderator.settings.config import Config, mask_credentials
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.guard import Guard
from moderator.store.host import panic_reason
from moderator.store.statuses import LogLevel
from moderator.transport import open_inbox, open_sender
from moderator.turn.archive import write_missing_archives

MAX_BACKOFF = 60.0
# How often the spool is pruned (its limit is in days: an hour late is nothing).
SPOOL_PRUNE_SECONDS = 3600.0
JOIN_SECONDS = 5.0
# How often the main thread looks whether a signal came (see `Service.serve_forever`).
SIGNAL_CHECK_SECONDS = 0.2


class JsonLog:
    """Structured log lines on a stream (thread-safe, flushed per line)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self._lock = threading.Lock()

    def __call__(self, level: str, component: str, event: str, **fields: Any) -> None:
        record = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "level": level,
            "component": component,
            "event": event,
            **fields,
        }
        line = mask_credentials(json.dumps(record, default=str, ensure_ascii=False))
        with self._lock:
            self.stream.write(line + "\n")
            self.stream.flush()

    def component(self, name: str) -> Callable[..., None]:
        def log(level: str, event: str, **fields: Any) -> None:
            self(level, name, event, **fields)

        return log


# The service's own names for the loops, in log lines from their modules.
_COMPONENTS = {"incoming": "intake", "outgoing": "outbox", "schedule": "scheduler"}


class _LoggingBridge(logging.Handler):
    """Python logging records (warnings and up: APScheduler's, intake's ...) as lines."""

    def __init__(self, log: JsonLog) -> None:
        super().__init__(logging.WARNING)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        try:
            parts = record.name.split(".")
            component = parts[0]
            if parts[0] == "moderator" and len(parts) > 1:
                # moderator.transport.imap -> imap, moderator.runners.incoming -> intake
                component = parts[1]
                if parts[1] in ("transport", "runners") and len(parts) > 2:
                    component = _COMPONENTS.get(parts[2], parts[2])
            fields: dict[str, Any] = {"message": record.getMessage(), "logger": record.name}
            if record.exc_info:
                fields["traceback"] = logging.Formatter().formatException(record.exc_info)
            self.log(record.levelname.lower(), component, "log", **fields)
        except Exception:  # pragma: no cover - logging must never raise
            self.handleError(record)


class Service:
    """The service's loops.  ``guard`` is the single-instance guard this process holds
    (moderator.store.guard); with ``guard.role == "worker"`` it is one of several
    workers on one PostgreSQL database: its deadline jobs run under job locks, it
    settles half-sent mail only while no other worker runs, and it records the stop of
    the service only as the last one to go."""

    def __init__(self, db: Engine, config: Config, log: JsonLog | None = None, *,
                 guard: Guard | None = None) -> None:
        self.db, self.config = db, config
        self.log = log or JsonLog()
        self.guard = guard or Guard("serve")
        self.worker = self.guard.role == "worker"
        self.stop = threading.Event()
        self.kick_outbox = threading.Event()
        self.scheduler = DeadlineScheduler(db, config, self.log.component("scheduler"),
                                           worker=self.worker)
        self.scheduler.runtime.on_change = self._after_change
        self._incoming: Incoming | None = None
        self.scheduler.runtime.inbox_emptied = self._inbox_emptied
        self.threads: list[threading.Thread] = []
        self._archives_checked = False

    def _after_change(self) -> None:
        self.scheduler.request_sync()
        self.kick_outbox.set()

    # --- the loops ---------------------------------------------------------------------

    def _guarded(self, component: str, body: Callable[[], None]) -> Callable[[], None]:
        """Run ``body`` until stopped; log a failure and retry after a growing pause."""
        log = self.log.component(component)

        def loop() -> None:
            backoff = 1.0
            log("info", "started")
            while not self.stop.is_set():
                try:
                    body()
                    backoff = 1.0
                except Exception as exc:
                    log("error", "failed", error=repr(exc), retry_in=backoff)
                    self._record_problem(f"{component}.failed", repr(exc))
                    if self.stop.wait(backoff):
                        break
                    backoff = min(backoff * 2, MAX_BACKOFF)
            log("info", "stopped")

        return loop

    def _record_problem(self, event: str, detail: str) -> None:
        try:
            with session_scope(self.db) as session:
                repo.log_gm(session, event, detail, level=LogLevel.ERROR)
        except Exception:
            pass  # the database itself may be what failed; the stdout line is enough

    def _intake(self) -> None:
        self._incoming = Incoming(self.db, self.config, open_inbox(self.config))
        self._incoming.run(self.stop, on_results=self._after_intake)

    def _inbox_emptied(self) -> datetime | None:
        """When intake last began a pass that emptied the inbox (a due turn waits for
        one that began after it became due)."""
        incoming = self._incoming
        return incoming.last_emptied if incoming is not None else None

    def _after_intake(self, results: list[IntakeResult]) -> None:
        """Log each message read and wake the outbox, so receipts go out at once."""
        for r in results:
            self.log("info", "intake", "message", message_id=r.message_id,
                     status=r.status, detail=r.detail)
        if results:
            self.kick_outbox.set()

    def _outbox(self) -> None:
        Outgoing(self.db, self.config, open_sender(self.config),
                 may_recover=self.guard.alone).run(
            self.stop, self.config.outbox_seconds, wake=self.kick_outbox,
            on_report=self._after_send)

    def _after_send(self, report: SendReport) -> None:
        """One line for each mail the batch settled (failures are in the GM log too)."""
        for o in (*report.recovered, *report.sent):
            self.log("info", "outbox", "delivered" if o.status == SendFate.SENT else o.status,
                     to=o.to, subject=o.subject, outbox_id=o.outbox_id)
        for o in (*report.failed, *report.deferred):
            self.log("warning", "outbox", "undelivered", status=o.status, to=o.to,
                     subject=o.subject, outbox_id=o.outbox_id, detail=o.detail)
        if report.error:
            self.log("warning", "outbox", "connection", error=report.error)

    def _spool(self) -> None:
        """Prune the spool (`intake.spool_keep_days`), then wait for the next time."""
        if panic_reason(self.db) is None:
            pruned = prune_spool(self.db, self.config)
            if pruned.removed:
                self.log("info", "spool", "pruned", removed=pruned.removed, kept=pruned.kept,
                         keep_days=pruned.keep_days)
        self.stop.wait(SPOOL_PRUNE_SECONDS)

    def _scheduler_loop(self) -> None:
        if not self._archives_checked:
            # A run killed between its commit and its archive left the archive unwritten.
            # Done here, after `ready`, before the first sync lets any job run (one query
            # per game: seconds for a thousand games, too long to keep `ready` waiting).
            for folder in write_missing_archives(self.db, self.config):
                self.log("warning", "service", "archive.restored", folder=str(folder))
            self._archives_checked = True
        self.scheduler.run(self.stop)

    # --- start and stop ----------------------------------------------------------------

    def start(self) -> None:
        self.log("info", "service", "starting", transport=self.config.transport,
                 database=make_url(self.config.database_url).render_as_string(
                     hide_password=True).split("///")[-1],
                 role=self.guard.role)
        root = logging.getLogger()
        root.addHandler(_LoggingBridge(self.log))
        root.setLevel(min(root.level or logging.WARNING, logging.WARNING))
        # Ready before the first sync: the scheduler's loop does it (a thousand games'
        # jobs take seconds to check), and the jobs wait for it, paused.
        self.scheduler.start(sync=False)
        loops = {"intake": self._intake, "outbox": self._outbox,
                 "scheduler": self._scheduler_loop}
        if self.config.spool_keep_days:
            loops["spool"] = self._spool
        for name, body in loops.items():
            # Daemon threads: a loop stuck in network I/O cannot keep the process alive.
            thread = threading.Thread(target=self._guarded(name, body), name=name, daemon=True)
            thread.start()
            self.threads.append(thread)
        with session_scope(self.db) as session:
            repo.set_status(session, "service.started", datetime.now(UTC).isoformat())
        self.log("info", "service", "ready", threads=[t.name for t in self.threads])

    def shutdown(self) -> int:
        self.stop.set()
        self.kick_outbox.set()
        self.scheduler.wake()
        stuck = []
        for thread in self.threads:
            thread.join(JOIN_SECONDS)
            if thread.is_alive():
                stuck.append(thread.name)
        if stuck:
            self.log("warning", "service", "threads.stuck", threads=stuck)
        try:
            self.scheduler.shutdown()
            if self.guard.alone():  # the last worker to stop: the service is down
                with session_scope(self.db) as session:
                    repo.set_status(session, STOPPED, datetime.now(UTC).isoformat())
        except Exception as exc:
            self.log("error", "service", "shutdown.failed", error=repr(exc))
        self.log("info", "service", "stopped")
        return 0

    def serve_forever(self) -> int:
        """Run until SIGTERM or SIGINT; return the exit status."""
        received: list[int] = []

        def on_signal(signum: int, _frame: Any) -> None:
            # Only note it: the handler runs inside whatever the main thread was doing, and
            # logging (or setting an Event) from here waits forever on a lock that the
            # interrupted code holds (a signal during a log line hung `serve`).
            received.append(signum)

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            self.start()
            while not received and not self.stop.is_set():
                time.sleep(SIGNAL_CHECK_SECONDS)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if received:
            self.log("info", "service", "signal", signal=signal.Signals(received[0]).name)
        return self.shutdown()


def serve(db: Engine, config: Config) -> int:
    return Service(db, config).serve_forever()
