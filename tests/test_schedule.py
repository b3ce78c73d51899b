"""Deadlines: rules in the game's zone, the turn runner's next deadlines, the scheduler's
jobs, outages, reminders."""

from __future__ import annotations

import dataclasses
import threading
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.cli import cli
from moderator.clock import add_month, as_utc
from moderator.intake.process import process_message
from moderator.runners import job_entry, reminders, schedule
from moderator.runners.job_store import new_scheduler
from moderator.runners.schedule import DeadlineScheduler
from moderator.settings.config import Config
from moderator.settings.deadline_rule import Rule, ScheduleError
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import GmLog, Newsletter, Outbox, ServiceStatus, Turn
from moderator.turn import deadlines

from support import body_text, mailbox_messages, make_game, order_mail

PARIS = ZoneInfo("Europe/Paris")


def _utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def _paris(*args: int) -> datetime:
    return as_utc(datetime(*args, tzinfo=PARIS))


# --- rules ------------------------------------------------------------------------------


def test_monthly_rule_keeps_the_wall_clock_time_across_dst() -> None:
    rule = Rule(monthly_day=12, time="18:00")
    march = rule.next_after(_paris(2027, 3, 1), PARIS)
    april = rule.next_after(march, PARIS)
    assert march == _utc(2027, 3, 12, 17, 0)  # 18:00 CET
    assert april == _utc(2027, 4, 12, 16, 0)  # 18:00 CEST
    november = rule.next_after(_paris(2027, 10, 12, 18, 0), PARIS)
    assert november == _utc(2027, 11, 12, 17, 0)
    # "after" is strict: the deadline itself gives the next month's
    assert rule.next_after(april, PARIS) == _utc(2027, 5, 12, 16, 0)


def test_a_day_past_the_months_end_means_its_last_day() -> None:
    rule = Rule(monthly_day=31, time="20:30")
    assert rule.next_after(_paris(2027, 2, 1), PARIS) == _paris(2027, 2, 28, 20, 30)
    assert rule.next_after(_paris(2028, 2, 1), PARIS) == _paris(2028, 2, 29, 20, 30)
    assert rule.next_after(_paris(2027, 4, 1), PARIS) == _paris(2027, 4, 30, 20, 30)


def test_weekday_of_the_month_rule_in_the_games_zone() -> None:
    rule = Rule(week="2nd", weekday="sat", time="18:00")
    assert rule.next_after(_paris(2027, 3, 1), PARIS) == _paris(2027, 3, 13, 18, 0)
    assert rule.next_after(_paris(2027, 3, 13, 18, 0), PARIS) == _utc(2027, 4, 10, 16, 0)
    last = Rule(week="last", weekday="fri", time="20:00")
    assert last.next_after(_paris(2027, 10, 1), PARIS) == _paris(2027, 10, 29, 20, 0)


def test_a_weekday_rule_on_the_night_the_clocks_go_back_gives_one_deadline_that_night(
) -> None:
    """Protects a monthly game from a one-hour turn: "last sun at 02:30" on the night
    the clocks go back (31 October 2027) once gave the repeated 02:30 (CET) as the deadline
    after the first 02:30 (CEST), as APScheduler's cron trigger did; the next one is in
    November, as with a day-of-the-month rule.  The two change-over rules: a time that
    happens twice is the first; a time that does not exist is an hour later on the clock."""
    rule = Rule(week="last", weekday="sun", time="02:30")
    october = rule.next_after(_paris(2027, 10, 1), PARIS)
    assert october == _utc(2027, 10, 31, 0, 30)  # 02:30 CEST, the first of the two
    assert rule.next_after(october, PARIS) == _utc(2027, 11, 28, 1, 30)  # not 01:30 UTC on 31 Oct
    assert rule.next_after(_paris(2027, 3, 1), PARIS) == _utc(2027, 3, 28, 1, 30)  # 03:30 CEST
    monthly = Rule(monthly_day=31, time="02:30")
    assert monthly.next_after(october, PARIS) == _utc(2027, 11, 30, 1, 30)


