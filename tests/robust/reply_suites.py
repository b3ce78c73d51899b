"""The public reply-parsing fixture suites (talon, email_reply_parser, mail-parser-reply)
as cases: (suite, name, text, expected visible reply).

The expected texts are the suites' own answers: talon's test assertions (its
``text_quotations_test.py`` cases, extracted to ``talon/text_quotations.json``, and its
``standard_replies`` with their ``*_reply_text`` or "Hello"), and for the two suites whose
tests assert fragments rather than text, the reference library's ``parse_reply`` on each
fixture (``expected.json``, made once with email-reply-parser 0.5.12 and
mail-parser-reply 1.36).  `EXCLUDED` names the cases whose expected text is not the
writer's own words (the reference keeps a quote or a header), each with why.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

EMAILS = Path(__file__).resolve().parents[1] / "emails"


@dataclass(frozen=True)
class Case:
    suite: str
    name: str
    text: str
    expected: str


# (suite, name): why the suite's expected text is not the writer's own words.
_MPR = "mail_parser_reply"
EXCLUDED: dict[tuple[str, str], str] = {
    ("talon", "text_quotations[7]"): "expected keeps the forwarded message, headers and text",
    ("talon", "text_quotations[48]"): "talon runs it with MAX_LINES_COUNT patched to 1",
    (_MPR, "begins_with_signature.txt"): "expected keeps the quoted original (and the"
                                          " fixture is undecoded quoted-printable)",
    (_MPR, "caution.txt"): "expected keeps the company's disclaimers and footer",
    (_MPR, "email_1_1.txt"): "expected keeps the mailing list's footer",
    (_MPR, "email_nl_1_1.txt"): "expected keeps the mailing list's footer",
    (_MPR, "email_1_8.txt"): "expected keeps the quoted lines of an interleaved reply",
    (_MPR, "email_swedish_2.txt"): "expected keeps the attribution and the quote",
    (_MPR, "multiline_on.txt"): "expected is the attribution line alone",
    (_MPR, "email_pl_1_1.txt"): "expected keeps the header block above the writer's text",
    (_MPR, "email_pl_1_2.txt"): "expected keeps the header block above the writer's text",
    (_MPR, "email_pl_1_3.txt"): "expected keeps the header block above the writer's text",
}


def _eml_text(path: Path) -> str:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None, path
    return str(part.get_content())


def cases() -> Iterator[Case]:
    talon = EMAILS / "talon"
    for index, item in enumerate(json.loads((talon / "text_quotations.json").read_text())):
        yield Case("talon", f"text_quotations[{index}]", item["text"], item["expected"])
    for path in sorted((talon / "standard_replies").glob("*.eml")):
        answer = path.with_name(path.stem + "_reply_text")
        expected = answer.read_text().strip() if answer.exists() else "Hello"
        yield Case("talon", f"standard_replies/{path.name}", _eml_text(path), expected)
    for suite in ("email_reply_parser", "mail_parser_reply"):
        folder = EMAILS / suite
        expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
        for name in sorted(expected):
            if expected[name] is None:
                continue
            text = (folder / name).read_text(encoding="utf-8")
            yield Case(suite, name, text, expected[name])


def _lines(text: str) -> list[str]:
    """Lines with content, stripped, typographic quotes made ASCII: what the order parser
    sees (it ignores indentation and blank lines)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for fancy, plain in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"')):
        text = text.replace(fancy, plain)
    return [line.strip() for line in text.split("\n") if line.strip()]


_SIGN_OFF = re.compile(r"^[\w.,!'’ -]{1,40}$")
_CLIENT_SIGNATURE = re.compile(r"^(sent from|sent with|get outlook for)\b", re.IGNORECASE)


def agrees(ours: str, expected: str) -> bool:
    """Our text is the expected one, perhaps without its closing sign-off: at most three
    short lines ("Thanks," / "Bob" / "-Abhishek Kona"), or a signature from a "--" line."""
    mine, theirs = _lines(ours), _lines(expected)
    if mine == theirs:
        return True
    if not mine or len(mine) >= len(theirs) or theirs[: len(mine)] != mine:
        return False
    rest = theirs[len(mine):]
    if rest[0] in ("--", "-- "):
        return True
    return len(rest) <= 3 and all(_SIGN_OFF.match(line) or _CLIENT_SIGNATURE.match(line)
                                  for line in rest)
