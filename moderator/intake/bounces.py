"""Bounces: recognising delivery failure reports and telling the GM which player they hit.

`detect_bounce` reads one raw email. RFC 3464 delivery status notifications
(multipart/report with a message/delivery-status part) are read directly, so the
recipients, the permanence (``Action: failed`` vs ``delayed``), the diagnostic and the
returned message's Message-ID come straight from the report; a report whose recipients
were all delivered or relayed (a success DSN) is not a bounce.  Everything else that
comes from a robot (null Return-Path, MAILER-DAEMON, X-Failed-Recipients, ...) is
handed to GNU Mailman's detectors (`flufl.bounce`) for the many non-standard formats
(qmail, old Exim, Exchange, Yahoo ...).  A message a person wrote is never scanned:
a player who forwards a bounce is not a bounce.

`record_bounce` marks the Outbox row that bounced (found by the returned Message-ID,
else the latest mail sent to that address) and writes a GM log line naming the player
and the game.  Intake calls both for every automated message (see docs/outbox.md).
"""

from __future__ import annotations

import base64
import logging
import quopri
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import Message
from email.parser import HeaderParser
from email.utils import getaddresses, parseaddr

from flufl.bounce import all_failures
from sqlalchemy import bindparam
from sqlmodel import Session, col, func, select

from moderator.store import outbox_tidy, repo
from moderator.store.models import Game, Outbox, Player, PlayerAddress, utcnow
from moderator.store.statuses import OutboxStatus

# flufl.bounce logs a traceback for each of its detectors that trips over malformed mail
# (a non-ASCII From, no From at all) and goes on with the next: expected with the mail
# intake sees, and not worth a traceback in the service's log.
logging.getLogger("flufl.bounce").addFilter(lambda record: record.levelno < logging.ERROR)

_ROBOTS = frozenset({"mailer-daemon", "mailerdaemon", "mail-daemon", "postmaster"})
_DIAGNOSTIC_CHARS = 500
_MESSAGE_ID_LINE = re.compile(r"^\s*Message-ID:\s*(<[^<>\s]+>)", re.IGNORECASE | re.MULTILINE)
_RETURNED_TYPES = ("message/rfc822", "text/rfc822-headers", "message/rfc822-headers")


@dataclass(frozen=True)
class Bounce:
    """A delivery failure report about mail the moderator sent."""

    recipients: tuple[str, ...]  # failed addresses, lower case, sorted
    permanent: bool  # False: the sending server is still retrying (a delay warning)
    original_message_id: str | None  # of the mail that bounced, with <>, when returned
    diagnostic: str  # the server's reason, one line (may be empty)
    report_message_id: str | None = None  # Message-ID of the bounce itself


@dataclass(frozen=True)
class BounceRecord:
    """What `record_bounce` did about one failed recipient."""

    address: str
    outbox_id: int | None
    player_id: int | None
    player_name: str | None
    game: str | None
    event: str  # mail.bounced | mail.delayed


# --- detection -------------------------------------------------------------------------


def detect_bounce(raw: bytes, *, person: bool = True) -> Bounce | None:
    """The bounce this email reports, or None (ordinary mail, auto-replies, success DSNs).

    ``person=False`` says the sender is no player of ours: then the library's detectors
    are trusted even without a robot's From (bounce robots that sign as a person).
    """
    try:
        msg = message_from_bytes(raw, policy=policy.compat32)
    except Exception:  # a message we cannot parse is not something we can act on
        return None
    report_id = _clean_id(str(msg.get("Message-ID", ""))) or None
    statuses = _delivery_status_blocks(msg)
    if statuses is not None:
        found = _from_dsn(msg, statuses, report_id)
        # A report we could not read (no Action lines, odd encodings): the detectors may.
        if found is not None or _all_delivered(statuses):
            return found
    if person and not _from_robot(msg):
        return None
    try:
        temporary, permanent = all_failures(msg)
    except Exception:
        return None
    chosen = permanent or temporary
    recipients = tuple(sorted({a.decode("ascii", "replace").lower() for a in chosen}))
    if not recipients:
        return None
    return Bounce(
        recipients=recipients,
        permanent=bool(permanent),
        original_message_id=_returned_message_id(msg),
        diagnostic=_text_diagnostic(msg, recipients),
        report_message_id=report_id,
    )


def _delivery_status_blocks(msg: Message) -> list[Message] | None:
    """The per-recipient blocks of every message/delivery-status part, or None if none."""
    found = False
    blocks: list[Message] = []
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        found = True
        payload = part.get_payload()
        encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
        if isinstance(payload, list) and encoding not in ("base64", "quoted-printable"):
            # The first block is per-message (Reporting-MTA ...); the others per recipient.
            blocks.extend(b for b in payload if isinstance(b, Message))
            continue
        # Some MTAs encode the part; the email package then keeps the encoded text.
        if isinstance(payload, list):
            payload = "".join(str(b.get_payload()) for b in payload if isinstance(b, Message))
        blocks.extend(_parse_blocks(_decode(str(payload), encoding)))
    return blocks if found else None


