"""The change stamp: one query that tells the scheduler something changed elsewhere.

The jobs are derived from the database; a command in another process changes the
database, never the jobs.  The running service reads the stamp every `CHANGE_POLL_SECONDS`
and syncs its jobs when it moved: the newest ids of the GM log, submissions, audit
entries, turns and players, the active games, the note commands leave with
`moderator.turn.deadlines.note_change`, and the job rows' count.  An idle service runs this
query and nothing else.
"""

from __future__ import annotations

from sqlalchemy import Engine

from moderator.store.statuses import GameStatus
from moderator.turn.deadlines import CHANGED

# How often the running service reads the change stamp (changes made in other processes:
# a deadline set by a command starts its turn within this time of the deadline).
CHANGE_POLL_SECONDS = 1

# What moves when anything a job depends on changes, in one query (see the module's
# docstring): new GM-log entries (deadlines set, turns run or failed, announcements sent),
# orders, GM actions, turns and players; which games are active; the note commands leave;
# and how many jobs are stored (a job that ran has left the store).
_STAMP = ("SELECT (SELECT max(id) FROM gmlog), (SELECT max(id) FROM submission), "
          "(SELECT max(id) FROM auditentry), (SELECT max(id) FROM turn), "
          "(SELECT max(id) FROM player), "
          f"(SELECT count(*) FROM game WHERE status = '{GameStatus.ACTIVE}'), "
          f"(SELECT sum(id) FROM game WHERE status = '{GameStatus.ACTIVE}'), "
          f"(SELECT value FROM servicestatus WHERE key = '{CHANGED}')")
_STAMP_JOBS = ", (SELECT count(*) FROM apscheduler_jobs)"

Stamp = tuple[object, ...]


def change_stamp(db: Engine, *, jobs: bool = True) -> Stamp:
    """The change stamp: the same value means nothing the jobs derive from has changed
    (``jobs``: with the job store's row count, for a store kept in the database)."""
    with db.connect() as connection:
        row = connection.exec_driver_sql(_STAMP + (_STAMP_JOBS if jobs else "")).one()
    return tuple(row)
