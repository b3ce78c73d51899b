"""The GM's desk: no dead switches, amendments and decisions checked before they are
stored, deadlines that cannot be set by mistake, errors that say what to write."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator import jsonio
from moderator.cli import cli
from moderator.intake.process import process_message
from moderator.settings.config import Config, ConfigError, load_config
from moderator.store import audit, repo
from moderator.store.db import session_scope
from moderator.store.models import Outbox
from moderator.turn.deadlines import set_deadlines
from moderator.turn.run import run_turn

from support import make_game, order_mail, write_config

JACQUES = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"


def invoke(config: Config, *args: str, ok: bool = True, stdin: str | None = None) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config.path), *args], input=stdin)
    if ok:
        assert result.exit_code == 0, (result.output, result.exception)
    else:
        assert result.exit_code != 0, result.output
    return result.output + (str(result.exception) if result.exception else "")


def _state(db: Engine) -> str:
    with Session(db) as session:
        return repo.open_turn(session, repo.game_by_name(session, "paris")).state_before


def _deadline(db: Engine, when: datetime) -> None:
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"), when)


# -- dead switches ------------------------------------------------------------------


def test_nmr_orders_is_gone_and_a_config_naming_it_is_told_why(tmp_path: Path) -> None:
    """`nmr_orders` was validated and stored but never acted on: it is removed, and a
    config that still has it is told what happens instead."""
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "[games.paris]\nnmr_orders = \"none\"\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    [problem] = caught.value.problems
    assert "games.paris.nmr_orders was removed" in problem
    assert "NMR orders" in problem


def test_an_unknown_setting_suggests_the_nearest(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "[games.paris]\npresss = true\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert any("did you mean 'press'?" in p for p in caught.value.problems)


def test_saturday_is_read_as_sat_in_the_config(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "[games.paris.deadline]\nweekday = \"saturday\"\n"
                    "week = \"second\"\ntime = \"18:00\"\n")
    assert load_config(path).game("paris").deadline["weekday"] == "sat"


# -- amendments and decisions ---------------------------------------------------------


def test_an_amendment_of_the_wrong_type_is_refused_and_changes_nothing(
    db: Engine, config: Config,
) -> None:
    """`--set ...crowns=five` used to be stored, and the next turn crashed with a
    TypeError; it is refused with the path and the type, and the turn still runs."""
    make_game(db, config)
    before = _state(db)
    out = invoke(config, "state", "amend", "paris", "--set",
                 "characters.jacques-de-lyon.crowns=five", "--yes", "--reason", "x", ok=False)
    assert "characters.jacques-de-lyon.crowns: must be int, got 'five'" in out
    assert _state(db) == before
    with Session(db) as session:
        assert not audit.entries(session, repo.game_by_name(session, "paris"))
    assert run_turn(db, config, "paris").number == 1


@pytest.mark.parametrize(("key", "said"), [
    ("cause:jacques-de-lyon:cyrano-de-bergerak", "no character 'cyrano-de-bergerak'; "
     "did you mean 'cyrano-de-bergerac'?"),
    ("plotting:7", "no case '7' (open cases: none)"),
    ("verdict:3:porthos-du-vallon", "no case '3'"),
    ("caus:jacques-de-lyon:cyrano-de-bergerac", "no decision 'caus'; did you mean 'cause'?"),
    ("cause:jacques-de-lyon", "write cause:<character>:<character>"),
    ("admit:musketeers:jacques-de-lyon", "no regiment 'musketeers'"),
])
def test_decide_refuses_keys_naming_nothing(db: Engine, config: Config, key: str,
                                            said: str) -> None:
    make_game(db, config)
    before = _state(db)
    out = invoke(config, "decide", "paris", key, "yes", "--reason", "x", ok=False)
    assert said in out
    assert _state(db) == before


def test_decide_takes_a_key_naming_real_characters(db: Engine, config: Config) -> None:
    make_game(db, config)
    invoke(config, "decide", "paris", "cause:jacques-de-lyon:cyrano-de-bergerac", "yes",
           "--reason", "x")
    assert jsonio.loads(_state(db))["decisions"] == {
        "cause:jacques-de-lyon:cyrano-de-bergerac": "yes"}


# -- deadlines ----------------------------------------------------------------------


def test_a_deadline_in_the_past_needs_force(db: Engine, config: Config) -> None:
    make_game(db, config)
    out = invoke(config, "deadline", "set", "paris", "2020-01-10 18:00", ok=False)
    assert "is in the past" in out and "--force" in out
    with Session(db) as session:
        assert repo.open_turn(session, repo.game_by_name(session, "paris")).deadline is None
    invoke(config, "deadline", "set", "paris", "2020-01-10 18:00", "--force", "--no-send",
           "--reason", "run it at once")
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert repo.open_turn(session, game).deadline is not None
        [entry] = audit.entries(session, game)
    assert (entry.action, entry.reason) == ("deadline.set", "run it at once")


def test_game_new_without_a_deadline_or_rule_says_so(config: Config) -> None:
    out = invoke(config, "game", "new", "lyon", "--kind", "engarde", "--seed", "1")
    assert "No deadline and no deadline rule" in out
    assert "moderator deadline set lyon" in out
    out = invoke(config, "game", "new", "nice", "--kind", "engarde", "--deadline",
                 "2031-01-12 18:00")
    assert "Orders due" in out and "No deadline" not in out


def test_game_new_refuses_a_deadline_in_the_past(
    db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Protects the first turn from a year typed wrong at the turn of the year: on
    28 December, `--deadline "2026-01-10 18:00"` (meant: 2027) was taken, and the service
    ran the first turn at once, with no orders.  `deadline set` already refused a past
    time without --force; `game new` now refuses it."""
    import moderator.cli.games

    monkeypatch.setattr(moderator.cli.games, "now_utc",
                        lambda: datetime(2026, 12, 28, 12, 0, tzinfo=UTC), raising=False)
    out = invoke(config, "game", "new", "nice", "--kind", "engarde", "--deadline",
                 "2026-01-10 18:00", ok=False)
    assert "in the past" in out
    with Session(db) as session:
        assert repo.find_game(session, "nice") is None
    out = invoke(config, "game", "new", "nice", "--kind", "engarde", "--deadline",
                 "2027-01-10 18:00")
    assert "Orders due Sunday 10 January 2027, 18:00" in out


