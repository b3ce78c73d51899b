"""GM control through the `moderator` command line: every state-changing command reaches
the audit trail (`moderator log`), and a wrong value ends as one "error:" line (exit 2),
never a traceback.  Driven through `main`, as the console script is."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.games import find_engine, game_kinds
from moderator.games.base import GameEngine
from moderator.intake.process import process_message
from moderator.settings.config import load_config
from moderator.store.db import open_store
from moderator.transport.maildir import open_maildir

from support import order_mail, write_config

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def moderator(tmp_path: Path, capsys: pytest.CaptureFixture[str],
              monkeypatch: pytest.MonkeyPatch) -> Run:
    """``moderator(*args) -> (exit code, output)`` against a fresh store."""
    config = write_config(tmp_path)

    def run(*args: str) -> tuple[int, str]:
        monkeypatch.setattr(sys, "argv", ["moderator", "--config", str(config), *args])
        capsys.readouterr()
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        out = capsys.readouterr()
        return code, out.out + out.err

    return run


def _game(moderator: Run) -> None:
    for args in (("game", "new", "paris", "--kind", "engarde", "--seed", "7",
                  "--deadline", "2030-12-12 18:00"),
                 ("player", "add", "paris", "jacques@lyon.example", "--name",
                  "Jacques de Lyon", "--password", "rapier")):
        code, out = moderator(*args)
        assert code == 0, out


@pytest.mark.parametrize("hours", ["nan", "inf", "1e9", "9000"])
def test_deadline_extend_refuses_hours_that_are_no_date(moderator: Run, hours: str) -> None:
    """--hours nan/inf/1e9 ended in a traceback (timedelta or the date overflowing)."""
    _game(moderator)
    code, out = moderator("deadline", "extend", "paris", "--hours", hours, "--reason", "r")
    assert code == 2 and "Traceback" not in out, out
    assert "error: --hours" in out and "at most 8784" in out
    assert "deadline.extend" not in moderator("log", "paris")[1]
    assert "12 December 2030, 18:00" in moderator("deadline", "show", "paris")[1]


def test_deadline_rule_is_audited_and_a_moved_deadline_announced(
        moderator: Run, tmp_path: Path) -> None:
    """`deadline rule --apply-now` moved the open turn's deadline with no audit entry and
    without telling the players, unlike `deadline set`."""
    _game(moderator)
    code, out = moderator("--as", "anne", "deadline", "rule", "paris", "--every-days", "14",
                          "--apply-now")
    assert code == 0, out
    log = moderator("log", "paris")[1]
    assert "deadline.rule" in log and "anne" in log and "every 14 days" in log, log
    mails = [m for m in open_maildir(tmp_path / "mail" / "jacques@lyon.example")
             if "new deadline" in str(m["Subject"])]
    assert len(mails) == 1


def test_deadline_rule_takes_a_reason_and_a_note(moderator: Run, tmp_path: Path) -> None:
    _game(moderator)
    code, out = moderator("deadline", "rule", "paris", "--every-days", "14", "--apply-now",
                          "--reason", "fortnightly now", "--note", "faster")
    assert code == 0, out
    assert "fortnightly now" in moderator("log", "paris")[1]
    [mail] = [m for m in open_maildir(tmp_path / "mail" / "jacques@lyon.example")
              if "new deadline" in str(m["Subject"])]
    assert "faster" in mail.get_payload(decode=True).decode()


def test_game_new_player_add_and_address_are_audited(moderator: Run) -> None:
    _game(moderator)
    code, out = moderator("--as", "anne", "player", "address", "paris",
                          "jacques@lyon.example", "jacques@work.example")
    assert code == 0, out
    log = moderator("log", "paris")[1]
    for action in ("game.new", "player.add", "player.address"):
        assert action in log, log
    assert "jacques@work.example" in log and "anne" in log


def test_player_address_refuses_what_is_no_address(moderator: Run) -> None:
    _game(moderator)
    code, out = moderator("player", "address", "paris", "jacques@lyon.example",
                          "not an address")
    assert code == 2 and "error: 'not an address' is not an email address" in out, out
    assert "player.address" not in moderator("log", "paris")[1]


def test_site_build_refuses_an_unknown_game(moderator: Run) -> None:
    """`site build nosuch` said it built the site (0 files) for a game that does not exist."""
    _game(moderator)
    code, out = moderator("site", "build", "pariss")
    assert code == 2 and "no game 'pariss': did you mean paris?" in out, out


@pytest.mark.parametrize("args", [
    ("deadline", "set", "paris", "2030-12-20 18:00", "--announcements", "2030-12-18 18:00"),
    ("deadline", "rule", "paris", "--monthly-day", "12", "--announcements-days-before", "4",
     "--apply-now"),
])
def test_a_game_with_one_deadline_takes_no_announcement_deadline(
        tmp_path: Path, moderator: Run, args: tuple[str, ...]) -> None:
    """`deadlines = 1` (orders only) was honoured at `game new` and by the turn run, but
    `deadline set --announcements` and a rule's --announcements-days-before still gave the
    turn an announcement deadline, and the service mails an announcements gazette then."""
    config = tmp_path / "config.toml"
    config.write_text(config.read_text() + "[games.paris]\ndeadlines = 1\n")
    _game(moderator)
    code, out = moderator(*args)
    assert code == 2 and "paris has one deadline a turn (deadlines = 1" in out, out
    assert "announcements due" not in moderator("deadline", "show", "paris")[1]


@pytest.mark.parametrize("args", [("turn", "process", "paris", "--now", "--reason", " "),
                                  ("turn", "run", "paris", "--yes", "--reason", " ")])
def test_a_blank_reason_is_refused_before_the_turn_runs(moderator: Run,
                                                        args: tuple[str, ...]) -> None:
    """The turn ran (and was published) in its own transaction, then its audit entry was
    refused for the blank --reason: "error: give a --reason", no entry, the turn done."""
    _game(moderator)
    code, out = moderator(*args)
    assert code == 2 and "error: give a --reason" in out, out
    assert "Turn 1 (April 1625)" in moderator("deadline", "show", "paris")[1]


def _other_game(moderator: Run, kind: str) -> None:
    for args in (("game", "new", "court", "--kind", kind, "--seed", "7"),
                 ("player", "add", "court", "a@court.example", "--name", "Alice"),
                 ("player", "add", "court", "b@court.example", "--name", "Bob")):
        code, out = moderator(*args)
        assert code == 0, out


@pytest.mark.parametrize("kind", [k for k in game_kinds() if k != "engarde"])
def test_decide_on_a_game_that_takes_no_decisions_is_refused(moderator: Run,
                                                             kind: str) -> None:
    """DWTK stored the decision (and the gazette printed "The GM decided ...") though its
    engine never reads one; on Fief it was a traceback (no validate_state)."""
    _other_game(moderator, kind)
    code, out = moderator("decide", "court", "cause:alice:bob", "yes", "--reason", "r")
    assert code == 2 and "takes no GM decisions" in out, out
    assert "decide" not in moderator("log", "court")[1]


def test_a_fief_state_can_be_amended(moderator: Run) -> None:
    """`state amend` on a Fief game was a traceback (its engine had no validate_state)."""
    _other_game(moderator, "fief")
    code, out = moderator("state", "amend", "court", "--set", "round=3", "--reason", "r",
                          "--yes")
    assert code == 0 and "Amended" in out, out
    assert "state.amend" in moderator("log", "court")[1]


@pytest.mark.parametrize("kind", game_kinds())
def test_every_engine_has_every_member_of_the_contract(kind: str) -> None:
    """find_engine's engines are typed `GameEngine[Any]` from an import: mypy cannot see
    a missing member, as Fief's validate_state was."""
    engine = find_engine(kind)
    members = {name for name in dir(GameEngine) if not name.startswith("_")}
    members |= set(GameEngine.__annotations__)
    assert [m for m in sorted(members) if not hasattr(engine, m)] == []