def test_weekday_rules_pick_the_right_day_in_every_month() -> None:
    """The Nth and last weekday of a month, computed by the rule itself (month starting on
    that weekday, five of them in a month, February of a leap year, the year's end)."""
    assert Rule(week="1st", weekday="mon").next_after(_paris(2027, 1, 31), PARIS) \
        == _paris(2027, 2, 1, 18, 0)  # February 2027 starts on a Monday
    assert Rule(week="4th", weekday="tue").next_after(_paris(2028, 2, 1), PARIS) \
        == _paris(2028, 2, 22, 18, 0)
    assert Rule(week="last", weekday="tue").next_after(_paris(2028, 2, 1), PARIS) \
        == _paris(2028, 2, 29, 18, 0)  # leap day, the fifth Tuesday
    assert Rule(week="last", weekday="fri").next_after(_paris(2027, 12, 31, 18, 0), PARIS) \
        == _paris(2028, 1, 28, 18, 0)


def test_every_so_many_days_rule_keeps_the_time_across_dst() -> None:
    rule = Rule(every_days=14, time="18:00")
    assert rule.next_after(_paris(2027, 3, 20, 18, 0), PARIS) == _utc(2027, 4, 3, 16, 0)


def test_announcements_days_before_keep_the_time_of_day_across_dst() -> None:
    rule = Rule(monthly_day=30, time="18:00", announcements_days_before=4)
    deadline = rule.next_after(_paris(2027, 3, 1), PARIS)
    assert deadline == _utc(2027, 3, 30, 16, 0)  # CEST (DST began 28 March)
    assert rule.announcements_for(deadline, PARIS) == _utc(2027, 3, 26, 17, 0)  # CET


def test_rules_round_trip_and_refuse_nonsense() -> None:
    rule = Rule(monthly_day=12, time="18:00", announcements_days_before=4)
    assert Rule.from_json(rule.to_json()) == rule
    other = Rule(week="last", weekday="fri")
    assert Rule.from_json(other.to_json()) == other
    assert "day 12 at 18:00" in rule.describe()
    assert "the last fri" in other.describe()
    for bad in ({"monthly_day": 12, "time": "25:00"}, {"week": "5th", "weekday": "sat"},
                {"weekday": "sat"}, {"monthly_day": 0}, {}, {"monthly_day": 3, "every_days": 7},
                {"monthly_day": 3, "announcements_days_before": 40},
                {"every_days": 7, "announcements_days_before": 7}):
        with pytest.raises(ScheduleError):
            Rule(**bad)  # type: ignore[arg-type]


def test_deadline_commands_read_times_in_the_games_zone(config: Config, db: Engine) -> None:
    make_game(db, config)
    assert config.path is not None
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(cli, ["--config", str(config.path), *args],
                               catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    out = run("deadline", "set", "paris", "2027-07-12 18:00", "--announcements", "2027-07-08 18:00")
    assert "Monday 12 July 2027, 18:00 CEST" in out
    with Session(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "paris"))
        assert as_utc(turn.deadline) == _utc(2027, 7, 12, 16, 0)  # type: ignore[arg-type]
        assert as_utc(turn.announcement_deadline) == _utc(2027, 7, 8, 16, 0)  # type: ignore[arg-type]
    out = run("deadline", "rule", "paris", "--monthly-day", "12", "--time", "18:00",
              "--announcements-days-before", "4")
    assert "monthly on day 12 at 18:00" in out
    shown = run("deadline", "show", "paris", "--next", "2")
    assert "Thursday 12 August 2027, 18:00 CEST" in shown
    assert "Sunday 12 September 2027, 18:00 CEST" in shown
    result = runner.invoke(cli, ["--config", str(config.path), "deadline", "rule", "paris"])
    assert result.exit_code != 0


def _rule_game(db: Engine, config: Config) -> None:
    """paris with deadlines on 12 March 2027 and a rule: day 12 at 18:00, 4 days' notice."""
    make_game(db, config)
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        deadlines.set_deadlines(session, game, _paris(2027, 3, 12, 18, 0),
                                _paris(2027, 3, 8, 18, 0))
        game.schedule_json = Rule(monthly_day=12, time="18:00",
                                  announcements_days_before=4).to_json()


def _open_turn(db: Engine) -> Turn:
    with Session(db) as session:
        return repo.open_turn(session, repo.game_by_name(session, "paris"))


