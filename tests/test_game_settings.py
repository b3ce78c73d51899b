"""Per-game settings in config.toml ([games.NAME]): validated at load with file and key,
and acted on by the scheduler and the turn runner."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import Session

from moderator import jsonio
from moderator.intake.process import process_message
from moderator.runners.schedule import desired_jobs
from moderator.settings.config import ConfigError, load_config
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.turn.deadlines import set_deadlines
from moderator.turn.inputs import accepted_late, active_players
from moderator.turn.run import run_turn

from support import absent_porthos, gazette_of, make_game, order_mail, write_config

FULL = """
[games.paris]
kind = "engarde"
time_zone = "America/Montreal"
deadlines = 1
early_run = true
early_run_delay_minutes = 15
reminder_hours = [72, 24]
grace_hours = 6
late_orders = "accept"
nmr_limit = 2
nmr_action = "remove"
absences = true
absence_max_days = 14
press = true
anonymous_press = false
alias_press = false
press_moderation = true
joining = "closed"
[games.paris.deadline]
monthly_day = 12
time = "20:00"
[games.paris.tables.rules.status]
min_sl = 2
"""


def _load(tmp_path: Path, extra: str):  # type: ignore[no-untyped-def]
    path = write_config(tmp_path)
    path.write_text(path.read_text() + extra)
    return path, load_config(path)


def test_every_per_game_setting_loads(tmp_path: Path) -> None:
    _path, config = _load(tmp_path, FULL)
    s = config.game("paris")
    assert (s.kind, s.time_zone, s.deadlines, s.early_run, s.reminder_hours) == (
        "engarde", "America/Montreal", 1, True, [72, 24])
    assert (s.nmr_limit, s.nmr_action, s.press_moderation, s.joining) == (2, "remove", True,
                                                                          "closed")
    assert s.deadline == {"monthly_day": 12, "time": "20:00"}
    assert config.game("other").early_run is False  # defaults for a game without a section


@pytest.mark.parametrize(("extra", "named"), [
    ("deadlines = 3", "games.paris.deadlines must be 1 or 2"),
    ("early_run = \"yes\"", "games.paris.early_run must be bool"),
    ("late_orders = \"maybe\"", "games.paris.late_orders must be one of"),
    ("nmr_action = \"shoot\"", "games.paris.nmr_action must be one of"),
    ("reminder_hours = [24, -1]", "games.paris.reminder_hours must be a list"),
    ("time_zone = \"Mars/Olympus\"", "games.paris.time_zone 'Mars/Olympus' is not an IANA"),
    ("absence_max_days = 0", "games.paris.absence_max_days must be at least 1"),
    ("joining = \"invite\"", "games.paris.joining must be one of"),
    ("presss = true", "unknown setting 'games.paris.presss'"),
    ("[games.paris.deadline]\nmonthly_day = 40", "games.paris.deadline: the day of the month"),
    ("[games.paris.deadline]\nday = 4", "games.paris.deadline.day: no such key"),
    # A wrong type ended in a traceback (time = 1800), a Python message naming no key
    # ("12"), or was taken as a day (true is 1).
    ("[games.paris.deadline]\nevery_days = 14\ntime = 1800",
     "games.paris.deadline.time must be str, not 1800"),
    ("[games.paris.deadline]\nmonthly_day = \"12\"",
     "games.paris.deadline.monthly_day must be int, not '12'"),
    ("[games.paris.deadline]\nmonthly_day = true",
     "games.paris.deadline.monthly_day must be int, not True"),
    ("[games.paris.deadline]\nevery_days = 14.5",
     "games.paris.deadline.every_days must be int, not 14.5"),
    # Checked only with table overrides: `game new` found it, long after the file loaded.
    ("kind = \"chess\"", "games.paris.kind 'chess' is no game (known: engarde, dwtk, fief)"),
    # [games.Paris] and [games.paris] are one game: the second silently replaced the first.
    ("[games.Paris]\nearly_run = true", "games.Paris repeats another [games.NAME] section"),
])
def test_a_broken_setting_is_refused_with_file_and_key(tmp_path: Path, extra: str,
                                                       named: str) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "[games.paris]\n" + extra + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert any(str(path) in p and named in p for p in caught.value.problems), caught.value


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "[games.paris]\ndeadlines = 0\npress = 1\n"
                    "joining = \"x\"\n[games.paris.tables.clubz]\nx = 1\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert len(caught.value.problems) == 4


def test_a_new_game_takes_its_zone_rule_and_single_deadline(tmp_path: Path) -> None:
    _path, config = _load(tmp_path, FULL)
    db = open_store(config.database_url)
    with pytest.raises(Exception, match="closed to new players"):
        make_game(db, config)
    with session_scope(db) as session:
        from moderator.desk import admin

        game = admin.create_game(session, config, "paris", "engarde", seed=1)
        admin.add_player(session, config, "paris", "a@b.example", "Athos", force=True)
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        turn = repo.open_turn(session, game)
        assert game.time_zone == "America/Montreal" and '"monthly_day": 12' in game.schedule_json
        local = turn.deadline.astimezone(game_zone(game))
        assert (local.day, local.hour) == (12, 20) and turn.announcement_deadline is None


def game_zone(game):  # type: ignore[no-untyped-def]
    from zoneinfo import ZoneInfo

    return ZoneInfo(game.time_zone)


EARLY = """
[games.paris]
early_run = true
early_run_delay_minutes = 15
grace_hours = 6
reminder_hours = [72, 24]
"""


def test_early_run_grace_and_reminders_in_the_schedule(tmp_path: Path) -> None:
    _path, config = _load(tmp_path, EARLY)
    db = open_store(config.database_url)
    setup = make_game(db, config)
    deadline = datetime.now(UTC) + timedelta(days=10)
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"), deadline)
    jobs = {j.id: j.run_date for j in desired_jobs(db, config)}
    assert jobs["deadline:paris"] == deadline + timedelta(hours=6)  # grace
    assert jobs["reminder:paris"] == deadline - timedelta(hours=72)  # the first reminder
    sent = datetime.now(UTC)
    for email, _name, password in setup.players:
        process_message(db, config, order_mail(email, f"PASSWORD: {password}\n"
                                               "WEEK 1: PRACTICE rapier\n"), now=sent)
    jobs = {j.id: j.run_date for j in desired_jobs(db, config)}
    assert jobs["deadline:paris"] == sent + timedelta(minutes=15)  # early: all orders in


NMR = """
[games.paris]
nmr_limit = 2
nmr_action = "civil-disorder"
"""


def _nmr_game(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The paris game of three players under the NMR settings above: (store, config)."""
    _path, config = _load(tmp_path, NMR)
    db = open_store(config.database_url)
    make_game(db, config)
    return db, config


