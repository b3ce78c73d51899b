"""find_game_name precedence and find_directives line bookkeeping."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from moderator.intake.extract import ExtractedMessage, extract_message
from moderator.intake.route import find_directives, find_game_name, looks_like_game_name

MODERATOR = "gm@example.org"
EMAILS = Path(__file__).parents[1] / "emails"

BLANK = ExtractedMessage(
    message_id="m@example.org", sender="p@example.org", sender_name="P", to_addrs=(),
    subject="", date=None, in_reply_to=None, references=(), text="", notes=(), auto_reason=None,
)


def message(subject: str = "", to: tuple[str, ...] = (), text: str = "") -> ExtractedMessage:
    return replace(BLANK, subject=subject, to_addrs=to, text=text)


def test_subject_tag_beats_plus_address_beats_game_line() -> None:
    everything = message("[engarde] orders", ("gm+dwtk@example.org",), "GAME: other")
    assert find_game_name(everything, MODERATOR) == "engarde"
    no_tag = replace(everything, subject="orders")
    assert find_game_name(no_tag, MODERATOR) == "dwtk"
    only_line = replace(no_tag, to_addrs=("gm@example.org",))
    assert find_game_name(only_line, MODERATOR) == "other"
    assert find_game_name(message("orders", ("gm@example.org",), "WEEK 1: X"), MODERATOR) is None


@pytest.mark.parametrize(
    "subject",
    [
        "Re: [EnGarde] Receipt for turn 1",
        "AW: [engarde] Receipt",
        "SV: Re: [engarde] Receipt",
        "Fwd: [engarde] orders",
        "Re[2]: [engarde] orders",
        "RE: Fw: [engarde] orders",
        "[SPAM] [engarde] orders",
        "[EXTERNAL] Re: [engarde] orders",
        "[2] [engarde] orders",
        "[week 3] [engarde] orders",
        "orders for [engarde]",
    ],
)
def test_subject_tag_skips_prefixes_and_system_tags(subject: str) -> None:
    assert find_game_name(message(subject), MODERATOR) == "engarde"


@pytest.mark.parametrize(
    ("to", "expected"),
    [
        (("gm+engarde@example.org",), "engarde"),
        (("GM+EnGarde@Example.ORG",), "engarde"),
        (("someone@example.org", "gm+dwtk@example.org"), "dwtk"),
        (("gm+engarde@other.example",), None),
        (("gmx+engarde@example.org",), None),
        (("gm@example.org",), None),
    ],
)
def test_plus_address_must_be_the_moderators(to: tuple[str, ...], expected: str | None) -> None:
    assert find_game_name(message(to=to), MODERATOR) == expected


def test_moderator_address_may_have_a_display_name() -> None:
    msg = message(to=("gm+engarde@example.org",))
    assert find_game_name(msg, "The GM <GM@example.org>") == "engarde"


def test_known_games_filter_skips_unknown_tags() -> None:
    msg = message("[orders] turn 3", ("gm+engarde@example.org",))
    assert find_game_name(msg, MODERATOR) == "orders"
    assert find_game_name(msg, MODERATOR, known=("EnGarde", "dwtk")) == "engarde"


def test_game_line_from_a_real_message() -> None:
    msg = extract_message((EMAILS / "no_message_id.eml").read_bytes())
    assert find_game_name(replace(msg, to_addrs=()), MODERATOR) == "engarde"


@pytest.mark.parametrize(
    ("name", "ok"),
    [("engarde", True), ("dwtk-2", True), ("en_garde", True), ("SPAM", False),
     ("2", False), ("week 3", False), ("", False), ("a.b", False)],
)
def test_looks_like_game_name(name: str, ok: bool) -> None:
    assert looks_like_game_name(name) is ok


TEXT = "\n".join([
    "game: EnGarde",
    "WEEK 1: CLUB Bothwell's",
    "  Password :  rapier  ",
    "WEEK 2: PRACTICE rapier",
    "CHARACTER: Jean-Luc de la Mole",
    "WEEK 3: CAROUSE",
])


def test_find_directives_values_and_blanked_lines() -> None:
    found = find_directives(TEXT)
    assert (found.game, found.password, found.character) == (
        "EnGarde", "rapier", "Jean-Luc de la Mole")
    assert found.lines == (1, 3, 5)
    assert found.text_for_parser.split("\n") == [
        "", "WEEK 1: CLUB Bothwell's", "", "WEEK 2: PRACTICE rapier", "", "WEEK 3: CAROUSE"]
    assert found.notes == ()


def test_find_directives_keeps_line_numbers() -> None:
    original = TEXT.split("\n")
    blanked = find_directives(TEXT).text_for_parser.split("\n")
    assert len(blanked) == len(original)
    for number, line in enumerate(blanked, start=1):
        assert line in ("", original[number - 1])


def test_first_value_counts_and_conflicts_are_noted() -> None:
    found = find_directives("PASSWORD: rapier\nPASSWORD: sabre\nPASSWORD:\nGAME: x\nGAME: x")
    assert found.password == "rapier" and found.game == "x"
    assert found.text_for_parser == "\n\n\n\n"
    assert found.notes == ("PASSWORD was given 2 times with different values; used the first",)


def test_no_directives() -> None:
    found = find_directives("WEEK 1: PRACTICE rapier\nPASSWORDS are silly")
    assert (found.game, found.password, found.character, found.lines) == (None, None, None, ())
    assert found.text_for_parser == "WEEK 1: PRACTICE rapier\nPASSWORDS are silly"
