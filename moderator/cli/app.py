"""What every command shares: the settings and store (`App`), the console, and how queued
mail is delivered at the end of a command."""

from __future__ import annotations

import calendar
import re
from datetime import datetime
from functools import cached_property
from pathlib import Path
from string import Formatter
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:  # imported when used: `moderator --help` starts without them
    from sqlalchemy import Engine

    from moderator.settings.config import Config

# What a terminal would act on rather than show: C0 controls but the line break and the
# tab (ESC begins the sequences that colour, move the cursor, retitle the window or set
# the clipboard), DEL, C1 controls (0x9b is a CSI of its own), and the bidi controls that
# reorder what follows them.
_TERMINAL_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f"
                               "\u202a-\u202e\u2066-\u2069]")


def for_terminal(text: str) -> str:
    """``text`` for the GM's terminal: each control character written as its escape
    (``\\x1b``), so a subject, a sender's name or an error quoting either shows what
    it holds and never moves the cursor or recolours the screen."""
    return _TERMINAL_CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


class _PlainConsole(Console):
    """Rich's console; every piece of text it is given (a line, a table's cell) passes
    `for_terminal`."""

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(for_terminal(text), **options)


# Markup and emoji codes off: what the console prints is read as plain text, so a player's
# name, a sender, an error naming either (any of which can hold "[b]", "[/]" or ":skull:")
# is printed as written, never as a style, an emoji, or a crash.  The few styled pieces
# are made by `styled`.
console = _PlainConsole(highlight=False, markup=False, emoji=False)

# A markup tag, with the backslashes before it (rich reads an odd number as an escape).
_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def styled(template: str, /, **values: object) -> Text:
    """A line with styles: `template` is rich markup written in our code, and each value
    put into it (``{name}``) is text, never markup, whatever it holds.

    ``styled("[bold]{name}[/]: no orders", name=player.name)``"""
    pieces: list[tuple[str, bool]] = []
    for literal, field, _spec, _conversion in Formatter().parse(template):
        pieces.append((literal, False))
        if field is not None:  # each tag-like "[...]" in it escaped, its backslashes kept
            pieces.append((_TAG.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2),
                                    for_terminal(str(values[field]))), True))
    markup = ""
    for piece, from_value in reversed(pieces):
        # Backslashes ending a value would be read with a tag that follows it: doubled
        # then, and only then (rich's own `escape` always adds one, which shows when
        # nothing follows, e.g. at the end of an error message).
        if from_value and _TAG.match(markup):
            piece += "\\" * (len(piece) - len(piece.rstrip("\\")))
        markup = piece + markup
    return Text.from_markup(markup, emoji=False)


_WHEN = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2}))?\s*$")


class When(click.ParamType):
    """A date and time the GM types for a deadline (read in the game's time zone).

    A mistake names the value, what is wrong with it and the form to write:
    ``2026-13-12: no month 13; write YYYY-MM-DD HH:MM``."""

    name = "when"

    def __init__(self, date_only: bool = False) -> None:
        self.date_only = date_only  # a bare date is allowed (midnight)
        self.form = "YYYY-MM-DD HH:MM" + (" or YYYY-MM-DD" if date_only else "")

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> datetime:
        if isinstance(value, datetime):
            return value
        text = str(value)
        match = _WHEN.match(text)
        if not match or (match.group(4) is None and not self.date_only):
            self.fail(f"{text}: write {self.form} (e.g. 2026-12-12 18:00)", param, ctx)
        year, month, day = (int(match.group(i)) for i in (1, 2, 3))
        hour, minute = int(match.group(4) or 0), int(match.group(5) or 0)
        problem = None
        if not 1 <= month <= 12:
            problem = f"no month {month}"
        elif not 1 <= day <= calendar.monthrange(year, month)[1]:
            problem = f"no day {day} in {calendar.month_name[month]} {year}"
        elif hour > 23:
            problem = f"no hour {hour} (0-23)"
        elif minute > 59:
            problem = f"no minute {minute} (0-59)"
        if problem:
            self.fail(f"{text}: {problem}; write {self.form}", param, ctx)
        return datetime(year, month, day, hour, minute)


