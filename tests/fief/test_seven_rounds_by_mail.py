"""A whole game of Fief: England played through the mail path, the muster and Rounds 1-7
(FE 8.0: the game ends after Round 7): every player's orders mailed, read at intake with a
receipt, the turn run and rerun, and the gazette and the sheets mailed.  The golden game
(test_golden.py) renders its rounds without the service; this one plays them afresh by mail.

The orders (by_mail/NN.txt, one ``=== player`` section each) are a player's, mistakes
included: a misspelt noble, a road that is not there, a card not in the hand.  Each mail
a player receives is read as he would: no internal key, no "None", no Python value.
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import Engine

from moderator.desk import admin
from moderator.intake.process import process_message
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config
from moderator.store.db import session_scope
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn
from tests.fief.golden_game import read_orders

from support import body_text, mailbox_messages, order_mail

ORDERS = Path(__file__).resolve().parent / "by_mail"
PLAYERS = {"kirsten": "Kirsten", "dave": "Dave", "george": "George", "lucy": "Lucy"}
# What a player never reads: a key (men_at_arms), a Python value, a template's slip.
# ("- None." as a list's only item is English.)
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|(?<!- )\bNone\b|\{'|\[\]|\bTrue\b|\bFalse\b")


def _address(player: str) -> str:
    return f"{player}@england.example"


def _bodies(config: Config, player: str, seen: dict[str, int]) -> list[EmailMessage]:
    """The mails the player received since last looked at."""
    mails = mailbox_messages(config, _address(player))
    new, seen[player] = mails[seen.get(player, 0):], len(mails)
    return new


def test_a_game_of_seven_rounds_is_played_by_mail(db: Engine, config: Config) -> None:
    with session_scope(db) as session:
        admin.create_game(session, config, "england", "fief", seed=11)
        for key, name in PLAYERS.items():
            admin.add_player(session, config, "england", _address(key), name, password="pw")
    deliver_outbox(db, config)
    seen: dict[str, int] = {}
    for player in PLAYERS:
        _bodies(config, player, seen)
    receipts: dict[str, str] = {}
    sheets: dict[str, str] = {}
    last: dict[str, str] = {}
    for path in sorted(ORDERS.glob("*.txt")):
        for player, orders in read_orders(path).items():
            result = process_message(db, config, order_mail(
                _address(player), f"PASSWORD: pw\n{orders}", subject="[england] orders",
                to="moderator+england@paris.example",
                message_id=f"<{path.stem}.{player}@england.example>"))
            assert result.status == "accepted", (path.name, player, result)
        deliver_outbox(db, config)
        for player in PLAYERS:
            for mail in _bodies(config, player, seen):
                # flattened: receipts are filled to 78 columns
                receipts[f"{path.stem}/{player}"] = " ".join(body_text(mail).split())
        report = run_turn(db, config, "england")
        assert rerun_turn(db, config, "england", report.number).identical, path.name
        deliver_outbox(db, config)
        for player in PLAYERS:
            mails = _bodies(config, player, seen)
            subjects = [str(m["Subject"]) for m in mails]
            assert any("Turn sheet for " + PLAYERS[player] in s for s in subjects), subjects
            assert any("Town Crier" in s for s in subjects), subjects
            for mail in mails:
                text = body_text(mail)
                assert not INTERNAL.findall(text), (path.name, mail["Subject"],
                                                    INTERNAL.findall(text))
                last[str(mail["Subject"])] = text
                if "Turn sheet" in str(mail["Subject"]):
                    sheets[f"{path.stem}/{player}"] = " ".join(text.split())
    # The receipts answered each mistake with what to write instead.
    assert "no noble called 'Jaon' (did you mean Joan?)" in receipts["01/george"]
    assert "roads from York: Durham, Whitby" in receipts["02/dave"]
    assert "your hand: Noble Hugh, Assassination, Noble Robert" in receipts["06/dave"]
    assert "as things stand, the Green family has 3 nobles" in receipts["04/dave"]
    # What the sheets said wrong or not at all when this game was first played.
    assert "- You buy 1 knight at York for 3 Shillings." in sheets["01/dave"]
    assert "- You give Dave 2 Shillings by Carrier Pigeon." in sheets["05/kirsten"]
    assert "- Kirsten gives you 2 Shillings by Carrier Pigeon." in sheets["05/dave"]
    assert "Through Sherwood from York (rolled 6)" in sheets["03/dave"]
    assert "“MOVE Hugh”: Hugh is not in play" in sheets["04/dave"]
    assert "“TARGET Simon AT Bristol”: your side's archers did not aim" in sheets["06/george"]
    assert "a DISCARD line in the same orders makes room" in sheets["03/kirsten"]
    # FE 8.0, 8.5: the game is over after Round 7, and the last sheets take no orders.
    gazette = next(t for s, t in last.items() if "Town Crier" in s and "Round 7" in s)
    assert "wins Fief: England in Round 7" in gazette
    sheet = next(t for s, t in last.items() if "Turn sheet for Kirsten, Round 7" in s)
    assert "the game is over (FE 8); no more orders are read" in sheet
