"""``moderator demo --kind dwtk|fief``: the first turns of Down with the King and of
Fief: England by email, on local Maildirs, as the En Garde! demo runs its month
(`moderator.demo.month`): the real config, store, intake, turn runner and Maildir
transport, the order emails written as real mail clients write them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.text import Text

from moderator.demo.month import CLIENTS, fresh_demo, show_intake
from moderator.desk import admin
from moderator.runners.incoming import process_inbox
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config
from moderator.store.db import session_scope
from moderator.transport.maildir import open_maildir
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn


@dataclass(frozen=True)
class Player:
    email: str
    name: str
    client: str  # which mail client writes his orders (`month.CLIENTS`)


@dataclass(frozen=True)
class Demo:
    kind: str
    game: str
    title: str
    seed: int
    players: tuple[Player, ...]
    # The orders each player mails before each turn is run (by address; none: no mail).
    turns: tuple[dict[str, str], ...]


DWTK = Demo(
    "dwtk", "fandonia", "Down with the King", 3,
    (Player("anne@fandonia.example", "Anne", "thunderbird"),
     Player("basil@fandonia.example", "Basil", "gmail"),
     Player("cora@fandonia.example", "Cora", "outlook"),
     Player("dmitri@fandonia.example", "Dmitri", "signature")),
    ({},  # the deal: the court is dealt before anyone writes
     {"anne@fandonia.example": "DO DRAW EVENT\nBUY 1 PP\n",
      "basil@fandonia.example": "DO PRESTIGE Carousing BUY +1\n"
                                "IF AN OPPONENT SEDUCES MINE THEN PLAY Treachery\n",
      "cora@fandonia.example": "DO DRAW EVENT\nSOLICIT BRIBE 9\n",  # a mistake
      "dmitri@fandonia.example": "BUY 1 PP\n"}),
)

FIEF = Demo(
    "fief", "england", "Fief: England", 7,
    (Player("kirsten@england.example", "Kirsten", "thunderbird"),
     Player("dave@england.example", "Dave", "gmail"),
     Player("george@england.example", "George", "outlook"),
     Player("lucy@england.example", "Lucy", "signature")),
    ({"kirsten@england.example": "START Cardiff\nDRAW FORTUNE THEN CHARACTER\n",
      "dave@england.example": "START York, Durham\nDRAW CHARACTER THEN FORTUNE\n",
      "george@england.example": "START Exeter\nDRAW FORTUNE THEN FORTUNE\n",
      "lucy@england.example": "START London\nDRAW FORTUNE THEN CHARACTER\n"},
     {"kirsten@england.example": "BUY 2 MAN-AT-ARMS AT Cardiff\nBUILD MILL AT Cardiff\n"
                                 "ALLOW Dave TO PASS AT Cardiff\n"
                                 "DRAW FORTUNE THEN FORTUNE\n",
      "dave@england.example": "BUY 1 KNIGHT AT York\nDRAW FORTUNE THEN FORTUNE\n",
      "george@england.example": "BUILD MILL AT Exeter\nFLY TO THE MOON\n",  # a mistake
      "lucy@england.example": "BUY 2 MAN-AT-ARMS AT London\n"}),
)

DEMOS = {demo.kind: demo for demo in (DWTK, FIEF)}
PASSWORD = "demo"
DEADLINE = datetime(2026, 12, 12, 17, 0, tzinfo=UTC)
FIRST_MAIL = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


def run_other_demo(kind: str, folder: Path, console: Console) -> None:
    """Create the game, then for each of its turns: mail the orders, answer them, run
    the turn, mail the newsletters, and rerun it from its stored inputs."""
    demo = DEMOS[kind]
    config, db, emails = fresh_demo(folder)
    console.rule(f"1. A new game of {demo.title}")
    with session_scope(db) as session:
        admin.create_game(session, config, demo.game, demo.kind, seed=demo.seed,
                          deadline=DEADLINE)
        for p in demo.players:
            admin.add_player(session, config, demo.game, p.email, p.name, password=PASSWORD)
    deliver_outbox(db, config)
    console.print(Text.assemble("Game ", (demo.game, "bold"),
                                f" with {len(demo.players)} players; welcome mails sent."))
    archive, step = folder, 1
    for n, orders in enumerate(demo.turns):
        if orders:
            step += 1
            console.rule(f"{step}. Orders arrive by email")
            _mail_orders(config, demo, orders, emails, FIRST_MAIL + timedelta(days=n))
            show_intake(console, process_inbox(db, config))
            deliver_outbox(db, config)
        step += 1
        console.rule(f"{step}. The deadline: the turn is run")
        report = run_turn(db, config, demo.game)
        sent = deliver_outbox(db, config)
        console.print(f"Turn {report.number} ({report.label}): {report.events} events, "
                      f"{report.rolls} dice rolls; {len(sent.sent)} mails sent.")
        check = rerun_turn(db, config, demo.game, report.number)
        console.print("Rerun from stored inputs: " + (
            "byte-identical." if check.identical else f"DIFFERENT {check.differences}"))
        archive = report.archive
    _where_to_look(console, config, demo, emails, archive)


def _mail_orders(config: Config, demo: Demo, orders: dict[str, str], emails: Path,
                 when: datetime) -> None:
    inbox = open_maildir(config.maildir_inbox)
    for n, p in enumerate(demo.players, start=1):
        if p.email not in orders:
            continue
        raw = CLIENTS[p.client](
            sender=p.email, sender_name=p.name, to=config.moderator_address,
            subject=f"[{demo.game}] orders", body=f"PASSWORD: {PASSWORD}\n{orders[p.email]}",
            date=when + timedelta(minutes=17 * n),
            message_id=f"demo-{when:%d}-{n}-{p.email.replace('@', '.')}@{p.client}.example")
        (emails / f"{when:%d}-{n:02d}-{p.client}-{p.email.split('@')[0]}.eml").write_bytes(raw)
        inbox.add(raw)


def _where_to_look(console: Console, config: Config, demo: Demo, emails: Path,
                   archive: Path) -> None:
    console.rule("Where to look")
    cfg = f"--config {config.path}"
    console.print(f"Order emails as sent:      {emails}/")
    console.print(f"Players' mailboxes:        {config.maildir_mailboxes}/<address>/new/")
    console.print(f"Archive (md, html, txt):   {archive}/")
    console.print(f"  .venv/bin/moderator {cfg} status {demo.game}")
    console.print(f"  .venv/bin/moderator {cfg} newsletter show {demo.game} "
                  f"--player {demo.players[0].email}")
