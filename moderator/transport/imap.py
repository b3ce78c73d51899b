"""The IMAP inbox: the moderator's mailbox on a real server, behind
`moderator.transport.base.Inbox`.

`fetch` reads each message in the watched folder (``mail.imap.folder``) with
``BODY.PEEK[]`` (reading marks nothing seen), oldest first (UID order), and searches again
for mail that came meanwhile.  `done` moves a message to the processed folder,
`quarantine` to the quarantine folder; the caller calls them only after intake has
committed, so a crash before the move leaves the message in the folder, to be read again
(intake's Message-ID check then answers "duplicate").  The crash points
``imap.after-fetch`` and ``imap.before-move`` let the tests prove it with SIGKILL.

`wait` waits for new mail with IMAP IDLE (or sleeps); the reconnecting loop with its
back-off is `moderator.runners.incoming.Incoming.run`.
"""

from __future__ import annotations

import contextlib
import logging
import select
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime

from imapclient import IMAPClient  # type: ignore[import-untyped]
from imapclient.exceptions import (  # type: ignore[import-untyped]
    IMAPClientAbortError,
    IMAPClientError,
)

from moderator.faults import crash_point
from moderator.settings.config import ImapSettings
from moderator.transport.base import InboxMessage

LOG = logging.getLogger(__name__)

STOP_CHECK_SECONDS = 1.0


class ConnectionLost(ConnectionError):
    """The server closed the connection (BYE, or EOF) while we were idling."""


class ImapInbox:
    """One logged-in connection to the moderator's IMAP folder (made on first use)."""

    name = "imap"
    # imaplib's abort: the server or the network went away mid-command.
    transient: tuple[type[BaseException], ...] = (IMAPClientAbortError,)

    def __init__(
        self, settings: ImapSettings, *, log: logging.Logger = LOG, timeout: float = 30.0
    ) -> None:
        self.settings = settings
        self.log = log
        self.timeout = timeout
        self.quarantine_place = f"the IMAP folder {settings.quarantine_folder!r}"
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
        client.normalise_times = False  # INTERNALDATE with its offset, not in the host's zone
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

    def reset(self) -> None:
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

    # ------------------------------------------------------------------ messages
    def fetch(self) -> Iterator[InboxMessage]:
        """Every message in the folder, oldest first, then any that came meanwhile."""
        client = self._connection()
        client.select_folder(self.settings.folder)
        seen: set[int] = set()
        while True:
            # UIDs grow with arrival: UID order is oldest first, so a player's later
            # message becomes the later version of his orders.
            uids = sorted(uid for uid in client.search("ALL") if uid not in seen)
            if not uids:
                return
            for uid in uids:
                seen.add(uid)
                fetched = _fetch(client, uid)
                if fetched is None:  # expunged by someone else since the search
                    continue
                crash_point("imap.after-fetch")
                raw, received = fetched
                yield InboxMessage(str(uid), raw, f"uid:{uid}", received)

    def done(self, message: InboxMessage) -> None:
        # Intake has committed: from here on a crash means "read again, duplicate".
        crash_point("imap.before-move")
        self._move(int(message.key), self.settings.processed_folder)

    def quarantine(self, message: InboxMessage) -> None:
        self._move(int(message.key), self.settings.quarantine_folder)

    def _move(self, uid: int, folder: str) -> None:
        """MOVE when offered (atomic); else copy, flag deleted and expunge."""
        client = self._connection()
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

    # ------------------------------------------------------------------ waiting
    def wait(self, stop: threading.Event) -> None:
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


def _fetch(client: IMAPClient, uid: int) -> tuple[bytes, datetime | None] | None:
    """The raw message, read without setting \\Seen, and when the server received it
    (INTERNALDATE, in UTC; None if it gave none); None when the message vanished."""
    data = client.fetch([uid], ["BODY.PEEK[]", "INTERNALDATE"])
    item = data.get(uid)
    if item is None:
        return None
    raw = item.get(b"BODY[]")
    if raw is None:
        return None
    received = item.get(b"INTERNALDATE")
    # Aware (the client does not normalise times): a naive one would be read in the
    # host's zone, so it is not trusted.
    aware = isinstance(received, datetime) and received.tzinfo is not None
    return bytes(raw), received.astimezone(UTC) if aware else None


def _shutdown_quietly(client: IMAPClient) -> None:
    with contextlib.suppress(Exception):  # already closed: that is what we wanted
        client.shutdown()
