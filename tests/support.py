"""Builders shared by the service tests: a game with players, mails, and their mailboxes."""

from __future__ import annotations

import gc
import mailbox
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from moderator.desk import admin
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.transport.maildir import delivery_order
from moderator.turn.deadlines import set_deadlines

ROOT = Path(__file__).resolve().parents[1]


def write_config(folder: Path, *, database_url: str | None = None, **extra: str) -> Path:
    """A config in ``folder``: its own SQLite file (or ``database_url``, e.g. a
    PostgreSQL database from tests/pg/cluster.py), Maildirs and spool."""
    url = database_url or f"sqlite:///{folder / 'moderator.sqlite'}"
    lines = [
        "[database]",
        f'url = "{url}"',
        "[paths]",
        f'data = "{ROOT / "data"}"',
        f'templates = "{ROOT / "templates"}"',
        'spool = "spool"',
        'archive = "archive"',
        "[mail]",
        'address = "moderator@paris.example"',
        'gm_address = "gm@paris.example"',
        "[mail.maildir]",
        'inbox = "mail/moderator"',
        'mailboxes = "mail"',
    ]
    path = folder / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


PLAYERS = (
    ("jacques@lyon.example", "Jacques de Lyon", "rapier"),
    ("cyrano@bergerac.example", "Cyrano de Bergerac", "panache"),
    ("porthos@musket.example", "Porthos du Vallon", "wine"),
)


@dataclass(frozen=True)
class Setup:
    game: str
    players: tuple[tuple[str, str, str], ...]


def make_game(db: Engine, config: Config, name: str = "paris", seed: int = 1625) -> Setup:
    with session_scope(db) as session:
        admin.create_game(session, config, name, "engarde", seed=seed)
        for email, character, password in PLAYERS:
            admin.add_player(session, config, name, email, character, password=password)
    return Setup(name, PLAYERS)


DWTK_PLAYERS = (("p1@f.example", "Noble One"), ("p2@f.example", "Noble Two"),
                ("p3@f.example", "Noble Three"))


def make_dwtk_game(db: Engine, config: Config, name: str = "fandonia", seed: int = 3) -> None:
    """A Down with the King game of three players (`DWTK_PLAYERS`, password "pw"), not
    yet dealt (the first run deals it, DWTK 3)."""
    with session_scope(db) as session:
        admin.create_game(session, config, name, "dwtk", seed=seed)
        for email, player in DWTK_PLAYERS:
            admin.add_player(session, config, name, email, player, password="pw")


def absent_porthos(db: Engine, game_name: str = "paris") -> None:
    """Porthos away until 2100 (his misses excused), the deadline a day from now."""
    with session_scope(db) as session:
        game = repo.game_by_name(session, game_name)
        porthos = repo.player_by_email(session, game, "porthos@musket.example")
        porthos.absent_until = datetime(2100, 1, 1, tzinfo=UTC)
        set_deadlines(session, game, datetime.now(UTC) + timedelta(days=1))


def order_mail(
    sender: str,
    body: str,
    *,
    subject: str = "[paris] my orders",
    to: str = "moderator@paris.example",
    message_id: str | None = None,
    html: bool = False,
    date: datetime | None = None,
    headers: dict[str, str] | None = None,
) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date or datetime(2026, 12, 1, 12, 0, tzinfo=UTC))
    msg["Message-ID"] = message_id or make_msgid(domain="client.example")
    for name, value in (headers or {}).items():
        msg[name] = value
    if html:
        lines = "".join(f"<div>{line}</div>" for line in body.splitlines())
        msg.set_content(f"<html><body>{lines}</body></html>", subtype="html")
    else:
        msg.set_content(body)
    return msg.as_bytes()


def mailbox_messages(config: Config, address: str) -> list[EmailMessage]:
    folder = config.mailbox_for(address)
    if not folder.exists():
        return []
    box = mailbox.Maildir(str(folder), factory=None, create=False)
    found = []
    for key in sorted(box.keys(), key=delivery_order):
        with box.get_file(key) as handle:
            found.append(message_from_bytes(handle.read(), policy=policy.default))
    return found


def body_text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return part.get_content()


def gazette_of(db: Engine, number: int, game_name: str = "paris"):  # type: ignore[no-untyped-def]
    """The stored gazette of one turn (the latest, if reissued)."""
    from sqlmodel import Session

    from moderator.store import repo

    with Session(db) as session:
        rows = repo.newsletters(session, repo.game_by_name(session, game_name), number)
        return next(n for n in reversed(rows) if n.kind == "gazette")


