"""extract_message against real-looking client mail (tests/emails/*.eml) and inline cases.

Golden style after Mailman's ``.eml`` tests: each fixture's order lines must
come out exactly, line by line.
"""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.demo.samples import DEMO_ORDERS, thunderbird_plain
from moderator.intake.extract import (
    decode_bytes,
    extract_message,
    html_to_text,
    normalise_text,
    strip_quotes_and_signature,
    unflow,
)

from support import cpu_cost

EMAILS = Path(__file__).parents[1] / "emails"
ORDERS = DEMO_ORDERS.split("\n")
ORDERS_CHERI = DEMO_ORDERS.replace("Cyrano", "Chéri").split("\n")


def load(name: str) -> bytes:
    return (EMAILS / name).read_bytes()


def mail(headers: str, body: str | bytes = "WEEK 1: PRACTICE rapier\n") -> bytes:
    """An inline message, Mailman ``mfs`` style; headers one per line."""
    head = "From: Player <player@example.org>\nTo: gm@example.org\n" + headers.strip("\n")
    raw = (head + "\n\n").encode("ascii")
    return raw + (body if isinstance(body, bytes) else body.encode("utf-8"))


EXPECTED_LINES = {
    "demo_thunderbird_plain.eml": ORDERS,
    "demo_gmail_html_only.eml": ORDERS,
    "demo_outlook_cp1252_qp.eml": ORDERS_CHERI,
    "demo_apple_mail_reply.eml": ORDERS,
    "demo_with_signature.eml": ORDERS,
    "gmail_reply.eml": ORDERS[:3],
    "gmail_reply_wrapped_attribution.eml": [ORDERS[3]],
    "iphone_reply.eml": ["PASSWORD: rapier", "WEEK 1: CLUB Bothwell's; GUEST OF Cyrano",
                         "WEEK 2: PRACTICE rapier"],
    "outlook_original_message.eml": ["WEEK 1: CLUB Bothwell's; GUEST OF Cyrano",
                                     "WEEK 2: PRACTICE rapier"],
    "outlook_com_reply.eml": ["PASSWORD: rapier", "WEEK 1: CLUB Bothwell's; GUEST OF Chéri",
                              "WEEK 2: PRACTICE rapier"],
    "thunderbird_bottom_post.eml": [
        "WEEK 1: CLUB Bothwell's; GUEST OF Cyrano; TOADY Cyrano; CAROUSE; and then "
        "GAMBLE 10 x3 CUT 4",
        "WEEK 2: PRACTICE rapier",
        "WEEK 3: CAROUSE",
    ],
    "latin1_lying.eml": ["PASSWORD: rapier", "WEEK 1: CLUB Bothwell's; GUEST OF Chéri; TOADY Chéri",
                         "WEEK 2: PRACTICE rapière"],
    "gmail_mixed_attachment.eml": ["PASSWORD: rapier", "WEEK 1: PRACTICE rapier"],
    "no_message_id.eml": ["GAME: engarde", "PASSWORD: rapier", "WEEK 1: PRACTICE rapier"],
    "broken_mime_no_boundary.eml": ["PASSWORD: rapier", "WEEK 1: PRACTICE rapier"],
    "broken_mime_truncated.eml": ["PASSWORD: rapier", "WEEK 1: PRACTICE rapier"],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_LINES))
def test_order_lines_come_out_exactly(name: str) -> None:
    assert extract_message(load(name)).text.split("\n") == EXPECTED_LINES[name]


@pytest.mark.parametrize("name", sorted(EXPECTED_LINES))
def test_no_quote_signature_or_markup_survives(name: str) -> None:
    text = extract_message(load(name)).text
    for leftover in ("Receipt", "wrote", "schrieb", ">", "--", "Sent from", "Outlook",
                     "+49", "+44", "<div", "&nbsp;", "\u2019", "\xa0", "\r"):
        assert leftover not in text