def _decode(text: str, encoding: str) -> str:
    try:
        if encoding == "base64":
            return base64.b64decode(text).decode("utf-8", "replace")
        if encoding == "quoted-printable":
            return quopri.decodestring(text.encode("ascii", "replace")).decode("utf-8", "replace")
    except ValueError:  # binascii.Error included
        return ""
    return text


def _parse_blocks(text: str) -> list[Message]:
    chunks = re.split(r"\r?\n[ \t]*\r?\n", text.replace("\r\n", "\n"))
    return [HeaderParser().parsestr(chunk.strip() + "\n") for chunk in chunks if chunk.strip()]


def _from_dsn(msg: Message, blocks: list[Message], report_id: str | None) -> Bounce | None:
    failed: dict[str, str] = {}
    delayed: dict[str, str] = {}
    for block in blocks:
        action = str(block.get("Action", "")).strip().lower()
        if action.startswith(("fail", "error")):  # opensmtpd writes "Action: error"
            target = failed
        elif action.startswith("delay"):
            target = delayed
        else:  # delivered, relayed, expanded, or the per-message block
            continue
        address = _dsn_address(block)
        if address:
            target[address] = _dsn_diagnostic(block)
    chosen = failed or delayed
    if not chosen:
        return None
    recipients = tuple(sorted(chosen))
    diagnostic = "; ".join(dict.fromkeys(d for d in (chosen[a] for a in recipients) if d))
    return Bounce(
        recipients=recipients,
        permanent=bool(failed),
        original_message_id=_returned_message_id(msg) or _x_original_message_id(blocks),
        diagnostic=_one_line(diagnostic),
        report_message_id=report_id,
    )


def _all_delivered(blocks: list[Message]) -> bool:
    """A success report: every recipient block says delivered, relayed or expanded."""
    actions = [str(b.get("Action", "")).strip().lower() for b in blocks if b.get("Action")]
    return bool(actions) and all(a.startswith(("deliver", "relay", "expand")) for a in actions)


def _x_original_message_id(blocks: list[Message]) -> str | None:
    """Gmail names the bounced mail in the report's per-message block."""
    for block in blocks:
        found = _clean_id(str(block.get("X-Original-Message-ID", "")))
        if found:
            return found
    return None


def _dsn_address(block: Message) -> str | None:
    for header in ("Original-Recipient", "Final-Recipient", "X-Actual-Recipient"):
        value = str(block.get(header, "")).strip()
        if not value:
            continue
        kind, sep, address = value.partition(";")
        if not sep:
            address = kind
        elif kind.strip().lower() != "rfc822":
            continue
        address = parseaddr(address.strip())[1] or address.strip().strip("<>")
        if "@" in address:
            return address.lower()
    return None


def _dsn_diagnostic(block: Message) -> str:
    code = str(block.get("Diagnostic-Code", "")).strip()
    if ";" in code:
        code = code.partition(";")[2].strip()
    status = str(block.get("Status", "")).strip()
    if code:
        return _one_line(code if not status or status in code else f"{status} {code}")
    return _one_line(f"status {status}") if status else ""


def _from_robot(msg: Message) -> bool:
    """Only robots send bounces; people (a player forwarding one) do not."""
    if "X-Failed-Recipients" in msg:
        return True
    return_path = str(msg.get("Return-Path", "")).strip()
    if "Return-Path" in msg and return_path.strip("<> ") == "":
        return True
    for name in ("From", "Sender", "Return-Path"):
        for _name, address in getaddresses([str(v) for v in msg.get_all(name, [])]):
            if address.partition("@")[0].lower() in _ROBOTS:
                return True
    return False


def _returned_message_id(msg: Message) -> str | None:
    """The Message-ID of the returned mail (message/rfc822 or its headers), if included."""
    for part in msg.walk():
        content_type = part.get_content_type()
        if content_type not in _RETURNED_TYPES:
            continue
        payload = part.get_payload()
        if isinstance(payload, list) and payload and isinstance(payload[0], Message):
            found = _clean_id(str(payload[0].get("Message-ID", "")))
        else:
            data = part.get_payload(decode=True)
            text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(payload)
            found = _clean_id(str(HeaderParser().parsestr(text).get("Message-ID", "")))
        if found:
            return found
    # Non-standard bounces quote the returned mail inline in the text.
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        match = _MESSAGE_ID_LINE.search(_part_text(part))
        if match:
            return match.group(1)
    return None


def _text_diagnostic(msg: Message, recipients: tuple[str, ...]) -> str:
    """For non-standard bounces: the paragraph of the human-readable text about a recipient."""
    for part in msg.walk():
        if part.get_content_type() != "text/plain":
            continue
        paragraphs = [p.strip() for p in re.split(r"\n\s*\n", _part_text(part)) if p.strip()]
        for index, paragraph in enumerate(paragraphs):
            if not any(address in paragraph.lower() for address in recipients):
                continue
            text = paragraph
            # qmail and Exim put the address alone, and the reason in what follows.
            if len(paragraph.split()) <= 2 and index + 1 < len(paragraphs):
                text = f"{paragraph} {paragraphs[index + 1]}"
            return _one_line(text)
        break
    return ""


