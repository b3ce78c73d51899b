"""Deadlines: the rule that sets them, and the scheduler that acts on them.

A game's deadlines are kept on its open turn (``Turn.deadline`` for orders and, for
En Garde!, ``Turn.announcement_deadline`` for announcements and challenges), stored in
UTC and entered and shown in the game's time zone.  They are set by hand for one turn
(`set_deadlines`) or come from a recurring rule kept in ``Game.schedule_json``
(`Rule`): when a turn is run, `after_turn` gives the next turn its deadlines from the
rule (a rule wins over the "same day next month" the turn runner uses).

The scheduler is APScheduler's BackgroundScheduler with its jobs in the store itself
(SQLAlchemyJobStore, table ``apscheduler_jobs``).  The database is the truth; the jobs
are derived from it by `sync_jobs` (at start, after every change the service makes,
within `CHANGE_POLL_SECONDS` of a change a command notes with `note_change`, and every
`SYNC_SECONDS`), one job of each kind per active game.  Only the service writes the job
store; commands only change the database.  The jobs:

* ``deadline:GAME``: at the orders deadline, run the turn (`run_due_turn`);
* ``announcements:GAME``: at the announcement deadline, mail the announcements gazette;
* ``reminder:GAME``: `REMINDER_HOURS` before the orders deadline, remind the players who
  have sent no orders yet (once: ``Turn.reminded_at``).

Jobs never expire (``misfire_grace_time=None``) and run once however late they are
(DateTrigger, ``coalesce``): a deadline passed while the service was down runs when it
starts.  Each job checks the turn it was made for is still the open one, so a job that
fires twice, or after the GM ran the turn by hand, does nothing.  A deadline that passed
during an outage also slides the next turn's deadlines by ``service.outage_slide_hours``.
"""

from __future__ import annotations

import calendar
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Engine, update
from sqlmodel import Session, col, select

from moderator.clock import add_month, as_utc, format_deadline
from moderator.config import Config
from moderator.games import find_engine
from moderator.publish import outgoing
from moderator.publish.render import markdown_to_html, render
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Game, GmLog, Newsletter, ServiceStatus, Turn

# Proposed setting ``service.reminder_hours`` (default 24): "Hours before the orders
# deadline that players who have sent no orders get a reminder (0: no reminders)."
REMINDER_HOURS = 24
# How often `serve` re-reads the deadlines from the database (changes made by the CLI in
# another process are picked up within this time) and writes its heartbeat.
SYNC_SECONDS = 30
# A gap this long between heartbeats means the service was not running (or the host slept).
OUTAGE_AFTER = timedelta(seconds=3 * SYNC_SECONDS)
# After a turn run fails with an unexpected error, try again this much later.
RETRY_AFTER = timedelta(minutes=10)

HEARTBEAT = "scheduler.heartbeat"
CHANGED = "schedule.changed"
# How often the running service checks for CHANGED (set by commands in other processes).
CHANGE_POLL_SECONDS = 5
JOB_KINDS = ("deadline", "announcements", "reminder")

Log = Callable[..., None]  # log(level, event, **fields)


def _no_log(level: str, event: str, **fields: Any) -> None:
    return None


def now_utc() -> datetime:
    return datetime.now(UTC)


class ScheduleError(ValueError):
    """A deadline or rule the GM gave cannot be used, with the reason."""


# --- rules -----------------------------------------------------------------------------


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WEEKS = ("1st", "2nd", "3rd", "4th", "last")


