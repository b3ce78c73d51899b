"""Raw player emails written the way real mail clients write them.

Used by ``moderator demo`` to feed intake without a mail server, and by the
intake tests (``tests/emails/*.eml`` holds the demo set as golden files). Each
builder returns RFC 5322 bytes with CRLF line ends, client-typical headers and
the client's own body encoding, so extraction is tested against the awkward
parts: format=flowed, HTML-only, windows-1252 quoted-printable, quoted replies
and signatures. Output is deterministic: boundaries derive from the Message-ID.
"""

from __future__ import annotations

import base64
import hashlib
import html
import quopri
from datetime import datetime, timedelta, timezone
from email.header import Header
from email.utils import formataddr

__all__ = [
    "DEMO_ORDERS",
    "apple_mail_reply",
    "demo_messages",
    "gmail_html_only",
    "outlook_cp1252_qp",
    "thunderbird_plain",
    "with_attachment",
    "with_signature",
]

DEMO_ORDERS = """\
PASSWORD: rapier
WEEK 1: CLUB Bothwell's; GUEST OF Cyrano; TOADY Cyrano; CAROUSE
WEEK 2: PRACTICE rapier
WEEK 3: BAWDYHOUSE; CAROUSE; GAMBLE 10 x3 CUT 4
WEEK 4: PRACTICE rapier"""

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


# --- the five client styles ------------------------------------------------------------

def thunderbird_plain(
    *, sender: str, sender_name: str, to: str, subject: str, body: str,
    date: datetime, message_id: str,
) -> bytes:
    """Thunderbird: text/plain, UTF-8, format=flowed, 7bit or 8bit."""
    headers = [
        f"Message-ID: {_angle(message_id)}",
        f"Date: {_date(date)}",
        "MIME-Version: 1.0",
        "User-Agent: Mozilla Thunderbird",
        "Content-Language: en-GB",
        f"To: {to}",
        f"From: {_address(sender_name, sender)}",
        f"Subject: {_subject(subject)}",
        "Content-Type: text/plain; charset=UTF-8; format=flowed",
        f"Content-Transfer-Encoding: {'7bit' if body.isascii() else '8bit'}",
    ]
    return _message(headers, _flowed(body))


def gmail_html_only(
    *, sender: str, sender_name: str, to: str, subject: str, body: str,
    date: datetime, message_id: str, style: str = "div",
) -> bytes:
    """Gmail-style HTML with no text part: ``<div dir="ltr">`` plus ``<div>``/``<br>`` lines.

    ``style="div"`` is what the compose box writes for Enter (``<div>`` per
    line, ``<div><br></div>`` for a blank one); ``style="br"`` is Shift+Enter.
    """
    html_body = f'<div dir="ltr">{_gmail_lines(body, style)}</div>\n'
    headers = [
        "MIME-Version: 1.0",
        f"From: {_address(sender_name, sender)}",
        f"Date: {_date(date)}",
        f"Message-ID: {_angle(message_id)}",
        f"Subject: {_subject(subject)}",
        f"To: {to}",
        'Content-Type: text/html; charset="UTF-8"',
        "Content-Transfer-Encoding: quoted-printable",
    ]
    return _message(headers, _qp(html_body.encode("utf-8")))


def outlook_cp1252_qp(
    *, sender: str, sender_name: str, to: str, subject: str, body: str,
    date: datetime, message_id: str,
) -> bytes:
    """Outlook desktop: multipart/alternative, windows-1252 quoted-printable.

    Outlook's AutoCorrect turns ``'`` into ``’`` (0x92 in windows-1252), so we
    do the same: the extractor must turn it back.
    """
    text = _smart_quotes(body)
    boundary = f"----=_NextPart_000_0001_{_token(message_id, 8)}.{_token(message_id + 'b', 8)}"
    plain = _qp(text.encode("windows-1252", "replace"))
    markup = _qp(_outlook_html(text).encode("windows-1252", "xmlcharrefreplace"))
    headers = [
        f"From: {_address(sender_name, sender, 'iso-8859-1')}",
        f"To: {to}",
        f"Subject: {_subject(subject)}",
        f"Date: {_date(date)}",
        f"Message-ID: {_angle(message_id)}",
        "MIME-Version: 1.0",
        f'Content-Type: multipart/alternative;\n\tboundary="{boundary}"',
        "X-Mailer: Microsoft Outlook 16.0",
        f"Thread-Index: {_thread_index(message_id)}",
        "Content-Language: en-gb",
    ]
    parts = [
        ('Content-Type: text/plain;\n\tcharset="windows-1252"', plain),
        ('Content-Type: text/html;\n\tcharset="windows-1252"', markup),
    ]
    return _message(headers, _multipart(boundary, parts, "quoted-printable",
                                        "This is a multipart message in MIME format."))