def _part_text(part: Message) -> str:
    data = part.get_payload(decode=True)
    if isinstance(data, bytes):
        return data.decode(part.get_content_charset() or "utf-8", "replace").replace("\r\n", "\n")
    payload = part.get_payload()
    return payload if isinstance(payload, str) else ""


def _clean_id(value: str) -> str:
    match = re.search(r"<[^<>\s]+>", value)
    return match.group(0) if match else value.strip()


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DIAGNOSTIC_CHARS else text[: _DIAGNOSTIC_CHARS - 1] + "…"


# --- recording -------------------------------------------------------------------------


@dataclass(frozen=True)
class Recipient:
    """Who an address belongs to (for GM log lines)."""

    address: str
    player: Player | None
    game: Game | None

    def describe(self) -> str:
        if self.player is None:
            where = f" (game {self.game.name})" if self.game else ""
            return f"{self.address}{where}, not a player's address"
        game = f" in game {self.game.name}" if self.game else ""
        return f"{self.player.name} <{self.address}>{game}"


def find_recipient(session: Session, address: str, game_id: int | None = None) -> Recipient:
    """The player an address belongs to, preferring the given game."""
    address = address.strip().lower()
    links = session.exec(select(PlayerAddress).where(PlayerAddress.email == address)).all()
    player_ids: list[int | None] = [link.player_id for link in links]
    if not player_ids:
        player_ids = [p.id for p in session.exec(select(Player).where(Player.email == address))]
    players = [p for p in (session.get(Player, pid) for pid in player_ids) if p is not None]
    player = next((p for p in players if p.game_id == game_id), players[-1] if players else None)
    wanted = player.game_id if player is not None else game_id
    game = session.get(Game, wanted) if wanted is not None else None
    return Recipient(address, player, game)


def is_player_address(session: Session, address: str) -> bool:
    """Whether `find_recipient` finds a player for this address (asked of every message
    intake reads, so column reads only: no rows loaded)."""
    address = address.strip().lower()
    linked = session.exec(_LINKED, params={"address": address}).all()
    if linked:
        return session.exec(_ANY_OF, params={"ids": list(linked)}).first() is not None
    return session.exec(_WITH_EMAIL, params={"address": address}).first() is not None


# Made once: a statement built per message costs as much again as running it.
_LINKED = select(PlayerAddress.player_id).where(PlayerAddress.email == bindparam("address"))
_ANY_OF = select(Player.id).where(col(Player.id).in_(bindparam("ids", expanding=True))).limit(1)
_WITH_EMAIL = select(Player.id).where(Player.email == bindparam("address")).limit(1)


def record_bounce(session: Session, bounce: Bounce) -> tuple[BounceRecord, ...]:
    """Mark the bounced Outbox row(s) and tell the GM; one record per failed recipient.

    A permanent bounce marks the row ``bounced`` (with the diagnostic as last_error) and
    logs ``mail.bounced`` (warning); a delay warning changes no row and logs
    ``mail.delayed`` (info), since the sending server is still trying.
    """
    records = []
    for address in bounce.recipients:
        row = _bounced_row(session, bounce.original_message_id, address)
        who = find_recipient(session, address, row.game_id if row else None)
        what = (
            f"{row.kind} {row.subject!r} {row.message_id}"
            if row is not None
            else f"a mail ({bounce.original_message_id or 'Message-ID not returned'}) "
            "not found in the outbox"
        )
        reason = bounce.diagnostic or "no reason given"
        if bounce.permanent:
            event, level = "mail.bounced", "warning"
            detail = f"mail to {who.describe()} bounced: {what}: {reason}"
            if row is not None:
                row.status, row.last_error = OutboxStatus.BOUNCED, f"bounced: {reason}"
                outbox_tidy.mask_secret(row, utcnow())  # never sent again: its password can go
                session.add(row)
        else:
            event, level = "mail.delayed", "info"
            detail = f"mail to {who.describe()} delayed (still being retried): {what}: {reason}"
        repo.log_gm(session, event, detail, game=who.game, level=level)
        records.append(
            BounceRecord(
                address=address,
                outbox_id=row.id if row else None,
                player_id=who.player.id if who.player else None,
                player_name=who.player.name if who.player else None,
                game=who.game.name if who.game else None,
                event=event,
            )
        )
    return tuple(records)


def _bounced_row(session: Session, message_id: str | None, address: str) -> Outbox | None:
    if message_id:
        row = session.exec(select(Outbox).where(Outbox.message_id == message_id)).first()
        if row is not None:
            return row
    return session.exec(
        select(Outbox)
        .where(
            func.lower(Outbox.to_addr) == address,
            col(Outbox.status).in_((OutboxStatus.SENT, OutboxStatus.BOUNCED)),
        )
        .order_by(col(Outbox.sent_at).desc(), col(Outbox.id).desc())
    ).first()
