"""Every receipt intake sends, in each of its variants, has lines of at most
`REPLY_COLUMNS` columns (RFC 5322 2.1.1), as the command replies do
(tests/conftest.py): the template's own lines, and the prose it is given (the standing
orders' reason, the deadline, a note, an error's message and hint) filled to fit.
Orders read back and quoted lines indented four spaces are left whole."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from moderator.games.base import OrderError, ParsedOrders, Severity
from moderator.publish import outgoing, receipts
from moderator.publish.receipts import ReceiptFacts, Replying
from moderator.publish.text import REPLY_COLUMNS
from moderator.settings.config import Config
from moderator.store.models import Game, Player, Submission, Turn
from moderator.store.repo import Standing

GAME = Game(id=1, name="paris", kind="engarde", seed=1, time_zone="Europe/Paris")
PLAYER = Player(id=1, game_id=1, name="Jacques de Lyon", email="jacques@lyon.example",
                character_key="jacques-de-lyon")
TURN = Turn(id=1, game_id=1, number=9, label="September 1625", seed=1,
            deadline=datetime(2026, 9, 26, 16, tzinfo=UTC), state_before="{}")
DEADLINE = "Saturday 26 September 2026, 18:00 CEST"
REASONS = ("it was written after v3, v4, which reached the moderator first",
           "it answers the receipt for v12", "the GM entered it (act-as)")
ORDERS = ("WEEK 1: COURT Lady Anne de Rohan-Chabot", "WEEK 2: PRACTICE rapier",
          "WEEK 3: GAMBLE 100 crowns at the Hazard table", "WEEK 4: VISIT the Fleur de Lys")
PROBLEMS = (
    OrderError(3, "WEEK 3: GAMBLE a great deal of money at the table of the Duc de Sully",
               "an amount of crowns is a number, and the table one the club has",
               "e.g. GAMBLE 100 crowns at the Hazard table; the clubs and their tables "
               "are on your sheet", Severity.ERROR),
    OrderError(5, "STANDING: duel any man who insults my lady or my regiment's colours",
               "standing orders are kept for the next turns unless you change them, "
               "which may not be what you meant", None, Severity.WARNING),
)
NOTES = ("Your message also held a quoted earlier receipt; its lines were not read as "
         "orders, only the lines you wrote above it.",)
FORECAST = ("You would end the month with 340 crowns, SL 7 and 2 mistresses, if the "
            "others do not interfere with your plans for the Duchesse de Chevreuse.",)


def _standing(version: int, reason: str) -> Standing:
    return Standing(Submission(id=version, game_id=1, player_id=1, turn_number=9,
                               version=version, raw_text="", normal_form_json="[]"), reason)


def _variants() -> list[ReceiptFacts]:
    """Each branch of the receipt: checked, refused, late, kept but not standing,
    standing, with and without a deadline, errors, warnings, notes and a forecast."""
    facts = []
    for reason in REASONS:
        common: dict[str, Any] = {"character_name": "Jacques de Lyon", "notes": NOTES,
                                  "forecast": FORECAST}
        facts += [
            ReceiptFacts(True, 2, _standing(2, reason), False, deadline=DEADLINE, **common),
            ReceiptFacts(True, 2, _standing(3, reason), False, deadline=DEADLINE, **common),
            ReceiptFacts(True, 4, None, True, deadline=DEADLINE, **common),
            ReceiptFacts(False, 1, _standing(1, reason), False, deadline=None, **common),
            ReceiptFacts(False, 0, None, False, deadline=DEADLINE, **common),
            ReceiptFacts(True, 1, _standing(1, reason), False, deadline=DEADLINE,
                         checked_only=True, **common),
        ]
    return facts


@pytest.mark.parametrize("facts", _variants())
def test_every_receipt_line_fits(config: Config, facts: ReceiptFacts,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[str] = []
    monkeypatch.setattr(outgoing, "queue", lambda *_a, **kw: sent.append(kw["text"]))
    parsed = ParsedOrders({}, ORDERS, PROBLEMS)
    receipts.queue_receipt(None, config, GAME, PLAYER, TURN, parsed,  # type: ignore[arg-type]
                           facts, Replying("<m@x>"))
    long = [line for line in sent[0].splitlines() if len(line) > REPLY_COLUMNS]
    assert not long, f"receipt lines over {REPLY_COLUMNS} columns: {long}"
    assert all(f"    {order}" in sent[0].splitlines() for order in ORDERS)
