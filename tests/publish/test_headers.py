"""Nothing a player writes reaches a header of a mail we send as anything but text.

A player's words reach headers: his Subject (echoed in a refusal's), his character's
name (in his receipts'), the ids of his mail (In-Reply-To, References).  The email
package reads an RFC 2047 encoded word anywhere in a value it is handed and, in Python
3.11, writes what the word decodes to raw, so "=?utf-8?q?=0D=0AX-Injected:_yes?=" there
would begin a header of the player's choosing.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from email import message_from_bytes, policy

from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.intake.process import process_message
from moderator.publish.compose import compose
from moderator.settings.config import Config
from moderator.store.models import Outbox

from support import make_game, order_mail

INJECTION = "=?utf-8?q?x=0D=0AX-Injected:_yes?="


def _composed(**changes: object) -> bytes:
    fields: dict[str, object] = dict(
        sender="moderator@paris.example", sender_name="Moderator of paris",
        to="jacques@lyon.example", subject="[paris] Orders", text="Read back.\n",
        message_id="<1@paris.example>", date=datetime(2026, 12, 1, tzinfo=UTC))
    fields.update(changes)
    return compose(**fields)  # type: ignore[arg-type]


def _names(raw: bytes) -> list[str]:
    return [line.split(b":")[0].decode() for line in raw.split(b"\n\n")[0].split(b"\n")
            if line and not line[:1].isspace()]


def test_an_encoded_word_in_a_subject_is_shown_as_written_never_a_header() -> None:
    """The Subject reads back as exactly the text given, and adds no header."""
    for subject in (f"Not accepted: {INJECTION}", f"[paris] Orders v1 stand: a{INJECTION}b",
                    "=?utf-8?b?" + base64.b64encode(b"\r\nBcc: x@y.example").decode() + "?="):
        raw = _composed(subject=subject)
        assert "X-Injected" not in _names(raw) and "Bcc" not in _names(raw), raw
        assert b"\r" not in raw.split(b"\n\n")[0]
        assert message_from_bytes(raw, policy=policy.default)["Subject"] == subject


def test_an_encoded_word_in_a_message_id_is_not_echoed() -> None:
    """An id that the email package would decode is left out of the threading headers."""
    raw = _composed(in_reply_to=f"<{INJECTION}@c.example>",
                    references=("<ok@c.example>", f"<{INJECTION}@d.example>"))
    assert "X-Injected" not in _names(raw)
    parsed = message_from_bytes(raw, policy=policy.default)
    assert parsed["References"] == "<ok@c.example>" and parsed["In-Reply-To"] is None


def test_control_and_invisible_characters_never_reach_a_subject() -> None:
    """A terminal escape, a NUL or a bidi override in a subject is dropped, the rest kept."""
    raw = _composed(subject="Orders \x1b[31mred\x00 \u202egnp.exe\u2028\x85next\x9b2J")
    assert message_from_bytes(raw, policy=policy.default)["Subject"] == \
        "Orders [31mred gnp.exe next2J"


def test_a_refusal_echoes_a_hostile_subject_as_text(db: Engine, config: Config) -> None:
    """End to end: a stranger's Subject holding an encoded word (sent encoded once more,
    so that intake reads the literal word) comes back in the refusal's subject as text."""
    make_game(db, config)
    outer = "=?utf-8?b?" + base64.b64encode(INJECTION.encode()).decode() + "?="
    raw = order_mail("stranger@nowhere.example", "WEEK 1: PRACTICE rapier\n", subject="SUBJ")
    assert process_message(db, config, raw.replace(b"SUBJ", outer.encode())).status == \
        "refused"
    with Session(db) as session:
        refusal = session.exec(select(Outbox).where(Outbox.kind == "refusal")).one()
    assert "X-Injected" not in _names(refusal.raw)
    assert message_from_bytes(refusal.raw, policy=policy.default)["Subject"] == \
        f"Not accepted: {INJECTION}"
