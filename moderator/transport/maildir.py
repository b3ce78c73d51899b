"""The embedded mail transport: local Maildirs, no servers needed.

Incoming (`MaildirInbox`): the moderator's inbox Maildir; a message is filed in its
``.processed`` folder (or ``.quarantine``) only when the caller says so, after intake
has committed, so a crash in between means it is read again next time.

Outgoing (`MaildirSender`): each mail is added to the recipient's own Maildir
(``<mailboxes>/<address>/``).
"""

from __future__ import annotations

import mailbox
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from email.parser import BytesHeaderParser
from pathlib import Path

from moderator.faults import crash_point
from moderator.transport.base import Handover, InboxMessage, OutgoingMail, Verdict

_KEY = re.compile(r"^(\d+)\.M(\d+)P(\d+)Q(\d+)")
PROCESSED = "processed"
QUARANTINE = "quarantine"


def delivery_order(key: str) -> tuple[int, ...]:
    """Sort key putting Maildir messages in delivery order.

    Python's Maildir names are ``SECONDS.M<usec>P<pid>Q<n>.host`` with the microseconds
    not zero-padded, so plain string order is wrong within one second.
    """
    match = _KEY.match(key)
    return tuple(int(g) for g in match.groups()) if match else (0,)


def open_maildir(path: Path) -> mailbox.Maildir:
    path.parent.mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(path), factory=None, create=True)


class MaildirInbox:
    """The moderator's inbox Maildir, behind `moderator.transport.base.Inbox`."""

    name = "maildir"
    transient: tuple[type[BaseException], ...] = ()

    def __init__(self, path: Path, *, poll_seconds: float) -> None:
        self.path = path
        self.poll_seconds = poll_seconds
        self.quarantine_place = f"the Maildir folder {str(path / ('.' + QUARANTINE))!r}"
        self._box: mailbox.Maildir | None = None

    def _inbox(self) -> mailbox.Maildir:
        if self._box is None:
            self._box = open_maildir(self.path)
        return self._box

    def _folder(self, name: str) -> mailbox.Maildir:
        box = self._inbox()
        if name in box.list_folders():
            return box.get_folder(name)
        return box.add_folder(name)

    def fetch(self) -> Iterator[InboxMessage]:
        box = self._inbox()
        seen: set[str] = set()
        while True:
            # Oldest first, so a player's later message becomes the later version of his
            # orders; then look again for mail that came during the pass.
            keys = sorted((k for k in box.iterkeys() if k not in seen), key=delivery_order)
            if not keys:
                return
            for key in keys:
                seen.add(key)
                try:
                    with box.get_file(key) as handle:
                        raw = handle.read()
                except (KeyError, FileNotFoundError):  # taken by another reader meanwhile
                    continue
                yield InboxMessage(key, raw, f"maildir:{key}")

    def done(self, message: InboxMessage) -> None:
        self._file(message, PROCESSED)

    def quarantine(self, message: InboxMessage) -> None:
        self._file(message, QUARANTINE)

    def _file(self, message: InboxMessage, folder: str) -> None:
        # Added before it is discarded: a crash in between leaves it in both places, and
        # the next read finds a duplicate (intake's Message-ID check), never nothing.
        self._folder(folder).add(message.raw)
        crash_point("maildir.filed-copy")
        self._inbox().discard(message.key)

    def wait(self, stop: threading.Event) -> None:
        stop.wait(self.poll_seconds)

    def reset(self) -> None:
        self._box = None  # re-read the folder list next time

    def close(self) -> None:
        self._box = None


class MaildirSender:
    """Recipients' local Maildirs, behind `moderator.transport.base.Sender`."""

    name = "maildir"

    def __init__(self, mailbox_for: Callable[[str], Path]) -> None:
        self.mailbox_for = mailbox_for

    def open(self) -> None:
        """Nothing to connect to."""

    def send(self, mail: OutgoingMail) -> Handover:
        try:
            open_maildir(self.mailbox_for(mail.to)).add(mail.raw)
        except (OSError, ValueError) as exc:  # e.g. an address that is no usable folder name
            return Handover(Verdict.REFUSED, repr(exc))
        return Handover(Verdict.ACCEPTED)

    def close(self) -> None:
        """Nothing to close."""

    def delivered(self, mails: Iterable[OutgoingMail]) -> set[str]:
        """Look in each recipient's Maildir for the Message-ID (only read after a crash)."""
        found: set[str] = set()
        parser = BytesHeaderParser()
        wanted: dict[str, set[str]] = {}
        for mail in mails:
            wanted.setdefault(mail.to, set()).add(mail.message_id)
        for to, message_ids in sorted(wanted.items()):
            try:
                path = self.mailbox_for(to)
            except ValueError:  # no usable folder: nothing was ever delivered there
                continue
            if not path.exists():
                continue
            box = open_maildir(path)
            for key in box.iterkeys():
                with box.get_file(key) as handle:
                    headers = parser.parsebytes(handle.read())
                message_id = (headers["Message-ID"] or "").strip()
                if message_id in message_ids:
                    found.add(message_id)
        return found
