"""``moderator inbox process`` and ``moderator outbox send``: mail in and out by hand,
with the configured transport (local Maildirs, or IMAP in and SMTP out)."""

from __future__ import annotations

import click
from rich.table import Table

from moderator.cli.app import App, console, pass_app, send_option, send_outbox
from moderator.intake.process import IntakeResult
from moderator.store.host import check_running


@click.group()
def inbox() -> None:
    """Incoming mail."""


@inbox.command("process")
@send_option
@pass_app
def inbox_process(app: App, send: bool) -> None:
    """Read every waiting email: store, check, parse, and answer with a receipt."""
    check_running(app.db)
    results = _read_inbox(app)
    table = Table("message", "result", "detail")
    for r in results:
        table.add_row(r.message_id[:48], r.status, r.detail[:60])
    console.print(table if results else "The inbox is empty.")
    app.deliver(send)


def _read_inbox(app: App) -> list[IntakeResult]:
    """One pass over the inbox: the Maildir, or the IMAP folder (logging out after)."""
    if app.config.transport == "imap":
        from moderator.transport.imap import ImapPoller

        poller = ImapPoller(app.db, app.config)
        try:
            return poller.poll_once()
        finally:
            poller.close()
    from moderator.transport.maildir import process_inbox

    return process_inbox(app.db, app.config)


@click.group()
def outbox() -> None:
    """Outgoing mail."""


@outbox.command("send")
@pass_app
def outbox_send(app: App) -> None:
    """Deliver every queued mail.

    Refused while `moderator serve` is running (its heartbeat is less than 90 s old):
    the service sends the outbox itself, and two senders at once could send a mail twice.
    """
    check_running(app.db)
    beat = app.running_service()
    if beat is not None:
        raise click.ClickException(
            f"moderator serve is running (heartbeat {beat:%Y-%m-%d %H:%M:%S} UTC) and sends "
            "the outbox itself; stop it first, or wait 90 s if it was killed")
    send_outbox(app)
