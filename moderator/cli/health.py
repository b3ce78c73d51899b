"""``moderator status --check``: the health of one deployment, for monitoring.

One line per check, ``OK``, ``WARNING`` or ``CRITICAL``, and the exit status of the worst
(0, 1, 2: the Nagios convention, which most monitoring understands):

* store: it answers and its schema is at the newest migration (the check never migrates);
* service: a `moderator serve` heartbeat within `schedule.OUTAGE_AFTER`;
* host: not stopped with `moderator panic` (warning: stopping is a GM's choice);
* turns: no active game's open turn more than ``late`` past its deadline and grace;
* outbox: no mail given up as failed in the last `FAILED_WITHIN`, none queued for longer
  than ``late`` (warnings).

Each check is one query over all games, so it stays fast with a thousand of them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import Engine, func
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, select

from moderator.clock import as_utc
from moderator.runners.schedule import service_alive
from moderator.settings.config import Config
from moderator.store.db import head_revisions, open_store, stored_revisions
from moderator.store.host import panic_reason
from moderator.store.models import Game, Outbox, Turn
from moderator.store.statuses import GameStatus, OutboxStatus, TurnStatus
from moderator.turn.deadlines import now_utc

OK, WARNING, CRITICAL = 0, 1, 2
WORDS = {OK: "OK", WARNING: "WARNING", CRITICAL: "CRITICAL"}
Check = tuple[int, str, str]
# A failed mail is a warning for this long (the GM resends it or not; either way the
# check must come back to OK by itself).
FAILED_WITHIN = timedelta(hours=24)


def report(config: Config, late: timedelta, say: Callable[..., None]) -> int:
    """Run every check, print one line each, and return the worst status."""
    results = checks(config, late)
    for level, name, detail in results:
        say(f"{WORDS[level]} {name}: {detail}", markup=False, highlight=False)
    return max(level for level, _, _ in results)


def checks(config: Config, late: timedelta, now: datetime | None = None) -> list[Check]:
    now = now or now_utc()
    try:
        db = open_store(config.database_url, upgrade=False)
        store = _store(db)
    except (SQLAlchemyError, OSError) as exc:  # unreachable: nothing else can be checked
        return [(CRITICAL, "store", f"cannot open {_shown(config)}: {exc.__class__.__name__}: "
                 f"{str(exc).splitlines()[0] if str(exc) else ''}")]
    if store[0] != OK:
        return [store]
    try:
        return [store, _service(db, now), _host(db), _turns(db, config, late, now),
                _outbox(db, late, now)]
    finally:
        db.dispose()


def _shown(config: Config) -> str:
    """The store's URL without a password."""
    url = config.database_url
    if "://" in url and "@" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        return f"{scheme}://{credentials.split(':', 1)[0]}@{host}"
    return url


def _store(db: Engine) -> Check:
    # Alembic's head and current revision, read without importing Alembic.
    head = ", ".join(sorted(head_revisions()))
    current = ", ".join(sorted(stored_revisions(db) or ()))
    if current != head:
        return (CRITICAL, "store", f"schema at {current or 'nothing'}, the code needs {head} "
                "(run any moderator command, or `moderator serve`, to migrate)")
    return (OK, "store", f"{db.dialect.name}, schema at {head}")


def _service(db: Engine, now: datetime) -> Check:
    beat = service_alive(db, now)
    if beat is None:
        return (CRITICAL, "service", "no running `moderator serve` (no recent heartbeat)")
    return (OK, "service", f"heartbeat {int((now - beat).total_seconds())} s ago")


def _host(db: Engine) -> Check:
    reason = panic_reason(db)
    if reason is not None:
        return (WARNING, "host", f"stopped with `moderator panic`: {reason}")
    return (OK, "host", "running")


def _turns(db: Engine, config: Config, late: timedelta, now: datetime) -> Check:
    """Active games whose open turn is past deadline + grace + ``late``."""
    with Session(db) as session:
        rows = session.exec(
            select(Game.name, Turn.deadline)
            .join(Turn, col(Turn.game_id) == col(Game.id))
            .where(Game.status == GameStatus.ACTIVE, Turn.status == TurnStatus.OPEN,
                   col(Turn.deadline).is_not(None))
        ).all()
    overdue = sorted(name for name, deadline in rows if deadline is not None and
                     as_utc(deadline) + timedelta(hours=config.game(name).grace_hours) + late
                     < now)
    if overdue:
        shown = ", ".join(overdue[:10]) + (f" and {len(overdue) - 10} more"
                                           if len(overdue) > 10 else "")
        return (CRITICAL, "turns", f"{len(overdue)} turn(s) overdue: {shown}")
    return (OK, "turns", f"{len(rows)} open turn(s) with a deadline, none overdue")


def _outbox(db: Engine, late: timedelta, now: datetime) -> Check:
    with Session(db) as session:
        failed = session.exec(select(func.count()).select_from(Outbox)
                              .where(Outbox.status == OutboxStatus.FAILED,
                                     col(Outbox.created_at) >= now - FAILED_WITHIN)).one()
        oldest = session.exec(select(func.min(Outbox.created_at))
                              .where(Outbox.status == OutboxStatus.QUEUED)).one()
    if failed:
        return (WARNING, "outbox", f"{failed} mail(s) failed in the last 24 h (`moderator "
                "status` lists them among its problems)")
    if oldest is not None and now - as_utc(oldest) > late:
        return (WARNING, "outbox", f"mail queued since {as_utc(oldest):%Y-%m-%d %H:%M} UTC")
    return (OK, "outbox", "nothing failed, nothing waiting long")
