"""Mail I/O behind two small protocols (`moderator.transport.base`): an `Inbox` to read
from and a `Sender` to hand mail to.  ``mail.transport`` picks the pair, here and nowhere
else: ``maildir`` (local folders) or ``imap`` (IMAP in, SMTP out).

This package knows no database and no intake: it imports only the settings, the crash
points and its own types.  The loops that use it are `moderator.runners.incoming` and
`moderator.runners.outgoing`.
"""

from __future__ import annotations

import logging

from moderator.settings.config import Config
from moderator.transport.base import Inbox, Sender
from moderator.transport.imap import ImapInbox
from moderator.transport.maildir import MaildirInbox, MaildirSender
from moderator.transport.smtp import SmtpSender

__all__ = ["Inbox", "Sender", "open_inbox", "open_sender"]


def open_inbox(config: Config, *, log: logging.Logger | None = None) -> Inbox:
    """The configured inbox (it connects on first use; `close` it after)."""
    if config.transport == "imap":
        return ImapInbox(config.imap) if log is None else ImapInbox(config.imap, log=log)
    return MaildirInbox(config.maildir_inbox, poll_seconds=config.maildir_poll_seconds)


def open_sender(config: Config) -> Sender:
    """The configured sender (it connects per batch, in `open`)."""
    if config.transport == "imap":
        return SmtpSender(config)
    return MaildirSender(config.mailbox_for)
