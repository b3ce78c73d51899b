"""``moderator inbox process`` and ``moderator outbox send``: mail in and out by hand,
with the configured transport (local Maildirs, or IMAP in and SMTP out)."""

from __future__ import annotations

import click
from rich.table import Table
from sqlmodel import Session

from moderator import jsonio
from moderator.cli.app import App, console, pass_app, send_option, send_outbox
from moderator.intake.process import IntakeResult
from moderator.store import repo
from moderator.store.host import check_running
from moderator.store.models import Game, Submission


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
    console.print(_intake_table(app, results) if results else "The inbox is empty.")
    app.deliver(send)


def _intake_table(app: App, results: list[IntakeResult]) -> Table:
    """One row a message: who sent it, for which game, the version stored and how many
    errors it had, and what became of it (the GM reads senders, not Message-IDs)."""
    table = Table("sender", "game", "version", "errors", "result", "detail")
    table.columns[0].no_wrap = True
    with Session(app.db) as session:
        for r in results:
            stored = repo.message_by_message_id(session, r.message_id)
            sub = session.get(Submission, r.submission_id) if r.submission_id else None
            game = session.get(Game, stored.game_id) if stored and stored.game_id else None
            errors = sum(e.get("severity", "error") == "error"
                         for e in jsonio.loads(sub.errors_json)) if sub else None
            table.add_row(stored.sender or "?" if stored else "?",
                          game.name if game else "-", f"v{sub.version}" if sub else "-",
                          "-" if errors is None else str(errors), r.status, r.detail[:60])
    return table


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
