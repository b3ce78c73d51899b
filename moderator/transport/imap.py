"""The IMAP transport, incoming side: read the moderator's mailbox on a real server.

Each message in the watched folder (``mail.imap.folder``) is fetched with
``BODY.PEEK[]`` (reading marks nothing seen) and run through intake.  Only after
`process_message` has returned, so its rows are committed, is the message moved out:
to the processed folder, or to the quarantine folder when intake failed on it.

Crash safety follows from that order.  A crash before the move leaves the message in
the folder; the next poll reads it again and intake's Message-ID check answers
"duplicate", which is simply moved to processed.  Nothing is lost, nothing is done
twice.  The crash points ``imap.after-fetch`` and ``imap.before-move`` let the tests
prove it with SIGKILL.

`ImapPoller.run` is the service loop: poll, then wait for new mail with IMAP IDLE (or
sleep), reconnecting with a growing back-off whenever the server goes away.
"""

from __future__ import annotations

import contextlib
import logging
import select
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from moderator.faults import crash_point
from moderator.intake.process import IntakeResult, process_message
from moderator.publish import outgoing
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.host import panic_reason

LOG = logging.getLogger(__name__)

STATUS_KEY = "imap.last_poll"
BACKOFF_FIRST = 1.0
BACKOFF_CAP = 30.0
STOP_CHECK_SECONDS = 1.0

# Errors that say "the server, the network or the database is away", not "this message
# is bad": the poll stops, the message stays where it is, and `run` reconnects later.
# (imaplib's abort is a subclass of its error, so it must be tested first.)
TRANSIENT: tuple[type[BaseException], ...] = (IMAPClientAbortError, OSError, OperationalError)


class ConnectionLost(ConnectionError):
    """The server closed the connection (BYE, or EOF) while we were idling."""


def _utcnow() -> datetime:
    return datetime.now(UTC)