@pytest.mark.parametrize(
    ("name", "notes"),
    [
        ("demo_thunderbird_plain.eml", ()),
        ("demo_gmail_html_only.eml", ("converted HTML to text",)),
        ("demo_outlook_cp1252_qp.eml", ()),
        ("demo_apple_mail_reply.eml", ("removed 4 quoted lines",)),
        ("demo_with_signature.eml", ("removed a signature",)),
        ("iphone_reply.eml", ("removed 3 quoted lines", "removed a signature")),
        ("gmail_mixed_attachment.eml",
         ("ignored an attachment 'orders.pdf'", "ignored an attachment 'image.png'")),
        ("latin1_lying.eml", ("the text was not valid utf-8; read it as windows-1252",)),
        ("broken_mime_truncated.eml",
         ("unknown charset 'x-unknown-charset'; read it as utf-8",
          "ignored an attachment 'broken.bin'")),
        ("broken_mime_no_boundary.eml",
         ("could not understand the MIME structure; read the raw body",)),
    ],
)
def test_notes_tell_the_player_what_was_dropped(name: str, notes: tuple[str, ...]) -> None:
    assert extract_message(load(name)).notes == notes


def test_attached_text_file_is_read_when_the_body_is_empty() -> None:
    raw = mail(
        'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"',
        "--b\nContent-Type: text/plain\n\n\n--b\n"
        'Content-Type: text/plain; name="orders.txt"\n'
        'Content-Disposition: attachment; filename="orders.txt"\n\n'
        "WEEK 1: PRACTICE rapier\n--b--\n",
    )
    msg = extract_message(raw)
    assert msg.text == "WEEK 1: PRACTICE rapier"
    assert msg.notes == ("read the orders from the attachment 'orders.txt'",)


def test_outlook_windows_1252_accents_and_curly_apostrophe_survive() -> None:
    raw = load("demo_outlook_cp1252_qp.eml")
    assert b"Bothwell=92s" in raw and b"Ch=E9ri" in raw  # the encoding really matters
    msg = extract_message(raw)
    assert "GUEST OF Chéri; TOADY Chéri" in msg.text
    assert "CLUB Bothwell's;" in msg.text
    assert msg.sender_name == "Claire Lefèvre"


# --- automated mail ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("dsn_bounce.eml", "Auto-Submitted: auto-replied"),
        ("outlook_out_of_office.eml", "Auto-Submitted: auto-generated"),
        ("gmail_vacation.eml", "Auto-Submitted: auto-replied"),
        ("mailing_list.eml", "Precedence: list"),
    ],
)
def test_automated_fixtures_are_flagged(name: str, reason: str) -> None:
    assert extract_message(load(name)).auto_reason == reason


@pytest.mark.parametrize("name", sorted(EXPECTED_LINES))
def test_player_mail_is_not_automated(name: str) -> None:
    assert extract_message(load(name)).auto_reason is None


@pytest.mark.parametrize(
    "headers",
    [
        "Auto-Submitted: auto-replied",
        "Auto-Submitted: auto-generated; type=vacation",
        "Precedence: bulk",
        "Precedence: junk",
        "Precedence: list",
        "List-Id: <pbem.lists.example.net>",
        "List-Unsubscribe: <mailto:leave@example.net>",
        "Return-Path: <>",
        "Return-Path: <MAILER-DAEMON@mx.example.net>",
        "X-Autoreply: yes",
        "X-Autorespond: vacation",
        "X-Auto-Response-Suppress: DR, RN, NRN, OOF, AutoReply",
        "X-Auto-Response-Suppress: All",
        "Feedback-ID: 1234:campaign:gmail",
        "Subject: Out of Office: orders",
        "Subject: Automatic reply: [engarde] Receipt",
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    ],
)
def test_each_auto_signal_is_recognised(headers: str) -> None:
    assert extract_message(mail(headers)).auto_reason is not None


@pytest.mark.parametrize(
    "headers",
    [
        "Auto-Submitted: no",
        "X-Auto-Response-Suppress: OOF",
        "Return-Path: <player@example.org>",
        "Subject: [engarde] orders; out of office next week",
        "Precedence: first-class",
    ],
)
def test_normal_headers_are_not_auto(headers: str) -> None:
    assert extract_message(mail(headers)).auto_reason is None


def test_postmaster_sender_is_auto() -> None:
    raw = b"From: postmaster@example.net\nTo: gm@example.org\n\nDelivery delayed\n"
    assert extract_message(raw).auto_reason == "sent by postmaster@example.net"


# --- identity and headers ------------------------------------------------------------

def test_synthetic_message_id_is_stable_and_derived_from_the_bytes() -> None:
    raw = load("no_message_id.eml")
    first, second = extract_message(raw), extract_message(raw)
    assert first.message_id == second.message_id
    assert first.message_id == f"sha256-{hashlib.sha256(raw).hexdigest()}@moderator.invalid"
    assert extract_message(raw + b"\n").message_id != first.message_id


