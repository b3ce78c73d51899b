"""The SMTP sender: mail handed to a real SMTP server, behind
`moderator.transport.base.Sender`.

One connection per batch (`open`; TLS per ``mail.smtp.security``, certificate verified;
AUTH when a username is set).  The envelope sender is the moderator's address, so
bounces come back to its mailbox; the recipients are the mail's ``to`` and, if set,
``mail.smtp.sent_copy``.  The stored bytes go out as they are (the Message-ID was fixed
when the mail was queued); only bare LF line ends become CRLF on the wire, as SMTP
requires.

What the server says becomes a `Handover`:

* 250 after DATA: accepted;
* 5xx at MAIL, RCPT or DATA: refused (for good);
* 4xx: deferred; 421 (closing) or a broken connection also ends the batch.

`delivered` answers from the sent copy (`moderator.transport.sent_copy`): every mail goes
in the same SMTP transaction to ``mail.smtp.sent_copy``, so the copy exists exactly when
the server accepted the mail.  What a verdict does to an Outbox row (retries, back-off,
crash recovery) is `moderator.runners.outgoing`.  See docs/outbox.md.
"""

from __future__ import annotations

import contextlib
import logging
import re
import smtplib
from collections.abc import Iterable

from moderator.settings.config import Config, ConfigError
from moderator.transport import sent_copy
from moderator.transport.base import (
    Handover,
    OutgoingMail,
    SenderUnavailable,
    Verdict,
)

log = logging.getLogger(__name__)


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


class SmtpSender:
    """The configured SMTP server (``mail.smtp``); one connection per batch."""

    name = "smtp"

    def __init__(self, config: Config, *, timeout: float = 30.0,
                 sent_copy_wait: float = 10.0) -> None:
        self.config = config
        self.settings = config.smtp
        self.timeout = timeout
        self.sent_copy_wait = sent_copy_wait
        self._conn: smtplib.SMTP | None = None

    # ---- the connection

    def open(self) -> None:
        try:
            self._conn = self._connect()
        except (OSError, smtplib.SMTPException, ConfigError) as exc:
            raise SenderUnavailable(f"cannot reach SMTP server: {describe(exc)}") from exc

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.quit()
        except (OSError, smtplib.SMTPException):
            conn.close()

    def _connect(self) -> smtplib.SMTP:
        settings = self.settings
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

    # ---- one mail

    def send(self, mail: OutgoingMail) -> Handover:
        conn = self._conn
        if conn is None:
            return Handover(Verdict.DEFERRED, "not connected", connection_lost="not connected")
        try:
            self._transmit(conn, mail)
        except _Refused as exc:
            lost = f"SMTP server closed the connection: {exc}" if exc.connection_level else ""
            if exc.permanent:
                return Handover(Verdict.REFUSED, f"refused by the SMTP server: {exc}", lost)
            return Handover(Verdict.DEFERRED, f"SMTP server: {exc}", lost)
        except (OSError, smtplib.SMTPException) as exc:
            error = f"connection lost: {describe(exc)}"
            return Handover(Verdict.DEFERRED, error, connection_lost=error)
        except ValueError as exc:  # e.g. a non-ASCII address smtplib cannot put in a command
            _reset(conn)
            return Handover(Verdict.REFUSED, f"cannot be sent: {describe(exc)}")
        return Handover(Verdict.ACCEPTED)

    def _transmit(self, conn: smtplib.SMTP, mail: OutgoingMail) -> None:
        """One SMTP transaction: MAIL, RCPT (player, then the sent copy), DATA."""
        wire = _wire(mail.raw)
        options = ["BODY=8BITMIME"] if conn.has_extn("8bitmime") and _has_8bit(wire) else []
        code, reply = conn.mail(self.config.moderator_address, options)
        if code != 250:
            _reset(conn)
            raise _Refused("MAIL FROM", code, reply)
        code, reply = conn.rcpt(mail.to)
        if code not in (250, 251):
            _reset(conn)
            raise _Refused(f"RCPT TO <{mail.to}>", code, reply)
        copy = self.settings.sent_copy
        if copy and copy != mail.to.lower():
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

    # ---- after a crash

    def delivered(self, mails: Iterable[OutgoingMail]) -> set[str]:
        """Which of these mails are in the sent-copy mailbox (waiting a little for mail
        still on its way)."""
        if not self.settings.sent_copy:
            raise SenderUnavailable("mail.smtp.sent_copy is not set")
        try:
            return sent_copy.find_sent_copies(
                self.config, [mail.message_id for mail in mails],
                timeout=self.timeout, wait=self.sent_copy_wait,
            )
        except Exception as exc:
            raise SenderUnavailable(f"could not read the sent copy: {describe(exc)}") from exc


def describe(exc: BaseException) -> str:
    """One line for ``last_error`` and the GM log: an SMTP reply as ``code text``,
    anything else as ``Type: message``."""
    if isinstance(exc, smtplib.SMTPResponseException):
        error = exc.smtp_error
        text = error.decode("utf-8", "replace") if isinstance(error, bytes) else str(error)
        return f"{exc.smtp_code} {' '.join(text.split())}"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _reset(conn: smtplib.SMTP) -> None:
    """RSET after a refused transaction; a dead connection shows up at the next command."""
    with contextlib.suppress(OSError, smtplib.SMTPException):
        conn.rset()


def _wire(raw: bytes) -> bytes:
    """The stored bytes with every line ending CRLF (SMTP's canonical form)."""
    return re.sub(rb"\r?\n", b"\r\n", raw)


def _has_8bit(data: bytes) -> bool:
    return any(byte > 127 for byte in data)