def apple_mail_reply(
    *, sender: str, sender_name: str, to: str, subject: str, body: str,
    date: datetime, message_id: str, quoted: str, quoted_from: str,
    quoted_date: datetime, in_reply_to: str,
) -> bytes:
    """Apple Mail reply: new text on top, the previous message quoted below.

    ``quoted_from`` is ``"Name <addr>"``. Apple Mail puts its "On ..., wrote:"
    attribution inside the quote (``> On 6 Jan 2025, at 10:00, ... wrote:``).
    """
    attribution = f"On {_apple_date(quoted_date)}, {quoted_from} wrote:"
    quote = "\n".join(f"> {line}" for line in [attribution, "", *quoted.split("\n")])
    plain = f"{body}\n\n{quote}\n"
    boundary = f"Apple-Mail=_{_uuid(message_id)}"
    reply_subject = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    headers = [
        f'Content-Type: multipart/alternative;\n\tboundary="{boundary}"',
        r"Mime-Version: 1.0 (Mac OS X Mail 16.0 \(3826.300.87.4.3\))",
        f"Subject: {_subject(reply_subject)}",
        f"From: {_address(sender_name, sender)}",
        f"In-Reply-To: {_angle(in_reply_to)}",
        f"Date: {_date(date)}",
        f"Message-Id: {_angle(message_id)}",
        f"References: {_angle(in_reply_to)}",
        f"To: {to}",
        "X-Mailer: Apple Mail (2.3826.300.87.4.3)",
    ]
    parts = [
        ("Content-Type: text/plain;\n\tcharset=utf-8", _qp(plain.encode("utf-8"))),
        ("Content-Type: text/html;\n\tcharset=utf-8",
         _qp(_apple_html(body, attribution, quoted).encode("utf-8"))),
    ]
    return _message(headers, _multipart(boundary, parts, "quoted-printable", None,
                                        cte_first=True))


def with_signature(
    *, sender: str, sender_name: str, to: str, subject: str, body: str,
    date: datetime, message_id: str, signature: str | None = None,
) -> bytes:
    """Mutt-style plain text with a ``-- `` signature (name, a quote, a phone number)."""
    signature = signature or (
        f"{sender_name}\n\"A gentleman never duels before breakfast.\"\n+44 20 7946 0958"
    )
    ascii_only = body.isascii() and signature.isascii()
    headers = [
        f"Date: {_date(date)}",
        f"From: {_address(sender_name, sender)}",
        f"To: {to}",
        f"Subject: {_subject(subject)}",
        f"Message-ID: {_angle(message_id)}",
        "MIME-Version: 1.0",
        f"Content-Type: text/plain; charset={'us-ascii' if ascii_only else 'utf-8'}",
        "Content-Disposition: inline",
        *([] if ascii_only else ["Content-Transfer-Encoding: 8bit"]),
        "User-Agent: Mutt/2.2.13 (2024-03-09)",
    ]
    return _message(headers, f"{body}\n\n-- \n{signature}\n")