def test_nmr_policy_puts_a_player_in_civil_disorder_absence_excused(tmp_path: Path) -> None:
    db, config = _nmr_game(tmp_path)
    absent_porthos(db)
    for _ in range(2):
        process_message(db, config, order_mail("jacques@lyon.example",
                                               "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"))
        run_turn(db, config, "paris")
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        status = {p.email: (p.status, p.missed_turns) for p in repo.players(session, game)}
        gazette3 = None
    assert status["jacques@lyon.example"] == ("active", 0)
    assert status["cyrano@bergerac.example"] == ("civil-disorder", 2)
    assert status["porthos@musket.example"] == ("active", 0)  # absent: excused
    run_turn(db, config, "paris")
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        gazette3 = gazette_of(db, 3)
        assert accepted_late(session, game, 3) == set()
    assert "Cyrano de Bergerac is in civil disorder" in gazette3.markdown


def test_a_dead_character_s_player_owes_no_orders(tmp_path: Path) -> None:
    """Reference §5.5: the dead take no further part, so their players are not missing
    orders: not counted by the NMR policy, not reminded (`active_players`), not listed as
    NMR, and their sheets carry no no-orders notice.  Found by the play audit: a dead
    man's player fell into civil disorder and was told each month he had sent nothing."""
    db, config = _nmr_game(tmp_path)
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        porthos = repo.player_by_email(session, game, "porthos@musket.example")
        turn = repo.open_turn(session, game)
        state = jsonio.loads(turn.state_before)
        state["characters"][porthos.character_key]["dead"] = True
        turn.state_before = jsonio.dumps(state)
        set_deadlines(session, game, datetime.now(UTC) + timedelta(days=1))
        owing = {p.email for p in active_players(session, game, turn, datetime.now(UTC))}
    assert owing == {"jacques@lyon.example", "cyrano@bergerac.example"}
    reports = [run_turn(db, config, "paris") for _ in range(2)]
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        status = {p.email: (p.status, p.missed_turns) for p in repo.players(session, game)}
        porthos = repo.player_by_email(session, game, "porthos@musket.example")
        sheets = [n.markdown for n in repo.newsletters(session, game, 2, porthos)
                  if n.kind == "turnsheet"]
    assert status["porthos@musket.example"] == ("active", 0)
    assert status["cyrano@bergerac.example"] == ("civil-disorder", 2)
    assert all(porthos.character_key not in r.no_orders_from for r in reports)
    assert sheets and all("No orders from you" not in md for md in sheets)


