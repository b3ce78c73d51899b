"""Outgoing mail: the Outbox handed to any transport's sender, once, even across crashes.

Each batch (`Outgoing.send_due`) takes every due ``queued`` row, oldest first, opens the
sender once and hands each row over.  Per row, what the sender answers
(`moderator.transport.base.Handover`) becomes:

* accepted: ``sent``;
* refused: ``failed`` at once, and the GM is told;
* deferred: ``attempts`` counts it and ``next_attempt_at`` moves back (retry_seconds x
  2^(attempts-1), at most 6 hours); after ``max_attempts`` the row is ``failed`` and the
  GM is told.  When the connection is lost the batch ends: the rows not yet tried stay
  queued as they were; when it cannot even be opened, every due row counts one attempt.

Crash safety: a row is marked ``sending`` (committed) before it is handed over and
``sent`` (committed) after the sender accepted it; the crash points
``<sender>.before-send`` and ``<sender>.after-send`` (``smtp.…``, ``maildir.…``) sit just
inside those two commits.  A row found in ``sending`` by the first batch (`recover`) was
interrupted in between: the sender says whether it got through (`Sender.delivered`: the
SMTP sent copy, the recipient's Maildir): found -> ``sent``; not found -> ``queued`` again,
resent with the same Message-ID; cannot tell -> ``queued`` again and the GM warned that
the player may get it twice.  See docs/outbox.md.

A gazette's or turn sheet's row keeps only the mail's headers and the newsletter's id:
`moderator.publish.outgoing.mail_bytes` writes the whole mail (the same bytes every
time) when the row is claimed, and for the recovery check.

What a batch did is reported in the types of `moderator.runners.send_report`; the rows a
crash interrupted are settled by `moderator.runners.outbox_recovery`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, or_, update
from sqlmodel import Session, col, select

from moderator.clock import as_utc
from moderator.faults import crash_point
from moderator.intake.bounces import find_recipient
from moderator.publish.outgoing import mail_bytes
from moderator.runners.outbox_recovery import interrupted_rows, settle_interrupted
from moderator.runners.send_report import (
    BatchTally,
    SendFate,
    SendOutcome,
    SendReport,
    outcome,
)
from moderator.settings.config import Config
from moderator.store import outbox_tidy, repo
from moderator.store.db import session_scope
from moderator.store.host import panic_reason
from moderator.store.models import Game, Outbox
from moderator.store.statuses import LogLevel, OutboxStatus
from moderator.transport import Sender, open_sender
from moderator.transport.base import OutgoingMail, SenderUnavailable, Verdict

log = logging.getLogger(__name__)

MAX_RETRY_DELAY = timedelta(hours=6)
# With a wake event, `Outgoing.run` looks at its stop event at least this often.
STOP_CHECK_SECONDS = 1.0
Clock = Callable[[], datetime]


def _utcnow() -> datetime:
    return datetime.now(UTC)


def status_key(sender: Sender) -> str:
    """The service-status key of a sender's last batch: ``smtp.last_send`` ..."""
    return f"{sender.name}.last_send"


