"""Incoming mail: any transport's inbox read into intake, by one loop with one policy.

`Incoming.read_once` is one pass: every waiting message, oldest first, goes through
`process_message`; **only after that has returned**, so its rows are committed, is the
message filed:

* intake ``failed`` on it (intake's own guard, or any other exception while reading that
  one message): `Inbox.quarantine` (a Maildir's ``.quarantine``, the IMAP Quarantine
  folder), and the GM is told;
* any other fate (accepted, refused, ignored, duplicate): `Inbox.done` (processed).

A crash before the filing leaves the message in the inbox; the next pass reads it again
and intake's Message-ID check makes that harmless.  Errors that say "the server, the
network or the database is away" (`OSError`, the database's `OperationalError`, the
inbox's own `transient`) are not the message's fault: the pass stops, the message stays
where it is, and `InboxUnavailable` says how far the pass got.  Nothing is read while the
host is stopped (`moderator panic`): the flag is read before each message, so a pass
under way stops at the next one.

`Incoming.run` is the service loop: a pass, then `Inbox.wait` (IMAP IDLE, or a sleep),
reconnecting with a growing back-off whenever anything fails.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from moderator.intake.process import IntakeResult, process_message
from moderator.publish import outgoing
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.host import panic_reason
from moderator.store.statuses import IntakeFate, LogLevel
from moderator.transport import Inbox, open_inbox
from moderator.transport.base import InboxMessage

LOG = logging.getLogger(__name__)

BACKOFF_FIRST = 1.0
BACKOFF_CAP = 30.0
# The last-poll status is written when mail came in, else at most this often (fewer writes).
STATUS_EVERY_SECONDS = 30.0

Clock = Callable[[], datetime]
OnResults = Callable[[list[IntakeResult]], None]


def _utcnow() -> datetime:
    return datetime.now(UTC)


def status_key(inbox: Inbox) -> str:
    """The service-status key of an inbox's last good pass: ``imap.last_poll`` ..."""
    return f"{inbox.name}.last_poll"


class InboxUnavailable(Exception):
    """A pass stopped because the inbox's server or the database is away; the messages
    not yet filed stay in the inbox.  ``results``: the messages read before it stopped."""

    def __init__(self, cause: BaseException, results: list[IntakeResult]) -> None:
        super().__init__(_describe(cause))
        self.results = results


