"""``moderator inbox process`` and ``moderator outbox send``: mail in and out by hand,
with the configured transport (local Maildirs, or IMAP in and SMTP out), through the
same runners as `moderator serve` (`moderator.runners.incoming`, `.outgoing`)."""

from __future__ import annotations

import click
from rich.table import Table
from sqlmodel import Session

from moderator import jsonio
from moderator.cli.app import App, console, desk, pass_app, send_option, send_outbox
from moderator.intake.process import IntakeResult
from moderator.intake.spool_prune import prune_spool_by_hand
from moderator.publish.render import plural
from moderator.runners.incoming import InboxUnavailable, process_inbox
from moderator.store import repo
from moderator.store.host import check_running
from moderator.store.models import Game, Submission


@click.group()
def inbox() -> None:
    """Incoming mail: process the inbox, prune the spool."""


@inbox.command("process")
@send_option
@pass_app
def inbox_process(app: App, send: bool) -> None:
    """Read every waiting email: store, check, parse, and answer with a receipt."""
    check_running(app.db)
    try:
        results = process_inbox(app.db, app.config)
    except InboxUnavailable as exc:
        _show(app, exc.results)
        app.deliver(send)  # the messages read before it stopped deserve their receipts
        raise click.ClickException(
            f"reading the inbox stopped: {exc}; the messages not read are still there"
        ) from exc
    if results:
        _show(app, results)
    else:
        console.print("The inbox is empty.")
    app.deliver(send)


@inbox.command("prune-spool")
@click.option("--keep-days", type=click.IntRange(min=1), metavar="N",
              help="Keep the files of the last N days (default: [intake] spool_keep_days).")
@desk
@pass_app
def inbox_prune_spool(app: App, keep_days: int | None, reason: str, actor: str | None) -> None:
    """Delete the spool's copies of received emails older than [intake] spool_keep_days
    (or --keep-days) whose message has a fate; the store keeps every email.  `serve` does
    it every hour; a message still being handled, or a file no stored message holds,
    stays.

    \b
    moderator inbox prune-spool --reason "disk nearly full" --keep-days 7
    """
    days = keep_days or app.config.spool_keep_days
    if not days:
        raise click.ClickException(
            "[intake] spool_keep_days is 0: the spool is kept for ever; give --keep-days N "
            "to delete the files older than N days")
    pruned = prune_spool_by_hand(app.db, app.config, app.who(actor), reason, days)
    console.print(f"Deleted {plural(pruned.removed, 'spool file')} older than "
                  f"{plural(days, 'day')} from {app.config.spool_dir}.")
    if pruned.kept:
        console.print(f"Kept {plural(pruned.kept, 'older file')}: their message is still "
                      "being handled, or no stored message holds it.")


def _show(app: App, results: list[IntakeResult]) -> None:
    """One row a message: who sent it, for which game, the version stored and how many
    errors it had, and what became of it (the GM reads senders, not Message-IDs)."""
    if not results:
        return
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
    console.print(table)


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
