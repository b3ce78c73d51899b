"""The sample builders write what real clients write, and the demo set is golden.

To regenerate the golden files after a deliberate change to a builder::

    .venv/bin/python -c "from pathlib import Path; from moderator.demo.samples import \\
    demo_messages; [Path('tests/emails', f'demo_{k}.eml').write_bytes(v) \\
    for k, v in demo_messages().items()]"
"""

from __future__ import annotations

from datetime import UTC, datetime
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from moderator.demo import samples
from moderator.intake.extract import extract_message

EMAILS = Path(__file__).parents[1] / "emails"
DEMO = samples.demo_messages()
CLIENT_HEADER = {
    "thunderbird_plain": ("User-Agent", "Mozilla Thunderbird"),
    "gmail_html_only": ("Message-ID", "@mail.gmail.com"),
    "outlook_cp1252_qp": ("X-Mailer", "Microsoft Outlook"),
    "apple_mail_reply": ("X-Mailer", "Apple Mail"),
    "with_signature": ("User-Agent", "Mutt"),
}


@pytest.mark.parametrize("name", sorted(DEMO))
def test_demo_messages_match_golden_files(name: str) -> None:
    assert DEMO[name] == (EMAILS / f"demo_{name}.eml").read_bytes()


@pytest.mark.parametrize("name", sorted(DEMO))
def test_demo_messages_look_like_their_client(name: str) -> None:
    raw = DEMO[name]
    assert b"\n" not in raw.replace(b"\r\n", b"")  # CRLF only, as on the wire
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    header, needle = CLIENT_HEADER[name]
    assert needle in str(msg[header])
    assert msg["MIME-Version"] is not None and msg["Date"].datetime is not None
    assert not msg.defects


def test_demo_set_routes_and_extracts() -> None:
    for raw in DEMO.values():
        msg = extract_message(raw)
        assert msg.text.startswith("PASSWORD: rapier\nWEEK 1: CLUB Bothwell's;")
        assert msg.auto_reason is None
        assert "[engarde]" in msg.subject


def test_apple_mail_reply_threads_and_quotes() -> None:
    raw = DEMO["apple_mail_reply"]
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    assert msg["Subject"] == "Re: [engarde] Orders for turn 1"
    assert msg["In-Reply-To"] == msg["References"] == "<receipt-1-alice@example.org>"
    plain = msg.get_body(("plain",)).get_content()
    assert "> On 5 Jan 2025, at 10:00, Moderator <gm@example.org> wrote:" in plain


def test_with_attachment_is_mixed_and_the_attachment_is_noted() -> None:
    raw = samples.with_attachment(
        sender="a@example.org", sender_name="A", to="gm+engarde@example.org",
        subject="[engarde] orders", body="WEEK 1: PRACTICE rapier",
        date=datetime(2025, 1, 6, tzinfo=UTC), message_id="att@example.org",
    )
    msg = extract_message(raw)
    assert msg.text == "WEEK 1: PRACTICE rapier"
    assert msg.notes == ("ignored an attachment 'orders.docx'",)


def test_non_ascii_subject_and_body_are_encoded() -> None:
    raw = samples.with_signature(
        sender="r@example.fr", sender_name="René", to="gm@example.org",
        subject="[engarde] ordres de René", body="WEEK 1: GUEST OF Chéri",
        date=datetime(2025, 1, 6, tzinfo=UTC), message_id="nonascii@example.fr",
    )
    head = raw.split(b"\r\n\r\n")[0]
    assert head.isascii()
    msg = extract_message(raw)
    assert (msg.subject, msg.sender_name, msg.text) == (
        "[engarde] ordres de René", "René", "WEEK 1: GUEST OF Chéri")