def test_a_player_the_rules_refuse_is_an_error_line(moderator: Run) -> None:
    """DWTK 3: once the court has assembled no noble joins; `player add` was a traceback
    (the engine's ValueError), a JOIN GAME by mail a failed message."""
    _other_game(moderator, "dwtk")
    assert moderator("turn", "run", "court", "--yes")[0] == 0
    code, out = moderator("player", "add", "court", "z@court.example", "--name", "Zed")
    assert code == 2 and "error: the court has assembled" in out, out


def test_a_join_by_mail_the_rules_refuse_is_answered(moderator: Run, tmp_path: Path) -> None:
    """The same refusal by mail (JOIN GAME) ended the message as failed (quarantined, the
    GM told of a crash) instead of a reply saying why."""
    _other_game(moderator, "dwtk")
    assert moderator("turn", "run", "court", "--yes")[0] == 0
    config = load_config(tmp_path / "config.toml")
    result = process_message(open_store(config.database_url), config, order_mail(
        "z@court.example", "JOIN GAME AS Zed\n", subject="[court] join"))
    assert result.status == "refused", result


def test_game_settings_of_no_game_is_an_error(moderator: Run, tmp_path: Path) -> None:
    """`game settings pariss` printed the defaults as if they were that game's settings."""
    _game(moderator)
    code, out = moderator("game", "settings", "pariss")
    assert code == 2 and "no game 'pariss': did you mean paris?" in out, out
    assert moderator("game", "settings", "paris")[0] == 0
    config = tmp_path / "config.toml"  # a game configured but not created yet
    config.write_text(config.read_text() + "[games.rome]\nearly_run = true\n")
    code, out = moderator("game", "settings", "rome")
    assert code == 0 and "True" in out, out


