"""The embedded mail transport: local Maildirs, no servers needed.

Incoming (`MaildirInbox`): the moderator's inbox Maildir; a message is filed in its
``.processed`` folder (or ``.quarantine``) only when the caller says so, after intake
has committed, so a crash in between means it is read again next time.

Outgoing (`MaildirSender`): each mail is added to the recipient's own Maildir
(``<mailboxes>/<address>/``).
"""

from __future__ import annotations

import glob
import mailbox
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from pathlib import Path

from moderator.faults import crash_point
from moderator.transport.base import Handover, InboxMessage, OutgoingMail, Verdict

PROCESSED = "processed"
QUARANTINE = "quarantine"


# Every MDA starts a Maildir name with the delivery's seconds; most add microseconds
# (Python, Dovecot: M<usec>; Postfix: V<dev>I<inode>M<usec>) and a counter (Python's
# Q<n>, procmail's <pid>_<n>).  Within one second the file's mtime (nanoseconds, set
# when the MDA wrote it) decides, then those numbers, then the name itself.
_SECONDS = re.compile(r"^(\d+)\.")
_MICROS = re.compile(r"M(\d+)")
_COUNTER = re.compile(r"(?:Q|_)(\d+)")

DeliveryOrder = tuple[int, int, int, int, str]


def delivery_order(key: str, mtime_ns: int = 0) -> DeliveryOrder:
    """Sort key putting Maildir messages in delivery order, whichever MDA wrote them:
    ``1733.M123P456Q1.host`` (Python), ``1733.M123P456.host,S=9`` (Dovecot),
    ``1733.V803I1c2M123.host`` (Postfix), ``1733.456_0.host`` (procmail).

    The seconds prefix first, then ``mtime_ns`` (0: unknown), then the microseconds and
    counter in the name (not zero-padded: compared as numbers), then the name, so the
    order is total and the same on every read.
    """
    seconds = _SECONDS.match(key)
    unique = key.split(".")[1] if "." in key else ""
    micros, counter = _MICROS.search(unique), _COUNTER.search(unique)
    return (int(seconds.group(1)) if seconds else 0, mtime_ns,
            int(micros.group(1)) if micros else 0, int(counter.group(1)) if counter else 0,
            key)


def delivered_mtime(folder: Path, key: str) -> int:
    """The mtime (ns) of message ``key`` in the Maildir ``folder`` (new/ or cur/, where
    the name gains ``:2,flags``); 0 when it is gone."""
    try:
        return (folder / "new" / key).stat().st_mtime_ns
    except OSError:
        pass
    # Only a message not in new/ is looked for in cur/: listing cur/ for every message
    # of a pass cost more than reading the message (issue 16, goal 3).
    for candidate in sorted((folder / "cur").glob(f"{glob.escape(key)}*")):
        try:
            return candidate.stat().st_mtime_ns
        except OSError:
            continue
    return 0


def delivered_at(folder: Path, key: str) -> datetime | None:
    """When the MDA delivered message ``key`` (its file's mtime, kept when the file moves
    from tmp/ to new/ and cur/), in UTC; None when it is gone."""
    mtime_ns = delivered_mtime(folder, key)
    return datetime.fromtimestamp(mtime_ns / 1e9, UTC) if mtime_ns else None


def in_delivery_order(folder: Path, keys: Iterable[str]) -> list[str]:
    """``keys`` of the Maildir ``folder`` oldest first (`delivery_order` with mtimes)."""
    return sorted(keys, key=lambda k: delivery_order(k, delivered_mtime(folder, k)))


MAILDIR_PARTS = ("tmp", "new", "cur")


def open_maildir(path: Path) -> mailbox.Maildir:
    """The Maildir at ``path``, made first if it is not there.

    A new Maildir appears whole: its ``tmp``, ``new`` and ``cur`` are made in a staging
    folder beside it, which is then renamed into place.  The standard library makes the
    folder first and its parts after, so a reader looking at that moment (a mail client,
    a second process, a test) found a Maildir with no ``cur`` and failed.  A staging
    folder that a killed process left is swept here once it is stale (`_sweep_staging`).
    """
    if not all((path / part).is_dir() for part in MAILDIR_PARTS):
        _make_maildir(path)
    return mailbox.Maildir(str(path), factory=None, create=False)