# Dates and times the GM types for deadlines (read in the game's time zone).
WHEN = When()
WHEN_OR_DATE = When(date_only=True)


class App:
    """What every command needs: the settings and the store, opened on first use."""

    def __init__(self, config_path: Path | None, actor: str | None = None) -> None:
        self.config_path = config_path
        self.actor = actor  # --as NAME: who the audit log names (default: the OS user)

    def who(self, override: str | None = None) -> str:
        """Who is acting, for the audit log: ``--as`` (command, then global), else the
        OS user."""
        from moderator.store.audit import current_user

        return current_user(override or self.actor)

    @cached_property
    def config(self) -> Config:
        """config.toml: --config, else $MODERATOR_CONFIG, else ./config.toml, else the XDG
        config folders (`find_config`); none of them is an error naming `moderator init`,
        never a store silently made in the current directory."""
        from moderator.settings.config import find_config, load_config

        return load_config(find_config(self.config_path))

    @cached_property
    def db(self) -> Engine:
        """The store, migrated to the newest schema on first use."""
        from moderator.store.db import open_store

        return open_store(self.config.database_url)

    def running_service(self) -> datetime | None:
        """The last heartbeat of a `moderator serve` that seems to be running, else None."""
        from moderator.runners.schedule import service_alive

        return service_alive(self.db)

    def deliver(self, send: bool) -> None:
        """Send the queued mail at the end of a command, unless ``--no-send``, or unless
        a running `serve` owns the outbox: two senders at once could send a mail twice
        (the SMTP sender's crash recovery takes rows in ``sending`` as interrupted)."""
        if not send:
            return
        from moderator.store.host import panic_reason

        if panic_reason(self.db) is not None:
            console.print("Mail queued; the host is stopped (moderator panic), nothing is sent.")
            return
        if self.running_service() is not None:
            console.print("Mail queued; the running `moderator serve` sends it.")
            return
        send_outbox(self)


def send_outbox(app: App) -> None:
    """Deliver every queued mail with the configured transport and say what happened."""
    from moderator.runners.outgoing import SendFate, deliver_outbox

    verb = {SendFate.SENT: "mailed", SendFate.FAILED: "FAILED", SendFate.DEFERRED: "deferred",
            SendFate.REQUEUED: "requeued"}
    report = deliver_outbox(app.db, app.config)  # a sent welcome keeps no password
    for outcome in (*report.recovered, *report.sent, *report.failed, *report.deferred):
        shown = outcome.detail and outcome.status != SendFate.SENT
        detail = f" ({outcome.detail})" if shown else ""
        console.print(f"  {verb[outcome.status]} {outcome.to}: "
                      f"{outcome.subject}{detail}")
    if report.error:
        console.print(f"  {report.error}", style="red")


pass_app = click.make_pass_decorator(App)
reason_option = click.option("--reason", required=True,
                             help="Why (required): kept in the audit log (`moderator log`).")
as_option = click.option("--as", "actor", metavar="NAME",
                         help="Who acts, for the audit log (default: the OS user).")


def note_option(what: str):  # type: ignore[no-untyped-def]
    """``--note``: what the next gazette prints (public); the --reason never is (issue 12)."""
    return click.option("--note", default=None,
                        help="What the next gazette prints about it (public). Without it "
                             f"the gazette says only {what}; the --reason stays in the "
                             "audit log.")


def desk(command):  # type: ignore[no-untyped-def]
    """A GM's desk command: ``--reason`` (required) and ``--as NAME``."""
    return reason_option(as_option(command))
send_option = click.option(
    "--send/--no-send", default=True, help="Deliver queued mail at the end (default: yes)."
)