def write_mail_config(folder: Path, mail: Any, *, smtp_security: str = "starttls",
                      smtp_port: int | None = None, **sections: str) -> Path:
    """A config for the imap transport against the test mail servers (`tests/mail`).

    IMAP over TLS and SMTP with STARTTLS (or ``smtp_security`` on ``smtp_port``), both
    verified with the test CA, logged in as the moderator (passwords from
    MODERATOR_IMAP_PASSWORD / MODERATOR_SMTP_PASSWORD).  ``sections`` add TOML lines to a
    section, e.g. ``smtp='sent_copy = "x@y"'``.
    """
    extra = {name: f"\n{lines}" for name, lines in sections.items()}
    if smtp_port is None:
        smtp_port = mail.smtps_port if smtp_security == "ssl" else mail.smtp_port
    path = folder / "config.toml"
    path.write_text(f"""
[database]
url = "sqlite:///{folder / "moderator.sqlite"}"
[paths]
data = "{ROOT / "data"}"
templates = "{ROOT / "templates"}"
spool = "spool"
archive = "archive"
[mail]
transport = "imap"
address = "moderator@pbem.test"
gm_address = "gm@pbem.test"
[mail.imap]
host = "{mail.host}"
port = {mail.imaps_port}
security = "ssl"
username = "moderator@pbem.test"
cafile = "{mail.cafile}"{extra.get("imap", "")}
[mail.smtp]
host = "{mail.host}"
port = {smtp_port}
security = "{smtp_security}"
username = "moderator@pbem.test"
cafile = "{mail.cafile}"{extra.get("smtp", "")}
[service]{extra.get("service", "")}
""", encoding="utf-8")
    return path


def store_at_revision(url: str, revision: str, sql: str,
                      params: dict[str, Any] | None = None) -> None:
    """An empty database brought to an old schema ``revision``, with ``sql`` run in it
    (its rows, as a host of that version wrote them)."""
    import sqlalchemy as sa
    from alembic import command

    from moderator.store.db import alembic_config, engine_url

    old = sa.create_engine(engine_url(url))
    alembic = alembic_config()
    try:
        with old.begin() as connection:
            alembic.attributes["connection"] = connection
            command.upgrade(alembic, revision)
            connection.execute(sa.text(sql), params or {})
    finally:
        old.dispose()


def database_dump(url: str) -> list[str]:
    """Every row of every table, in a fixed order, on SQLite or PostgreSQL: two dumps are
    equal when the store is unchanged."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        metadata = sa.MetaData()
        metadata.reflect(engine)
        lines: list[str] = []
        with engine.connect() as conn:
            for name in sorted(metadata.tables):
                table = metadata.tables[name]
                rows = conn.execute(sa.select(table).order_by(*table.primary_key.columns
                                                              or table.columns))
                lines += [f"{name}: {tuple(row)!r}" for row in rows]
        return lines
    finally:
        engine.dispose()


def cpu_cost(runs: Iterable[Callable[[], object]], limit: float) -> float:
    """The CPU time (`time.process_time`) of the first of ``runs`` that keeps within
    ``limit`` seconds, else the least of them all: a bounded-cost check.

    Collected first and with the garbage collector off while it runs: a collection of
    what the rest of the suite left is no cost of the code measured.  Tried again (each
    run should be the same work) before it counts as over: on a loaded machine one
    reading can be a neighbour's noise (shared caches, a slower clock), while code that
    really costs too much costs it every time.  ``runs`` is iterated outside the timing,
    so a generator may prepare each run's input.
    """
    least = float("inf")
    for run in runs:
        gc.collect()
        gc.disable()
        started = time.process_time()
        try:
            run()
        finally:
            least = min(least, time.process_time() - started)
            gc.enable()
        if least <= limit:
            break
    return least


def assert_kept_state_unchanged(db: Engine, game_name: str) -> None:
    """Intake keeps one decoded state per open turn for every message of it
    (`moderator.intake.turnstate`): after parsing, forecasts and receipts it must still
    be the stored state, key for key (an engine that changed it in place would read the
    next player's orders against another world)."""
    from sqlmodel import Session

    from moderator import jsonio
    from moderator.intake.turnstate import turn_context
    from moderator.store import repo

    with Session(db) as session:
        game = repo.game_by_name(session, game_name)
        turn = repo.open_turn(session, game)
        kept = turn_context(session, game, turn).state
        assert jsonio.dumps(kept) == jsonio.dumps(jsonio.loads(turn.state_before))
