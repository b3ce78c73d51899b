"""What players write around their orders: password forms, stray trailing spaces under
format=flowed, greetings and sign-offs (issue 11, item 2)."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.intake.process import process_message
from moderator.intake.route import find_directives
from moderator.intake.text import unflow
from moderator.settings.config import Config
from moderator.store.models import Outbox, Submission

from support import make_game, order_mail


@pytest.mark.parametrize("line", ["PASSWORD: rapier", "PASSWORD rapier", "password rapier",
                                  "Password = rapier", "PW: rapier", "pw rapier"])
def test_password_forms(line: str) -> None:
    found = find_directives(f"Hello\n{line}\nWEEK 1: PRACTICE rapier")
    assert found.password == "rapier"
    assert found.text_for_parser.split("\n") == ["Hello", "", "WEEK 1: PRACTICE rapier"]


def test_a_password_sentence_is_not_a_password() -> None:
    assert find_directives("my password is lost").password is None
    assert find_directives("Password lost again").password is None


@pytest.mark.parametrize(("flowed", "plain"), [
    ("PASSWORD: rapier \nWEEK 1: PRACTICE rapier", "PASSWORD: rapier \nWEEK 1: PRACTICE rapier"),
    ("WEEK 1: PRACTICE rapier \nWEEK 2: PRACTICE sabre", "WEEK 1: PRACTICE rapier \n"
     "WEEK 2: PRACTICE sabre"),
    ("Hello \nPASSWORD: x", "Hello \nPASSWORD: x"),
    ("week 1: practice rapier \nweek 2: practice", "week 1: practice rapier \nweek 2: practice"),
    ("Dear GM, here are my orders for the month, with many thanks for your \npatience",
     "Dear GM, here are my orders for the month, with many thanks for your patience"),
])
def test_soft_breaks_never_glue_order_lines(flowed: str, plain: str) -> None:
    assert unflow(flowed) == plain


def test_greetings_are_set_aside_but_mistyped_orders_stay_errors(db: Engine,
                                                                 config: Config) -> None:
    make_game(db, config)
    body = ("Bonjour,\nPASSWORD rapier\nWEEK 1: PRACTICE rapier\nWEEK 2: PRACTICE sabre\n"
            "WEEK 3: PRACTICE sabr\n\nCheers, Jacques\nJ.\n")
    assert process_message(db, config, order_mail("jacques@lyon.example", body)).status \
        == "accepted"
    with Session(db) as session:
        sub = session.exec(select(Submission)).one()
        receipt = session.exec(select(Outbox).where(Outbox.kind == "receipt")).one()
    assert "PRACTICE sabre" in sub.normal_form_json
    assert "Bonjour" not in sub.errors_json and "Cheers" not in sub.errors_json
    assert "sabr'" in sub.errors_json  # a mistyped order: still an error
    text = receipt.raw.decode("utf-8", "replace")
    assert "not read as orders" in text and "'Cheers, Jacques'" in text
    assert "(1 error)" in receipt.subject


def test_chatter_between_orders_is_an_error(db: Engine, config: Config) -> None:
    make_game(db, config)
    body = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\nhello there\nWEEKEND 1: PROPOSE\n"
    process_message(db, config, order_mail("jacques@lyon.example", body))
    with Session(db) as session:
        sub = session.exec(select(Submission)).one()
    assert "hello there" in sub.errors_json
