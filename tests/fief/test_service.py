"""Fief: England through the whole service: sign-up, orders by mail with a receipt, turns,
gazette and sheets by mail, rerun byte-identical, preview, table overrides."""

from __future__ import annotations

from sqlalchemy import Engine

from moderator.desk import admin
from moderator.desk.preview import preview
from moderator.games.base import label_in_sentence
from moderator.intake.process import process_message
from moderator.runners.outgoing import deliver_outbox
from moderator.settings.config import Config
from moderator.settings.tables import load_tables
from moderator.store.db import session_scope
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

from support import assert_kept_state_unchanged, mailbox_messages, order_mail

BARONS = (("kirsten@england.example", "Kirsten"), ("dave@england.example", "Dave"),
          ("george@england.example", "George"), ("lucy@england.example", "Lucy"))


def _game(db: Engine, config: Config) -> None:
    with session_scope(db) as session:
        admin.create_game(session, config, "england", "fief", seed=7)
        for email, name in BARONS:
            admin.add_player(session, config, "england", email, name, password="pw")


def test_a_fief_game_runs_by_mail_and_reruns_identically(db: Engine, config: Config) -> None:
    _game(db, config)
    muster = "PASSWORD: pw\nSTART Cardiff\nDRAW FORTUNE THEN CHARACTER\n"
    result = process_message(db, config, order_mail(BARONS[0][0], muster,
                                                    subject="[england] orders"))
    assert result.status == "accepted", result
    first = run_turn(db, config, "england")      # the muster and Round 1's draws
    assert first.orders_from == ("kirsten",)
    round1 = ("PASSWORD: pw\nBUY 2 MAN-AT-ARMS AT Cardiff\nBUILD MILL AT Cardiff\n"
              "ALLOW Dave TO PASS AT Cardiff\nDRAW FORTUNE THEN FORTUNE\n")
    result = process_message(db, config, order_mail(BARONS[0][0], round1,
                                                    subject="[england] orders"))
    assert result.status == "accepted", result
    assert preview(db, config, "england").label == "Round 1"
    second = run_turn(db, config, "england")
    assert rerun_turn(db, config, "england", first.number).identical
    assert rerun_turn(db, config, "england", second.number).identical
    deliver_outbox(db, config)
    mails = mailbox_messages(config, BARONS[0][0])
    subjects = [m["Subject"] for m in mails]
    assert any("Hear Ye! The Town Crier of England" in s for s in subjects), subjects
    assert any("Turn sheet for Kirsten" in s for s in subjects), subjects
    sheet = next(m for m in reversed(mails) if "Turn sheet for Kirsten" in m["Subject"])
    body = sheet.get_body(preferencelist=("plain",)).get_content()
    assert "Income forecast" in body and "Cardiff (Red): 1 knight, 5 men-at-arms" in body, body
    gazette = next(m for m in mails if "Town Crier" in m["Subject"])
    text = gazette.get_body(preferencelist=("plain",)).get_content()
    # the text part is written for reading: aligned columns, not Markdown pipes
    assert any("Cardiff" in line and "Wales" in line and "Red" in line
               for line in text.splitlines()), text


def test_fief_orders_by_mail_get_a_receipt_with_every_line_and_every_error(
        db: Engine, config: Config) -> None:
    _game(db, config)
    run_turn(db, config, "england")
    form = ("PASSWORD: pw\nbuy 2 knights at london\nMOVE Nobody: London - Oxford\n"
            "attack Atlantis\nallow dave to pass\nFLY TO THE MOON\n")
    result = process_message(db, config, order_mail(BARONS[0][0], form,
                                                    subject="[england] orders"))
    assert result.status == "accepted", result
    deliver_outbox(db, config)
    receipt = mailbox_messages(config, BARONS[0][0])[-1]
    body = receipt.get_body(preferencelist=("plain",)).get_content()
    assert "BUY 2 KNIGHTS AT London" in body and "ALLOW Dave TO PASS" in body, body
    for line in ("line 3: MOVE Nobody", "line 4: attack Atlantis", "line 6: FLY TO THE MOON"):
        assert line in body, body
    assert_kept_state_unchanged(db, "england")


