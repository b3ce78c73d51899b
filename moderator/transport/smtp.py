"""The SMTP outbox: queued mail handed to a real SMTP server, once, even across crashes.

Each batch sends every due ``queued`` Outbox row, oldest first, over one connection
(TLS per ``mail.smtp.security``, certificate verified; AUTH when a username is set).
The envelope sender is the moderator's address, so bounces come back to its mailbox;
the recipients are the row's ``to_addr`` and, if set, ``mail.smtp.sent_copy``.  The
stored bytes go out as they are (the Message-ID was fixed when the mail was queued);
only bare LF line ends become CRLF on the wire, as SMTP requires.

Per row:

* accepted (250 after DATA): ``sent``;
* refused with 5xx at MAIL, RCPT or DATA: ``failed`` at once, and the GM is told;
* refused with 4xx, or the connection fails: ``attempts`` counts it and
  ``next_attempt_at`` moves back (retry_seconds x 2^(attempts-1), at most 6 hours); after
  ``max_attempts`` the row is ``failed`` and the GM is told.  A connection-level failure
  ends the batch: the rows not yet tried stay queued as they were.

Crash safety: a row is marked ``sending`` (committed) before it is handed to the server
and ``sent`` (committed) after the server accepted it; `OutboxSender.recover` settles the
rows a crash left in ``sending`` with the sent copy (`moderator.transport.sent_copy`).
See docs/outbox.md.
"""

from __future__ import annotations

import contextlib
import logging
import re
import smtplib
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, or_, update
from sqlmodel import Session, col, select

from moderator.clock import as_utc
from moderator.faults import crash_point
from moderator.intake.bounces import find_recipient
from moderator.settings.config import Config, ConfigError
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.host import panic_reason
from moderator.store.models import Game, Outbox
from moderator.transport import sent_copy
from moderator.transport.outcomes import SendOutcome, SendReport, describe, outcome

log = logging.getLogger(__name__)

MAX_RETRY_DELAY = timedelta(hours=6)
STATUS_KEY = "smtp.last_send"
# With a wake event, `OutboxSender.run` looks at its stop event at least this often.
STOP_CHECK_SECONDS = 1.0
Clock = Callable[[], datetime]


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Batch:
    sent: list[SendOutcome] = field(default_factory=list)
    failed: list[SendOutcome] = field(default_factory=list)
    deferred: list[SendOutcome] = field(default_factory=list)
    error: str | None = None


class _Refused(Exception):
    """The server answered MAIL, RCPT or DATA with an error code."""

    def __init__(self, stage: str, code: int, reply: bytes | str) -> None:
        text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
        self.code = code
        super().__init__(f"{code} {' '.join(text.split())} (at {stage})")

    @property
    def permanent(self) -> bool:
        return 500 <= self.code < 600

    @property
    def connection_level(self) -> bool:
        # 421: the server is closing the connection; anything that is not 4xx/5xx is garbage.
        return self.code == 421 or not 400 <= self.code < 600


