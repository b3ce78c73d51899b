"""Pure routing helpers the intake orchestrator calls after :mod:`extract`.

No database and no game registry here: these functions only read the message.
The orchestrator checks the returned game name against the games it runs and
the password against the player, and reports problems on the receipt.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from email.utils import parseaddr

from moderator.games.base import OrderError, ParsedOrders, Severity
from moderator.intake.extract import ExtractedMessage
from moderator.store.passwords import masked_text, passwords_in

__all__ = ["Directives", "find_directives", "find_game_name", "looks_like_game_name",
           "set_aside_chatter"]

# Letters, digits, "-" and "_", with at least one letter: "[2]" is a counter, not a game.
_GAME_NAME = re.compile(r"^(?=[a-z0-9_-]*[a-z])[a-z0-9_-]+$")
# Reply/forward prefixes in several languages, including counted ones ("Re[2]:"),
# removed first so their brackets are never taken for a game tag.
_REPLY_PREFIX = re.compile(
    r"\b(?:re|fwd?|aw|sv|wg|tr|rv|vs|antw|odp|ynt)\s*(?:\[\d+\]|\(\d+\))?\s*:", re.IGNORECASE
)
_SUBJECT_TAG = re.compile(r"\[([^\[\]]*)\]")
# Tags that spam filters and corporate gateways put in subjects.
_SYSTEM_TAGS = frozenset({
    "spam", "suspected-spam", "possible-spam", "junk", "bulk", "ext", "external",
    "caution", "warning", "phishing", "suspicious", "marketing", "secure", "encrypt",
    "encrypted", "fwd", "fw", "sensitive", "confidential",
})
_DIRECTIVE = re.compile(r"^\s*(GAME|PASSWORD|PW|CHARACTER)\s*[:=]\s*(.*?)\s*$", re.IGNORECASE)
# ``PASSWORD xyz`` / ``PW xyz`` without a colon: one word after the keyword, nothing else
# (``PASSWORD new`` in a command mail is the PASSWORD command, see intake.commands).
_BARE_PASSWORD = re.compile(r"^\s*(PASSWORD|PW)\s+(\S+)\s*$", re.IGNORECASE)
_KEYS = {"game": "game", "password": "password", "pw": "password", "character": "character"}


def looks_like_game_name(name: str) -> bool:
    """True for ``engarde``, ``dwtk-2``; false for system tags like ``SPAM``."""
    lowered = name.strip().lower()
    return bool(_GAME_NAME.match(lowered)) and lowered not in _SYSTEM_TAGS


def find_game_name(
    msg: ExtractedMessage, moderator_address: str, known: Iterable[str] = ()
) -> str | None:
    """The game this mail is for, lower-cased, or ``None``.

    Precedence: a subject tag ``[name]`` (our receipts carry it, so replies
    keep it), then a plus-address ``gm+name@domain``, then a ``GAME: name``
    line. If ``known`` is given, candidates outside it are skipped, so
    ``[orders] ...`` to ``gm+engarde@`` still routes to ``engarde``.
    """
    allowed = {name.lower() for name in known}
    candidates = (
        *_subject_tags(msg.subject),
        *_plus_tags(msg.to_addrs, moderator_address),
        find_directives(msg.text).game or "",
    )
    for candidate in candidates:
        name = candidate.strip().lower()
        if looks_like_game_name(name) and (not allowed or name in allowed):
            return name
    return None


def _subject_tags(subject: str) -> Iterator[str]:
    yield from _SUBJECT_TAG.findall(_REPLY_PREFIX.sub(" ", subject))


def subject_words(subject: str) -> str:
    """The subject without its game tags (``[paris] HELP`` is ``HELP``); empty for a
    reply or a forward, whose subject is another mail's words."""
    if _REPLY_PREFIX.search(subject):
        return ""
    return " ".join(_SUBJECT_TAG.sub(" ", subject).split())