def test_a_rule_wins_over_same_day_next_month(config: Config, db: Engine) -> None:
    from moderator.turn.run import run_turn

    _rule_game(db, config)
    report = run_turn(db, config, "paris", now=_paris(2027, 3, 12, 18, 0))
    turn = _open_turn(db)
    # 18:00 CEST, not the 19:00 CEST that "same UTC time next month" would give
    assert as_utc(turn.deadline) == _utc(2027, 4, 12, 16, 0)  # type: ignore[arg-type]
    assert as_utc(turn.announcement_deadline) == _utc(2027, 4, 8, 16, 0)  # type: ignore[arg-type]
    assert report.next_deadlines.deadline == _utc(2027, 4, 12, 16, 0)
    assert report.next_deadlines.source.startswith("rule: monthly on day 12")
    log = _events(db, "deadline.next")
    assert len(log) == 1 and log[0].level == "info"
    assert "Monday 12 April 2027, 18:00 CEST" in log[0].detail
    assert "announcements due Thursday 08 April 2027, 18:00 CEST" in log[0].detail


def test_the_rules_deadline_is_printed_in_the_newsletters_and_rerun_is_identical(
    config: Config, db: Engine,
) -> None:
    _rule_game(db, config)
    assert config.path is not None
    runner = CliRunner()
    ran = runner.invoke(cli, ["--config", str(config.path), "turn", "run", "paris", "--yes"],
                        catch_exceptions=False)
    assert ran.exit_code == 0, ran.output
    assert "Next orders due Monday 12 April 2027, 18:00 CEST (rule: monthly on day 12" \
        in ran.output
    with Session(db) as session:
        printed = list(session.exec(select(Newsletter).where(Newsletter.turn_number == 1)))
    assert {n.kind for n in printed} == {"gazette", "turnsheet"}
    for newsletter in printed:
        assert "due Monday 12 April 2027, 18:00 CEST" in newsletter.markdown
    rerun = runner.invoke(cli, ["--config", str(config.path), "turn", "rerun", "paris", "1"],
                          catch_exceptions=False)
    assert rerun.exit_code == 0 and "byte-identical" in rerun.output


def test_without_a_rule_the_next_deadline_is_the_same_day_next_month(
    config: Config, db: Engine,
) -> None:
    from moderator.turn.rerun import rerun_turn
    from moderator.turn.run import run_turn

    make_game(db, config)
    with session_scope(db) as session:
        deadlines.set_deadlines(session, repo.game_by_name(session, "paris"),
                                _paris(2027, 1, 12, 18, 0), _paris(2027, 1, 8, 18, 0))
    report = run_turn(db, config, "paris", now=_paris(2027, 1, 12, 18, 0))
    turn = _open_turn(db)
    assert as_utc(turn.deadline) == _paris(2027, 2, 12, 18, 0)  # type: ignore[arg-type]
    assert as_utc(turn.announcement_deadline) == _paris(2027, 2, 8, 18, 0)  # type: ignore[arg-type]
    assert report.next_deadlines.source == "same day next month"
    assert rerun_turn(db, config, "paris", 1).identical


def test_without_a_rule_next_month_keeps_the_wall_clock_time_and_day_in_the_games_zone(
    config: Config, db: Engine,
) -> None:
    """Protects "same day next month" from drifting: it was computed in UTC, so 18:00
    CET in March became 19:00 CEST in April, and a game far east of UTC (Auckland,
    deadline 08:00 on the 1st, the evening before in UTC) moved to the 29th within
    months.  Now it is the same day and time in the game's zone; the 31st becomes the
    month's last day."""
    from moderator.turn.run import run_turn

    make_game(db, config)
    with session_scope(db) as session:
        deadlines.set_deadlines(session, repo.game_by_name(session, "paris"),
                                _paris(2027, 3, 12, 18, 0), _paris(2027, 3, 8, 18, 0))
    run_turn(db, config, "paris", now=_paris(2027, 3, 12, 18, 0))
    turn = _open_turn(db)
    assert as_utc(turn.deadline) == _utc(2027, 4, 12, 16, 0)  # type: ignore[arg-type]  # 18:00 CEST
    assert as_utc(turn.announcement_deadline) == _utc(2027, 4, 8, 16, 0)  # type: ignore[arg-type]
    auckland = ZoneInfo("Pacific/Auckland")
    first = as_utc(datetime(2027, 1, 1, 8, 0, tzinfo=auckland))  # 19:00 UTC on 31 December
    months = [first]
    for _ in range(4):
        months.append(add_month(months[-1], auckland))
    assert [(m.astimezone(auckland).day, m.astimezone(auckland).hour) for m in months] \
        == [(1, 8)] * 5  # NZDT to NZST in April: still 08:00 on the 1st
    assert add_month(_paris(2027, 1, 31, 18, 0), PARIS) == _paris(2027, 2, 28, 18, 0)
    assert add_month(_paris(2027, 12, 31, 23, 30), PARIS) == _paris(2028, 1, 31, 23, 30)


