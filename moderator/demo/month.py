"""``moderator demo``: one whole En Garde! month by email, on local Maildirs.

Everything goes through the real service: a real config file, a SQLite file, the
intake over a Maildir inbox, the turn runner and the Maildir transport.  The order
emails are written the way real mail clients write them (see `mailsamples`).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text
from sqlalchemy import Engine

from moderator.demo import samples
from moderator.desk import admin
from moderator.runners.incoming import process_inbox
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config, load_config
from moderator.store.db import open_store, session_scope
from moderator.transport.maildir import delivery_order, open_maildir
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

GAME = "paris"
SEED = 1625
DEADLINE = datetime(2026, 12, 12, 17, 0, tzinfo=UTC)
FIRST_MAIL = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


@dataclass(frozen=True)
class DemoPlayer:
    email: str
    name: str
    password: str
    client: str  # which mail client writes his orders
    orders: str


PLAYERS = (
    DemoPlayer("jacques@lyon.example", "Jacques de Lyon", "rapier", "thunderbird",
               "PREMONTH: SUPPORT NORMAL\n"
               "ANYTIME: JOIN CLUB Red Phillips\n"
               "WEEK 1: CLUB Red Phillips; CAROUSE; GAMBLE 10 x3 CUT 5\n"
               "WEEK 2: PRACTICE rapier\n"
               "WEEK 3: BAWDYHOUSE; CAROUSE\n"
               "WEEK 4: PRACTICE rapier\n"),
    DemoPlayer("cyrano@bergerac.example", "Cyrano de Bergerac", "panache", "gmail",
               "PREMONTH: SUPPORT CONSPICUOUS\n"
               "ANYTIME: ANNOUNCE \"Let it be known that my nose is a subject I discuss with "
               "pleasure, and at sword's point.\"\n"
               "WEEK 1: BAWDYHOUSE; CAROUSE; GAMBLE 20 x4 CUT 6\n"
               "WEEK 2: PRACTICE rapier\n"
               "WEEK 3: PRACTICE rapier\n"
               "WEEK 4: BAWDYHOUSE; CAROUSE\n"
               "WEEKEND 2: THEATRE\n"),
    DemoPlayer("porthos@vallon.example", "Porthos du Vallon", "mousquet", "outlook",
               "ANYTIME: JOIN REGIMENT 13th Fusiliers\n"
               "ANYTIME: BORROW 50 FROM SHYLOCK\n"
               "WEEK 1: BAWDYHOUSE; CAROUSE\n"
               "WEEK 2: PRACTICE sabre\n"
               "WEEK 3: PRACTICE sabre\n"
               "WEEK 4: IF WEEK 2 FAILED THEN PRACTICE rapier ELSE PRACTICE sabre ENDIF\n"),
    DemoPlayer("aramis@herblay.example", "Aramis d'Herblay", "chapelet", "signature",
               "WEEK 1: PRACTICE rapier\n"
               "WEEK 2: BAWDYHOUSE; CAROUSE\n"
               "WEEK 3: PRACTICE rapier\n"
               "WEEK 4: PRACTICE rapier\n"
               "WEEKEND 1: THEATRE FIRST NIGHT\n"),
    DemoPlayer("athos@lafere.example", "Athos de la Fère", "grimaud", "thunderbird",
               "WEEK 1: PRACTICE rapier\n"
               "WEEK 2: PRACTISE rapeir\n"  # two mistakes: the receipt will say so
               "WEEK 3: BAWDYHOUSE; CAROUSE\n"
               "WEEK 5: PRACTICE rapier\n"),
    DemoPlayer("dartagnan@gascogne.example", "Charles d'Artagnan", "constance", "gmail",
               "ANYTIME: JOIN REGIMENT Gascon Regiment\n"
               "ANYTIME: ANNOUNCE \"A Gascon gentleman seeks a lady of spirit.\" UNSIGNED\n"
               "WEEK 1: BAWDYHOUSE; CAROUSE\n"
               "WEEK 2: PRACTICE rapier\n"
               "WEEK 3: PRACTICE rapier\n"
               "WEEK 4: PRACTICE rapier\n"),
)

# The player who answers his first receipt with corrected orders, quoting it below.
REPLIES = {
    "athos@lafere.example": "WEEK 1: PRACTICE rapier\n"
                            "WEEK 2: PRACTICE rapier\n"
                            "WEEK 3: BAWDYHOUSE; CAROUSE\n"
                            "WEEK 4: PRACTICE rapier\n",
}

Builder = Callable[..., bytes]
CLIENTS: dict[str, Builder] = {
    "thunderbird": samples.thunderbird_plain,
    "gmail": samples.gmail_html_only,
    "outlook": samples.outlook_cp1252_qp,
    "signature": samples.with_signature,
}


def write_demo_config(folder: Path) -> Path:
    """A config for the demo: its own store and Maildirs, the shipped tables and templates."""
    path = folder / "config.toml"
    path.write_text(
        "# Written by `moderator demo`.\n"
        "[database]\nurl = \"sqlite:///moderator.sqlite\"\n"
        "[paths]\nspool = \"spool\"\narchive = \"archive\"\n"
        "[mail]\naddress = \"moderator@paris.example\"\ngm_address = \"gm@paris.example\"\n"
        "[mail.maildir]\ninbox = \"mail/moderator@paris.example\"\nmailboxes = \"mail\"\n",
        encoding="utf-8",
    )
    return path


def order_email(config: Config, player: DemoPlayer, when: datetime, n: int) -> bytes:
    body = f"PASSWORD: {player.password}\n{player.orders}"
    return CLIENTS[player.client](
        sender=player.email, sender_name=player.name, to=config.moderator_address,
        subject=f"[{GAME}] orders for April", body=body, date=when,
        message_id=f"demo-{n}-{player.email.split('@')[0]}@{player.email.split('@')[1]}",
    )


def reply_email(config: Config, player: DemoPlayer, when: datetime, orders: str) -> bytes:
    """An Apple Mail reply to the player's receipt, with the receipt quoted below."""
    box = open_maildir(config.mailbox_for(player.email))
    receipts = []
    for key in sorted(box.keys(), key=delivery_order):
        with box.get_file(key) as handle:
            msg = message_from_bytes(handle.read(), policy=policy.default)
        if "Orders" in str(msg["Subject"]):
            receipts.append(msg)
    receipt = receipts[-1]
    quoted = receipt.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    return samples.apple_mail_reply(
        sender=player.email, sender_name=player.name, to=config.moderator_address,
        subject=str(receipt["Subject"]), body=f"PASSWORD: {player.password}\n{orders}",
        date=when, message_id=f"demo-reply-{player.email.replace('@', '.')}@mac.example",
        quoted=quoted.rstrip("\n"), quoted_from=f"Moderator <{config.moderator_address}>",
        quoted_date=when - timedelta(hours=2), in_reply_to=str(receipt["Message-ID"]),
    )


