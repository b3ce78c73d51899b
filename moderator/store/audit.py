"""The audit trail of the GM's desk, and the GM notes the next gazette prints.

Every desk action writes one `AuditEntry`: who (``--as NAME``, else the OS user), when,
the action, the GM's ``--reason`` and what changed.  An action that changes results
also leaves a public ``note``; the next turn run prints every note not yet printed in
its gazette's GM notes and records the turn it went into (``noted_in_turn``), so a
rerun or a replay of that turn prints exactly the same notes.
"""

from __future__ import annotations

import getpass
import os
from datetime import datetime

from sqlmodel import Session, col, or_, select

from moderator.clock import as_utc
from moderator.store.models import AuditEntry, Game, Player


class AuditError(ValueError):
    """An audited action refused before it is logged (e.g. no ``--reason`` given)."""


def current_user(name: str | None = None) -> str:
    """Who acts: the name given with ``--as``, else the OS user."""
    if name:
        return name
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry (containers)
        return os.environ.get("USER", "unknown")


def checked(reason: str) -> str:
    """The ``--reason`` as logged (stripped); a blank one refused.  An action that is
    carried out in its own transaction (a turn run) checks it first, so it is never done
    and then refused its audit entry."""
    if not reason.strip():
        raise AuditError("give a --reason: every desk action is logged with one")
    return reason.strip()


def record(
    session: Session, action: str, reason: str, who: str, *, game: Game | None = None,
    detail: str = "", note: str | None = None, player: Player | None = None,
    turn_number: int | None = None,
) -> AuditEntry:
    """Write one audit entry (in the caller's transaction)."""
    entry = AuditEntry(
        game_id=game.id if game else None, who=who, action=action, reason=checked(reason),
        detail=detail, note=note, player_id=player.id if player else None,
        turn_number=turn_number,
    )
    session.add(entry)
    session.flush()
    return entry


def entries(session: Session, game: Game | None, since: datetime | None = None,
            *, host: bool = True) -> list[AuditEntry]:
    """The audit trail of a game (with the host-wide entries, e.g. panic), oldest first."""
    query = select(AuditEntry)
    if game is not None:
        mine = col(AuditEntry.game_id) == game.id
        query = query.where(or_(mine, col(AuditEntry.game_id).is_(None)) if host else mine)
    rows = list(session.exec(query.order_by(col(AuditEntry.id))))
    if since is not None:
        rows = [r for r in rows if as_utc(r.at) >= as_utc(since)]
    return rows


def pending_notes(session: Session, game: Game) -> list[AuditEntry]:
    """Notes not printed yet, in the order the actions were taken."""
    return list(session.exec(
        select(AuditEntry).where(AuditEntry.game_id == game.id,
                                 col(AuditEntry.note).is_not(None),
                                 col(AuditEntry.noted_in_turn).is_(None))
        .order_by(col(AuditEntry.id))))


def notes_of_turn(session: Session, game: Game, number: int) -> list[AuditEntry]:
    """The notes a turn's gazette printed."""
    return list(session.exec(
        select(AuditEntry).where(AuditEntry.game_id == game.id,
                                 AuditEntry.noted_in_turn == number)
        .order_by(col(AuditEntry.id))))


def take_notes(session: Session, game: Game, number: int) -> tuple[str, ...]:
    """The GM notes for turn ``number``'s gazette: those it printed before (a replay),
    then the ones not printed yet, which are now marked as printed in it."""
    printed = notes_of_turn(session, game, number)
    fresh = pending_notes(session, game)
    for entry in fresh:
        entry.noted_in_turn = number
        session.add(entry)
    return tuple(e.note for e in (*printed, *fresh) if e.note)


def peek_notes(session: Session, game: Game, number: int) -> tuple[str, ...]:
    """What `take_notes` would return, changing nothing (`turn preview`)."""
    rows = (*notes_of_turn(session, game, number), *pending_notes(session, game))
    return tuple(e.note for e in rows if e.note)
