"""``moderator serve``: one process that reads mail, sends mail and keeps the deadlines.

Three loops run in threads, each wrapped so that a failure is logged and retried
(after a pause that grows to `MAX_BACKOFF` seconds) and never stops the service:

* intake: Maildir transport, `process_inbox` every ``service.maildir_poll_seconds``; IMAP
  transport, ``ImapPoller(db, config).run(stop, on_results)``;
* outbox: Maildir, `deliver_outbox`; IMAP, ``OutboxSender(db, config).run(stop, seconds,
  wake)``; either every ``service.outbox_seconds``, and at once when intake queued
  receipts or a deadline queued mail (both set `Service.kick_outbox`);
* scheduler: `moderator.runners.schedule.DeadlineScheduler` (APScheduler, jobs in the store),
  re-synced from the database every `schedule.SYNC_SECONDS`.

Logs go to stdout, one JSON object a line: ``time``, ``level``, ``component``, ``event``
and the event's fields.  SIGTERM or SIGINT sets the stop event; the loops return, the
threads are joined, the scheduler is shut down, and the process exits 0.
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

from sqlalchemy import Engine

from moderator.intake.process import IntakeResult
from moderator.runners.schedule import STOPPED, DeadlineScheduler
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope

# "maildir.last_poll" is written when mail came in, else at most this often (fewer writes).
STATUS_EVERY_SECONDS = 30.0
MAX_BACKOFF = 60.0
JOIN_SECONDS = 5.0


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
        line = json.dumps(record, default=str, ensure_ascii=False)
        with self._lock:
            self.stream.write(line + "\n")
            self.stream.flush()

    def component(self, name: str) -> Callable[..., None]:
        def log(level: str, event: str, **fields: Any) -> None:
            self(level, name, event, **fields)

        return log


class _LoggingBridge(logging.Handler):
    """Python logging records (warnings and up: APScheduler's, intake's ...) as lines."""

    def __init__(self, log: JsonLog) -> None:
        super().__init__(logging.WARNING)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        try:
            parts = record.name.split(".")
            component = parts[0]
            if parts[0] == "moderator" and len(parts) > 1:  # moderator.transport.imap -> imap
                component = parts[2] if parts[1] == "transport" and len(parts) > 2 else parts[1]
            fields: dict[str, Any] = {"message": record.getMessage(), "logger": record.name}
            if record.exc_info:
                fields["traceback"] = logging.Formatter().formatException(record.exc_info)
            self.log(record.levelname.lower(), component, "log", **fields)
        except Exception:  # pragma: no cover - logging must never raise
            self.handleError(record)


class Service:
    def __init__(self, db: Engine, config: Config, log: JsonLog | None = None) -> None:
        self.db, self.config = db, config
        self.log = log or JsonLog()
        self.stop = threading.Event()
        self.kick_outbox = threading.Event()
        self.scheduler = DeadlineScheduler(db, config, self.log.component("scheduler"))
        self.scheduler.runtime.on_change = self._after_change
        self.threads: list[threading.Thread] = []

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
                repo.log_gm(session, event, detail, level="error")
        except Exception:
            pass  # the database itself may be what failed; the stdout line is enough

    def _maildir_intake(self) -> None:
        from moderator.transport.maildir import process_inbox

        noted = 0.0
        while not self.stop.is_set():
            results = process_inbox(self.db, self.config)
            if results or time.monotonic() - noted >= STATUS_EVERY_SECONDS:
                with session_scope(self.db) as session:
                    repo.set_status(session, "maildir.last_poll", f"{len(results)} message(s)")
                noted = time.monotonic()
            self._after_intake(results)
            self.stop.wait(self.config.maildir_poll_seconds)

    def _after_intake(self, results: list[IntakeResult]) -> None:
        """Log each message read and wake the outbox, so receipts go out at once."""
        for r in results:
            self.log("info", "intake", "message", message_id=r.message_id,
                     status=r.status, detail=r.detail)
        if results:
            self.kick_outbox.set()

    def _maildir_outbox(self) -> None:
        from moderator.transport.maildir import deliver_outbox

        while not self.stop.is_set():
            self.kick_outbox.clear()
            sent = deliver_outbox(self.db, self.config)
            if sent:
                with session_scope(self.db) as session:
                    repo.set_status(session, "maildir.last_send", f"{len(sent)} mail(s)")
            for d in sent:
                self.log("info", "outbox", "delivered", to=d.to, subject=d.subject,
                         outbox_id=d.outbox_id)
            self.kick_outbox.wait(self.config.outbox_seconds)

    def _imap_intake(self) -> None:
        from moderator.transport.imap import ImapPoller

        ImapPoller(self.db, self.config).run(self.stop, on_results=self._after_intake)

    def _smtp_outbox(self) -> None:
        from moderator.transport.smtp import OutboxSender

        OutboxSender(self.db, self.config).run(self.stop, self.config.outbox_seconds,
                                               wake=self.kick_outbox)

    def _scheduler_loop(self) -> None:
        self.scheduler.run(self.stop)

    # --- start and stop ----------------------------------------------------------------

    def start(self) -> None:
        self.log("info", "service", "starting", transport=self.config.transport,
                 database=self.config.database_url.split("///")[-1])
        root = logging.getLogger()
        root.addHandler(_LoggingBridge(self.log))
        root.setLevel(min(root.level or logging.WARNING, logging.WARNING))
        self.scheduler.start()
        if self.config.transport == "imap":
            loops = {"intake": self._imap_intake, "outbox": self._smtp_outbox}
        else:
            loops = {"intake": self._maildir_intake, "outbox": self._maildir_outbox}
        loops["scheduler"] = self._scheduler_loop
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
            with session_scope(self.db) as session:
                repo.set_status(session, STOPPED, datetime.now(UTC).isoformat())
        except Exception as exc:
            self.log("error", "service", "shutdown.failed", error=repr(exc))
        self.log("info", "service", "stopped")
        return 0

    def serve_forever(self) -> int:
        """Run until SIGTERM or SIGINT; return the exit status."""

        def on_signal(signum: int, _frame: Any) -> None:
            self.log("info", "service", "signal", signal=signal.Signals(signum).name)
            self.stop.set()

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            self.start()
            while not self.stop.wait(60):
                pass
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return self.shutdown()


def serve(db: Engine, config: Config) -> int:
    return Service(db, config).serve_forever()
