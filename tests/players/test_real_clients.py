"""Mail from real mail programs (mutt and s-nail from Debian, batch mode), delivered into
the Maildir transport: each gives the intended orders and a receipt without false errors
(issue 11's acceptance: plain, format=flowed with trailing spaces, ISO-8859-1 8-bit,
quoted-printable UTF-8, a reply quoting the receipt, orders as an attachment, greetings
and sign-offs)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator import jsonio
from moderator.runners.incoming import process_inbox
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Outbox
from players.clients import deliver, mutt, s_nail

from support import make_game

ORDERS = ("WEEK 1: PRACTICE rapier", "WEEK 2: PRACTICE sabre")
ANNOUNCED = 'ANYTIME: ANNOUNCE "Jacques de Lyon salue Chérie à Paris."'


def intake(db: Engine, config: Config, raw: bytes) -> tuple[tuple[str, ...], str, str]:
    """Deliver one message, run the inbox; the standing orders, the receipt's subject
    and its text."""
    deliver(config, raw)
    [result] = process_inbox(db, config)
    assert result.status == "accepted", result
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        player = repo.player_by_email(session, game, "jacques@lyon.example")
        stands = repo.standing_submission(session, player, 1, None)
        assert stands is not None
        receipt = session.exec(select(Outbox).where(Outbox.kind == "receipt")
                               .order_by(Outbox.id.desc())).first()  # type: ignore[union-attr]
        assert receipt is not None
        from email import message_from_bytes, policy
        mail = message_from_bytes(receipt.raw, policy=policy.default)
        text = mail.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
        return tuple(jsonio.loads(stands.submission.normal_form_json)), receipt.subject, text


def no_false_errors(subject: str, text: str) -> None:
    assert "error" not in subject and "could not be accepted" not in text, text
    assert "stand" in subject


def test_mutt_plain_with_greeting_and_sign_off(db: Engine, config: Config,
                                                tmp_path: Path) -> None:
    make_game(db, config)
    body = (b"Bonjour,\n\nPASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE sabre\n"
            b"\nCheers, Jacques\n")
    raw = mutt(tmp_path / "mutt", body, "[paris] my orders")
    assert b"User-Agent" not in raw or b"Mutt" in raw
    orders, subject, text = intake(db, config, raw)
    assert orders == ORDERS
    no_false_errors(subject, text)
    assert "not read as orders" in text and "'Cheers, Jacques'" in text


def test_mutt_format_flowed_with_trailing_spaces(db: Engine, config: Config,
                                                 tmp_path: Path) -> None:
    """mutt's text_flowed keeps the spaces the player left at line ends: each one is a
    soft break on the wire, and none may glue PASSWORD to the orders."""
    make_game(db, config)
    body = b"PASSWORD: rapier \nWEEK 1: PRACTICE rapier \nWEEK 2: PRACTICE sabre \n"
    raw = mutt(tmp_path / "mutt", body, "[paris] my orders", settings=("set text_flowed=yes",))
    assert b"format=flowed" in raw and b"rapier \n" in raw.replace(b"\r\n", b"\n")
    orders, subject, text = intake(db, config, raw)
    assert orders == ORDERS
    no_false_errors(subject, text)


def test_s_nail_iso_8859_1_eight_bit(db: Engine, config: Config, tmp_path: Path) -> None:
    make_game(db, config)
    body = ("Bonjour,\nPASSWORD: rapier\n"
            'ANNOUNCE: "Jacques de Lyon salue Chérie à Paris."\n'
            "WEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE sabre\nÀ bientôt,\nJacques\n")
    raw = s_nail(tmp_path / "s-nail", body.encode("iso-8859-1"), "[paris] ordres",
                 settings=("ttycharset=iso-8859-1", "sendcharsets=iso-8859-1",
                           "mime-encoding=8bit"))
    assert b"charset=iso-8859-1" in raw and "Chérie".encode("iso-8859-1") in raw
    orders, subject, text = intake(db, config, raw)
    assert orders == (ANNOUNCED, *ORDERS)
    no_false_errors(subject, text)


def test_s_nail_quoted_printable_utf8(db: Engine, config: Config, tmp_path: Path) -> None:
    make_game(db, config)
    body = ('PASSWORD: rapier\nANNOUNCE: "Jacques de Lyon salue Chérie à Paris."\n'
            "WEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE sabre\n")
    raw = s_nail(tmp_path / "s-nail", body.encode(), "[paris] orders",
                 settings=("ttycharset=utf-8", "sendcharsets=utf-8",
                           "mime-encoding=quoted-printable"))
    assert b"quoted-printable" in raw and b"Ch=C3=A9rie" in raw
    orders, subject, text = intake(db, config, raw)
    assert orders == (ANNOUNCED, *ORDERS)
    no_false_errors(subject, text)


def test_mutt_reply_quoting_the_receipt(db: Engine, config: Config, tmp_path: Path) -> None:
    """A reply (mutt -H, as a postponed reply is read back) quoting the whole receipt
    under the corrected orders: the quote is not read and the reply supersedes v1."""
    make_game(db, config)
    first = b"PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE rapeir\n"
    intake_first = mutt(tmp_path / "first", first, "[paris] my orders")
    deliver(config, intake_first)
    process_inbox(db, config)
    with Session(db) as session:
        receipt = session.exec(select(Outbox).where(Outbox.kind == "receipt")).one()
        receipt_id, receipt_subject = receipt.message_id, receipt.subject
        quoted = "\n".join(f"> {line}" for line in receipt.raw.decode().split("\n\n", 1)[1]
                           .splitlines())
    draft = (f"Subject: Re: {receipt_subject}\nIn-Reply-To: {receipt_id}\n"
             f"References: {receipt_id}\n\nPASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"
             f"WEEK 2: PRACTICE sabre\n\nOn Tue, the moderator wrote:\n{quoted}\n")
    raw = mutt(tmp_path / "reply", b"", "", draft=draft)
    assert b"In-Reply-To" in raw and b"> " in raw
    orders, subject, text = intake(db, config, raw)
    assert orders == ORDERS
    no_false_errors(subject, text)
    assert subject.startswith("[paris] Orders v2 stand")


def test_mutt_orders_in_an_attachment(db: Engine, config: Config, tmp_path: Path) -> None:
    make_game(db, config)
    attached = tmp_path / "orders.txt"
    attached.write_text("PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE sabre\n")
    raw = mutt(tmp_path / "mutt", b"My orders are attached.\nJacques\n", "[paris] orders",
               attach=attached)
    assert b"multipart/mixed" in raw and b'filename="orders.txt"' in raw
    orders, subject, text = intake(db, config, raw)
    assert orders == ORDERS
    no_false_errors(subject, text)
    assert "read the orders from the attachment 'orders.txt'" in text
