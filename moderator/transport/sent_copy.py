"""Crash recovery for the SMTP outbox, through the sent-copy mailbox.

Crash safety: a row is marked ``sending`` (committed) before it is handed to the server
and ``sent`` (committed) after the server accepted it.  A row found in ``sending`` at
start-up was interrupted somewhere in between; `OutboxSender.recover` decides with the
sent copy: every mail goes in the same SMTP transaction to ``mail.smtp.sent_copy``, so
the copy exists exactly when the server accepted the mail.  Recovery logs in over IMAP
(the ``mail.imap`` server, as the sent_copy address, password from the environment
variable ``MODERATOR_SENT_COPY_PASSWORD``) and looks for the Message-ID: found -> ``sent``;
not found after a short wait -> ``queued`` again, resent with the same Message-ID.
Without a sent copy the row is queued again and the GM warned that the player may get
the mail twice.  See docs/outbox.md.

`OutboxSender` (`moderator.transport.smtp`) drives this module: it finds the
interrupted rows, asks the mailbox, logs a mailbox it cannot read, then settles them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from datetime import datetime

from imapclient import IMAPClient
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.settings.config import Config, ConfigError
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Game, Outbox
from moderator.transport.outcomes import SendOutcome, outcome

SENT_COPY_PASSWORD_ENV = "MODERATOR_SENT_COPY_PASSWORD"


def interrupted_rows(db: Engine) -> list[Outbox]:
    """The rows a crash left in ``sending`` (handed to the server, or about to be)."""
    with Session(db) as session:
        return list(session.exec(select(Outbox).where(Outbox.status == "sending")))


def settle_interrupted(
    db: Engine, stuck: list[Outbox], found: set[str] | None, reason: str, moment: datetime
) -> tuple[SendOutcome, ...]:
    """Decide each interrupted row: ``sent`` if its Message-ID is in ``found`` (the sent
    copies), else ``queued`` again with the same Message-ID.

    ``found`` is None when the sent copy could not be asked (``reason`` says why): the
    row is still sent again, and the GM warned that the player may get it twice.
    """
    outcomes = []
    with session_scope(db) as session:
        for stale in stuck:
            row = session.get(Outbox, stale.id)
            if row is None or row.status != "sending":
                continue
            game = session.get(Game, row.game_id) if row.game_id is not None else None
            what = f"{row.kind} to {row.to_addr} ({row.subject!r}, {row.message_id})"
            if found is not None and row.message_id in found:
                row.status, row.sent_at, row.last_error = "sent", moment, None
                detail = f"{what}: accepted before a crash (found in the sent copy)"
                repo.log_gm(session, "mail.recovered", detail, game=game)
                outcomes.append(outcome(row, "sent", detail))
            else:
                row.status, row.next_attempt_at = "queued", None
                if found is not None:
                    detail = f"{what}: not sent before a crash (no sent copy); sending again"
                    repo.log_gm(session, "mail.resend", detail, game=game)
                else:
                    detail = (
                        f"{what}: interrupted by a crash and {reason}; sending again with "
                        f"the same Message-ID, so {row.to_addr} may get it twice"
                    )
                    repo.log_gm(session, "mail.resend", detail, game=game, level="warning")
                outcomes.append(outcome(row, "requeued", detail))
            session.add(row)
    return tuple(outcomes)


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