def fresh_demo(folder: Path) -> tuple[Config, Engine, Path]:
    """The demo's folder made anew: its config, its store, and where its emails go."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    config = load_config(write_demo_config(folder))
    emails = folder / "emails"
    emails.mkdir()
    return config, open_store(config.database_url), emails


def run_demo(folder: Path, console: Console) -> None:
    config, db, emails = fresh_demo(folder)

    console.rule("1. A new game of En Garde!")
    with session_scope(db) as session:
        admin.create_game(session, config, GAME, "engarde", seed=SEED, deadline=DEADLINE)
        for p in PLAYERS:
            admin.add_player(session, config, GAME, p.email, p.name, password=p.password)
    deliver_outbox(db, config)
    console.print(Text.assemble("Game ", (GAME, "bold"),
                                f" with {len(PLAYERS)} characters; welcome mails sent."))

    console.rule("2. Orders arrive by email")
    inbox = open_maildir(config.maildir_inbox)
    for n, p in enumerate(PLAYERS, start=1):
        raw = order_email(config, p, FIRST_MAIL + timedelta(minutes=17 * n), n)
        (emails / f"{n:02d}-{p.client}-{p.email.split('@')[0]}.eml").write_bytes(raw)
        inbox.add(raw)
    stranger = samples.thunderbird_plain(
        sender="rochefort@cardinal.example", sender_name="Comte de Rochefort",
        to=config.moderator_address, subject=f"[{GAME}] orders", date=FIRST_MAIL,
        body="PASSWORD: guessing\nWEEK 1: PRACTICE rapier\n", message_id="demo-stranger@x.example",
    )
    (emails / "07-unregistered-sender.eml").write_bytes(stranger)
    inbox.add(stranger)
    show_intake(console, process_inbox(db, config))
    deliver_outbox(db, config)

    for n, (address, orders) in enumerate(REPLIES.items(), start=8):
        player = next(p for p in PLAYERS if p.email == address)
        raw = reply_email(config, player, FIRST_MAIL + timedelta(hours=5), orders)
        (emails / f"{n:02d}-apple-mail-reply-{address.split('@')[0]}.eml").write_bytes(raw)
        inbox.add(raw)
    show_intake(console, process_inbox(db, config))
    deliver_outbox(db, config)

    console.rule("3. The deadline: the month is run")
    report = run_turn(db, config, GAME)
    sent = deliver_outbox(db, config)
    console.print(f"Turn {report.number} ({report.label}): {report.events} events, "
                  f"{report.rolls} dice rolls; {len(sent.sent)} newsletters mailed.")
    check = rerun_turn(db, config, GAME, report.number)
    console.print("Rerun from stored inputs: "
                  + ("byte-identical." if check.identical else f"DIFFERENT {check.differences}"))

    _show_where_to_look(console, config, emails, report.archive)

def _show_where_to_look(console: Console, config: Config, emails: Path, archive: Path) -> None:
    console.rule("Where to look")
    cfg = f"--config {config.path}"
    console.print(f"Order emails as sent:      {emails}/")
    console.print(f"Players' mailboxes:        {config.maildir_mailboxes}/<address>/new/")
    console.print(f"Moderator's inbox:         {config.maildir_inbox}/.processed/")
    console.print(f"Archive (md, html, txt):   {archive}/")
    console.print(f"The gazette:               {archive / 'gazette.html'}")
    console.print(f"  .venv/bin/moderator {cfg} newsletter show {GAME} --turn 1")
    console.print(f"  .venv/bin/moderator {cfg} newsletter show {GAME} "
                  f"--player {PLAYERS[0].email}")
    console.print(f"  .venv/bin/moderator {cfg} turn show {GAME} 1 --json")



def show_intake(console: Console, results: list) -> None:  # type: ignore[type-arg]
    table = Table("message", "result", "detail")
    for r in results:
        table.add_row(r.message_id, r.status, r.detail)
    console.print(table)