def test_turn_preview_of_no_player_is_an_error(moderator: Run) -> None:
    """`turn preview --player nosuch` printed the gazette and no sheet, as if he had none."""
    _game(moderator)
    code, out = moderator("turn", "preview", "paris", "--player", "nobody@x.example")
    assert code == 2 and "no player 'nobody@x.example' in game 'paris'" in out, out
    code, out = moderator("turn", "preview", "paris", "--player", "JACQUES@lyon.example")
    assert code == 0 and "Turn sheet for Jacques de Lyon" in out, out


def test_game_new_reads_its_deadline_in_the_games_zone(moderator: Run, tmp_path: Path) -> None:
    """`--deadline` was read in [time] zone (Paris) while the game's deadlines are in its
    own time_zone: 18:00 typed became 12:00 in Montreal."""
    config = tmp_path / "config.toml"
    config.write_text(config.read_text() + "[games.quebec]\ntime_zone = \"America/Montreal\"\n")
    code, out = moderator("game", "new", "quebec", "--kind", "engarde",
                          "--deadline", "2030-12-12 18:00")
    assert code == 0 and "Orders due Thursday 12 December 2030, 18:00 EST" in out, out


def test_log_service_shows_each_messages_fate(moderator: Run, tmp_path: Path) -> None:
    """docs/fates-and-robots.md: every fate has a line in the GM log, which `moderator log`
    shows; `log` showed only the audit trail, and `status` only warnings and errors, so an
    accepted message or a refusal-suppressed line was seen by no command."""
    _game(moderator)
    config = load_config(tmp_path / "config.toml")
    db = open_store(config.database_url)
    process_message(db, config, order_mail("jacques@lyon.example",
                                           "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"))
    process_message(db, config, order_mail("jacques@lyon.example", "PASSWORD: wrong\n"))
    code, out = moderator("log", "paris", "--service")
    assert code == 0, out
    assert "service  intake.accepted" in out and "intake.bad-password (warning)" in out, out
    assert "player.add" in out  # the audit trail still, in time order with the service
    assert out.index("player.add") < out.index("intake.accepted")
    assert "intake.accepted" not in moderator("log", "paris")[1]
