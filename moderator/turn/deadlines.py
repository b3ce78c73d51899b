"""Deadlines: the rule that sets them, and setting them by hand or after a turn.

A game's deadlines are kept on its open turn (``Turn.deadline`` for orders and, for
En Garde!, ``Turn.announcement_deadline`` for announcements and challenges), stored in
UTC and entered and shown in the game's time zone.  They are set by hand for one turn
(`set_deadlines`) or come from a recurring rule kept in ``Game.schedule_json``
(`Rule`).  When a turn is run, the turn runner asks `next_deadlines` for the next
turn's deadlines (a rule wins over "same day next month"; an outage slides them) and
stores them in the same transaction, so the newsletters print the true deadline.

Nothing here talks to the scheduler: a change is only noted in the store
(`note_change`), and a running service re-reads the deadlines when it sees the note.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import Session

from moderator.clock import add_month, as_utc, format_deadline
from moderator.settings.deadline_rule import Rule, ScheduleError
from moderator.store import repo
from moderator.store.models import Game, Turn
from moderator.store.statuses import GameStatus

# ServiceStatus key a command sets when it changed deadlines; the service re-syncs its jobs.
CHANGED = "schedule.changed"

def now_utc() -> datetime:
    """The current time, aware and in UTC (what every stored time is)."""
    return datetime.now(UTC)


def game_zone(game: Game) -> ZoneInfo:
    """The zone the game's deadlines are entered and shown in."""
    return ZoneInfo(game.time_zone)


def local_to_utc(moment: datetime, game: Game) -> datetime:
    """A naive date and time the GM typed, read in the game's zone."""
    return as_utc(moment.replace(tzinfo=game_zone(game)))


def rule_of(game: Game) -> Rule | None:
    """The game's recurring rule, or None when its deadlines are set by hand."""
    return Rule.from_json(game.schedule_json)


# --- setting deadlines -----------------------------------------------------------------


def note_change(session: Session) -> None:
    """Tell a running service (perhaps another process) that deadlines changed."""
    repo.set_status(session, CHANGED, now_utc().isoformat())


def set_deadlines(
    session: Session, game: Game, deadline: datetime, announcements: datetime | None = None,
    *, now: datetime | None = None,
) -> Turn:
    """Give the open turn new deadlines (UTC); a moved deadline gets a new reminder."""
    now = now or now_utc()
    if announcements is not None and announcements >= deadline:
        raise ScheduleError("the announcement deadline must come before the orders deadline")
    turn = repo.open_turn(session, game)
    if turn.deadline is None or as_utc(turn.deadline) != deadline:
        turn.reminded_at = None
    turn.deadline, turn.announcement_deadline = deadline, announcements
    session.add(turn)
    zone = game.time_zone
    detail = f"turn {turn.number}: orders due {format_deadline(deadline, zone)}"
    if announcements is not None:
        detail += f", announcements due {format_deadline(announcements, zone)}"
    if deadline <= now:
        detail += " (already passed: the turn runs as soon as the service sees it)"
    repo.log_gm(session, "deadline.set", detail, game=game)
    note_change(session)
    return turn


def set_rule(
    session: Session, game: Game, rule: Rule | None, *, apply_now: bool = False,
    now: datetime | None = None,
) -> Turn:
    """Store (or clear) a game's rule; the open turn gets its deadlines from it if it has
    none yet, or if ``apply_now``."""
    now = now or now_utc()
    game.schedule_json = rule.to_json() if rule else None
    session.add(game)
    repo.log_gm(session, "deadline.rule", rule.describe() if rule else "cleared", game=game)
    note_change(session)
    turn = repo.open_turn(session, game)
    if rule is not None and (apply_now or turn.deadline is None):
        deadline = rule.next_after(now, game_zone(game))
        set_deadlines(session, game, deadline, rule.announcements_for(deadline, game_zone(game)),
                      now=now)
    return turn


# --- the next turn's deadlines ---------------------------------------------------------------


@dataclass(frozen=True)
class NextDeadlines:
    """The deadlines a turn run gives the next turn, and where they came from."""

    deadline: datetime | None
    announcements: datetime | None
    source: str


def next_deadlines(
    game: Game, done: Turn, *, slide: timedelta = timedelta(0), now: datetime | None = None,
) -> NextDeadlines:
    """The deadlines of the turn after ``done``: from the rule if there is one, else the
    same day next month; plus ``slide`` after an outage.  Never in the past with a rule."""
    now = now or now_utc()
    rule = rule_of(game)
    if rule is not None:
        found = _from_rule(rule, game_zone(game), done, slide, now)
    elif done.deadline is None:
        return NextDeadlines(None, None, "none set")
    else:
        found = _next_month(game_zone(game), done, slide, now)
    if not slide or found.deadline is None:
        return found
    return NextDeadlines(found.deadline + slide,
                         found.announcements + slide if found.announcements else None,
                         f"{found.source}, slid {_hours(slide)} after an outage")


def _from_rule(
    rule: Rule, zone: ZoneInfo, done: Turn, slide: timedelta, now: datetime
) -> NextDeadlines:
    """The rule's next date after the turn's deadline; after a long outage, the rule's
    first date that (with the slide) is still to come, never the past.  Stepping along
    the rule's dates keeps an "every N days" rule on its days: N days from now would
    start a new series."""
    start = as_utc(done.deadline) if done.deadline else now
    deadline = rule.next_after(start, zone)
    while deadline + slide <= now:
        deadline = rule.next_after(deadline, zone)
    return NextDeadlines(deadline, rule.announcements_for(deadline, zone),
                         f"rule: {rule.describe()}")


def _next_month(zone: ZoneInfo, done: Turn, slide: timedelta, now: datetime) -> NextDeadlines:
    """The same day next month; after a long outage, the first month whose date (with
    the slide) is still to come: one catch-up turn, not one a missed month."""
    assert done.deadline is not None
    deadline, announcements = as_utc(done.deadline), done.announcement_deadline
    announcements = as_utc(announcements) if announcements else None
    while True:
        deadline = add_month(deadline, zone)
        announcements = add_month(announcements, zone) if announcements else None
        if deadline + slide > now:
            return NextDeadlines(deadline, announcements, "same day next month")


def _hours(delta: timedelta) -> str:
    return f"{delta.total_seconds() / 3600:g} h"


def log_next_deadlines(
    session: Session, game: Game, number: int, found: NextDeadlines, *, missed: bool = False
) -> None:
    """Record the deadlines a turn run set in the GM log (``deadline.slid`` after an outage,
    else ``deadline.next``), so the GM can see where each date came from."""
    zone = game.time_zone
    detail = (f"turn {number}: orders due "
              f"{format_deadline(found.deadline, zone) or 'not set'} ({found.source})")
    if found.announcements:
        detail += f", announcements due {format_deadline(found.announcements, zone)}"
    repo.log_gm(session, "deadline.slid" if missed else "deadline.next", detail, game=game)


def current_turn(session: Session, game_name: str, number: int) -> tuple[Game, Turn] | None:
    """The game and its open turn, if that turn is still ``number`` and the game active:
    a scheduler job made for turn ``number`` does nothing once this is None."""
    game = repo.find_game(session, game_name)
    if game is None or game.status != GameStatus.ACTIVE:
        return None
    try:
        turn = repo.open_turn(session, game)
    except repo.NotFound:
        return None
    return (game, turn) if turn.number == number else None
