"""The host-wide panic flag (webDiplomacy's panic button).

``moderator panic`` sets a flag in the store (`ServiceStatus` key `PANIC`); while it is
set nothing is processed on this host: the intake (Maildir and IMAP) reads nothing, no
turn runs (by the scheduler or by hand), no reminder or announcements gazette goes out,
and the outbox sends nothing.  Everything waits where it is: mail stays in the inbox,
queued mail stays queued, due turns stay open, so ``panic --off`` loses nothing and
everything resumes at the next poll.  Every loop checks the flag each round, so the
host stops within one poll interval; the intake and the outbox check it again before each
message and each mail, so a pass or batch under way stops at once, and work that came
after the flag was set is never touched (a turn run checks it as it starts).
"""

from __future__ import annotations

from sqlalchemy import Engine, select
from sqlmodel import Session, col

from moderator.store.models import ServiceStatus

PANIC = "host.panic"
_PANIC_REASON = select(col(ServiceStatus.value)).where(col(ServiceStatus.key) == PANIC)


def panic_reason(db: Engine | Session) -> str | None:
    """The reason the host is stopped, or None when it runs normally."""
    if isinstance(db, Session):
        row = db.get(ServiceStatus, PANIC)
        return row.value if row else None
    # Asked before every message intake reads: one core statement, no session.
    with db.connect() as connection:
        return connection.execute(_PANIC_REASON).scalar_one_or_none()


def set_panic(session: Session, reason: str | None) -> None:
    """Stop the host (``reason``) or let it run again (None)."""
    row = session.get(ServiceStatus, PANIC)
    if reason is None:
        if row is not None:
            session.delete(row)
        return
    if row is None:
        row = ServiceStatus(key=PANIC, value=reason)
    row.value = reason
    session.add(row)


class HostStopped(RuntimeError):
    """Refused: the host is stopped by ``moderator panic``."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the host is stopped (moderator panic: {reason}); "
                         "`moderator panic --off --reason ...` resumes")


def check_running(db: Engine | Session) -> None:
    """Raise `HostStopped` while the panic flag is set."""
    reason = panic_reason(db)
    if reason is not None:
        raise HostStopped(reason)