# In a Maildir++ folder (``.processed``): what marks it as one (Dovecot, Courier).
FOLDER_MARK = "maildirfolder"


# A staging folder this old was left by a process killed before its rename; a younger one
# may be another process's, being filled at this moment, and is left alone.
STALE_STAGING_SECONDS = 3600


def _sweep_staging(staging_dir: Path, name: str) -> None:
    """Remove the stale staging folders of the Maildir ``name`` from ``staging_dir``.

    Only this name's: ``.{name}.`` and then `tempfile.mkdtemp`'s suffix, which has no dot
    (``.a.b.x1y2z3w4`` stages the Maildir ``a.b``, not ``a``).  Errors are ignored: another
    process may be sweeping the same folder, and a missed one is swept next time.
    """
    prefix = f".{name}."
    stale_before = time.time() - STALE_STAGING_SECONDS
    try:
        with os.scandir(staging_dir) as entries:
            ours = [entry for entry in entries
                    if entry.name.startswith(prefix) and "." not in entry.name[len(prefix):]]
    except OSError:
        return
    for entry in ours:
        try:
            stale = (entry.is_dir(follow_symlinks=False)
                     and entry.stat(follow_symlinks=False).st_mtime < stale_before)
        except OSError:  # renamed into place or swept meanwhile
            continue
        if stale:
            shutil.rmtree(entry.path, ignore_errors=True)


def _make_maildir(path: Path, *, inside: Path | None = None) -> None:
    """Make the Maildir ``path`` whole (see `open_maildir`); ``inside``: the Maildir whose
    folder it is, where it is staged in ``tmp`` (a staging folder beside it, its name
    starting with a dot, would be listed as a folder of that Maildir meanwhile)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    marks = (FOLDER_MARK,) if inside is not None else ()
    if path.is_dir():  # an older or hand-made Maildir missing a part: add it
        for part in MAILDIR_PARTS:
            (path / part).mkdir(mode=0o700, exist_ok=True)
        for mark in marks:
            (path / mark).touch(mode=0o600)
        return
    # A leading dot: no mailbox name starts with one (`Config.mailbox_for`).
    staging_dir = inside / "tmp" if inside is not None else path.parent
    _sweep_staging(staging_dir, path.name)
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=staging_dir))
    try:
        for part in MAILDIR_PARTS:
            (staging / part).mkdir(mode=0o700)
        for mark in marks:
            (staging / mark).touch(mode=0o600)
        try:
            os.rename(staging, path)
        except OSError:  # another process made it first: theirs stands
            if not path.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


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
        """The inbox's folder ``name``, made whole first if need be: the standard library
        makes it part by part, and a second process (another worker, `inbox process`)
        filing a message into it meanwhile found no ``tmp`` and failed."""
        box = self._inbox()
        path = self.path / f".{name}"
        if not all((path / part).is_dir() for part in MAILDIR_PARTS):
            _make_maildir(path, inside=self.path)
        return box.get_folder(name)

    def fetch(self) -> Iterator[InboxMessage]:
        box = self._inbox()
        seen: set[str] = set()
        while True:
            # Oldest first, so a player's later message becomes the later version of his
            # orders; then look again for mail that came during the pass.
            keys = in_delivery_order(self.path, (k for k in box.iterkeys() if k not in seen))
            if not keys:
                return
            for key in keys:
                seen.add(key)
                try:
                    with box.get_file(key) as handle:
                        raw = handle.read()
                except (KeyError, FileNotFoundError):  # taken by another reader meanwhile
                    continue
                yield InboxMessage(key, raw, f"maildir:{key}", delivered_at(self.path, key))

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
