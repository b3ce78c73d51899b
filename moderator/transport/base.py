"""The two shapes every transport has: an inbox that mail is read from, a sender that
hands mail on.  Plain I/O behind small protocols; what a message or a row *means* (intake,
the Outbox, retries, recovery) is the runners' business (`moderator.runners.incoming`,
`moderator.runners.outgoing`), so these types know no database.

An inbox gives its waiting messages oldest first (`fetch`) and files each one after the
caller has finished with it: `done` (processed) or `quarantine` (intake failed on it).  A
message never filed stays where it is and comes back on the next `fetch`.

A sender is opened once per batch (`open`), hands each mail to its next hop (`send`,
answering with a `Handover`), and is closed after the batch.  `delivered` says which
mails a crash may have interrupted were in fact handed over (`moderator.runners.outgoing`
asks it for the rows a crash left half-sent).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol


@dataclass(frozen=True)
class InboxMessage:
    """One waiting message: its raw bytes and the inbox's handle on it."""

    key: str  # the inbox's own name for it (a Maildir key, an IMAP UID)
    raw: bytes
    label: str  # for logs and the GM: "maildir:<key>", "uid:<n>"
    # When our mail server received it (IMAP INTERNALDATE, the Maildir file's time), aware;
    # None when unknown.  What a deadline is judged by, never the sender's Date.
    received_at: datetime | None = None


class Inbox(Protocol):
    """Where incoming mail waits (a Maildir, an IMAP folder)."""

    name: str  # "maildir" | "imap": the prefix of its status key and GM log events
    quarantine_place: str  # where `quarantine` puts a message, in words for the GM
    # Errors of this inbox's own I/O that mean "away for now", not "this message is bad"
    # (the runner adds OSError and the database's): the pass stops, the message stays.
    transient: tuple[type[BaseException], ...]

    def fetch(self) -> Iterator[InboxMessage]:
        """The waiting messages, oldest first, including any that arrive meanwhile."""
        ...

    def done(self, message: InboxMessage) -> None:
        """File a message whose intake has committed (accepted, refused, ignored ...)."""
        ...

    def quarantine(self, message: InboxMessage) -> None:
        """Set aside a message intake failed on, for the GM to look at."""
        ...

    def wait(self, stop: threading.Event) -> None:
        """Wait for new mail (or the poll interval, or `stop`)."""
        ...

    def reset(self) -> None:
        """Forget a connection that failed, without talking to it (reconnect next time)."""
        ...

    def close(self) -> None:
        """Leave cleanly (log out); a dead connection is just dropped."""
        ...


class Verdict(StrEnum):
    """What the next hop said to one mail."""

    ACCEPTED = "accepted"
    REFUSED = "refused"  # permanently: sending it again will not help
    DEFERRED = "deferred"  # for now: try again later


@dataclass(frozen=True)
class Handover:
    """The answer to one `Sender.send`."""

    verdict: Verdict
    detail: str = ""
    # Why the connection is gone, when it is ("" while it is fine): the batch ends here.
    connection_lost: str = ""


@dataclass(frozen=True)
class OutgoingMail:
    """One mail to hand over: the stored bytes go out as they are."""

    to: str
    raw: bytes
    message_id: str


class SenderUnavailable(Exception):
    """`Sender.open` could not reach the next hop (no mail was tried)."""


class Sender(Protocol):
    """Where outgoing mail is handed on (recipients' Maildirs, an SMTP server)."""

    name: str  # "maildir" | "smtp": the prefix of its status key

    def open(self) -> None:
        """Connect for one batch; raises `SenderUnavailable`."""
        ...

    def send(self, mail: OutgoingMail) -> Handover:
        """Hand one mail on; never raises for a refused or undeliverable mail."""
        ...

    def close(self) -> None:
        """End the batch's connection (quietly, if it is dead already)."""
        ...

    def delivered(self, mails: Iterable[OutgoingMail]) -> set[str]:
        """The Message-IDs of those mails that did reach their next hop; raises
        `SenderUnavailable` when that cannot be known (the caller sends them again)."""
        ...
