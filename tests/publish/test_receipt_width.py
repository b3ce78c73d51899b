"""A receipt fits 78 columns (RFC 5322 2.1.1), the orders read back whole.

Found playing DWTK by mail: the forecast's refusals ran to 150 columns ("    - BRIBE:
not enough IP left to spend, DWTK 34.4 (and none at all on a Famine turn, ...") and the
deadline line to 99; the receipt was sent as written, unlike the command replies."""

from __future__ import annotations

from players.test_forecast import SPENDTHRIFT, receipt_text
from sqlalchemy import Engine

from moderator.intake.process import process_message
from moderator.publish.text import fit_lines
from moderator.settings.config import Config

from support import make_game, order_mail

REFUSED = ("    - BRIBE: not enough IP left to spend, DWTK 34.4 (and none at all on a "
           "Famine turn, 34.6; at most half while the government is in crisis, 33.2.1)")


def test_a_receipt_fits_78_columns_with_its_orders_read_back_whole(
        db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", SPENDTHRIFT))
    text = receipt_text(db)
    assert "\n    WEEK 1: BAWDYHOUSE; GAMBLE 50 x3\n" in text, text
    assert not [x for x in text.splitlines() if len(x) > 78], text


def test_a_forecast_refusal_is_wrapped_under_its_item_and_an_order_is_not() -> None:
    """An indented "- " item is prose (the DWTK forecast's refusals); a line indented
    four spaces otherwise is an order read back, or a command, and stays whole."""
    lines = fit_lines(REFUSED).split("\n")
    assert lines[0].startswith("    - BRIBE: not enough IP") and len(lines) == 3
    assert lines[1].startswith("      ") and all(len(x) <= 78 for x in lines)
    order = "    ANNOUNCE " + "x" * 90
    assert fit_lines(order) == order