class Incoming:
    """Reads one inbox into intake: a pass (`read_once`) or the service loop (`run`)."""

    def __init__(
        self,
        db: Engine,
        config: Config,
        inbox: Inbox,
        *,
        clock: Clock = _utcnow,
        log: logging.Logger = LOG,
    ) -> None:
        self.db, self.config, self.inbox = db, config, inbox
        self.clock = clock
        self.log = log
        self.transient: tuple[type[BaseException], ...] = (
            OSError, OperationalError, *inbox.transient)
        self._noted: float | None = None  # time.monotonic() of the last status write
        # When the last pass that emptied the inbox began: mail read later reached the
        # server after it, whatever the server says (`received_at`); a due turn waits
        # for a pass that began after it became due (`moderator.runners.jobs`).
        self.last_emptied: datetime | None = None

    # ------------------------------------------------------------------ one pass
    def read_once(self) -> list[IntakeResult]:
        """Run intake over every waiting message, oldest first; file each after.

        Raises `InboxUnavailable` (the connection dropped) on a connection or database
        failure; any other failure of the inbox itself propagates as it is.
        """
        if panic_reason(self.db) is not None:
            return []
        results: list[IntakeResult] = []
        began = self.clock()
        try:
            for message in self.inbox.fetch():
                # Asked again for each message: a `panic` stops a pass under way before
                # its next message, and mail that came after the panic (so listed after
                # it was set) is never read, whatever moment the pass had reached.
                if panic_reason(self.db) is not None:
                    break
                results.append(self._read(message))
            else:
                self.last_emptied = began
        except self.transient as exc:
            self.inbox.reset()
            raise InboxUnavailable(exc, results) from exc
        self._record(results)
        return results

    def received_at(self, message: InboxMessage, now: datetime) -> datetime:
        """When the message counts as received: the server's time for it (`received_at`),
        but never after ``now`` nor before the last pass that emptied the inbox began (a
        server's wrong clock, or a date set when the mail was copied in, cannot make mail
        older than the inbox's last empty look); ``now`` when the server gives none."""
        if message.received_at is None:
            return now
        received = min(message.received_at.astimezone(UTC), now)
        return max(received, self.last_emptied) if self.last_emptied is not None else received

    def _read(self, message: InboxMessage) -> IntakeResult:
        """One message: intake, then file it; one bad message never stops the others."""
        try:
            now = self.clock()
            result = process_message(self.db, self.config, message.raw, now=now,
                                     received=self.received_at(message, now))
        except self.transient:
            raise
        except Exception as exc:  # outside intake's own guard: still this message's fault
            self.log.exception("%s: message %s could not be processed", self.inbox.name,
                               message.label)
            self._tell_gm(message, f"could not be read into intake: {exc!r}")
            result = IntakeResult(message.label, IntakeFate.FAILED, repr(exc))
        # Filed as intake keeps it: an inbox that writes its copy (a Maildir) writes it
        # without the password (issue 16, goal 4); an IMAP server moves its own copy.
        filed = message if result.kept is None else replace(message, raw=result.kept)
        if result.status == IntakeFate.FAILED:
            self.log.error("%s: %s failed (%s); moving it to %s", self.inbox.name,
                           result.message_id, result.detail, self.inbox.quarantine_place)
            self.inbox.quarantine(filed)
        else:
            self.inbox.done(filed)
        return replace(result, kept=None)  # filed: a pass's results need not hold the bytes

    def _tell_gm(self, message: InboxMessage, what: str) -> None:
        """Best effort: intake did not report this message, so the GM hears it from us."""
        try:
            with session_scope(self.db) as session:
                repo.log_gm(session, f"{self.inbox.name}.quarantined", f"{message.label} {what}",
                            level=LogLevel.ERROR)
                outgoing.queue_gm_notice(
                    session,
                    self.config,
                    None,
                    "A message was quarantined",
                    f"A message ({message.label}) {what}.\n"
                    f"It was moved to {self.inbox.quarantine_place}.",
                )
        except Exception:
            self.log.exception("%s: could not tell the GM about %s", self.inbox.name,
                               message.label)

    def _record(self, results: list[IntakeResult]) -> None:
        """Leave a trace for `moderator status`: when the last good pass ran, what it saw."""
        now = time.monotonic()
        if not results and self._noted is not None and now - self._noted < STATUS_EVERY_SECONDS:
            return
        counts = Counter(str(r.status) for r in results)
        detail = " ".join(f"{status}={n}" for status, n in sorted(counts.items()))
        value = f"{self.clock().isoformat()} messages={len(results)} {detail}".rstrip()
        with session_scope(self.db) as session:
            repo.set_status(session, status_key(self.inbox), value)
        self._noted = now

    # ------------------------------------------------------------------ service loop
    def run(self, stop: threading.Event, on_results: OnResults | None = None) -> None:
        """Read and wait until `stop` is set; survive any failure by reconnecting.

        ``on_results`` gets each pass's results (the service logs them and wakes its
        outbox, so receipts go out at once rather than at the next outbox round).
        """
        failures = 0
        try:
            while not stop.is_set():
                try:
                    results = self.read_once()
                    failures = 0
                    if on_results is not None and results:
                        on_results(results)
                    self.inbox.wait(stop)
                except Exception as exc:
                    if isinstance(exc, InboxUnavailable) and exc.results and on_results:
                        on_results(exc.results)  # those are committed: answer them now
                    failures += 1
                    delay = min(BACKOFF_FIRST * 2 ** (failures - 1), BACKOFF_CAP)
                    why = str(exc) if isinstance(exc, InboxUnavailable) else _describe(exc)
                    self.log.warning("%s: %s; reconnecting in %.0f s (attempt %d)",
                                     self.inbox.name, why, delay, failures)
                    self.inbox.reset()
                    stop.wait(delay)
        finally:
            self.inbox.close()


def process_inbox(db: Engine, config: Config) -> list[IntakeResult]:
    """One pass over the configured inbox (`moderator inbox process`, the demo, tests),
    leaving it cleanly after; raises `InboxUnavailable` as `Incoming.read_once` does."""
    inbox = open_inbox(config)
    try:
        return Incoming(db, config, inbox).read_once()
    finally:
        inbox.close()


def _describe(exc: BaseException) -> str:
    text = str(exc) or exc.__class__.__name__
    return f"{exc.__class__.__name__}: {text}" if text != exc.__class__.__name__ else text