def with_attachment(
    *, sender: str, sender_name: str, to: str, subject: str, body: str,
    date: datetime, message_id: str, filename: str = "orders.docx",
    attachment: bytes = b"PK\x03\x04 not really a Word file",
    attachment_type: str = (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    ),
) -> bytes:
    """Thunderbird multipart/mixed: a flowed text part plus a base64 attachment."""
    boundary = f"------------{_token(message_id, 24)}"
    encoded = base64.encodebytes(attachment).decode("ascii")
    headers = [
        f'Content-Type: multipart/mixed; boundary="{boundary}"',
        f"Message-ID: {_angle(message_id)}",
        f"Date: {_date(date)}",
        "MIME-Version: 1.0",
        "User-Agent: Mozilla Thunderbird",
        "Content-Language: en-GB",
        f"To: {to}",
        f"From: {_address(sender_name, sender)}",
        f"Subject: {_subject(subject)}",
    ]
    text_part = (
        "Content-Type: text/plain; charset=UTF-8; format=flowed\n"
        f"Content-Transfer-Encoding: {'7bit' if body.isascii() else '8bit'}\n\n"
        f"{_flowed(body)}"
    )
    file_part = (
        f'Content-Type: {attachment_type};\n name="{filename}"\n'
        f'Content-Disposition: attachment; filename="{filename}"\n'
        f"Content-Transfer-Encoding: base64\n\n{encoded}"
    )
    body_text = (
        f"This is a multi-part message in MIME format.\n--{boundary}\n{text_part}\n"
        f"--{boundary}\n{file_part}\n--{boundary}--\n"
    )
    return _message(headers, body_text)


# --- a ready-made set for ``moderator demo`` --------------------------------------------

def demo_messages(
    to: str = "gm+engarde@example.org",
    date: datetime | None = None,
    subject: str = "[engarde] Orders for turn 1",
) -> dict[str, bytes]:
    """One message per client style, keyed by a file-name-friendly name.

    All carry ``DEMO_ORDERS`` (the Outlook one names "Chéri" so the encoding
    matters); the subject tag (default ``[engarde]``) routes them.
    """
    date = date or datetime(2025, 1, 6, 10, 0, tzinfo=timezone(timedelta(hours=1)))
    common = {"to": to, "subject": subject}
    receipt = (
        "Receipt for Alice Example, turn 1\n\nline 1: PASSWORD: accepted\n"
        "line 2: WEEK 1: CLUB Bothwell's - accepted"
    )
    return {
        "thunderbird_plain": thunderbird_plain(
            sender="alice@example.org", sender_name="Alice Example", body=DEMO_ORDERS,
            date=date, message_id="7d1f0c52-3c0b-4b1e-9a43-0c6a2f1d9e11@example.org", **common),
        "gmail_html_only": gmail_html_only(
            sender="bob.duval@gmail.com", sender_name="Bob Duval", body=DEMO_ORDERS,
            date=date + timedelta(minutes=7),
            message_id="CAJ8xk2W9pQ1mN3sT5vY7bZ0cD4eF6gH8iJ0kL2mN4pQ6rS@mail.gmail.com",
            **common),
        "outlook_cp1252_qp": outlook_cp1252_qp(
            sender="claire@example.com", sender_name="Claire Lefèvre",
            body=DEMO_ORDERS.replace("Cyrano", "Chéri"), date=date + timedelta(minutes=19),
            message_id="000001db6012$9f4e2a10$ddea7e30$@example.com", **common),
        "apple_mail_reply": apple_mail_reply(
            sender="dmitri@icloud.com", sender_name="Dmitri Orlov", body=DEMO_ORDERS,
            date=date + timedelta(hours=2),
            message_id="5A0C2B7E-1D44-4F0B-8E2A-3B9C6D1E7F20@icloud.com",
            quoted=receipt, quoted_from="Moderator <gm@example.org>",
            quoted_date=date - timedelta(days=1), in_reply_to="receipt-1-alice@example.org",
            **common),
        "with_signature": with_signature(
            sender="eve@example.net", sender_name="Eve Marchetti", body=DEMO_ORDERS,
            date=date + timedelta(hours=3), message_id="Z3uK9x1YQ2abCdEf@example.net",
            **common),
    }


# --- helpers ---------------------------------------------------------------------------

def _message(headers: list[str], body: str) -> bytes:
    """Headers + body with CRLF line ends, as they arrive over SMTP/IMAP."""
    text = "\n".join(headers) + "\n\n" + body
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


def _multipart(
    boundary: str, parts: list[tuple[str, str]], cte: str, preamble: str | None,
    cte_first: bool = False,
) -> str:
    chunks = [f"{preamble}\n\n"] if preamble else []
    for content_type, payload in parts:
        encoding = f"Content-Transfer-Encoding: {cte}"
        head = f"{encoding}\n{content_type}" if cte_first else f"{content_type}\n{encoding}"
        chunks.append(f"--{boundary}\n{head}\n\n{payload}\n")
    chunks.append(f"--{boundary}--\n")
    return "".join(chunks)