class OutboxSender:
    """Sends the Outbox over SMTP. One per process; `run` is the service loop."""

    def __init__(
        self,
        db: Engine,
        config: Config,
        *,
        clock: Clock = _utcnow,
        timeout: float = 30.0,
        sent_copy_wait: float = 10.0,
    ) -> None:
        self.db = db
        self.config = config
        self.clock = clock
        self.timeout = timeout
        self.sent_copy_wait = sent_copy_wait
        self._recovered = False
        self._lock = threading.Lock()

    # ---- the service loop

    def run(
        self, stop: threading.Event, interval_seconds: float | None = None,
        wake: threading.Event | None = None,
    ) -> None:
        """Send due mail every `interval_seconds` until `stop` is set; never raises.

        Setting ``wake`` sends at once (the service sets it when intake queued receipts
        or a deadline queued newsletters, so players need not wait for the next round).
        """
        interval = self.config.outbox_seconds if interval_seconds is None else interval_seconds
        while not stop.is_set():
            if wake is not None:
                wake.clear()  # before sending: a wake during the batch means "send again"
            try:
                self.send_due()
            except Exception as exc:
                log.exception("sending the outbox failed")
                try:
                    with session_scope(self.db) as session:
                        repo.set_status(session, STATUS_KEY, f"{self._stamp()}: error: {exc}")
                except Exception:
                    log.exception("could not record the outbox status")
            _wait(stop, wake, interval)

    # ---- one batch

    def send_due(self, now: datetime | None = None) -> SendReport:
        """Send every queued row that is due, oldest first, over one connection (nothing
        while the host is stopped by `moderator panic`)."""
        if panic_reason(self.db) is not None:
            return SendReport()
        with self._lock:
            recovered = () if self._recovered else self._recover(now)
            now = as_utc(now or self.clock())
            batch = _Batch()
            ids = self._due_ids(now)
            if ids:
                self._send_batch(ids, now, batch)
            report = SendReport(
                tuple(batch.sent),
                tuple(batch.failed),
                tuple(batch.deferred),
                recovered,
                batch.error,
            )
            with session_scope(self.db) as session:
                stamp = now.isoformat(timespec="seconds")
                repo.set_status(session, STATUS_KEY, f"{stamp}: {report.summary()}")
            return report

    def _due_ids(self, now: datetime) -> list[int]:
        with session_scope(self.db) as session:
            query = (
                select(Outbox.id)
                .where(
                    Outbox.status == "queued",
                    or_(col(Outbox.next_attempt_at).is_(None), col(Outbox.next_attempt_at) <= now),
                )
                .order_by(col(Outbox.created_at), col(Outbox.id))
            )
            return [i for i in session.exec(query) if i is not None]

    def _send_batch(self, ids: list[int], now: datetime, batch: _Batch) -> None:
        try:
            conn = self._connect()
        except (OSError, smtplib.SMTPException, ConfigError) as exc:
            batch.error = f"cannot reach SMTP server: {describe(exc)}"
            log.warning("%s", batch.error)
            # Every due row was attempted and none could go: each waits its own back-off.
            for outbox_id in ids:
                with session_scope(self.db) as session:
                    row = session.get(Outbox, outbox_id)
                    if row is not None and row.status == "queued":
                        row.attempts += 1
                        self._defer(session, row, batch.error, now, batch)
            return
        try:
            for outbox_id in ids:
                if not self._send_one(conn, outbox_id, now, batch):
                    break
        finally:
            try:
                conn.quit()
            except (OSError, smtplib.SMTPException):
                conn.close()

    def _send_one(self, conn: smtplib.SMTP, outbox_id: int, now: datetime, batch: _Batch) -> bool:
        """Send one row; False when the connection is lost (end of the batch)."""
        row = self._claim(outbox_id)
        if row is None:  # sent or taken meanwhile
            return True
        crash_point("smtp.before-send")
        try:
            self._transmit(conn, row)
        except _Refused as exc:
            with session_scope(self.db) as session:
                current = session.get(Outbox, outbox_id)
                assert current is not None
                if exc.permanent:
                    self._fail(session, current, f"refused by the SMTP server: {exc}", batch)
                else:
                    self._defer(session, current, f"SMTP server: {exc}", now, batch)
            if exc.connection_level:
                batch.error = f"SMTP server closed the connection: {exc}"
                return False
            return True
        except (OSError, smtplib.SMTPException) as exc:
            batch.error = f"connection lost: {describe(exc)}"
            with session_scope(self.db) as session:
                current = session.get(Outbox, outbox_id)
                assert current is not None
                self._defer(session, current, batch.error, now, batch)
            return False
        except ValueError as exc:  # e.g. a non-ASCII address smtplib cannot put in a command
            with session_scope(self.db) as session:
                current = session.get(Outbox, outbox_id)
                assert current is not None
                self._fail(session, current, f"cannot be sent: {describe(exc)}", batch)
            _reset(conn)
            return True
        crash_point("smtp.after-send")
        with session_scope(self.db) as session:
            current = session.get(Outbox, outbox_id)
            assert current is not None
            current.status, current.sent_at = "sent", now
            current.next_attempt_at, current.last_error = None, None
            session.add(current)
        batch.sent.append(outcome(row, "sent"))
        return True

    def _claim(self, outbox_id: int) -> Outbox | None:
        """Mark a queued row `sending` (committed); None if another sender got there first."""
        with session_scope(self.db) as session:
            result = session.execute(
                update(Outbox)
                .where(col(Outbox.id) == outbox_id, col(Outbox.status) == "queued")
                .values(status="sending", attempts=col(Outbox.attempts) + 1)
            )
            if result.rowcount != 1:
                return None
        with Session(self.db) as session:
            return session.get(Outbox, outbox_id)

    def _transmit(self, conn: smtplib.SMTP, row: Outbox) -> None:
        """One SMTP transaction: MAIL, RCPT (player, then the sent copy), DATA."""
        wire = _wire(row.raw)
        options = ["BODY=8BITMIME"] if conn.has_extn("8bitmime") and _has_8bit(wire) else []
        code, reply = conn.mail(self.config.moderator_address, options)
        if code != 250:
            _reset(conn)
            raise _Refused("MAIL FROM", code, reply)
        code, reply = conn.rcpt(row.to_addr)
        if code not in (250, 251):
            _reset(conn)
            raise _Refused(f"RCPT TO <{row.to_addr}>", code, reply)
        copy = self.config.smtp.sent_copy
        if copy and copy != row.to_addr.lower():
            code, reply = conn.rcpt(copy)
            if code not in (250, 251):
                # The player still gets his mail; only crash recovery loses its evidence.
                log.warning("sent copy %s refused: %s %r", copy, code, reply)
        try:
            code, reply = conn.data(wire)
        except smtplib.SMTPDataError as exc:
            _reset(conn)
            raise _Refused("DATA", exc.smtp_code, exc.smtp_error) from exc
        if code != 250:
            _reset(conn)
            raise _Refused("end of DATA", code, reply)

    def _connect(self) -> smtplib.SMTP:
        settings = self.config.smtp
        conn: smtplib.SMTP
        if settings.security == "ssl":
            conn = smtplib.SMTP_SSL(
                settings.host, settings.port, timeout=self.timeout, context=settings.ssl_context()
            )
        else:
            conn = smtplib.SMTP(settings.host, settings.port, timeout=self.timeout)
        try:
            conn.ehlo()
            if settings.security == "starttls":
                if not conn.has_extn("starttls"):
                    raise smtplib.SMTPNotSupportedError("the server does not offer STARTTLS")
                conn.starttls(context=settings.ssl_context())
                conn.ehlo()
            if settings.username:
                conn.login(settings.username, settings.password())
        except BaseException:
            conn.close()
            raise
        return conn

    # ---- row outcomes

    def _fail(self, session: Session, row: Outbox, error: str, batch: _Batch) -> None:
        row.status, row.last_error, row.next_attempt_at = "failed", error, None
        session.add(row)
        who = find_recipient(session, row.to_addr, row.game_id)
        game = session.get(Game, row.game_id) if row.game_id is not None else None
        what = f"{row.kind} to {who.describe()} ({row.subject!r}, {row.message_id})"
        repo.log_gm(session, "mail.failed", f"{what} not sent: {error}", game=game, level="error")
        batch.failed.append(outcome(row, "failed", error))

    def _defer(
        self, session: Session, row: Outbox, error: str, now: datetime, batch: _Batch
    ) -> None:
        if row.attempts >= self.config.smtp.max_attempts:
            self._fail(session, row, f"gave up after {row.attempts} attempts: {error}", batch)
            return
        row.status, row.last_error = "queued", error
        row.next_attempt_at = now + self.retry_delay(row.attempts)
        session.add(row)
        batch.deferred.append(outcome(row, "deferred", error))

    def retry_delay(self, attempts: int) -> timedelta:
        """Wait after the `attempts`-th failed attempt: retry_seconds x 2^(attempts-1), capped."""
        seconds = self.config.smtp.retry_seconds * 2 ** max(attempts - 1, 0)
        return min(timedelta(seconds=seconds), MAX_RETRY_DELAY)

    # ---- crash recovery

    def recover(self, now: datetime | None = None) -> tuple[SendOutcome, ...]:
        """Settle rows a crash left in `sending` (done by the first `send_due` anyway)."""
        with self._lock:
            return self._recover(now)

    def _recover(self, now: datetime | None) -> tuple[SendOutcome, ...]:
        self._recovered = True
        stuck = sent_copy.interrupted_rows(self.db)
        if not stuck:
            return ()
        found: set[str] | None = None
        reason = "mail.smtp.sent_copy is not set"
        if self.config.smtp.sent_copy:
            try:
                found = self.find_sent_copies([row.message_id for row in stuck])
            except Exception as exc:
                reason = f"could not read the sent copy: {describe(exc)}"
                log.warning("%s", reason)
        moment = as_utc(now or self.clock())
        return sent_copy.settle_interrupted(self.db, stuck, found, reason, moment)

    def find_sent_copies(self, message_ids: Iterable[str]) -> set[str]:
        """Which of these Message-IDs are in the sent-copy mailbox (waiting a little for
        mail still on its way); raises if the mailbox cannot be read."""
        return sent_copy.find_sent_copies(
            self.config, message_ids, timeout=self.timeout, wait=self.sent_copy_wait
        )

    def _stamp(self) -> str:
        return as_utc(self.clock()).isoformat(timespec="seconds")


def _wait(stop: threading.Event, wake: threading.Event | None, seconds: float) -> None:
    """Wait ``seconds``, or less if `stop` or `wake` is set.

    One thread cannot block on two events, so with a wake event the wait is cut into
    slices of `STOP_CHECK_SECONDS` to notice `stop` (callers that set `wake` on stop,
    as the service does, see it at once).
    """
    if wake is None:
        stop.wait(seconds)
        return
    end = time.monotonic() + seconds
    while not stop.is_set():
        remaining = end - time.monotonic()
        if remaining <= 0 or wake.wait(min(remaining, STOP_CHECK_SECONDS)):
            return


def _reset(conn: smtplib.SMTP) -> None:
    """RSET after a refused transaction; a dead connection shows up at the next command."""
    with contextlib.suppress(OSError, smtplib.SMTPException):
        conn.rset()


def _wire(raw: bytes) -> bytes:
    """The stored bytes with every line ending CRLF (SMTP's canonical form)."""
    return re.sub(rb"\r?\n", b"\r\n", raw)


def _has_8bit(data: bytes) -> bool:
    return any(byte > 127 for byte in data)

