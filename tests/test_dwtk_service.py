"""Down with the King through the whole service: sign-up, orders by mail, turns, newsletters."""

from __future__ import annotations

from sqlalchemy import Engine

from moderator.desk import admin
from moderator.intake.process import process_message
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config
from moderator.store.db import session_scope
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

from support import assert_kept_state_unchanged, mailbox_messages, order_mail

NOBLES = (("p1@fandonia.example", "Noble One"), ("p2@fandonia.example", "Noble Two"),
          ("p3@fandonia.example", "Noble Three"))


def test_a_dwtk_game_runs_by_mail_and_reruns_identically(db: Engine, config: Config) -> None:
    with session_scope(db) as session:
        admin.create_game(session, config, "fandonia", "dwtk", seed=3)
        for email, name in NOBLES:
            admin.add_player(session, config, "fandonia", email, name, password="pw")
    first = run_turn(db, config, "fandonia")  # the deal and the start of turn 1
    form = "PASSWORD: pw\nDO DRAW EVENT\nBUY 1 PP\n"
    result = process_message(db, config, order_mail(NOBLES[0][0], form,
                                                    subject="[fandonia] orders"))
    assert result.status == "accepted", result
    second = run_turn(db, config, "fandonia")
    assert second.orders_from == ("noble-one",)
    assert rerun_turn(db, config, "fandonia", first.number).identical
    assert rerun_turn(db, config, "fandonia", second.number).identical
    deliver_outbox(db, config)
    subjects = [m["Subject"] for m in mailbox_messages(config, NOBLES[1][0])]
    assert any("The Fandonian Courier" in s for s in subjects), subjects
    assert any("Turn sheet for Noble Two" in s for s in subjects), subjects


def test_dwtk_orders_by_mail_get_a_receipt_in_normal_form_with_every_error(
        db: Engine, config: Config) -> None:
    """DWTK orders of every kind through intake: the receipt reads each accepted line back
    in normal form (18.4, 13.4.17, 13.4.20, 35.5, 14.1) and lists each bad line with its
    number and a hint, all of them, not just the first."""
    with session_scope(db) as session:
        admin.create_game(session, config, "fandonia", "dwtk", seed=3)
        for email, name in NOBLES:
            admin.add_player(session, config, "fandonia", email, name, password="pw")
    run_turn(db, config, "fandonia")
    form = ("PASSWORD: pw\ndo prestige carousing buy +1\nPROPOSE PC TO Nobody\n"
            "SOLICIT BRIBE 9\nbribe 22 with 2 ip\nLOSE FIRST 23\n"
            "IF AN OPPONENT SEDUCES MINE THEN PLAY Treachery\n")
    result = process_message(db, config, order_mail(NOBLES[0][0], form,
                                                    subject="[fandonia] orders"))
    assert result.status == "accepted", result
    deliver_outbox(db, config)
    receipt = mailbox_messages(config, NOBLES[0][0])[-1]
    body = receipt.get_body(preferencelist=("plain",)).get_content()
    for line in ("DO PRESTIGE Carousing BUY +1", "BRIBE 22 WITH 2 IP", "LOSE FIRST 23",
                 "IF AN OPPONENT SEDUCES MINE THEN PLAY Treachery"):
        assert line in body, body
    assert "line 3: PROPOSE PC TO Nobody" in body and "line 4: SOLICIT BRIBE 9" in body
    assert_kept_state_unchanged(db, "fandonia")


def test_a_receipts_forecast_does_not_call_every_pc_he(db: Engine, config: Config) -> None:
    """A DWTK PC may be a woman (Lady Isabella, Lady Margaret: DWTK 2.1.2): the receipt
    said 'Forecast (from these orders and your character as he stands now ...)'."""
    with session_scope(db) as session:
        admin.create_game(session, config, "fandonia", "dwtk", seed=3)
        for email, name in NOBLES:
            admin.add_player(session, config, "fandonia", email, name, password="pw")
    run_turn(db, config, "fandonia")
    result = process_message(db, config, order_mail(NOBLES[0][0], "PASSWORD: pw\nDO DRAW EVENT\n",
                                                    subject="[fandonia] orders"))
    assert result.status == "accepted", result
    deliver_outbox(db, config)
    receipt = mailbox_messages(config, NOBLES[0][0])[-1]
    body = " ".join(receipt.get_body(preferencelist=("plain",)).get_content().split())
    assert "Forecast (from these orders and your position as it stands now" in body, body
    assert " he stands" not in body
