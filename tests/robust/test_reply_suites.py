"""The public reply-parsing suites (talon, email_reply_parser, mail-parser-reply) against
`strip_quotes_and_signature` (issue 13, build item 2: agreement at least 95 % on the cases
whose expected text is the writer's own words)."""

from __future__ import annotations

import pytest
from reply_suites import EXCLUDED, agrees, cases

from moderator.intake.quotes import strip_quotes_and_signature
from moderator.intake.text import normalise_text

ALL = list(cases())
COUNTED = [c for c in ALL if (c.suite, c.name) not in EXCLUDED]


def _ours(text: str) -> str:
    return strip_quotes_and_signature(normalise_text(text))[0]


def test_the_suites_are_all_there_and_every_exclusion_names_a_case() -> None:
    names = {(c.suite, c.name) for c in ALL}
    assert {c.suite for c in ALL} == {"talon", "email_reply_parser", "mail_parser_reply"}
    assert len(ALL) >= 130
    assert set(EXCLUDED) <= names


def test_agreement_with_the_suites_is_at_least_95_percent() -> None:
    failed = [f"{c.suite}/{c.name}" for c in COUNTED if not agrees(_ours(c.text), c.expected)]
    share = 1 - len(failed) / len(COUNTED)
    print(f"reply suites: {len(COUNTED) - len(failed)} of {len(COUNTED)} agree ({share:.1%})")
    assert share >= 0.95, failed


@pytest.mark.parametrize("case", [c for c in COUNTED if c.suite == "talon"][:12],
                         ids=lambda c: c.name)
def test_talon_cases_never_crash_and_stay_linear(case) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(_ours(case.text * 50), str)


def test_agrees_allows_a_dropped_sign_off_but_not_dropped_words() -> None:
    assert agrees("Hello", "Hello\n\nThanks,\nBob")
    assert agrees("Hello", "Hello\n-- \nBob Smith\nhttp://bob.example/")
    assert not agrees("Hello", "Hello\nWEEK 1: PRACTICE rapier\nmore orders here, many")
    assert not agrees("Hello\n> quoted", "Hello")
