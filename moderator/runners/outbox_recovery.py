"""The Outbox rows a crash left in ``sending``, settled (`Outgoing.recover`).

A row is ``sending`` (committed) while it is handed over; a crash in between leaves it
there.  The sender says which of those mails it finds delivered (`Sender.delivered`):
found -> ``sent``; not found -> ``queued`` again, resent with the same Message-ID; cannot
tell -> ``queued`` again and the GM warned that the player may get it twice.  See
docs/outbox.md.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.runners.send_report import SendFate, SendOutcome, outcome
from moderator.store import outbox_tidy, repo
from moderator.store.db import session_scope
from moderator.store.models import Game, Outbox
from moderator.store.statuses import LogLevel, OutboxStatus


def interrupted_rows(db: Engine) -> list[Outbox]:
    """The rows a crash left in ``sending`` (handed over, or about to be)."""
    with Session(db) as session:
        return list(session.exec(select(Outbox).where(Outbox.status == OutboxStatus.SENDING)))


def settle_interrupted(
    db: Engine, stuck: list[Outbox], found: set[str] | None, reason: str, moment: datetime
) -> tuple[SendOutcome, ...]:
    """Decide each interrupted row: ``sent`` if its Message-ID is in ``found`` (it got
    through), else ``queued`` again with the same Message-ID.

    ``found`` is None when the sender could not tell (``reason`` says why): the row is
    still sent again, and the GM warned that the player may get it twice.
    """
    outcomes = []
    with session_scope(db) as session:
        for stale in stuck:
            row = session.get(Outbox, stale.id)
            if row is None or row.status != OutboxStatus.SENDING:
                continue
            game = session.get(Game, row.game_id) if row.game_id is not None else None
            what = f"{row.kind} to {row.to_addr} ({row.subject!r}, {row.message_id})"
            if found is not None and row.message_id in found:
                row.status, row.sent_at, row.last_error = OutboxStatus.SENT, moment, None
                outbox_tidy.mask_secret(row, moment)
                detail = f"{what}: accepted before a crash (found delivered)"
                repo.log_gm(session, "mail.recovered", detail, game=game)
                outcomes.append(outcome(row, SendFate.SENT, detail))
            else:
                row.status, row.next_attempt_at = OutboxStatus.QUEUED, None
                if found is not None:
                    detail = f"{what}: not sent before a crash (not found delivered); sending again"
                    repo.log_gm(session, "mail.resend", detail, game=game)
                else:
                    detail = (
                        f"{what}: interrupted by a crash and {reason}; sending again with "
                        f"the same Message-ID, so {row.to_addr} may get it twice"
                    )
                    repo.log_gm(session, "mail.resend", detail, game=game,
                                level=LogLevel.WARNING)
                outcomes.append(outcome(row, SendFate.REQUEUED, detail))
            session.add(row)
    return tuple(outcomes)
