"""Quoted replies and signatures out of the order text: what the player wrote now.

People reply in three ways and each must yield the new lines: top-posting (new text, then
the quote), bottom-posting (the quote, then the new text) and interleaving (new lines
between pieces of the quote).  So a ``>`` quote is never a place to stop reading: quoted
lines are dropped wherever they are, with the attribution line above them ("On … wrote:",
in the major clients' languages, wrapped or not), and reading goes on after them.

What does stop reading is the start of an *unquoted* original: Outlook's header block
("From: … Sent: … To: …", in the clients' languages), a separator ("-----Original
Message-----", "--- Original message follows.", "---------- Forwarded message ----------",
"Begin forwarded message:", a rule line over a header block), or an attribution line
followed by unquoted text.  A signature ("-- " on its own line) and a mobile signature
("Sent from my iPhone", "Von meinem iPhone gesendet", "Get Outlook for iOS") end the new
text until the next quote.

Every pattern is matched line by line on lines of bounded length, so the cost is linear
in the text (the old library's "On … wrote:" regex was quadratic in line length).  The
public fixture suites of talon, email_reply_parser and mail-parser-reply run against this
module in ``tests/robust/test_reply_suites.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from moderator.intake.text import normalise_text

__all__ = ["strip_quotes_and_signature"]

# Marker patterns are only tried on lines at most this long: a longer line is text.
_MARKER_MAX_CHARS = 300
# An attribution may be wrapped over this many lines by the client.
_ATTRIBUTION_MAX_LINES = 5

_QUOTED = re.compile(r"^\s*>")
# Words that end an attribution line ("On … wrote:", "Am … schrieb …:", …).
_ATTRIBUTION_END = re.compile(
    r"(?:wrote|writes|sent|schrieb|schreef|geschreven|a\s+[ée]crit|escribi[óo]|escreveu"
    r"|ha\s+scritto|scrisse|skrev|skriver|napisa[łl](?:\(a\)|a)?|napsal(?:\(a\)|a)?"
    r"|написал(?:\(а\)|а)?|пишет|đã\s+viết|kirjoitti|[íi]rta|yazd[ıi]|έγραψε|寫道|写道"
    r"|のメッセージ|が書きました)\s*[:：]?\s*-*\s*$",
    re.IGNORECASE,
)
# Languages that put the verb before the name: "Am … schrieb John Doe <…>:",
# "Den … skrev Peter <…>:", "Op … schreef Julius <…>:".
_VERB_FIRST = re.compile(
    r"\b(?:schrieb|skrev|schreef|napisa[łl](?:\(a\)|a)?|escribi[óo]|escreveu|kirjoitti)\b"
    r".*[:：]\s*$",
    re.IGNORECASE,
)
# Japanese and Chinese clients: "2022年1月1日(金) 9:00 田中太郎 <taro@example.com>:".
_CJK_DATE_ATTRIBUTION = re.compile(r"^\s*\d{4}年\d{1,2}月\d{1,2}日.*@.*[:：]\s*$")
# How attributions begin, for wrapped ones ("On Tue, … John Smith" / "<…>" / "wrote:").
_ATTRIBUTION_START = re.compile(
    r"^\s*-*\s*(?:on|am|le|el|il|op|den|på|dnia|w\s+dniu|em|vào|el\s+día|le\s+\d"
    r"|\d{1,4}[./-]\d{1,2}[./-]\d{1,4})\b",
    re.IGNORECASE,
)
# Gmail's bare date attribution: "2011/4/7 Nathan <support@example.com>" (maybe with ':').
_DATE_ATTRIBUTION = re.compile(
    r"^\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b.*<?[^\s@<>]+@[^\s@<>]+>?\s*[:：]?\s*$"
)
# The first line of an unquoted header block (Outlook, Apple Mail, Yahoo …).
_HEADER_FROM = re.compile(
    r"^\s*\*?\s*(?:from|von|de|fra|från|od|van|da|от|feladó|kimden|lähettäjä|差出人|发件人"
    r"|寄件者)\s*\*?\s*[:：]\s*\*?\s*\S",
    re.IGNORECASE,
)
_HEADER_OTHER = re.compile(
    r"^\s*\*?\s*(?:sent|date|to|subject|cc|gesendet|datum|an|betreff|envoy[ée]|[àa]|objet"
    r"|enviado|fecha|para|asunto|sendt|til|emne|skickat|till|[äa]mne|wys[łl]ano|do|temat"
    r"|data|verzonden|aan|onderwerp|inviato|oggetto|отправлено|дата|кому|тема|lähetetty"
    r"|vastaanottaja|aihe|送信日時|宛先|件名|发送时间|收件人|主题|日期)\s*\*?\s*[:：]",
    re.IGNORECASE,
)
_HEADER_LOOKAHEAD = 6
# A header block may also start with its date ("Date: …" then "From:"/"To:").
_HEADER_DATE = re.compile(
    r"^\s*\*?\s*(?:date|sent|datum|gesendet|fecha|enviado|data|verzonden|skickat|sendt"
    r"|wys[łl]ano|envoy[ée]|дата|отправлено)\s*\*?\s*[:：]\s*\S.*\d",
    re.IGNORECASE,
)
# Separator lines that start an original or forwarded message.
_SEPARATOR = re.compile(
    r"^\s*[-_=*~]*\s*(?:original message(?: follows)?|reply message|forwarded message"
    r"|begin forwarded message|ursprüngliche nachricht|antwort nachricht"
    r"|weitergeleitete nachricht|original-nachricht|oprindelig meddelelse"
    r"|videresendt meddelelse|message d'origine|message original|message transf[ée]r[ée]"
    r"|mensaje original|mensaje reenviado|messaggio originale|messaggio inoltrato"
    r"|oorspronkelijk bericht|doorgestuurd bericht|originalmeddelande"
    r"|vidarebefordrat meddelande|opprinnelig melding|videresendt melding"
    r"|wiadomo[śs][ćc] oryginalna|oryginalna wiadomo[śs][ćc]|przekazana wiadomo[śs][ćc]"
    r"|p[ůu]vodn[íi] zpr[áa]va|p[řr]eposlan[áa] zpr[áa]va|alkuper[äa]inen viesti"
    r"|исходное сообщение|пересылаемое сообщение|пересланное сообщение|mensagem original"
    r"|mensagem encaminhada|原始邮件|转发的邮件|元のメッセージ|転送されたメッセージ)"
    r"\s*[-_=*~:.]*\s*$",
    re.IGNORECASE,
)
# A rule line: over a header block (Outlook) or a mailing-list footer, it ends the text.
_RULE = re.compile(r"^\s*[-_=]{10,}\s*$")
_SIGNATURE = re.compile(r"^\s*--\s*$")
# Mobile and client signatures, a short line of their own (not "Sent from my desk, is …").
_MOBILE = re.compile(
    r"^\s*(?:sent from|sent with|sent via|sent using|sent on|get outlook for|envoy[ée] de"
    r"|envoy[ée] depuis|enviado desde|enviado do|enviado de|inviato da|verzonden (?:met|vanaf"
    r"|van)|von meinem|gesendet (?:von|mit)|skickat från|sendt fra|wys[łl]ane z|odesl[áa]no z"
    r"|l[äa]hetetty|отправлено с|从我的|iphoneから送信)\b[^,;]{0,60}$",
    re.IGNORECASE,
)
_MOBILE_MAX_WORDS = 9
# A closing valediction ("Thanks,", "Viele Grüße", "Cordialement") and at most
# `_SIGN_OFF_NAME_LINES` short lines after it (the name): a sign-off, not orders.
_VALEDICTION = re.compile(
    r"^\s*(?:thanks|thank you|many thanks|regards|best|best regards|kind regards|warm regards"
    r"|cheers|yours|yours truly|sincerely|greetings|ciao|gru(?:ß|ss)|gr(?:ü|ue)(?:ß|ss)e"
    r"|viele gr(?:ü|ue)(?:ß|ss)e|liebe gr(?:ü|ue)(?:ß|ss)e|beste gr(?:ü|ue)(?:ß|ss)e|mfg|lg"
    r"|cordialement|bien (?:à|a) (?:vous|toi)|amiti[ée]s|bises|salutations|saludos"
    r"|un saludo|atentamente|saluti|cordiali saluti|grazie|groeten|met vriendelijke groet"
    r"|hilsen|mvh|med venlig hilsen|vänliga hälsningar|mvh|pozdrawiam|pozdrowienia"
    r"|z powa[żz]aniem|s pozdravem|с уважением|спасибо|obrigado|abra[çc]os|atenciosamente)"
    r"\s*[,.!]*\s*$",
    re.IGNORECASE,
)
_SIGN_OFF_NAME_LINES = 3
_SIGN_OFF_NAME_CHARS = 40
# A closing "-Name" sign-off (email_reply_parser's hyphen signature), only as a last line.
_DASH_NAME = re.compile(r"^\s*-\s?[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,3}\s*$")


@dataclass(frozen=True)
class _Span:
    """Lines ``start`` to ``end`` (exclusive) are one marker: an attribution or header."""

    start: int
    end: int


def strip_quotes_and_signature(text: str) -> tuple[str, tuple[str, ...]]:
    """Keep only what the player wrote now; the notes say what was removed."""
    lines = text.split("\n")
    kept: list[str] = []
    quoted = signature = 0
    in_signature = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if _QUOTED.match(line):
            quoted += 1 if line.strip(" \t>") else 0
            in_signature = False  # a quote ends a signature: new text may follow it
            index += 1
            continue
        nothing_yet = not any(k.strip() for k in kept)
        if _starts_original(lines, index):
            if nothing_yet:  # a forward with nothing above it: its text is what was sent
                end = _block_end(lines, index)
                quoted += _count(lines[index:end])
                index = end
                continue
            quoted += _count(lines[index:])
            break
        span = _attribution(lines, index)
        if span is not None:
            prefix = _text_before_attribution(lines[index])
            if prefix:
                kept.append(prefix)
            if not _quote_follows(lines, span.end) and (prefix or not nothing_yet):
                quoted += _count(lines[span.end:])
                break
            quoted += _count(lines[index:span.end])
            index = span.end
            continue
        if not in_signature and _signature_starts(line):
            in_signature = True
        if in_signature:
            signature += 1 if line.strip() else 0
        else:
            kept.append(line)
        index += 1
    kept, dashed = _drop_dash_name([line.strip() for line in kept])
    kept, valediction = _drop_valediction(kept)
    dashed = dashed or valediction
    body = normalise_text("\n".join(kept)).strip("\n")
    notes = [f"removed {quoted} quoted line{'s' if quoted != 1 else ''}"] if quoted else []
    notes += ["removed a signature"] if signature or dashed else []
    return body, tuple(notes)


def _block_end(lines: list[str], index: int) -> int:
    """After a separator or header block at ``index``: the first line past its headers."""
    end = index + 1
    while end < len(lines) and lines[end].strip() and (
            _HEADER_OTHER.match(lines[end]) or _HEADER_FROM.match(lines[end])
            or _SEPARATOR.match(lines[end])):
        end += 1
    if not _SEPARATOR.match(lines[index]):
        while end < len(lines) and lines[end].strip():  # wrapped header values
            end += 1
    return end


def _count(lines: list[str]) -> int:
    """Lines with content; a bare ``>`` (an empty quoted line) does not count."""
    return sum(1 for line in lines if line.strip(" \t>"))


def _short(line: str) -> bool:
    return len(line) <= _MARKER_MAX_CHARS


def _starts_original(lines: list[str], index: int) -> bool:
    """An unquoted original or forwarded message starts here: nothing after it is new."""
    line = lines[index]
    if not _short(line) or not line.strip():
        return False
    if _SEPARATOR.match(line):
        return True
    if (_HEADER_FROM.match(line) or _HEADER_DATE.match(line)) and _header_follows(lines,
                                                                                 index + 1):
        return True
    if _RULE.match(line):
        following = _next_lines(lines, index + 1, 2)
        return any(_HEADER_FROM.match(f) or _HEADER_OTHER.match(f) or "mailing list" in f.lower()
                   for f in following)
    return False


def _next_lines(lines: list[str], start: int, count: int) -> list[str]:
    """The next ``count`` non-blank short lines from ``start``."""
    found: list[str] = []
    for line in lines[start:start + 4 * count]:
        if line.strip() and _short(line):
            found.append(line)
            if len(found) == count:
                break
    return found


def _header_follows(lines: list[str], start: int) -> bool:
    return any(_HEADER_OTHER.match(line) for line in _next_lines(lines, start,
                                                                  _HEADER_LOOKAHEAD))


def _attribution(lines: list[str], index: int, depth: int = 0) -> _Span | None:
    """An attribution line ("On … wrote:"), possibly wrapped, starting at ``index``."""
    line = lines[index]
    if not line.strip() or not _short(line):
        return None
    if _ends_attribution(line) and (_looks_attributed(line) or _DATE_ATTRIBUTION.match(line)):
        return _Span(index, index + 1)
    if not (_ATTRIBUTION_START.match(line) or _DATE_START.match(line)):
        return None
    joined = line
    for end in range(index + 1, min(len(lines), index + _ATTRIBUTION_MAX_LINES + 1)):
        piece = lines[end]
        if not _short(piece):
            return None
        joined += " " + piece.strip().lstrip(">").strip()
        if _ends_attribution(joined):
            # "Am heutigen Tage" above "Am So., 1. Jan. … schrieb …:" is text, not its start.
            restarts = bool(_ATTRIBUTION_START.match(lines[index + 1]))
            later = _attribution(lines, index + 1, depth + 1) if restarts and depth < 2 else None
            if later is not None and later.end == end + 1:
                return None
            return _Span(index, end + 1)
    return None


# Gmail in languages it writes no verb for: "вт, 1 дек. 2026 г. в 12:00, Name <a@b>:".
_TIME_ADDRESS_COLON = re.compile(r"\d{1,2}:\d{2}\b.*<[^<>\s]+@[^<>\s]+>\s*[:：]\s*$")


def _ends_attribution(text: str) -> bool:
    return bool(_ATTRIBUTION_END.search(text) or _VERB_FIRST.search(text)
                or _DATE_ATTRIBUTION.match(text) or _CJK_DATE_ATTRIBUTION.match(text)
                or _TIME_ADDRESS_COLON.search(text))


_DATE_START = re.compile(r"^\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b")


def _looks_attributed(line: str) -> bool:
    """An attribution names a date, an address or is set off by dashes: not "I wrote:"."""
    return bool(re.search(r"\d|@|^\s*-{2,}", line)) or bool(_ATTRIBUTION_START.match(line))


_INLINE_ATTRIBUTION = re.compile(r"^(.*?\S)\s*-*\s*(?:on|am|le|el|il|op)\s+\S.*$",
                                 re.IGNORECASE)


def _text_before_attribution(line: str) -> str:
    """New text on the attribution's own line ("reply On Wed, … wrote:")."""
    if _ATTRIBUTION_START.match(line):
        return ""
    match = _INLINE_ATTRIBUTION.match(line)
    if match and re.search(r"\d", line[len(match.group(1)):]):
        return match.group(1).rstrip(" -")
    return ""