@dataclass(frozen=True)
class Rule:
    """A recurring deadline at ``time`` ("HH:MM") in the game's time zone, one of:

    * ``monthly_day``: that day of every month (29-31 mean the last day of a shorter month);
    * ``weekday`` and ``week``: e.g. the "2nd" "sat" or the "last" "fri" of every month;
    * ``every_days``: that many days after the previous deadline.

    ``announcements_days_before`` puts the announcement deadline that many days before
    the orders deadline, at the same wall-clock time.
    """

    monthly_day: int | None = None
    weekday: str | None = None
    week: str | None = None
    every_days: int | None = None
    time: str = "18:00"
    announcements_days_before: int | None = None

    def __post_init__(self) -> None:
        kinds = [self.monthly_day is not None, self.weekday is not None or self.week is not None,
                 self.every_days is not None]
        if sum(kinds) != 1:
            raise ScheduleError("a rule is one of: a day of the month, a weekday of the month "
                                "(week and weekday), or every so many days")
        if self.monthly_day is not None and not 1 <= self.monthly_day <= 31:
            raise ScheduleError("the day of the month must be 1 to 31")
        if kinds[1] and (self.weekday not in WEEKDAYS or self.week not in WEEKS):
            raise ScheduleError(f"weekday is one of {', '.join(WEEKDAYS)} and week one of "
                                f"{', '.join(WEEKS)}")
        if self.every_days is not None and not 1 <= self.every_days <= 366:
            raise ScheduleError("every so many days: 1 to 366")
        self.hour_minute()
        days = self.announcements_days_before
        if days is not None and not 1 <= days <= 27:
            raise ScheduleError("announcements must be 1 to 27 days before the deadline")
        if days is not None and self.every_days is not None and days >= self.every_days:
            raise ScheduleError("announcements must come after the previous deadline")

    def hour_minute(self) -> tuple[int, int]:
        try:
            hour, minute = (int(part) for part in self.time.split(":"))
            if not (0 <= hour <= 23 and 0 <= minute <= 59):
                raise ValueError
        except ValueError:
            raise ScheduleError(f"time {self.time!r}: use HH:MM, e.g. 18:00") from None
        return hour, minute

    def to_json(self) -> str:
        data = {key: value for key, value in self.__dict__.items() if value is not None}
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | None) -> Rule | None:
        return cls(**json.loads(text)) if text else None

    def describe(self) -> str:
        if self.monthly_day is not None:
            when = f"monthly on day {self.monthly_day} at {self.time}"
        elif self.every_days is not None:
            when = f"every {self.every_days} days at {self.time}"
        else:
            when = f"monthly on the {self.week} {self.weekday} at {self.time}"
        if self.announcements_days_before:
            when += f", announcements {self.announcements_days_before} days before"
        return when

    def next_after(self, moment: datetime, zone: ZoneInfo) -> datetime:
        """The first deadline strictly after ``moment`` (UTC in, UTC out)."""
        moment = as_utc(moment)
        hour, minute = self.hour_minute()
        if self.every_days is not None:
            day = moment.astimezone(zone).date() + timedelta(days=self.every_days)
            return as_utc(datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone))
        if self.weekday is not None:
            from apscheduler.triggers.cron import CronTrigger

            # APScheduler's "2nd sat" / "last fri" day expression, in the game's zone.
            trigger = CronTrigger(day=f"{self.week} {self.weekday}", hour=hour, minute=minute,
                                  timezone=zone)
            fire = trigger.get_next_fire_time(None, moment + timedelta(microseconds=1))
            assert fire is not None
            return as_utc(fire)
        local = moment.astimezone(zone)
        year, month = local.year, local.month
        for _ in range(3):
            candidate = self._in_month(year, month, zone, hour, minute)
            if candidate > moment:
                return candidate
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        raise AssertionError("unreachable")

    def _in_month(self, year: int, month: int, zone: ZoneInfo, hour: int, minute: int) -> datetime:
        assert self.monthly_day is not None
        day = min(self.monthly_day, calendar.monthrange(year, month)[1])
        # Wall-clock time in the game's zone, so 18:00 stays 18:00 across DST.
        return as_utc(datetime(year, month, day, hour, minute, tzinfo=zone))

    def announcements_for(self, deadline: datetime, zone: ZoneInfo) -> datetime | None:
        if not self.announcements_days_before:
            return None
        return _local_shift(deadline, zone, days=-self.announcements_days_before)