def test_a_missed_deadline_slides_the_next_ones(config: Config, db: Engine) -> None:
    from moderator.turn.rerun import rerun_turn
    from moderator.turn.run import run_turn

    _rule_game(db, config)
    run_turn(db, config, "paris", missed=True, now=_paris(2027, 3, 13, 9, 0))
    turn = _open_turn(db)
    slide = timedelta(hours=config.outage_slide_hours)
    assert as_utc(turn.deadline) == _utc(2027, 4, 12, 16, 0) + slide  # type: ignore[arg-type]
    assert as_utc(turn.announcement_deadline) == _utc(2027, 4, 8, 16, 0) + slide  # type: ignore[arg-type]
    slid = _events(db, "deadline.slid")
    assert len(slid) == 1 and "slid 24 h after an outage" in slid[0].detail
    assert not _events(db, "deadline.next")
    assert rerun_turn(db, config, "paris", 1).identical


def test_after_a_long_outage_the_next_deadline_is_never_in_the_past(
    config: Config, db: Engine,
) -> None:
    from moderator.turn.run import run_turn

    _rule_game(db, config)
    now = _paris(2027, 4, 20, 9, 0)  # past the rule's April date too
    run_turn(db, config, "paris", missed=True, now=now)
    slide = timedelta(hours=config.outage_slide_hours)
    assert as_utc(_open_turn(db).deadline) == _utc(2027, 5, 12, 16, 0) + slide  # type: ignore[arg-type]


def test_after_a_long_outage_an_every_days_rule_stays_on_its_days(
    config: Config, db: Engine,
) -> None:
    """Protects a fortnightly game's rhythm: after an outage longer than the period the
    next deadline was 14 days from the day the service came back, a new series; it is the
    rule's first date still to come (deadline + 28 days), plus the slide."""
    from moderator.turn.run import run_turn

    make_game(db, config)
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        deadlines.set_deadlines(session, game, _paris(2027, 3, 6, 20, 0))
        game.schedule_json = Rule(every_days=14, time="20:00").to_json()
    run_turn(db, config, "paris", missed=True, now=_paris(2027, 3, 26, 9, 0))  # 20 days on
    slide = timedelta(hours=config.outage_slide_hours)
    assert as_utc(_open_turn(db).deadline) == _paris(2027, 4, 3, 20, 0) + slide  # type: ignore[arg-type]


def test_without_a_rule_a_long_outage_gives_one_catch_up_turn_not_one_a_month(
    config: Config, db: Engine,
) -> None:
    """Protects a game without a rule from a cascade after a long outage: the next
    deadline was the same day next month even when that had passed too, so the service
    ran one turn for each missed month, back to back, with no time to send orders.  It
    is now the first month whose date (with the slide) is still to come."""
    from moderator.turn.run import run_turn

    make_game(db, config)
    with session_scope(db) as session:
        deadlines.set_deadlines(session, repo.game_by_name(session, "paris"),
                                _paris(2027, 1, 12, 18, 0), _paris(2027, 1, 8, 18, 0))
    run_turn(db, config, "paris", missed=True, now=_paris(2027, 4, 20, 9, 0))
    slide = timedelta(hours=config.outage_slide_hours)
    turn = _open_turn(db)
    assert as_utc(turn.deadline) == _paris(2027, 5, 12, 18, 0) + slide  # type: ignore[arg-type]
    assert as_utc(turn.announcement_deadline) == _paris(2027, 5, 8, 18, 0) + slide  # type: ignore[arg-type]