def _date(when: datetime) -> str:
    """RFC 5322 date as clients write it: unpadded day, numeric zone."""
    offset = when.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    zone = f"{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"
    return (f"{_DAYS[when.weekday()]}, {when.day} {_MONTHS[when.month - 1]} {when.year} "
            f"{when:%H:%M:%S} {zone}")


def _apple_date(when: datetime) -> str:
    return f"{when.day} {_MONTHS[when.month - 1]} {when.year}, at {when:%H:%M}"


def _angle(message_id: str) -> str:
    return f"<{message_id.strip().strip('<>')}>"


def _address(name: str, addr: str, charset: str = "utf-8") -> str:
    return formataddr((name, addr), charset=charset)


def _subject(subject: str) -> str:
    return subject if subject.isascii() else Header(subject, "utf-8").encode()


def _qp(data: bytes) -> str:
    return quopri.encodestring(data.replace(b"\r\n", b"\n")).decode("ascii")


def _flowed(text: str, width: int = 72) -> str:
    """RFC 3676 encoding as Thunderbird does it: soft breaks end in a space."""
    out: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line if line == "-- " else line.rstrip(" ")
        while True:
            if line.startswith((" ", ">", "From ")):
                line = " " + line  # space-stuffing
            cut = line.rfind(" ", 1, width)
            if len(line) <= width or cut <= 0:
                out.append(line)
                break
            out.append(line[: cut + 1])
            line = line[cut + 1 :]
    return "\n".join(out) + "\n"


def _smart_quotes(text: str) -> str:
    return text.replace("'", "\u2019")


def _token(seed: str, length: int) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()[:length].upper()


def _uuid(seed: str) -> str:
    h = _token(seed, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _thread_index(seed: str) -> str:
    return base64.b64encode(hashlib.sha256(seed.encode("utf-8")).digest()[:22]).decode("ascii")


def _gmail_lines(body: str, style: str) -> str:
    lines = [html.escape(line).replace("&#x27;", "&#39;").replace("  ", " &nbsp;")
             for line in body.split("\n")]
    if style == "br":
        return "<br>".join(lines)
    first, *rest = lines
    return first + "".join(f"<div>{line or '<br>'}</div>" for line in rest)


def _outlook_html(text: str) -> str:
    paragraphs = "".join(
        f"<p class=MsoNormal>{html.escape(line, quote=False) or '<o:p>&nbsp;</o:p>'}"
        f"{'<o:p></o:p>' if line else ''}</p>\n"
        for line in text.split("\n")
    )
    return (
        '<html xmlns:v="urn:schemas-microsoft-com:vml" '
        'xmlns:o="urn:schemas-microsoft-com:office:office" '
        'xmlns:w="urn:schemas-microsoft-com:office:word" '
        'xmlns="http://www.w3.org/TR/REC-html40">'
        '<head><meta http-equiv=Content-Type content="text/html; charset=windows-1252">'
        '<meta name=Generator content="Microsoft Word 15 (filtered medium)">'
        "<style><!--\n/* Font Definitions */\n@font-face\n\t{font-family:\"Cambria Math\";}\n"
        "p.MsoNormal, li.MsoNormal, div.MsoNormal\n\t{margin:0cm;\n\tfont-size:11.0pt;\n"
        "\tfont-family:\"Calibri\",sans-serif;}\n--></style>"
        '<!--[if gte mso 9]><xml>\n<o:shapedefaults v:ext="edit" spidmax="1026" />\n'
        "</xml><![endif]--></head>"
        '<body lang=EN-GB link="#0563C1" vlink="#954F72" style=\'word-wrap:break-word\'>'
        f"<div class=WordSection1>\n{paragraphs}</div></body></html>\n"
    )


def _apple_html(body: str, attribution: str, quoted: str) -> str:
    def divs(text: str) -> str:
        return "".join(f"<div>{html.escape(line, quote=False) or '<br>'}</div>"
                       for line in text.split("\n"))

    return (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8">'
        '</head><body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; '
        f'line-break: after-white-space;">{divs(body)}<div><br>'
        f'<blockquote type="cite"><div>{html.escape(attribution, quote=False)}</div>'
        f'<br class="Apple-interchange-newline"><div>{divs(quoted)}</div></blockquote>'
        "</div><br></body></html>\n"
    )