def _quote_follows(lines: list[str], start: int) -> bool:
    """The next line with content is quoted (or there is none): a quote header."""
    for line in lines[start:]:
        if line.strip():
            return bool(_QUOTED.match(line))
    return True


def _signature_starts(line: str) -> bool:
    if _SIGNATURE.match(line):
        return True
    return bool(_MOBILE.match(line)) and len(line.split()) <= _MOBILE_MAX_WORDS


def _drop_dash_name(kept: list[str]) -> tuple[list[str], bool]:
    """A last line "-Abhishek Kona" is a sign-off, not an order."""
    last = len(kept) - 1
    while last >= 0 and not kept[last].strip():
        last -= 1
    if last > 0 and _DASH_NAME.match(kept[last]) and not kept[last].lstrip().startswith("- "):
        return kept[:last], True
    return kept, False


def _drop_valediction(kept: list[str]) -> tuple[list[str], bool]:
    """A closing "Thanks,\nJo" (a valediction and a short name) is a sign-off."""
    content = [i for i, line in enumerate(kept) if line.strip()]
    for back in range(1, min(len(content), _SIGN_OFF_NAME_LINES + 1) + 1):
        at = content[-back]
        if at == content[0]:
            return kept, False
        if _VALEDICTION.match(kept[at]):
            tail = [kept[i] for i in content[-back + 1:]] if back > 1 else []
            if all(len(line) <= _SIGN_OFF_NAME_CHARS for line in tail):
                return kept[:at], True
            return kept, False
    return kept, False
