"""Issue 12: GM notes are public only when the GM says so.

Amending a secret value (a lady's loyalty) prints nothing of it in the gazette; the
``--reason`` stays in the audit log; ``--note`` prints exactly the note.  The same for
every GM action that writes to the gazette: ``player replace|eject|act-as``, ``orders
accept-late``, ``decide``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session

from moderator import jsonio
from moderator.intake.process import process_message
from moderator.settings.config import Config
from moderator.store import audit, repo
from moderator.store.db import session_scope
from moderator.turn.deadlines import set_deadlines
from moderator.turn.run import run_turn
from tests.publish.conftest import JACQUES, invoke

from support import gazette_of, make_game, order_mail

SECRET_REASON = "she is secretly the Cardinal's spy"


def _lady(db: Engine) -> tuple[str, int]:
    with Session(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "paris"))
        ladies = jsonio.loads(turn.state_before)["ladies"]
    key = sorted(ladies)[0]
    return key, int(ladies[key]["loyalty"])


def _points_arising(text: str) -> list[str]:
    """The lines under "Points arising" in a gazette's text part."""
    lines = text.split("Points arising", 1)[1].splitlines()[2:]
    out: list[str] = []
    for line in lines:
        if line.startswith("- "):
            out.append(line[2:])
        elif line.startswith("  ") and out:
            out[-1] += " " + line.strip()
        elif line.strip() and not line.startswith(" "):
            break
    return out


def _played_month(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    run_turn(db, config, "paris")


def test_amending_a_secret_prints_nothing_of_it(db: Engine, config: Config) -> None:
    _played_month(db, config)
    key, loyalty = _lady(db)
    new = 6 if loyalty != 6 else 1
    path = f"ladies.{key}.loyalty"
    invoke(config, "state", "amend", "paris", "--set", f"{path}={new}", "--reason",
           SECRET_REASON, "--yes")
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    run_turn(db, config, "paris")
    gazette = gazette_of(db, 2)
    for part in (gazette.markdown, gazette.html, gazette.text):
        assert SECRET_REASON not in part and "Cardinal" not in part
        assert "loyalty" not in part.lower() and key not in part and path not in part
    assert _points_arising(gazette.text) == ["The GM amended the state before May 1625."]
    with Session(db) as session:  # the GM's own record keeps everything
        entry = next(e for e in audit.entries(session, repo.game_by_name(session, "paris"))
                     if e.action == "state.amend")
    assert entry.reason == SECRET_REASON and f"-> {new}" in entry.detail


def test_note_prints_exactly_the_note(db: Engine, config: Config) -> None:
    _played_month(db, config)
    key, loyalty = _lady(db)
    note = "A lady of the court has had a change of heart | *nothing more* is known."
    invoke(config, "state", "amend", "paris", "--set",
           f"ladies.{key}.loyalty={6 if loyalty != 6 else 1}", "--reason", SECRET_REASON,
           "--note", note, "--yes")
    run_turn(db, config, "paris")
    gazette = gazette_of(db, 2)
    assert _points_arising(gazette.text) == [note]
    assert SECRET_REASON not in gazette.html
    # Markup in the note is the GM's text too: shown as written, never markup.
    assert "<em>" not in gazette.html and "nothing more" in gazette.html


def test_a_decision_is_noted_without_its_key_or_reason(db: Engine, config: Config) -> None:
    """The gazette printed "The GM decided cause:jacques-de-lyon:cyrano-de-bergerac = yes":
    a decision key is the GM's; players read that a ruling was made, and the sheets it
    touches say it in words."""
    make_game(db, config)
    invoke(config, "decide", "paris", "cause:jacques-de-lyon:cyrano-de-bergerac", "yes",
           "--reason", SECRET_REASON)
    run_turn(db, config, "paris")
    gazette = gazette_of(db, 1)
    assert _points_arising(gazette.text)[0] == (
        "The GM made a ruling for April 1625; the turn sheets it touches tell it.")
    assert "cause:" not in gazette.markdown + gazette.html + gazette.text
    assert SECRET_REASON not in gazette.html


def _gm_lines(db: Engine, number: int) -> list[str]:
    gazette = gazette_of(db, number)
    assert SECRET_REASON not in gazette.markdown + gazette.html + gazette.text
    return _points_arising(gazette.text)


def test_replace_and_eject_keep_the_reason_in_the_audit_log(db: Engine,
                                                            config: Config) -> None:
    make_game(db, config)
    invoke(config, "player", "replace", "paris", "cyrano@bergerac.example", "anne@example.org",
           "--name", "Anne", "--reason", SECRET_REASON, "--no-send")
    invoke(config, "player", "eject", "paris", "jacques@lyon.example", "--reason",
           SECRET_REASON)
    run_turn(db, config, "paris")
    assert _gm_lines(db, 1) == ["Cyrano de Bergerac is now played by Anne.",
                                "Jacques de Lyon has left the game."]
    with Session(db) as session:
        reasons = {e.action: e.reason for e in
                   audit.entries(session, repo.game_by_name(session, "paris"))}
    assert reasons["player.replace"] == reasons["player.eject"] == SECRET_REASON


def test_replace_and_eject_print_exactly_the_note(db: Engine, config: Config) -> None:
    make_game(db, config)
    handed = "Cyrano's player has *handed* him | over to Anne."
    left = "Jacques de Lyon has retired to his estates."
    invoke(config, "player", "replace", "paris", "cyrano@bergerac.example", "anne@example.org",
           "--reason", SECRET_REASON, "--note", handed, "--no-send")
    invoke(config, "player", "eject", "paris", "jacques@lyon.example", "--reason",
           SECRET_REASON, "--note", left)
    run_turn(db, config, "paris")
    assert _gm_lines(db, 1) == [handed, left]
    assert "<em>" not in gazette_of(db, 1).html  # the note is shown as written


def test_the_other_gm_actions_print_the_note_or_what_was_done(db: Engine, config: Config,
                                                             tmp_path: Path) -> None:
    make_game(db, config)
    orders = tmp_path / "orders.txt"
    orders.write_text("WEEK 1: PRACTICE sabre\n")
    invoke(config, "player", "act-as", "paris", "porthos@musket.example", str(orders),
           "--reason", SECRET_REASON, "--no-send")
    invoke(config, "decide", "paris", "cause:jacques-de-lyon:cyrano-de-bergerac", "yes",
           "--reason", SECRET_REASON, "--note", "The Cardinal's court finds the cause just.")
    run_turn(db, config, "paris")
    assert _gm_lines(db, 1) == [
        "The GM entered Porthos du Vallon's orders for April 1625.",
        "The Cardinal's court finds the cause just."]
    deadline = datetime(2026, 12, 10, 18, tzinfo=UTC)
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"), deadline)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES),
                    now=deadline + timedelta(hours=2))
    invoke(config, "orders", "accept-late", "paris", "jacques@lyon.example", "--reason",
           SECRET_REASON)
    invoke(config, "player", "act-as", "paris", "porthos@musket.example", str(orders),
           "--reason", SECRET_REASON, "--note", "Porthos sent word by his lackey.",
           "--no-send")
    run_turn(db, config, "paris")
    assert _gm_lines(db, 2) == [
        "Jacques de Lyon's orders for May 1625 arrived late and were accepted by the GM.",
        "Porthos sent word by his lackey."]