def _local_shift(moment: datetime, zone: ZoneInfo, *, days: int) -> datetime:
    """Move by whole days keeping the wall-clock time in the zone (DST-correct)."""
    local = as_utc(moment).astimezone(zone).replace(tzinfo=None) + timedelta(days=days)
    return as_utc(local.replace(tzinfo=zone))


def game_zone(game: Game) -> ZoneInfo:
    return ZoneInfo(game.time_zone)


def local_to_utc(moment: datetime, game: Game) -> datetime:
    """A naive date and time the GM typed, read in the game's zone."""
    return as_utc(moment.replace(tzinfo=game_zone(game)))


def rule_of(game: Game) -> Rule | None:
    return Rule.from_json(game.schedule_json)


# --- setting deadlines -----------------------------------------------------------------


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


@dataclass(frozen=True)
class NextDeadlines:
    deadline: datetime | None
    announcements: datetime | None
    source: str


def next_deadlines(
    game: Game, done: Turn, proposed: datetime | None, *, slide: timedelta = timedelta(0),
    now: datetime | None = None,
) -> NextDeadlines:
    """The deadlines of the turn after ``done``: from the rule if there is one, else the
    turn runner's ``proposed`` one (same day next month); plus ``slide`` after an outage."""
    now = now or now_utc()
    zone = game_zone(game)
    rule = rule_of(game)
    if rule is not None:
        start = as_utc(done.deadline) if done.deadline else now
        deadline = rule.next_after(start, zone)
        if deadline + slide <= now:  # a long outage: the next one from now, never the past
            deadline = rule.next_after(now, zone)
        announcements = rule.announcements_for(deadline, zone)
        source = f"rule: {rule.describe()}"
    else:
        if proposed is None:
            return NextDeadlines(None, None, "none set")
        deadline = as_utc(proposed)
        announcements = (add_month(as_utc(done.announcement_deadline))
                         if done.announcement_deadline else None)
        source = "same day next month"
    if slide:
        deadline += slide
        announcements = announcements + slide if announcements else None
        source += f", slid {_hours(slide)} after an outage"
    return NextDeadlines(deadline, announcements, source)


def _hours(delta: timedelta) -> str:
    return f"{delta.total_seconds() / 3600:g} h"


def after_turn(
    db: Engine, config: Config, game_name: str, number: int, *, missed: bool = False,
    now: datetime | None = None,
) -> NextDeadlines | None:
    """Once turn ``number`` has run: set the deadlines of the turn now open."""
    now = now or now_utc()
    slide = timedelta(hours=config.outage_slide_hours) if missed else timedelta(0)
    with session_scope(db) as session:
        game = repo.game_by_name(session, game_name)
        done = repo.turn_by_number(session, game, number)
        new = repo.turn_by_number(session, game, number + 1)
        if new.status != "open":
            return None
        said = as_utc(new.deadline) if new.deadline else None
        result = next_deadlines(game, done, said, slide=slide, now=now)
        new.deadline, new.announcement_deadline = result.deadline, result.announcements
        session.add(new)
        zone = game.time_zone
        detail = (f"turn {new.number}: orders due "
                  f"{format_deadline(result.deadline, zone) or 'not set'} ({result.source})")
        if result.announcements:
            detail += f", announcements due {format_deadline(result.announcements, zone)}"
        level = "info"
        if said != result.deadline:
            # The turn runner printed its own date in the newsletters before we got here.
            detail += f"; the newsletter said {format_deadline(said, zone) or 'no deadline'}"
            level = "warning"
        repo.log_gm(session, "deadline.slid" if missed else "deadline.next", detail,
                    game=game, level=level)
        note_change(session)
    return result


# --- what happens at the deadlines -----------------------------------------------------


