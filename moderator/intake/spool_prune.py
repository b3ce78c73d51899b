"""The spool's retention (``[intake] spool_keep_days``): a received email's spool file goes
once its message has a recorded fate and is older than the limit.

The spool is the first copy of each email (`moderator.intake.spool.spool_raw`), written
before the store's row; once the row is committed the store holds the same bytes (the
password masked in both), and backups take them from there.  So a file may go when the
store no longer needs it as a fallback:

* a file a stored row names (``spool_path``): once that row has a fate (accepted,
  refused, ignored, failed) and was received before the limit.  A row still ``received``
  or ``handling`` is a message in flight, resumed from the inbox after a crash: its file
  stays.  The row then names no file (``spool_path`` is cleared);
* a file no row names, older than the limit: a second delivery of a message handled
  already (the same content under other trace headers; see `spool.content_digest`) goes
  when the row with its content has a fate.  A file whose content no row holds is kept:
  it was written by an intake that died before storing it, and may be the only copy.

Only files inside the configured spool folder are deleted, so a store moved from
another host (whose rows name that host's paths) deletes nothing of this one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import Connection, Engine, bindparam, select, update

from moderator.intake.extract import extract_message
from moderator.intake.sender import split_head
from moderator.intake.spool import content_digest, usable_message_id
from moderator.publish.render import plural
from moderator.settings.config import Config
from moderator.store import audit
from moderator.store.db import session_scope
from moderator.store.models import ReceivedMessage
from moderator.store.statuses import MessageStatus

# A message's fate, once recorded: nothing reads its spool file again.
FATES = (MessageStatus.ACCEPTED, MessageStatus.REFUSED, MessageStatus.IGNORED,
         MessageStatus.FAILED)
# Rows handled in one transaction: a large first prune holds no write lock for long.
BATCH = 500

_MESSAGES = ReceivedMessage.__table__  # type: ignore[attr-defined]
# Keyset paging by id: rows naming a file outside the spool folder are passed over.
_NAMED = (select(_MESSAGES.c.id, _MESSAGES.c.spool_path)
          .where(_MESSAGES.c.status.in_([str(f) for f in FATES]),
                 _MESSAGES.c.received_at < bindparam("cutoff"),
                 _MESSAGES.c.spool_path.is_not(None),
                 _MESSAGES.c.id > bindparam("after"))
          .order_by(_MESSAGES.c.id).limit(BATCH))
_FORGET = (update(_MESSAGES)
           .where(_MESSAGES.c.id.in_(bindparam("ids", expanding=True)))
           .values(spool_path=None))
_BY_DIGEST = select(_MESSAGES.c.status, _MESSAGES.c.spool_path).where(
    _MESSAGES.c.digest == bindparam("digest"))
_BY_MESSAGE_ID = select(_MESSAGES.c.status, _MESSAGES.c.spool_path, _MESSAGES.c.raw).where(
    _MESSAGES.c.message_id == bindparam("message_id"))


@dataclass(frozen=True)
class SpoolPruned:
    """What a prune did: files deleted, and files older than the limit that stayed (their
    message in flight, or no stored message holds their content)."""

    keep_days: int
    removed: int = 0
    kept: int = 0


def prune_spool(db: Engine, config: Config, now: datetime | None = None,
                keep_days: int | None = None) -> SpoolPruned:
    """Delete the spool files the store no longer needs that are older than ``keep_days``
    (default ``intake.spool_keep_days``; 0: keep every file, do nothing)."""
    days = config.spool_keep_days if keep_days is None else keep_days
    if days <= 0:
        return SpoolPruned(days)
    cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
    spool = config.spool_dir.resolve()
    removed = _prune_named(db, spool, cutoff)
    copies, kept = _prune_unnamed(db, config, spool, cutoff)
    return SpoolPruned(days, removed + copies, kept)


def _prune_named(db: Engine, spool: Path, cutoff: datetime) -> int:
    """The files of rows with a fate received before ``cutoff``; how many went."""
    removed, after = 0, 0
    while True:
        with db.begin() as connection:
            rows = connection.execute(_NAMED, {"cutoff": cutoff, "after": after}).all()
            if not rows:
                return removed
            after = rows[-1].id
            # The file first, then the row: a crash between leaves a row naming a
            # missing file (harmless: nothing reads it), never a file no row names.
            gone = [(row.id, _unlink(Path(row.spool_path))) for row in rows
                    if _inside(Path(row.spool_path), spool)]
            removed += sum(was_there is True for _id, was_there in gone)
            forget = [row_id for row_id, was_there in gone if was_there is not None]
            if forget:
                connection.execute(_FORGET, {"ids": forget})


def _prune_unnamed(db: Engine, config: Config, spool: Path,
                   cutoff: datetime) -> tuple[int, int]:
    """The files older than ``cutoff`` still there after `_prune_named`: a copy of a
    message that has a fate goes, any other stays; (removed, kept)."""
    removed = kept = 0
    for path in _old_files(spool, cutoff):
        try:
            raw = path.read_bytes()
        except OSError:  # gone meanwhile, or unreadable: left alone
            continue
        with db.connect() as connection:
            handled = _copy_of_handled(connection, config, path, raw)
        if not handled:
            kept += 1
        elif _unlink(path):
            removed += 1
    return removed, kept


def _copy_of_handled(connection: Connection, config: Config, path: Path, raw: bytes) -> bool:
    """Whether ``raw`` (the file at ``path``) is a copy of a stored message that has a
    fate, and no row names this file.

    By its digest first (the content as received); a copy whose password was masked
    has other content than that, so then by its Message-ID, against the stored bytes as
    masked too (the same content masks the same way)."""
    digest = content_digest(raw)
    row = connection.execute(_BY_DIGEST, {"digest": digest}).first()
    if row is not None:
        return row.status in FATES and row.spool_path != str(path)
    head, _ = split_head(raw)
    message_id = usable_message_id(extract_message(head + b"\n\n").message_id, digest)
    return any(row.status in FATES and row.spool_path != str(path)
               and content_digest(row.raw) == digest
               for row in connection.execute(_BY_MESSAGE_ID, {"message_id": message_id}))


def _old_files(spool: Path, cutoff: datetime) -> Iterator[Path]:
    """Every ``.eml`` file in the spool last written before ``cutoff``.  Only the month
    folders (``YYYY-MM``, the month it was spooled) that began before it are listed."""
    if not spool.is_dir():
        return
    for folder in sorted(spool.iterdir()):
        if not (folder.is_dir() and _began_before(folder.name, cutoff)):
            continue
        for path in sorted(folder.glob("*.eml")):
            try:
                written = datetime.fromtimestamp(path.stat().st_mtime, UTC)
            except OSError:
                continue
            if written < cutoff:
                yield path


def _began_before(name: str, cutoff: datetime) -> bool:
    """Whether a month folder's month began before ``cutoff`` (a folder named otherwise
    is not ours: never)."""
    try:
        began = datetime.strptime(name, "%Y-%m").replace(tzinfo=UTC)
    except ValueError:
        return False
    return began < cutoff


def _inside(path: Path, spool: Path) -> bool:
    return path.resolve().is_relative_to(spool)


def _unlink(path: Path) -> bool | None:
    """Delete one file: True, or False when it was gone already; None when it could not
    be deleted (it stays, and its row still names it)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    except OSError:
        return None
    return True


def prune_spool_by_hand(db: Engine, config: Config, who: str, reason: str,
                        keep_days: int | None = None) -> SpoolPruned:
    """`prune_spool` for the GM (``moderator inbox prune-spool``), in the audit trail with
    what it deleted."""
    reason = audit.checked(reason)
    pruned = prune_spool(db, config, keep_days=keep_days)
    with session_scope(db) as session:
        audit.record(session, "spool.prune", reason, who,
                     detail=f"spool files older than {plural(pruned.keep_days, 'day')}: "
                            f"{pruned.removed} deleted, {pruned.kept} kept")
    return pruned