def _plus_tags(addresses: Iterable[str], moderator_address: str) -> Iterator[str]:
    """``name`` from ``local+name@domain`` when local and domain are the moderator's."""
    local, _, domain = parseaddr(moderator_address)[1].lower().rpartition("@")
    for address in addresses:
        their_local, _, their_domain = address.lower().rpartition("@")
        base, plus, tag = their_local.partition("+")
        if plus and base == local and their_domain == domain:
            yield tag


@dataclass(frozen=True)
class Directives:
    """``GAME:``/``PASSWORD:``/``CHARACTER:`` values and the text left for the order parser."""

    game: str | None
    password: str | None
    character: str | None
    text_for_parser: str
    """The input with directive lines made empty: line N is still the player's line N."""
    lines: tuple[int, ...]
    """1-based numbers of the lines that held directives."""
    notes: tuple[str, ...]
    """E.g. a directive given twice with different values (the first one counts)."""


def find_directives(text: str) -> Directives:
    """Pick out directive lines anywhere in the text; the first value of each counts.

    Lines are blanked rather than removed because the receipt quotes line
    numbers of the text the player wrote.
    """
    values: dict[str, list[str]] = {"game": [], "password": [], "character": []}
    kept: list[str] = []
    numbers: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        match = _DIRECTIVE.match(line) or _BARE_PASSWORD.match(line)
        if match is None:
            kept.append(line)
            continue
        numbers.append(number)
        kept.append("")
        if match.group(2):
            values[_KEYS[match.group(1).lower()]].append(match.group(2))
    notes = tuple(
        f"{key.upper()} was given {len(found)} times with different values; used the first"
        for key, found in values.items()
        if len(set(found)) > 1
    )
    return Directives(
        game=_first(values["game"]),
        password=_first(values["password"]),
        character=_first(values["character"]),
        # The password written elsewhere too ("WEEK 1: ... <password>", "my password is
        # ..."): masked as in the stored message, so the orders kept and the receipt
        # that reads a line back never hold it.
        text_for_parser=masked_text("\n".join(kept), passwords_in(text)),
        lines=tuple(numbers),
        notes=notes,
    )


def _first(found: list[str]) -> str | None:
    return found[0] if found else None


def set_aside_chatter(
    text: str, parse: Callable[[str], ParsedOrders]
) -> tuple[ParsedOrders, tuple[str, ...]]:
    """Greetings and sign-offs ("Bonjour,", "Cheers, Jacques") before the first and after
    the last line of orders are not errors: the receipt lists them as not read.

    ``parse`` is the engine's parser for this player.  A line counts as chatter only when
    the parser found no order in it at all (an unknown order with no "did you mean"
    hint, not opening with an upper-case keyword); one that looks like a mistyped order
    stays an error, and so does anything between two lines of orders.  The chatter is
    blanked and the text parsed again (a sign-off under ``WEEK 2:`` would otherwise be
    read as part of week 2).  A message with no orders keeps every error: the player
    must see why nothing was read.
    """
    parsed = parse(text)
    lines = text.split("\n")
    chatter = {e.line for e in parsed.errors if _is_chatter(e)}
    orders = [n for n, line in enumerate(lines, start=1)
              if line.strip() and not line.lstrip().startswith("#") and n not in chatter]
    outside = sorted(n for n in chatter if orders and (n < orders[0] or n > orders[-1]))
    if not outside:
        return parsed, ()
    blanked = "\n".join("" if n in outside else line for n, line in enumerate(lines, start=1))
    shown = "; ".join(repr(lines[n - 1].strip()) for n in outside)
    return parse(blanked), (f"not read as orders (greeting or signature): {shown}",)


_KEYWORD_START = re.compile(r"^\s*[A-Z]{2,}\b")


def _is_chatter(error: OrderError) -> bool:
    # A "did you mean ...?" hint says the line is close to an order: a mistyped one.
    # So does a line that opens with an upper-case word, as orders do ("FROBNICATE").
    suggests = error.hint is not None and "did you mean" in error.hint.lower()
    return (error.severity is Severity.ERROR and not suggests
            and not _KEYWORD_START.match(error.text)
            and error.message.lower().startswith("unknown order"))