def _current(session: Session, game_name: str, number: int) -> tuple[Game, Turn] | None:
    """The game and its open turn, if that turn is still ``number`` and the game active."""
    game = repo.find_game(session, game_name)
    if game is None or game.status != "active":
        return None
    try:
        turn = repo.open_turn(session, game)
    except repo.NotFound:
        return None
    return (game, turn) if turn.number == number else None


def send_reminders(
    db: Engine, config: Config, game_name: str, number: int, *, now: datetime | None = None
) -> list[str]:
    """Remind the players who have sent no orders for turn ``number`` (once per turn)."""
    now = now or now_utc()
    with session_scope(db) as session:
        found = _current(session, game_name, number)
        if found is None:
            return []
        game, turn = found
        if turn.deadline is None or as_utc(turn.deadline) <= now:
            return []
        claimed = session.execute(
            update(Turn).where(Turn.id == turn.id, col(Turn.reminded_at).is_(None))
            .values(reminded_at=now)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            return []
        address = outgoing.game_address(config, game)
        deadline = format_deadline(turn.deadline, game.time_zone)
        sent = []
        for player in repo.players(session, game):
            if repo.submissions(session, player, turn.number):
                continue
            text = render(config.templates_dir, "mail/reminder.txt.j2", game=game,
                          player=player, turn=turn, deadline=deadline, address=address)
            outgoing.queue(session, config, game=game, kind="reminder", to=player.email,
                           subject=f"[{game.name}] Reminder: orders for {turn.label} due "
                                   f"{deadline}", text=text)
            sent.append(player.email)
        repo.log_gm(session, "reminders.sent",
                    f"turn {turn.number}: {len(sent)} without orders"
                    + (f" ({', '.join(sent)})" if sent else ""), game=game)
    return sent


def announcements_sent(session: Session, game: Game, number: int) -> bool:
    return session.exec(
        select(GmLog).where(
            GmLog.game_id == game.id, GmLog.event == "announcements.sent",
            col(GmLog.detail).startswith(f"turn {number}:"),
        )
    ).first() is not None


def send_announcements(
    db: Engine, config: Config, game_name: str, number: int, *, now: datetime | None = None
) -> int:
    """Mail the announcements gazette of turn ``number`` to every player (once)."""
    now = now or now_utc()
    with session_scope(db) as session:
        found = _current(session, game_name, number)
        if found is None:
            return 0
        game, turn = found
        if announcements_sent(session, game, number):
            return 0
        if turn.deadline is not None and as_utc(turn.deadline) <= now:
            return 0  # too late to be of use: the orders deadline has passed
        engine = find_engine(game.kind)
        template = f"{game.kind}/announcements.md.j2"
        if not (config.templates_dir / template).exists():
            return 0
        people = repo.players(session, game)
        roster = [(p, bool(repo.submissions(session, p, turn.number))) for p in people]
        subject = f"{engine.gazette_title}: announcements, {turn.label} ({game.name})"
        markdown = render(
            config.templates_dir, template, game=game, title=engine.gazette_title,
            turn=turn, roster=roster,
            deadline=format_deadline(turn.deadline, game.time_zone),
            announcements=format_deadline(turn.announcement_deadline, game.time_zone),
        )
        html = markdown_to_html(markdown, subject)
        session.add(Newsletter(game_id=game.id, turn_number=turn.number,  # type: ignore[arg-type]
                               kind="announcements", subject=subject, markdown=markdown,
                               html=html, text=markdown))
        list_id = f"<{game.name}.{config.moderator_address.replace('@', '.')}>"
        for player in people:
            outgoing.queue(session, config, game=game, kind="announcements", to=player.email,
                           subject=subject, text=markdown, html=html,
                           extra_headers=(("List-Id", f"{game.name} gazette {list_id}"),))
        repo.log_gm(session, "announcements.sent",
                    f"turn {turn.number}: to {len(people)} players", game=game)
    return len(people)


# --- the scheduler ---------------------------------------------------------------------


@dataclass
class Runtime:
    """What the jobs need in the process that runs them (jobs store only names)."""

    db: Engine
    config: Config
    log: Log = _no_log
    started_at: datetime = field(default_factory=now_utc)
    # Periods the service was not running: a deadline inside one was missed.
    outages: list[tuple[datetime, datetime]] = field(default_factory=list)
    retry_at: dict[tuple[str, int], datetime] = field(default_factory=dict)
    turn_lock: threading.Lock = field(default_factory=threading.Lock)
    on_change: Callable[[], None] | None = None

    def missed(self, deadline: datetime) -> bool:
        return any(start < deadline <= end for start, end in self.outages)


_runtime: Runtime | None = None


def _job_deadline(game_name: str, number: int) -> None:
    if _runtime is not None:
        run_due_turn(_runtime, game_name, number)


def _job_announcements(game_name: str, number: int) -> None:
    rt = _runtime
    if rt is not None:
        count = send_announcements(rt.db, rt.config, game_name, number)
        if count:
            rt.log("info", "announcements.sent", game=game_name, turn=number, players=count)
            _changed(rt)


def _job_reminder(game_name: str, number: int) -> None:
    rt = _runtime
    if rt is not None:
        sent = send_reminders(rt.db, rt.config, game_name, number)
        rt.log("info", "reminders.sent", game=game_name, turn=number, count=len(sent))
        if sent:
            _changed(rt)


def _changed(rt: Runtime) -> None:
    if rt.on_change is not None:
        rt.on_change()


def run_due_turn(rt: Runtime, game_name: str, number: int, *, now: datetime | None = None) -> bool:
    """The deadline job: run turn ``number`` if it is still open and due, exactly once."""
    from moderator.turns import TurnError, run_turn

    with rt.turn_lock:  # one turn at a time in this process
        now = now or now_utc()
        with Session(rt.db) as session:
            found = _current(session, game_name, number)
            if found is None or found[1].deadline is None:
                rt.log("info", "deadline.skipped", game=game_name, turn=number,
                       reason="not the open turn any more")
                return False
            deadline = as_utc(found[1].deadline)
        if deadline > now:
            return False  # moved later since the job was made; the next sync reschedules it
        missed = rt.missed(deadline)
        try:
            report = run_turn(rt.db, rt.config, game_name)
        except TurnError as exc:
            rt.log("info", "turn.skipped", game=game_name, turn=number, reason=str(exc))
            return False
        except Exception as exc:
            rt.retry_at[(game_name, number)] = now_utc() + RETRY_AFTER
            rt.log("error", "turn.failed", game=game_name, turn=number, error=repr(exc))
            with session_scope(rt.db) as session:
                repo.log_gm(session, "turn.failed", f"turn {number}: {exc!r}; retrying in "
                            f"{RETRY_AFTER}", game=repo.find_game(session, game_name),
                            level="error")
            return False
        rt.retry_at.pop((game_name, number), None)
        if missed:
            with session_scope(rt.db) as session:
                repo.log_gm(session, "deadline.missed",
                            f"turn {number}: deadline {format_deadline(deadline, 'UTC')} passed "
                            f"while the service was down; run late at {now:%Y-%m-%d %H:%M} UTC",
                            game=repo.find_game(session, game_name), level="warning")
        nxt = after_turn(rt.db, rt.config, game_name, report.number, missed=missed)
        rt.log("info", "turn.run", game=game_name, turn=report.number, label=report.label,
               events=report.events, late=missed,
               next_deadline=nxt.deadline.isoformat() if nxt and nxt.deadline else None)
    _changed(rt)
    return True


@dataclass(frozen=True)
class JobSpec:
    id: str
    func: Callable[..., None]
    run_date: datetime
    args: tuple[str, int]


def desired_jobs(db: Engine, config: Config, runtime: Runtime | None = None,
                 now: datetime | None = None) -> list[JobSpec]:
    """The jobs the database calls for now."""
    now = now or now_utc()
    specs: list[JobSpec] = []
    with Session(db) as session:
        for game in repo.games(session):
            if game.status != "active":
                continue
            try:
                turn = repo.open_turn(session, game)
            except repo.NotFound:
                continue
            if turn.deadline is None:
                continue
            args = (game.name, turn.number)
            deadline = as_utc(turn.deadline)
            retry = runtime.retry_at.get(args) if runtime else None
            specs.append(JobSpec(f"deadline:{game.name}", _job_deadline,
                                 max(deadline, retry) if retry else deadline, args))
            if deadline <= now:
                continue
            ann = turn.announcement_deadline
            template = config.templates_dir / game.kind / "announcements.md.j2"
            if (ann is not None and template.exists()
                    and not announcements_sent(session, game, turn.number)):
                specs.append(JobSpec(f"announcements:{game.name}", _job_announcements,
                                     as_utc(ann), args))
            if REMINDER_HOURS > 0 and turn.reminded_at is None:
                specs.append(JobSpec(f"reminder:{game.name}", _job_reminder,
                                     deadline - timedelta(hours=REMINDER_HOURS), args))
    return specs


def new_scheduler(db: Engine) -> Any:
    from apscheduler.executors.pool import ThreadPoolExecutor
    from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
    from apscheduler.schedulers.background import BackgroundScheduler

    return BackgroundScheduler(
        jobstores={"default": SQLAlchemyJobStore(engine=db)},
        executors={"default": ThreadPoolExecutor(2)},
        job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        timezone=UTC,
    )


def sync_jobs(scheduler: Any, db: Engine, config: Config, runtime: Runtime | None = None,
              now: datetime | None = None) -> dict[str, int]:
    """Make the job store match the database: add, replace and remove jobs."""
    from apscheduler.triggers.date import DateTrigger

    wanted = {spec.id: spec for spec in desired_jobs(db, config, runtime, now)}
    counts = {"added": 0, "removed": 0, "kept": 0}
    for job in scheduler.get_jobs():
        spec = wanted.get(job.id)
        if spec is None and job.id.split(":", 1)[0] in JOB_KINDS:
            scheduler.remove_job(job.id)
            counts["removed"] += 1
        elif spec is not None and (tuple(job.args) == spec.args
                                   and as_utc(job.trigger.run_date) == spec.run_date):
            wanted.pop(job.id)
            counts["kept"] += 1
    for spec in wanted.values():
        scheduler.add_job(spec.func, DateTrigger(run_date=spec.run_date, timezone=UTC),
                          args=list(spec.args), id=spec.id, name=spec.id,
                          replace_existing=True)
        counts["added"] += 1
    return counts


def note_change(session: Session) -> None:
    """Tell a running service (perhaps another process) that deadlines changed."""
    repo.set_status(session, CHANGED, now_utc().isoformat())


def scheduled(db: Engine) -> list[tuple[str, datetime | None]]:
    """The job store's jobs and their next run times, read without unpickling."""
    from sqlalchemy import inspect, text

    if not inspect(db).has_table("apscheduler_jobs"):
        return []
    with db.connect() as conn:
        rows = conn.execute(text("SELECT id, next_run_time FROM apscheduler_jobs "
                                 "ORDER BY next_run_time")).all()
    return [(row[0], datetime.fromtimestamp(row[1], UTC) if row[1] else None) for row in rows]


class DeadlineScheduler:
    """The service's scheduler: starts, notices outages, keeps the jobs in sync."""

    def __init__(self, db: Engine, config: Config, log: Log = _no_log) -> None:
        self.db, self.config, self.log = db, config, log
        self.scheduler = new_scheduler(db)
        self.runtime = Runtime(db, config, log, on_change=self.request_sync)
        self._sync_wanted = threading.Event()
        self._last_beat: datetime | None = None
        self._synced_at: datetime | None = None

    def start(self, now: datetime | None = None) -> None:
        global _runtime
        now = now or now_utc()
        self.runtime.started_at = now
        with session_scope(self.db) as session:
            beat = repo.service_status(session).get(HEARTBEAT)
            down_since = as_utc(beat.updated_at) if beat else None
            if down_since is not None and now - down_since > OUTAGE_AFTER:
                repo.log_gm(session, "service.outage",
                            f"not running from {down_since:%Y-%m-%d %H:%M} to "
                            f"{now:%Y-%m-%d %H:%M} UTC", level="warning")
                self.log("warning", "service.outage", since=down_since.isoformat(),
                         until=now.isoformat())
            repo.set_status(session, HEARTBEAT, now.isoformat())
        self._last_beat = now
        # Without a heartbeat, every deadline before this start was missed.
        self.runtime.outages.append((down_since or datetime.min.replace(tzinfo=UTC), now))
        _runtime = self.runtime
        self.scheduler.start(paused=True)
        self.sync()
        self.scheduler.resume()

    def request_sync(self) -> None:
        self._sync_wanted.set()

    def sync(self) -> dict[str, int]:
        self._sync_wanted.clear()
        self._synced_at = now_utc()
        counts = sync_jobs(self.scheduler, self.db, self.config, self.runtime)
        if counts["added"] or counts["removed"]:
            self.log("info", "jobs.synced", **counts,
                     jobs=" ".join(f"{job.id}@{as_utc(job.next_run_time):%Y-%m-%dT%H:%M:%SZ}"
                                   for job in self.scheduler.get_jobs() if job.next_run_time))
        self.scheduler.wakeup()
        return counts

    def heartbeat(self, now: datetime | None = None) -> None:
        now = now or now_utc()
        if self._last_beat is not None and now - self._last_beat > OUTAGE_AFTER:
            # The host slept, or this process was stopped: deadlines in the gap were missed.
            self.runtime.outages.append((self._last_beat, now))
            with session_scope(self.db) as session:
                repo.log_gm(session, "service.outage",
                            f"no heartbeat from {self._last_beat:%Y-%m-%d %H:%M} to "
                            f"{now:%Y-%m-%d %H:%M} UTC", level="warning")
            self.log("warning", "service.outage", since=self._last_beat.isoformat(),
                     until=now.isoformat())
        with session_scope(self.db) as session:
            repo.set_status(session, HEARTBEAT, now.isoformat())
        self._last_beat = now

    def run(self, stop: threading.Event, interval: float = SYNC_SECONDS,
            poll: float = CHANGE_POLL_SECONDS) -> None:
        """Heartbeat and re-sync every ``interval`` seconds; re-sync at once when a job
        asks, or within ``poll`` seconds of a command noting a change."""
        last_full = time.monotonic()
        while not stop.is_set():
            asked = self._sync_wanted.wait(poll)
            if stop.is_set():
                break
            due = time.monotonic() - last_full >= interval
            if due:
                self.heartbeat()
                last_full = time.monotonic()
            if asked or due or self._changed_elsewhere():
                self.sync()

    def _changed_elsewhere(self) -> bool:
        with Session(self.db) as session:
            row = session.get(ServiceStatus, CHANGED)
            changed = as_utc(row.updated_at) if row else None
        return changed is not None and (self._synced_at is None or changed >= self._synced_at)

    def wake(self) -> None:
        """Let `run` return promptly (called on shutdown)."""
        self._sync_wanted.set()

    def shutdown(self) -> None:
        global _runtime
        self.scheduler.shutdown(wait=True)
        with session_scope(self.db) as session:
            repo.set_status(session, HEARTBEAT, now_utc().isoformat())
        if _runtime is self.runtime:
            _runtime = None