def test_turn_run_before_the_deadline_asks_and_is_audited(db: Engine, config: Config) -> None:
    make_game(db, config)
    _deadline(db, datetime.now(UTC) + timedelta(days=3))
    out = invoke(config, "turn", "run", "paris", "--no-send", stdin="n\n", ok=False)
    assert "before its deadline?" in out
    with Session(db) as session:
        assert repo.open_turn(session, repo.game_by_name(session, "paris")).number == 1
    out = invoke(config, "--as", "gm-bob", "turn", "run", "paris", "--yes", "--no-send",
                 "--reason", "all orders in")
    assert "Ran turn 1" in out
    with Session(db) as session:
        [entry] = audit.entries(session, repo.game_by_name(session, "paris"))
    assert (entry.action, entry.who, entry.reason) == ("turn.run", "gm-bob", "all orders in")
    assert "before its deadline" in entry.detail


def test_turn_run_after_the_deadline_does_not_ask(db: Engine, config: Config) -> None:
    make_game(db, config)
    _deadline(db, datetime.now(UTC) - timedelta(minutes=1))
    assert "Ran turn 1" in invoke(config, "turn", "run", "paris", "--no-send")
    with Session(db) as session:
        assert not audit.entries(session, repo.game_by_name(session, "paris"))


def _mails(db: Engine, kind: str) -> list[Outbox]:
    with Session(db) as session:
        return list(session.exec(select(Outbox).where(Outbox.kind == kind)))


def test_an_extended_or_moved_deadline_is_announced_to_the_players(
    db: Engine, config: Config,
) -> None:
    make_game(db, config)
    _deadline(db, datetime(2030, 7, 12, 16, 0, tzinfo=UTC))
    invoke(config, "deadline", "extend", "paris", "--hours", "48", "--reason", "Easter",
           "--no-send")
    mails = _mails(db, "deadline-moved")
    assert sorted(m.to_addr for m in mails) == ["cyrano@bergerac.example",
                                                "jacques@lyon.example",
                                                "porthos@musket.example"]
    assert all("new deadline" in m.subject for m in mails)
    invoke(config, "deadline", "set", "paris", "2030-08-01 18:00", "--reason", "summer",
           "--no-send")
    assert len(_mails(db, "deadline-moved")) == 6