class Outgoing:
    """Sends the Outbox through one sender. One per process; `run` is the service loop."""

    def __init__(
        self, db: Engine, config: Config, sender: Sender, *, clock: Clock = _utcnow,
        may_recover: Callable[[], bool] = lambda: True,
    ) -> None:
        self.db = db
        self.config = config
        self.sender = sender
        self.clock = clock
        # Workers (`serve --worker`): rows in ``sending`` are another live worker's unless
        # no other runs, so recovery waits for a batch where ``may_recover()`` says so.
        self.may_recover = may_recover
        self._recovered = False
        self._lock = threading.Lock()

    # ---- the service loop

    def run(
        self, stop: threading.Event, interval_seconds: float | None = None,
        wake: threading.Event | None = None,
        on_report: Callable[[SendReport], None] | None = None,
    ) -> None:
        """Send due mail every `interval_seconds` until `stop` is set; never raises.

        Setting ``wake`` sends at once (the service sets it when intake queued receipts
        or a deadline queued newsletters, so players need not wait for the next round).
        ``on_report`` gets each batch's report (the service logs every mail in it).
        """
        interval = self.config.outbox_seconds if interval_seconds is None else interval_seconds
        while not stop.is_set():
            if wake is not None:
                wake.clear()  # before sending: a wake during the batch means "send again"
            try:
                report = self.send_due()
                if on_report is not None:
                    on_report(report)
            except Exception as exc:
                log.exception("sending the outbox failed")
                try:
                    with session_scope(self.db) as session:
                        repo.set_status(session, status_key(self.sender),
                                        f"{self._stamp()}: error: {exc}")
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
            recovered = () if self._recovered or not self.may_recover() \
                else self._recover(now)
            now = as_utc(now or self.clock())
            batch = BatchTally()
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
                repo.set_status(session, status_key(self.sender), f"{stamp}: {report.summary()}")
            return report

    def _due_ids(self, now: datetime) -> list[int]:
        with session_scope(self.db) as session:
            query = (
                select(Outbox.id)
                .where(
                    Outbox.status == OutboxStatus.QUEUED,
                    or_(col(Outbox.next_attempt_at).is_(None), col(Outbox.next_attempt_at) <= now),
                )
                .order_by(col(Outbox.created_at), col(Outbox.id))
            )
            return [i for i in session.exec(query) if i is not None]

    def _send_batch(self, ids: list[int], now: datetime, batch: BatchTally) -> None:
        try:
            self.sender.open()
        except SenderUnavailable as exc:
            batch.error = str(exc)
            log.warning("%s", batch.error)
            # Every due row was attempted and none could go: each waits its own back-off.
            for outbox_id in ids:
                with session_scope(self.db) as session:
                    row = session.get(Outbox, outbox_id)
                    if row is not None and row.status == OutboxStatus.QUEUED:
                        row.attempts += 1
                        self._defer(session, row, batch.error, now, batch)
            return
        try:
            for outbox_id in ids:
                # Asked again before each mail: a `panic` stops a batch under way, and
                # mail queued after the panic (so listed after it was set) is never sent.
                if panic_reason(self.db) is not None or not self._send_one(outbox_id, now,
                                                                           batch):
                    break
        finally:
            self.sender.close()

    def _send_one(self, outbox_id: int, now: datetime, batch: BatchTally) -> bool:
        """Hand one row over; False when the connection is lost (end of the batch)."""
        claimed = self._claim(outbox_id, batch)
        if claimed is None:  # sent or taken meanwhile, or a mail that cannot be written
            return True
        row, mail = claimed
        crash_point(f"{self.sender.name}.before-send")
        handover = self.sender.send(mail)
        if handover.verdict == Verdict.ACCEPTED:
            crash_point(f"{self.sender.name}.after-send")
        with session_scope(self.db) as session:
            current = session.get(Outbox, outbox_id)
            assert current is not None
            if handover.verdict == Verdict.ACCEPTED:
                current.status, current.sent_at = OutboxStatus.SENT, now
                current.next_attempt_at, current.last_error = None, None
                outbox_tidy.mask_secret(current, now)  # the player has his password; we need not
                session.add(current)
                batch.sent.append(outcome(row, SendFate.SENT))
            elif handover.verdict == Verdict.REFUSED:
                self._fail(session, current, handover.detail, batch)
            else:
                self._defer(session, current, handover.detail, now, batch)
        if handover.connection_lost:
            batch.error = handover.connection_lost
            return False
        return True

    def _claim(self, outbox_id: int, batch: BatchTally) -> tuple[Outbox, OutgoingMail] | None:
        """Write a queued row's mail, then mark the row `sending` (committed); the row and
        its mail, or None if another sender got there first.

        The mail is written before the claim: a row is only ever `sending` with its mail
        in hand, so a mail that cannot be written (a newsletter row gone or unreadable)
        fails here, once, with its reason, instead of sitting in `sending` to be found
        "cannot tell" at every restart."""
        with Session(self.db) as session:
            row = session.get(Outbox, outbox_id)
            if row is None or row.status != OutboxStatus.QUEUED:
                return None
            try:
                mail = outgoing_mail(session, row)
            except Exception as exc:  # whatever broke, it will not mend by itself
                error = f"the mail could not be written: {exc!r}"
                mail = None
        if mail is None:
            with session_scope(self.db) as session:
                current = session.get(Outbox, outbox_id)
                if current is not None and current.status == OutboxStatus.QUEUED:
                    self._fail(session, current, error, batch)
            return None
        with session_scope(self.db) as session:
            result = session.execute(
                update(Outbox)
                .where(col(Outbox.id) == outbox_id, col(Outbox.status) == OutboxStatus.QUEUED)
                .values(status=OutboxStatus.SENDING, attempts=col(Outbox.attempts) + 1)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                return None
        return row, mail

    # ---- row outcomes

    def _fail(self, session: Session, row: Outbox, error: str, batch: BatchTally) -> None:
        row.status, row.last_error, row.next_attempt_at = OutboxStatus.FAILED, error, None
        outbox_tidy.mask_secret(row, self.clock())  # never sent again: its password can go
        session.add(row)
        who = find_recipient(session, row.to_addr, row.game_id)
        game = session.get(Game, row.game_id) if row.game_id is not None else None
        what = f"{row.kind} to {who.describe()} ({row.subject!r}, {row.message_id})"
        repo.log_gm(session, "mail.failed", f"{what} not sent: {error}", game=game,
                    level=LogLevel.ERROR)
        batch.failed.append(outcome(row, SendFate.FAILED, error))

    def _defer(
        self, session: Session, row: Outbox, error: str, now: datetime, batch: BatchTally
    ) -> None:
        if row.attempts >= self.config.smtp.max_attempts:
            self._fail(session, row, f"gave up after {row.attempts} attempts: {error}", batch)
            return
        row.status, row.last_error = OutboxStatus.QUEUED, error
        row.next_attempt_at = now + self.retry_delay(row.attempts)
        session.add(row)
        batch.deferred.append(outcome(row, SendFate.DEFERRED, error))

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
        stuck = interrupted_rows(self.db)
        if not stuck:
            return ()
        found: set[str] | None = None
        reason = ""
        try:
            with Session(self.db) as session:
                mails = [outgoing_mail(session, row) for row in stuck]
            found = self.sender.delivered(mails)
        except SenderUnavailable as exc:
            reason = str(exc)
        except Exception as exc:  # the answer is "cannot tell", whatever went wrong
            reason = f"could not tell whether it was sent: {exc!r}"
        if found is None:
            log.warning("%s", reason)
        moment = as_utc(now or self.clock())
        return settle_interrupted(self.db, stuck, found, reason, moment)

    def _stamp(self) -> str:
        return as_utc(self.clock()).isoformat(timespec="seconds")


def outgoing_mail(session: Session, row: Outbox) -> OutgoingMail:
    """What the sender gets for a row: the whole mail, a newsletter's body written again."""
    return OutgoingMail(row.to_addr, mail_bytes(session, row), row.message_id)


def deliver_outbox(db: Engine, config: Config) -> SendReport:
    """One batch with the configured sender (`moderator outbox send`, the demo, tests)."""
    return Outgoing(db, config, open_sender(config)).send_due()


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


__all__ = [
    "Outgoing",
    "SendFate",
    "SendOutcome",
    "SendReport",
    "deliver_outbox",
    "interrupted_rows",
    "outcome",
    "outgoing_mail",
    "settle_interrupted",
    "status_key",
]