def test_headers_are_decoded_and_reply_to_is_not_trusted() -> None:
    raw = mail(
        "Reply-To: attacker@evil.example\n"
        "Cc: Other <OTHER@Example.org>, gm@example.org\n"
        "Delivered-To: GM+EnGarde@example.org\n"
        "X-Original-To: gm+engarde@example.org\n"
        "Subject: =?UTF-8?Q?Re=3A_=5Bengarde=5D_ordres_de_Ch=C3=A9ri?=\n"
        "Date: Mon, 6 Jan 2025 10:00:00 +0100\n"
        "Message-ID:  <Abc.123@Example.org>  \n"
        "In-Reply-To: <receipt-1@example.org>\n"
        "References: <first@example.org>\n <receipt-1@example.org>"
    ).replace(b"From: Player <player@example.org>",
              b"From: =?ISO-8859-1?Q?Ren=E9?= <Rene@Example.FR>")
    msg = extract_message(raw)
    assert (msg.sender, msg.sender_name) == ("rene@example.fr", "René")
    assert msg.to_addrs == ("gm@example.org", "other@example.org", "gm+engarde@example.org")
    assert msg.subject == "Re: [engarde] ordres de Chéri"
    assert msg.date == datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
    assert msg.message_id == "Abc.123@Example.org"
    assert msg.in_reply_to == "receipt-1@example.org"
    assert msg.references == ("first@example.org", "receipt-1@example.org")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Mon, 6 Jan 2025 10:00:00 -0000", datetime(2025, 1, 6, 10, 0, tzinfo=UTC)),
        ("6 Jan 2025 10:00 +0530",
         datetime(2025, 1, 6, 10, 0, tzinfo=timezone(timedelta(hours=5, minutes=30)))),
        ("yesterday at teatime", None),
        ("", None),
    ],
)
def test_date_is_aware_or_none(value: str, expected: datetime | None) -> None:
    msg = extract_message(mail(f"Date: {value}"))
    assert msg.date == expected
    assert msg.date is None or msg.date.tzinfo is not None


def test_missing_headers_give_empty_values() -> None:
    msg = extract_message(b"\n\nWEEK 1: PRACTICE rapier\n")
    assert (msg.sender, msg.subject, msg.to_addrs, msg.date) == ("", "", (), None)
    assert msg.in_reply_to is None and msg.references == ()
    assert msg.text == "WEEK 1: PRACTICE rapier"


# --- never raises --------------------------------------------------------------------

def test_garbage_fixture_does_not_raise() -> None:
    msg = extract_message(load("garbage.eml"))
    assert msg.message_id.startswith("sha256-")
    msg.text.encode("utf-8")  # storable


@given(st.binary(max_size=3000))
@settings(max_examples=200, deadline=None, database=None)  # no .hypothesis/ in the repo
def test_random_bytes_never_raise(raw: bytes) -> None:
    msg = extract_message(raw)
    for value in (msg.text, msg.subject, msg.sender, msg.sender_name, *msg.notes):
        value.encode("utf-8")


@pytest.mark.parametrize("name", sorted(p.name for p in EMAILS.glob("*.eml")))
def test_mangled_fixtures_never_raise(name: str) -> None:
    """Truncate and flip bytes in every fixture: broken MIME must still extract."""
    raw = bytearray(load(name))
    rng = random.Random(name)
    for _ in range(25):
        mangled = bytearray(raw[: rng.randrange(len(raw) + 1)])
        for _ in range(rng.randrange(1, 8)):
            if mangled:
                mangled[rng.randrange(len(mangled))] = rng.randrange(256)
        extract_message(bytes(mangled))


def test_hostile_header_values_do_not_raise() -> None:
    raw = (b"From: \"\\\" <<@>>@@ , =?utf-8?b?!!!?= <\x80\xff>\n"
           b"To: ;;;,,,<>\nSubject: =?x-bogus?q?abc?=\nDate: Mon, 99 Foo 99999 99:99:99 +9999\n"
           b"Message-ID: <<<>>>\nContent-Type: text/plain; charset=\"\x80\"\n\nhi\n")
    assert extract_message(raw).text == "hi"


