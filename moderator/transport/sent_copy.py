"""The sent-copy mailbox: did the SMTP server accept a mail before a crash?

Every mail goes in the same SMTP transaction to ``mail.smtp.sent_copy``, so the copy
exists exactly when the server accepted the mail.  `find_sent_copies` logs in over IMAP
(the ``mail.imap`` server, as the sent_copy address, password from the environment
variable ``MODERATOR_SENT_COPY_PASSWORD``) and looks for the Message-IDs.  What the answer
does to the Outbox rows is `moderator.runners.outgoing`.  See docs/outbox.md.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from imapclient import IMAPClient  # type: ignore[import-untyped]

from moderator.settings.config import Config, ConfigError

SENT_COPY_PASSWORD_ENV = "MODERATOR_SENT_COPY_PASSWORD"


def find_sent_copies(
    config: Config, message_ids: Iterable[str], *, timeout: float, wait: float
) -> set[str]:
    """Which of these Message-IDs are in the sent-copy mailbox (waiting up to ``wait``
    seconds for mail still on its way); raises if the mailbox cannot be read."""
    wanted = set(message_ids)
    imap = config.imap
    smtp = config.smtp
    username = smtp.sent_copy_username or smtp.sent_copy
    env = smtp.sent_copy_password_env
    password = os.environ.get(env)
    if password is None:
        raise ConfigError([f"environment variable {env} is not set"])
    folder = smtp.sent_copy_folder
    client = IMAPClient(
        imap.host,
        port=imap.port,
        ssl=imap.security == "ssl",
        ssl_context=imap.ssl_context() if imap.security != "none" else None,
        timeout=timeout,
    )
    try:
        if imap.security == "starttls":
            client.starttls(imap.ssl_context())
        client.login(username, password)
        client.select_folder(folder, readonly=True)
        found: set[str] = set()
        deadline = time.monotonic() + wait
        while True:
            for message_id in sorted(wanted - found):
                if client.search(["HEADER", "Message-ID", message_id]):
                    found.add(message_id)
            if found == wanted or time.monotonic() >= deadline:
                return found
            time.sleep(0.25)
            client.noop()
    finally:
        try:
            client.logout()
        except Exception:
            client.shutdown()