def test_config_toml_documents_every_per_game_setting(tmp_path: Path) -> None:
    """The commented [games.paris] example in config.toml names every key and loads."""
    from moderator.settings.game import GAME_SETTINGS

    from support import ROOT

    text = (ROOT / "config.toml").read_text(encoding="utf-8")
    example = text[text.index("# [games.paris]"):].splitlines()
    body = "\n".join(line[2:] for line in example
                     if line.startswith("# ") and ("=" in line or line.startswith("# [")))
    for setting in GAME_SETTINGS:
        assert f"\n{setting.key} = " in f"\n{body}", f"{setting.key} is not documented"
    _path, config = _load(tmp_path, body)
    assert config.game("paris").deadline["monthly_day"] == 12


def test_the_readme_example_section_loads(tmp_path: Path) -> None:
    import re

    from support import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(\[games\.paris\].*?)```", readme, re.S)
    assert block is not None
    _path, config = _load(tmp_path, block.group(1))
    assert config.game("paris").press_moderation is True


REMOVE = """
[games.paris]
nmr_limit = 1
nmr_action = "remove"
"""


def test_a_rollback_undoes_what_the_nmr_policy_did_in_the_undone_turns(tmp_path: Path) -> None:
    """Cyrano is removed after a month without orders; rolling that month back brings
    him back, and rolling forward again removes him again (the replay counts misses)."""
    from moderator.desk.rollback import rollback, rollforward

    _path, config = _load(tmp_path, REMOVE)
    db = open_store(config.database_url)
    make_game(db, config)
    for email, password in (("jacques@lyon.example", "rapier"),
                            ("porthos@musket.example", "wine")):
        process_message(db, config, order_mail(email, f"PASSWORD: {password}\n"
                                               "WEEK 1: PRACTICE rapier\n"))
    run_turn(db, config, "paris")

    def cyrano() -> tuple[str, int]:
        with Session(db) as session:
            game = repo.game_by_name(session, "paris")
            player = repo.player_by_email(session, game, "cyrano@bergerac.example")
            return player.status, player.missed_turns

    assert cyrano() == ("removed", 1)
    with session_scope(db) as session:
        rollback(session, repo.game_by_name(session, "paris"), 1, "gm", "his mail was lost")
    assert cyrano() == ("active", 0)
    with session_scope(db) as session:
        rollforward(session, config, repo.game_by_name(session, "paris"), "gm", "replay")
    assert cyrano() == ("removed", 1)


def test_game_settings_shows_each_setting_and_its_value(tmp_path: Path) -> None:
    """`game settings` lists every setting with its value: nothing more (every setting
    is acted on; the column that said so, or "stored only", is gone)."""
    from click.testing import CliRunner

    from moderator.cli import cli
    from moderator.settings.game import GAME_SETTINGS

    path, config = _load(tmp_path, FULL)
    result = CliRunner().invoke(cli, ["--config", str(path), "game", "settings", "paris"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in result.output.splitlines() if line.count("│") == 3}
    values = config.game("paris").effective()
    assert rows == {**{s.key: repr(values[s.key]) for s in GAME_SETTINGS},
                    "deadline": repr({"monthly_day": 12, "time": "20:00"}), "tables": "rules"}
    [header] = [line for line in result.output.splitlines() if "┃" in line]
    assert [cell.strip() for cell in header.split("┃")[1:-1]] == ["setting", "value"]


@pytest.mark.parametrize(("service", "hours"), [(48, [48]), (0, [])])
def test_game_settings_shows_the_reminders_the_game_gets(tmp_path: Path, service: int,
                                                        hours: list[int]) -> None:
    """A game whose section does not set reminder_hours is reminded at ``[service]
    reminder_hours`` (runners.reminders): `game settings` shows those hours, not the
    [24] of the declaration (which showed [24] for a host with reminders off)."""
    from click.testing import CliRunner

    from moderator.cli import cli
    from moderator.runners.reminders import reminder_hours

    path, config = _load(tmp_path, f"[service]\nreminder_hours = {service}\n"
                                   "[games.paris]\nkind = \"engarde\"\n")
    result = CliRunner().invoke(cli, ["--config", str(path), "game", "settings", "paris"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    [row] = [line for line in result.output.splitlines() if "│ reminder_hours" in line]
    assert row.split("│")[2].strip().startswith(repr(hours)), row
    assert "[service]" in row
    db = open_store(config.database_url)
    make_game(db, config)
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert reminder_hours(config, game) == config.reminder_hours_of("paris") == hours


def test_game_new_takes_the_kind_from_the_games_section(tmp_path: Path) -> None:
    """config.toml's ``kind`` names the game: `game new NAME` needs no --kind then (it
    was required, the section's kind only a check); without either it says what to add."""
    from click.testing import CliRunner

    from moderator.cli import cli

    path, _config = _load(tmp_path, '[games.kings]\nkind = "dwtk"\n')
    made = CliRunner().invoke(cli, ["--config", str(path), "game", "new", "kings"])
    assert made.exit_code == 0, made.output
    assert "Created dwtk game kings" in made.output
    bare = CliRunner().invoke(cli, ["--config", str(path), "game", "new", "lyon"])
    assert bare.exit_code == 2
    assert "--kind" in bare.output and "[games.lyon]" in bare.output


def test_game_settings_shows_a_created_games_own_kind_and_zone(tmp_path: Path) -> None:
    """A game created without a [games.NAME] section is an En Garde! game in the [time]
    zone of its creation: `game settings` said kind '' and time_zone ''."""
    from click.testing import CliRunner

    from moderator.cli import cli

    path, config = _load(tmp_path, "")
    make_game(open_store(config.database_url), config)
    result = CliRunner().invoke(cli, ["--config", str(path), "game", "settings", "paris"],
                                catch_exceptions=False)
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in result.output.splitlines() if line.count("│") == 3}
    assert rows["kind"].startswith("'engarde'"), rows
    assert rows["time_zone"].startswith(repr(config.zone.key)), rows
    assert rows["deadline"].startswith("none (set by hand)"), rows
    unknown = CliRunner().invoke(cli, ["--config", str(path), "game", "settings", "pariss"])
    assert unknown.exit_code != 0  # no game pariss, no section: refused