# --- charsets ------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("data", "declared", "text", "notes"),
    [
        ("Chéri".encode(), "utf-8", "Chéri", []),
        ("Chéri".encode("latin-1"), None, "Chéri", ["read the text as windows-1252"]),
        ("Chéri".encode(), None, "Chéri", []),
        ("Chéri".encode(), "iso-8859-1", "Chéri", ["the message said iso-8859-1 but was utf-8"]),
        ("Chéri’s".encode("cp1252"), "us-ascii", "Chéri’s",
         ["the text was not valid us-ascii; read it as windows-1252"]),
        (b"abc", "x-made-up", "abc", ["unknown charset 'x-made-up'; read it as utf-8"]),
        ("Chéri".encode("latin-1"), "ISO-8859-1", "Chéri", []),
    ],
)
def test_charset_fallbacks(data: bytes, declared: str | None, text: str, notes: list[str]) -> None:
    assert decode_bytes(data, declared) == (text, notes)


def test_base64_and_undeclared_latin1_bodies() -> None:
    b64 = mail("MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
               "Content-Transfer-Encoding: base64", "V0VFSyAxOiBHVUVTVCBPRiBDaMOpcmkK\n")
    assert extract_message(b64).text == "WEEK 1: GUEST OF Chéri"
    old = mail("", "WEEK 1: GUEST OF Chéri\n".encode("latin-1"))
    assert extract_message(old).text == "WEEK 1: GUEST OF Chéri"


# --- format=flowed ---------------------------------------------------------------------

def test_thunderbird_flowed_long_line_is_rejoined() -> None:
    long_line = "WEEK 1: " + "; ".join(["CLUB Bothwell's", "GUEST OF Cyrano"] * 5)
    raw = thunderbird_plain(
        sender="a@example.org", sender_name="A", to="gm@example.org", subject="x",
        body=f"{long_line}\nWEEK 2: PRACTICE rapier", date=datetime(2025, 1, 6, tzinfo=UTC),
        message_id="m@example.org",
    )
    assert b" \r\n" in raw  # really soft-broken on the wire
    assert extract_message(raw).text.split("\n") == [long_line, "WEEK 2: PRACTICE rapier"]


@pytest.mark.parametrize(
    ("flowed", "delsp", "plain"),
    [
        ("WEEK 1: CLUB \nBothwell's\nWEEK 2", False, "WEEK 1: CLUB Bothwell's\nWEEK 2"),
        ("WEEK 1: CLUB\u00a0\nBothwell's", False, "WEEK 1: CLUB\u00a0\nBothwell's"),
        ("WEEK 1: CL \nUB", True, "WEEK 1: CLUB"),
        (" From here\n >not quoted", False, "From here\n>not quoted"),
        ("> quoted \n> on\nnew", False, "> quoted on\nnew"),
        ("text \n> quote", False, "text \n> quote"),
        ("-- \nsig", False, "-- \nsig"),
    ],
)
def test_unflow(flowed: str, delsp: bool, plain: str) -> None:
    assert unflow(flowed, delsp) == plain


def test_delsp_message() -> None:
    raw = mail("MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8; format=flowed; "
               "delsp=yes", "WEEK 1: CLUB Both \nwell's\n")
    assert extract_message(raw).text == "WEEK 1: CLUB Bothwell's"


# --- HTML --------------------------------------------------------------------------------

HTML_CASES = {
    "gmail div": '<div dir="ltr">PASSWORD: rapier<div>WEEK 1: CLUB Bothwell&#39;s;&nbsp; '
                 "GUEST OF Cyrano</div><div><br></div><div>WEEK 2: PRACTICE rapier</div></div>",
    "gmail br": '<div dir="ltr">PASSWORD: rapier<br>WEEK 1: CLUB Bothwell’s;&nbsp; GUEST OF '
                "Cyrano<br><br>WEEK 2: PRACTICE rapier<br></div>",
    "outlook p": "<html><head><style><!-- p.MsoNormal {margin:0cm;} --></style></head>"
                 "<body lang=EN-GB><div class=WordSection1><p class=MsoNormal>PASSWORD: rapier"
                 "<o:p></o:p></p><p class=MsoNormal>WEEK 1: CLUB Bothwell&#8217;s;&nbsp; GUEST"
                 " OF Cyrano<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p>"
                 "<p class=MsoNormal>WEEK 2: PRACTICE rapier<o:p></o:p></p></div></body></html>",
    "apple div": '<html><body style="overflow-wrap: break-word;"><div>PASSWORD: rapier</div>'
                 "<div>WEEK 1: CLUB Bothwell’s;&nbsp; GUEST OF Cyrano</div><div><br></div>"
                 "<div>WEEK 2: PRACTICE rapier</div><div><br><blockquote type=\"cite\">"
                 "<div>On 5 Jan 2025, at 10:00, GM &lt;gm@example.org&gt; wrote:</div>"
                 "<div>Receipt for turn 1</div></blockquote></div></body></html>",
    "plain p": "<p>PASSWORD: rapier</p><p>WEEK 1: CLUB Bothwell&rsquo;s;&nbsp; GUEST OF "
               "Cyrano</p><p><br></p><p>WEEK 2: PRACTICE rapier</p>",
}