def test_run_turn_refuses_another_turns_number(config: Config, db: Engine) -> None:
    from moderator.turn.run import TurnError, run_turn

    make_game(db, config)
    with pytest.raises(TurnError, match="not the open turn"):
        run_turn(db, config, "paris", number=2)
    assert run_turn(db, config, "paris", number=1).number == 1
    with pytest.raises(TurnError):
        run_turn(db, config, "paris", number=1)  # a scheduler job after a GM's `turn run`
    assert [t.status for t in _turns(db)] == ["done", "open"]


# --- the scheduler ----------------------------------------------------------------------


def _set(db: Engine, deadline: datetime, announcements: datetime | None = None) -> None:
    with session_scope(db) as session:
        deadlines.set_deadlines(session, repo.game_by_name(session, "paris"), deadline,
                               announcements)


def _turns(db: Engine) -> list[Turn]:
    with Session(db) as session:
        return list(session.exec(select(Turn).order_by(Turn.number)))


def _events(db: Engine, event: str) -> list[GmLog]:
    with Session(db) as session:
        return list(session.exec(select(GmLog).where(GmLog.event == event)))


def _wait_for(check, seconds: float = 90.0) -> None:  # type: ignore[no-untyped-def]
    """Wait for a condition, generously: on a loaded machine a turn run by the
    scheduler's thread takes many times what it takes on an idle one."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


@pytest.fixture
def scheduler(db: Engine, config: Config):  # type: ignore[no-untyped-def]
    """Start a DeadlineScheduler with its sync loop in a thread, as `serve` does."""
    made: list[tuple[DeadlineScheduler, threading.Event, threading.Thread]] = []

    def start(now: datetime | None = None) -> DeadlineScheduler:
        # Its log lines, as (event, fields), in `s.logged`.
        logged: list[tuple[str, dict[str, object]]] = []
        s = DeadlineScheduler(db, config, lambda _level, event, **fields: logged.append(
            (event, fields)))
        s.logged = logged  # type: ignore[attr-defined]
        s.start(now, sync=False)  # as `serve`: the loop does the first sync
        stop = threading.Event()
        loop = threading.Thread(target=s.run, args=(stop,), kwargs={"poll": 0.2}, daemon=True)
        loop.start()
        made.append((s, stop, loop))
        assert s.synced.wait(120), "the first sync did not happen"
        original = s.shutdown

        def shutdown() -> None:
            stop.set()
            s.wake()
            loop.join(60)  # at once when idle; a sync under way ends first (seconds loaded)
            original()

        s.shutdown = shutdown  # type: ignore[method-assign]
        return s

    yield start
    for s, _stop, _loop in made:
        if s.scheduler.running:
            s.shutdown()


def test_the_deadline_job_runs_the_turn_once(db: Engine, config: Config, scheduler) -> None:  # type: ignore[no-untyped-def]
    make_game(db, config)
    deadline = datetime.now(UTC) + timedelta(seconds=1.5)
    _set(db, deadline)
    running = scheduler()
    # The first sync made the job: read in its log line, not in the job store, where a
    # sync that ended after the deadline (a loaded machine) left nothing to see, the job
    # having fired and left the store at once.
    synced = [fields["jobs"] for event, fields in running.logged if event == "jobs.synced"]
    assert f"deadline:paris@{deadline:%Y-%m-%dT%H:%M:%SZ}" in str(synced[0])
    _wait_for(lambda: len(_turns(db)) == 2)
    _wait_for(lambda: any(j.id == "deadline:paris" for j in running.scheduler.get_jobs()))
    # A second sync, and the old job firing again, change nothing.
    running.sync()
    assert not schedule.run_due_turn(running.runtime, "paris", 1)
    assert [t.status for t in _turns(db)] == ["done", "open"]
    assert len(_events(db, "turn.run")) == 1
    assert not _events(db, "deadline.missed")
    new = _turns(db)[1]
    assert as_utc(new.deadline) == add_month(deadline, PARIS)  # type: ignore[arg-type]
    job = running.scheduler.get_job("deadline:paris")
    assert job.args == ("paris", 2) or list(job.args) == ["paris", 2]


def test_a_deadline_missed_while_down_runs_once_at_start_and_slides_the_next(
    db: Engine, config: Config, scheduler,  # type: ignore[no-untyped-def]
) -> None:
    make_game(db, config)
    now = datetime.now(UTC)
    missed = now - timedelta(hours=2)
    _set(db, missed)
    with session_scope(db) as session:  # the service was last alive three hours ago
        session.add(ServiceStatus(key=schedule.HEARTBEAT, value="", updated_at=now
                                  - timedelta(hours=3)))
    first = scheduler()
    _wait_for(lambda: len(_turns(db)) == 2)
    _wait_for(lambda: bool(_events(db, "deadline.slid")))
    first.shutdown()
    # A restart right away (no outage now) runs nothing more.
    again = scheduler()
    again.sync()
    time.sleep(0.5)
    again.shutdown()

    turns = _turns(db)
    assert [t.status for t in turns] == ["done", "open"]
    assert len(_events(db, "turn.run")) == 1
    slide = timedelta(hours=config.outage_slide_hours)
    assert as_utc(turns[1].deadline) == add_month(missed, PARIS) + slide  # type: ignore[arg-type]
    assert [e.level for e in _events(db, "service.outage")] == ["warning"]
    assert "down" in _events(db, "deadline.missed")[0].detail
    assert "slid 24 h after an outage" in _events(db, "deadline.slid")[0].detail


def test_a_failing_turn_is_logged_and_retried_later(
    db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import moderator.runners.jobs

    make_game(db, config)
    _set(db, datetime.now(UTC) - timedelta(minutes=1))

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("engine on fire")

    monkeypatch.setattr(moderator.runners.jobs, "run_turn", broken)
    runtime = schedule.Runtime(db, config)
    assert not schedule.run_due_turn(runtime, "paris", 1)
    assert _events(db, "turn.failed")[0].level == "error"
    spec = next(s for s in schedule.desired_jobs(db, config, runtime) if s.id == "deadline:paris")
    assert spec.run_date > datetime.now(UTC) + timedelta(minutes=9)


def test_jobs_follow_the_database(db: Engine, config: Config) -> None:
    make_game(db, config)
    now = datetime.now(UTC)
    assert schedule.desired_jobs(db, config, now=now) == []
    _set(db, now + timedelta(days=5), now + timedelta(days=2))
    jobs = {s.id: s.run_date for s in schedule.desired_jobs(db, config, now=now)}
    assert jobs == {
        "deadline:paris": now + timedelta(days=5),
        "announcements:paris": now + timedelta(days=2),
        "reminder:paris": now + timedelta(days=5, hours=-config.reminder_hours),
    }
    no_reminders = dataclasses.replace(config, reminder_hours=0)
    assert "reminder:paris" not in {s.id for s in schedule.desired_jobs(db, no_reminders, now=now)}
    with session_scope(db) as session:
        repo.game_by_name(session, "paris").status = "paused"
    assert schedule.desired_jobs(db, config, now=now) == []


# --- reminders and announcements ------------------------------------------------------------


def test_reminders_go_only_to_players_without_orders_and_only_once(
    db: Engine, config: Config,
) -> None:
    setup = make_game(db, config)
    now = datetime.now(UTC)
    _set(db, now + timedelta(hours=20))
    jacques = setup.players[0]
    result = process_message(db, config, order_mail(jacques[0], f"PASSWORD: {jacques[2]}\n"
                                                    "WEEK 1: PRACTICE rapier\n"))
    assert result.status == "accepted"
    sent = reminders.send_reminders(db, config, "paris", 1)
    assert sorted(sent) == sorted(p[0] for p in setup.players[1:])
    assert reminders.send_reminders(db, config, "paris", 1) == []
    assert reminders.send_reminders(db, config, "paris", 2) == []
    assert all(s.id != "reminder:paris" for s in schedule.desired_jobs(db, config))
    with Session(db) as session:
        rows = list(session.exec(select(Outbox).where(Outbox.kind == "reminder")))
    assert sorted(r.to_addr for r in rows) == sorted(sent)
    from moderator.runners.outgoing import deliver_outbox

    deliver_outbox(db, config)
    [reminder] = [m for m in mailbox_messages(config, setup.players[1][0])
                  if "Reminder" in m["Subject"]]
    text = body_text(reminder)
    assert "no orders from you yet for April 1625" in text
    assert not [m for m in mailbox_messages(config, jacques[0]) if "Reminder" in m["Subject"]]


def test_no_reminder_after_the_deadline(db: Engine, config: Config) -> None:
    make_game(db, config)
    _set(db, datetime.now(UTC) - timedelta(minutes=5))
    assert reminders.send_reminders(db, config, "paris", 1) == []


def test_the_announcements_gazette_goes_to_every_player_once(db: Engine, config: Config) -> None:
    setup = make_game(db, config)
    now = datetime.now(UTC)
    _set(db, now + timedelta(days=4), now - timedelta(minutes=1))
    jacques = setup.players[0]
    process_message(db, config, order_mail(jacques[0], f"PASSWORD: {jacques[2]}\n"
                                           "WEEK 1: PRACTICE rapier\n"))
    assert reminders.send_announcements(db, config, "paris", 1) == len(setup.players)
    assert reminders.send_announcements(db, config, "paris", 1) == 0
    with Session(db) as session:
        gazette = session.exec(select(Newsletter).where(Newsletter.kind == "announcements")).one()
    assert "Le Sport de Paris" in gazette.markdown
    assert "| Jacques de Lyon | received |" in gazette.markdown
    assert "| Cyrano de Bergerac | not yet |" in gazette.markdown
    assert "1 of 3 have sent orders" in gazette.markdown
    assert all(s.id != "announcements:paris" for s in schedule.desired_jobs(db, config))


def test_a_due_turn_waits_for_intake_to_read_the_orders_that_came_in_time(
    db: Engine, config: Config,
) -> None:
    """Protects orders that reached the mail server before the deadline while the service
    was down: on its return the deadline job ran the turn at once, before intake had read
    them, and they went to the next turn.  Now the due turn waits (looking again every few
    seconds) until intake has emptied the inbox in a pass begun after the turn became due."""
    import json
    import os

    from moderator.runners.incoming import Incoming
    from moderator.runners.jobs import INBOX_RECHECK, Runtime
    from moderator.transport import open_inbox
    from moderator.transport.maildir import open_maildir

    make_game(db, config)
    deadline = _utc(2027, 3, 12, 17, 0)
    _set(db, deadline)
    key = open_maildir(config.maildir_inbox).add(order_mail(
        "jacques@lyon.example", "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"))
    before = int((deadline - timedelta(minutes=10)).timestamp() * 1e9)
    os.utime(config.maildir_inbox / "new" / key, ns=(before, before))
    back = deadline + timedelta(hours=2)  # the service returns two hours late
    clock = [back]
    incoming = Incoming(db, config, open_inbox(config), clock=lambda: clock[0])
    rt = Runtime(db, config, inbox_emptied=lambda: incoming.last_emptied)

    assert not schedule.run_due_turn(rt, "paris", 1, now=back)  # intake not there yet
    assert rt.retry_at[("paris", 1)] == back + INBOX_RECHECK
    assert [t.status for t in _turns(db)] == ["open"]
    clock[0] = back + timedelta(seconds=1)
    assert [r.status for r in incoming.read_once()] == ["accepted"]
    assert schedule.run_due_turn(rt, "paris", 1, now=back + INBOX_RECHECK)
    done = _turns(db)[0]
    assert len(json.loads(done.inputs_json or "{}")) == 1  # Jacques's orders were used
    assert not _events(db, "deadline.inbox")


def test_a_due_turn_runs_anyway_when_intake_cannot_read_the_inbox(
    db: Engine, config: Config,
) -> None:
    """An inbox that stays away (a server down) holds a due turn back for `INBOX_WAIT` at
    most; then it runs, and the GM log says mail still waiting goes to the next turn."""
    from moderator.runners.jobs import INBOX_WAIT, Runtime

    make_game(db, config)
    deadline = _utc(2027, 3, 12, 17, 0)
    _set(db, deadline)
    rt = Runtime(db, config, inbox_emptied=lambda: deadline - timedelta(hours=1))
    assert not schedule.run_due_turn(rt, "paris", 1, now=deadline)
    assert not schedule.run_due_turn(rt, "paris", 1, now=deadline + INBOX_WAIT / 2)
    assert schedule.run_due_turn(rt, "paris", 1, now=deadline + INBOX_WAIT)
    assert [t.status for t in _turns(db)] == ["done", "open"]
    warned = _events(db, "deadline.inbox")
    assert len(warned) == 1 and warned[0].level == "warning" and "turn 2" in warned[0].detail


def test_a_wall_clock_jump_is_no_outage_but_a_sleeping_host_is(
    db: Engine, config: Config,
) -> None:
    """Protects deadlines from a clock being set (NTP stepping it, a GM fixing the date)
    while `serve` runs: a 10-minute jump between two beats counted as an outage, so a
    deadline in it was "missed" and the next turn's deadlines slid a day.  A gap is an
    outage only when the steady clock (CLOCK_BOOTTIME, which runs while the host sleeps)
    saw it too."""
    s = DeadlineScheduler(db, config)
    steady = [1000.0]
    s.steady = lambda: steady[0]
    logged: list[str] = []
    s.log = lambda level, event, **fields: logged.append(event)  # type: ignore[method-assign]
    start = _utc(2027, 3, 12, 16, 55)
    s.start(start - timedelta(minutes=15), sync=False)
    s.scheduler.shutdown(wait=False)
    for beat in range(1, 31):  # beating every 30 s for 15 minutes, past boot-time settling
        steady[0] += 30
        s.heartbeat(start - timedelta(minutes=15) + beat * timedelta(seconds=30))
    steady[0] += 30
    s.heartbeat(start + timedelta(minutes=10))  # the wall clock jumped 10 minutes
    assert s.runtime.outages == [] and "clock.jumped" in logged
    assert not s.runtime.missed(_utc(2027, 3, 12, 17, 0))
    assert not _events(db, "service.outage")
    steady[0] += 600
    s.heartbeat(start + timedelta(minutes=20))  # the host slept 10 minutes
    assert s.runtime.outages == [(start + timedelta(minutes=10), start + timedelta(minutes=20))]
    assert len(_events(db, "service.outage")) == 1


def test_a_clock_set_as_the_host_boots_still_shows_the_downtime_it_hid(
    db: Engine, config: Config,
) -> None:
    """A board without a real-time clock starts at the time it last saved, so the start
    sees no outage; when NTP then sets the clock (within minutes of the start) the jump
    is the downtime, and counts as an outage: deadlines in it were missed."""
    s = DeadlineScheduler(db, config)
    steady = [50.0]
    s.steady = lambda: steady[0]
    saved = _utc(2027, 3, 12, 8, 0)  # the clock the board started with
    s.start(saved, sync=False)
    s.scheduler.shutdown(wait=False)
    steady[0] += 40
    s.heartbeat(_utc(2027, 3, 13, 9, 0))  # NTP set it: it was off a day
    assert s.runtime.missed(_utc(2027, 3, 12, 17, 0))
    assert len(_events(db, "service.outage")) == 1


@pytest.mark.parametrize("name", ["_job_deadline", "_job_announcements", "_job_reminder"])
def test_a_job_stored_under_the_old_reference_still_loads(db: Engine, name: str) -> None:
    """Jobs stored before the entry points moved to `moderator.runners.job_entry` name
    them in `moderator.runners.schedule`; such a job loads and calls the entry point."""
    scheduler = new_scheduler(db)
    scheduler.start(paused=True)
    try:
        scheduler.add_job(f"moderator.runners.schedule:{name}", "date",
                          run_date=datetime(2030, 1, 1, tzinfo=UTC), args=["paris", 1],
                          id=f"x:{name}")
        [job] = [j for j in scheduler.get_jobs() if j.id == f"x:{name}"]
        assert job.func is getattr(job_entry, name.removeprefix("_"))
    finally:
        scheduler.shutdown(wait=False)