def test_every_fief_table_value_can_be_overridden_from_config(config: Config) -> None:
    tables = load_tables(config.data_dir, "fief",
                         {"rules": {"victory": {"solo_vp": 4}, "setup": {"start_cash": 9}},
                          "map": {"region": {"marches": {"name": "Border"}}}})
    assert tables.victory.solo_vp == 4 and tables.setup.start_cash == 9
    assert tables.region("marches").name == "Border"


def test_a_fief_game_rolls_back_and_forward_byte_identically(db: Engine, config: Config) -> None:
    """The GM's desk works for Fief as for the other games: roll back to Round 1 and
    forward again with no change, and every newsletter is the same (nothing re-mailed)."""
    from click.testing import CliRunner
    from sqlmodel import Session, select

    from moderator.cli import cli
    from moderator.store import repo
    from moderator.store.models import Newsletter

    _game(db, config)
    run_turn(db, config, "england")
    for _ in range(2):
        process_message(db, config, order_mail(BARONS[1][0], "PASSWORD: pw\nDRAW FORTUNE\n",
                                               subject="[england] orders"))
        run_turn(db, config, "england")

    def published() -> dict[tuple[int, str, int | None], str]:
        with Session(db) as session:
            rows = session.exec(select(Newsletter))
            return {(n.turn_number, n.kind, n.player_id): n.markdown for n in rows}

    before = published()

    def invoke(*args: str) -> str:
        result = CliRunner().invoke(cli, ["--config", str(config.path), "--as", "gm", *args],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    invoke("turn", "rollback", "england", "2", "--reason", "check a battle")
    with Session(db) as session:
        assert repo.open_turn(session, repo.game_by_name(session, "england")).number == 2
    out = invoke("turn", "rollforward", "england", "--reason", "nothing wrong")
    assert out.count("identical, not mailed again") == 2
    assert published() == before


def test_a_fief_welcome_speaks_of_the_family_and_its_muster(db: Engine, config: Config) -> None:
    """Found playing by mail: a Fief player was welcomed with "Your character has been
    created and awaits your orders for The muster." (En Garde!'s words): a Fief player
    has a family, founded at the muster from his START and DRAW lines (Setup, FE 2.0)."""
    _game(db, config)
    deliver_outbox(db, config)
    welcome = mailbox_messages(config, BARONS[0][0])[0]
    body = welcome.get_body(preferencelist=("plain",)).get_content()
    assert "character" not in body.split("Your order form")[0], body
    assert "Your family musters at the first deadline" in " ".join(body.split()), body


def test_the_muster_is_lower_case_inside_the_receipts_sentences(
        db: Engine, config: Config) -> None:
    """Found playing by mail: the receipt read "Orders v1 for Kirsten, The muster
    (england)." and "before for The muster.": the turn's name, capitalised as a heading,
    in the middle of a sentence.  "Round 1" is a name and keeps its capital."""
    _game(db, config)
    muster = "PASSWORD: pw\nSTART Cardiff\nDRAW FORTUNE THEN CHARACTER\n"
    process_message(db, config, order_mail(BARONS[0][0], muster, subject="[england] orders"))
    deliver_outbox(db, config)
    body = mailbox_messages(config, BARONS[0][0])[-1].get_body(
        preferencelist=("plain",)).get_content()
    text = " ".join(body.split())
    assert "Orders v1 for Kirsten, the muster (england)." in text, body
    assert "replace any you sent before for the muster." in text, body
    assert "The muster" not in body, body
    assert label_in_sentence("The court assembles") == "the court assembles"
    assert label_in_sentence("Round 1") == "Round 1"