@pytest.mark.parametrize("name", sorted(HTML_CASES))
def test_html_keeps_one_order_per_line(name: str) -> None:
    raw = mail("MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8", HTML_CASES[name])
    msg = extract_message(raw)
    assert msg.text.split("\n") == [
        "PASSWORD: rapier",
        "WEEK 1: CLUB Bothwell's;  GUEST OF Cyrano",
        "",
        "WEEK 2: PRACTICE rapier",
    ]
    assert msg.notes[0] == "converted HTML to text"


def test_html_markdown_escapes_and_links_are_undone() -> None:
    html = ('<div>1. CLUB x</div><div>- TOADY y</div><div>+ z</div>'
            '<div><b>WEEK</b> <a href="https://x.example">2</a>: <img src="x.png" alt="pic">'
            "PRACTICE</div>")
    assert html_to_text(html).split("\n") == ["1. CLUB x", "- TOADY y", "+ z", "WEEK 2: PRACTICE"]


# --- quotes, signatures, normalisation -------------------------------------------------

@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("WEEK 1: A\n> old\nWEEK 2: B", "WEEK 1: A\nWEEK 2: B"),
        ("On Sun, 5 Jan 2025, GM <gm@x.org> wrote:\n> receipt\n\nWEEK 1: A", "WEEK 1: A"),
        ("WEEK 1: A\n- CLUB x\n- CLUB y", "WEEK 1: A\n- CLUB x\n- CLUB y"),
        ("WEEK 1: A\nTAKE the salon\nKhaki coat", "WEEK 1: A\nTAKE the salon\nKhaki coat"),
        ("WEEK 1: A\n\nThanks,\nJo", "WEEK 1: A"),
        ("WEEK 1: A\n\nSent from my iPhone", "WEEK 1: A"),
        ("WEEK 1: A\n\nAm 05.01.25 um 10:00 schrieb GM:\n> q", "WEEK 1: A"),
        ("WEEK 1: A\n\nLe dim. 5 janv. 2025 à 10:00, GM <gm@x.org> a écrit :\n> q", "WEEK 1: A"),
    ],
)
def test_strip_quotes_and_signature(text: str, kept: str) -> None:
    assert strip_quotes_and_signature(text)[0] == kept


def test_pathological_long_lines_are_fast() -> None:
    text = "WEEK 1: A\n" + ("On " + "x" * 30_000 + "\n") * 3 + "On x " * 6_000
    # CPU time, not the wall clock (a loaded machine's wait is no cost of this code).
    assert cpu_cost([lambda: strip_quotes_and_signature(text)] * 3, 3) <= 3
    kept, _ = strip_quotes_and_signature(text)
    assert kept.startswith("WEEK 1: A\nOn xxx")


def test_normalise_text() -> None:
    raw = "\r\n\r\n  WEEK 1: CLUB Bothwell\u2019s;\u00a0\u201cCyrano\u201d\u200b  \r\nx\ty \r\n\n"
    assert normalise_text(raw) == "  WEEK 1: CLUB Bothwell's; \"Cyrano\"\nx\ty"


def test_line_cap_keeps_the_first_lines() -> None:
    body = "\n".join(f"WEEK {n}: PRACTICE rapier" for n in range(1, 11))
    msg = extract_message(mail("", body), max_lines=4)
    assert msg.text.split("\n") == [f"WEEK {n}: PRACTICE rapier" for n in range(1, 5)]
    assert msg.notes == ("read only the first 4 lines; ignored 6 more",)