def test_preview_works_while_the_game_is_rolled_back(db: Engine, config: Config) -> None:
    make_game(db, config)
    for _ in range(2):
        process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
        run_turn(db, config, "paris")
    invoke(config, "turn", "rollback", "paris", "2", "--reason", "check a correction")
    invoke(config, "state", "amend", "paris", "--set",
           "characters.jacques-de-lyon.crowns=999", "--yes", "--reason", "bank error")
    out = invoke(config, "turn", "preview", "paris")
    assert "PREVIEW of turn 2" in out and "rolled back" in out
    assert "Le Sport de Paris" in out


# -- errors that say what to write -------------------------------------------------------


@pytest.mark.parametrize(("when", "said"), [
    ("2026-13-12 18:00", "2026-13-12 18:00: no month 13; write YYYY-MM-DD HH:MM"),
    ("2026-11-31 18:00", "no day 31 in November 2026"),
    ("2026-12-12 25:00", "no hour 25"),
    ("12/12/2026", "12/12/2026: write YYYY-MM-DD HH:MM"),
])
def test_a_bad_date_names_the_value_and_the_form(db: Engine, config: Config, when: str,
                                                 said: str) -> None:
    make_game(db, config)
    out = invoke(config, "deadline", "set", "paris", when, ok=False)
    assert said in out


def test_a_mistyped_game_name_suggests_the_nearest(db: Engine, config: Config) -> None:
    make_game(db, config)
    out = invoke(config, "game", "show", "pariss", ok=False)
    assert "no game 'pariss': did you mean paris?" in out


def test_weekday_saturday_is_accepted_as_sat(db: Engine, config: Config) -> None:
    make_game(db, config)
    out = invoke(config, "deadline", "rule", "paris", "--week", "2nd", "--weekday", "saturday")
    assert "2nd sat" in out
    out = invoke(config, "deadline", "rule", "paris", "--week", "2nd", "--weekday", "satdy",
                 ok=False)
    assert "'satdy': write one of mon, tue" in out


def test_an_empty_character_name_is_refused(db: Engine, config: Config) -> None:
    make_game(db, config)
    out = invoke(config, "player", "add", "paris", "anne@paris.example", "--name", "  ",
                 ok=False)
    assert "name is empty" in out
    with Session(db) as session:
        assert len(repo.players(session, repo.game_by_name(session, "paris"))) == 3


def test_turn_run_on_a_finished_game_is_refused(db: Engine, config: Config) -> None:
    """DWTK 37: once a player has won, `turn run` refuses instead of recording an empty
    turn."""
    from moderator.desk import admin

    with session_scope(db) as session:
        admin.create_game(session, config, "fandonia", "dwtk", seed=3)
        admin.add_player(session, config, "fandonia", "ann@court.example", "Ann")
        turn = repo.open_turn(session, repo.game_by_name(session, "fandonia"))
        state = jsonio.loads(turn.state_before)
        state.update(phase="over", winner=next(iter(state["players"])))
        turn.state_before = jsonio.dumps(state)
        session.add(turn)
    out = invoke(config, "turn", "run", "fandonia", "--yes", "--no-send", ok=False)
    assert "fandonia is over: Ann has won the game (DWTK 37)" in out
    with Session(db) as session:
        game = repo.game_by_name(session, "fandonia")
        assert repo.open_turn(session, game).number == 1


def test_the_dwtk_welcome_says_nothing_is_dealt_yet(db: Engine, config: Config) -> None:
    """DWTK 3: the welcome does not say the character "has been created" before the
    deal, and says orders before it only help as standing reactions (14.1)."""
    from moderator.desk import admin

    with session_scope(db) as session:
        admin.create_game(session, config, "fandonia", "dwtk", seed=3)
        admin.add_player(session, config, "fandonia", "ann@court.example", "Ann")
    [mail] = [m for m in _mails(db, "welcome") if m.to_addr == "ann@court.example"]
    message = email.message_from_bytes(mail.raw, policy=email.policy.default)
    text = message.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "has been created" not in text
    assert "dealt when the court assembles" in text and "standing reactions" in text