class ImapPoller:
    """Reads the moderator's IMAP mailbox into intake; one instance per service thread."""

    def __init__(
        self,
        db: Engine,
        config: Config,
        *,
        clock: Callable[[], datetime] = _utcnow,
        log: logging.Logger = LOG,
        timeout: float = 30.0,
    ) -> None:
        self.db = db
        self.config = config
        self.settings = config.imap
        self.clock = clock
        self.log = log
        self.timeout = timeout
        self._client: IMAPClient | None = None

    # ------------------------------------------------------------------ connection
    @property
    def connected(self) -> bool:
        return self._client is not None

    def _connection(self) -> IMAPClient:
        """The logged-in client, connecting first when there is none."""
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _connect(self) -> IMAPClient:
        """Connect with the configured TLS (certificates verified), log in, make folders."""
        s = self.settings
        implicit_tls = s.security == "ssl"
        client = IMAPClient(
            s.host,
            port=s.port,
            ssl=implicit_tls,
            ssl_context=s.ssl_context() if implicit_tls else None,
            timeout=self.timeout,
        )
        try:
            if s.security == "starttls":
                client.starttls(s.ssl_context())
            client.login(s.username, s.password())
            self._ensure_folders(client)
        except BaseException:
            _shutdown_quietly(client)
            raise
        self.log.info("IMAP: logged in to %s:%s as %s (%s)", s.host, s.port, s.username,
                      s.security)
        return client

    def _ensure_folders(self, client: IMAPClient) -> None:
        """Create (and subscribe, so the GM's mail client shows them) the target folders."""
        for folder in (self.settings.processed_folder, self.settings.quarantine_folder):
            if client.folder_exists(folder):
                continue
            try:
                client.create_folder(folder)
            except IMAPClientError:
                if not client.folder_exists(folder):  # not a race with another client
                    raise
            client.subscribe_folder(folder)
            self.log.info("IMAP: created folder %s", folder)

    def _drop(self) -> None:
        """Forget a connection that is (or may be) broken, without talking to it."""
        if self._client is not None:
            _shutdown_quietly(self._client)
            self._client = None

    def close(self) -> None:
        """Log out cleanly; a dead connection is just dropped."""
        client, self._client = self._client, None
        if client is None:
            return
        try:
            client.logout()
        except Exception:  # the server is gone already: nothing left to close politely
            _shutdown_quietly(client)

    # ------------------------------------------------------------------ polling
    def poll_once(self) -> list[IntakeResult]:
        """Run intake over every message in the folder, oldest first; move each after.

        A connection (or database) failure drops the connection and propagates: the
        messages not yet moved stay in the folder and are read again next time.
        Nothing is read while the host is stopped (`moderator panic`).
        """
        if panic_reason(self.db) is not None:
            return []
        try:
            client = self._connection()
            client.select_folder(self.settings.folder)
            results = self._drain(client)
        except TRANSIENT:
            self._drop()
            raise
        self._record_poll(results)
        return results

    def _drain(self, client: IMAPClient) -> list[IntakeResult]:
        """Handle the waiting messages, then look again for mail that came meanwhile."""
        results: list[IntakeResult] = []
        seen: set[int] = set()
        while True:
            # UIDs grow with arrival: UID order is oldest first, so a player's later
            # message becomes the later version of his orders.
            uids = sorted(uid for uid in client.search("ALL") if uid not in seen)
            if not uids:
                return results
            for uid in uids:
                seen.add(uid)
                result = self._handle(client, uid)
                if result is not None:
                    results.append(result)

    def _handle(self, client: IMAPClient, uid: int) -> IntakeResult | None:
        """One message: fetch, intake, then file it; a bad message is quarantined."""
        try:
            raw = _fetch(client, uid)
            if raw is None:  # expunged by someone else since the search
                return None
            crash_point("imap.after-fetch")
            result = process_message(self.db, self.config, raw, now=self.clock())
        except TRANSIENT:
            raise
        except Exception as exc:  # one bad message never stops the others
            self.log.exception("IMAP: message uid %s could not be processed", uid)
            self._tell_gm(f"IMAP uid {uid}", f"could not be read into intake: {exc!r}")
            result = IntakeResult(f"uid:{uid}", "failed", repr(exc))
        else:
            # Intake has committed: from here on a crash means "read again, duplicate".
            crash_point("imap.before-move")
        self._file(client, uid, result)
        return result

    def _file(self, client: IMAPClient, uid: int, result: IntakeResult) -> None:
        """Failed messages go to quarantine (the GM has been told), all others to processed."""
        if result.status == "failed":
            folder = self.settings.quarantine_folder
            self.log.error("IMAP: %s failed (%s); moving it to %s", result.message_id,
                           result.detail, folder)
        else:
            folder = self.settings.processed_folder
        self._move(client, uid, folder)

    def _move(self, client: IMAPClient, uid: int, folder: str) -> None:
        """MOVE when offered (atomic); else copy, flag deleted and expunge."""
        if client.has_capability("MOVE"):
            client.move([uid], folder)
            return
        # A crash between copy and expunge leaves a second copy in `folder` at worst;
        # the message is then read again and intake calls it a duplicate.
        client.copy([uid], folder)
        client.delete_messages([uid])
        if client.has_capability("UIDPLUS"):
            client.uid_expunge([uid])
        else:
            client.expunge()

    def _tell_gm(self, which: str, what: str) -> None:
        """Best effort: intake did not report this message, so the GM hears it from us."""
        folder = self.settings.quarantine_folder
        try:
            with session_scope(self.db) as session:
                repo.log_gm(session, "imap.quarantined", f"{which} {what}", level="error")
                outgoing.queue_gm_notice(
                    session,
                    self.config,
                    None,
                    "A message was quarantined",
                    f"A message ({which}) {what}.\n"
                    f"It was moved to the IMAP folder {folder!r}.",
                )
        except Exception:
            self.log.exception("IMAP: could not tell the GM about %s", which)

    def _record_poll(self, results: list[IntakeResult]) -> None:
        """Leave a trace for `moderator status`: when the last good poll ran, what it saw."""
        counts = Counter(r.status for r in results)
        detail = " ".join(f"{status}={n}" for status, n in sorted(counts.items()))
        value = f"{self.clock().isoformat()} messages={len(results)} {detail}".rstrip()
        with session_scope(self.db) as session:
            repo.set_status(session, STATUS_KEY, value)

    # ------------------------------------------------------------------ service loop
    def run(
        self, stop: threading.Event,
        on_results: Callable[[list[IntakeResult]], None] | None = None,
    ) -> None:
        """Poll and wait until `stop` is set; survive any failure by reconnecting.

        ``on_results`` gets each poll's results (the service logs them and wakes its
        outbox, so receipts go out at once rather than at the next outbox round).
        """
        failures = 0
        while not stop.is_set():
            try:
                results = self.poll_once()
                failures = 0
                if on_results is not None and results:
                    on_results(results)
                self._wait(stop)
            except Exception as exc:
                failures += 1
                delay = min(BACKOFF_FIRST * 2 ** (failures - 1), BACKOFF_CAP)
                self.log.warning("IMAP: %s; reconnecting in %.0f s (attempt %d)",
                                 _describe(exc), delay, failures)
                self._drop()
                stop.wait(delay)
        self.close()

    def _wait(self, stop: threading.Event) -> None:
        """Wait for new mail: IDLE when possible, else sleep ``poll_seconds``."""
        client = self._client
        if client is not None and self.settings.idle and client.has_capability("IDLE"):
            self._idle(client, stop)
        else:
            stop.wait(self.settings.poll_seconds)

    def _idle(self, client: IMAPClient, stop: threading.Event) -> None:
        """IDLE until the server reports a change, `poll_seconds` pass, or `stop` is set.

        Re-issuing IDLE every ``poll_seconds`` keeps the connection inside the
        server's (and NAT boxes') timeouts and bounds the delay if a notice is missed.
        """
        client.idle()
        deadline = time.monotonic() + self.settings.poll_seconds
        while not stop.is_set():
            remaining = deadline - time.monotonic()
            if remaining <= 0 or _idle_news(client, min(STOP_CHECK_SECONDS, remaining)):
                break
        client.idle_done()


def _idle_news(client: IMAPClient, timeout: float) -> bool:
    """True when the server reported a change; raises when it closed the connection."""
    readable, _, _ = select.select([client.socket()], [], [], timeout)
    if not readable:
        return False
    responses = client.idle_check(timeout=0)
    if not responses:  # readable but nothing to read: EOF
        raise ConnectionLost("IMAP server closed the connection while idling")
    if any(response[0] == b"BYE" for response in responses):
        raise ConnectionLost(f"IMAP server said goodbye: {responses!r}")
    # "* OK Still here" is a keep-alive; anything else (EXISTS, RECENT ...) is news.
    return any(response[0] != b"OK" for response in responses)


def _fetch(client: IMAPClient, uid: int) -> bytes | None:
    """The raw message, read without setting \\Seen; None when it vanished."""
    data = client.fetch([uid], ["BODY.PEEK[]"])
    item = data.get(uid)
    if item is None:
        return None
    raw = item.get(b"BODY[]")
    return bytes(raw) if raw is not None else None


def _shutdown_quietly(client: IMAPClient) -> None:
    with contextlib.suppress(Exception):  # already closed: that is what we wanted
        client.shutdown()


def _describe(exc: BaseException) -> str:
    text = str(exc) or exc.__class__.__name__
    return f"{exc.__class__.__name__}: {text}" if text != exc.__class__.__name__ else text
